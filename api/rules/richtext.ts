/**
 * Rich text of the page and Next Box editors is shown as sanitised HTML: rendered from the editor's document
 * (richtext-doc.ts) or, from older clients and REST, the HTML they sent; the server never trusts either.
 * Spec §5: links only for http, https, mailto, tel; image sources only http, https and data URLs of image
 * types png, gif, jpeg, bmp, x-icon; everything else removed. §9: font sizes small/large/huge, indent 1–8.
 */
import sanitizeHtml from "sanitize-html";

const BLOCK_STYLES = {
  "text-align": [/^(left|right|center|justify)$/],
  "padding-left": [/^\d{1,3}(\.\d{1,2})?(px|em|rem)$/],
};
const INLINE_STYLES = {
  "font-size": [/^\d{1,3}(\.\d{1,2})?(px|em|rem|%)$/, /^(x-small|small|medium|large|x-large|xx-large)$/],
};

/** Editor classes (Quill naming): sizes, alignment and the 8 indent levels. */
const EDITOR_CLASSES = [
  "ql-size-small",
  "ql-size-large",
  "ql-size-huge",
  "ql-align-center",
  "ql-align-right",
  "ql-align-justify",
  ...Array.from({ length: 8 }, (_, i) => `ql-indent-${i + 1}`),
];

const BLOCK_TAGS = ["p", "h1", "h2", "h3", "h4", "li", "blockquote"];
/** Editor.js list counters (ordered lists) and checklists (no bullet). */
const LIST_STYLES = { "list-style-type": [/^(none|disc|decimal|upper-roman|lower-roman|upper-alpha|lower-alpha)$/] };

const IMAGE_DATA_URL = /^data:image\/(png|gif|jpeg|bmp|x-icon);base64,[A-Za-z0-9+/=\s]+$/i;

/** Image sources the rich text may embed: http(s) addresses and base64 data URLs of raster image types. */
export function isAllowedImageSrc(src: string): boolean {
  const s = src.trim();
  if (IMAGE_DATA_URL.test(s)) return true;
  try {
    const u = new URL(s);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ["p", "br", "strong", "b", "em", "i", "u", "s", "h1", "h2", "h3", "h4", "ul", "ol", "li", "a", "img", "blockquote", "span"],
  allowedAttributes: {
    a: ["href", "target", "rel"],
    img: ["src", "alt", "width", "height"],
    span: ["class", "style"],
    ol: ["start", "style"],
    ul: ["style"],
    ...Object.fromEntries(BLOCK_TAGS.map((t) => [t, ["class", "style"]])),
  },
  allowedClasses: { "*": EDITOR_CLASSES },
  allowedStyles: {
    span: { ...INLINE_STYLES },
    ol: LIST_STYLES,
    ul: LIST_STYLES,
    ...Object.fromEntries(BLOCK_TAGS.map((t) => [t, { ...BLOCK_STYLES, ...INLINE_STYLES }])),
  },
  allowedSchemes: ["http", "https", "mailto", "tel"],
  allowedSchemesByTag: { img: ["http", "https", "data"] },
  allowedSchemesAppliedToAttributes: ["href", "src"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  // Script and style bodies must not survive as text.
  nonTextTags: ["script", "style", "textarea", "option", "noscript", "title", "iframe", "object", "embed", "svg", "math"],
  transformTags: {
    // A list's first number only as a whole number.
    ol: (tagName, attribs) => {
      const { start, ...rest } = attribs;
      return { tagName, attribs: start !== undefined && /^-?\d{1,9}$/.test(start.trim()) ? { ...attribs, start: start.trim() } : rest };
    },
    a: (tagName, attribs) => {
      const { href, target } = attribs;
      const out: Record<string, string> = {};
      if (href) out.href = href;
      if (target === "_blank") Object.assign(out, { target: "_blank", rel: "noopener noreferrer" });
      return { tagName, attribs: out };
    },
    img: (tagName, attribs) => {
      // Only raster data URLs (an SVG or HTML data URL can carry script); a refused source drops the image.
      const { src, ...rest } = attribs;
      return { tagName, attribs: src && isAllowedImageSrc(src) ? { ...rest, src: src.trim() } : rest };
    },
  },
  exclusiveFilter: (frame) => frame.tag === "img" && !frame.attribs.src,
};

/** Sanitised HTML for storage and display. */
export function sanitizeRichText(html: string | null | undefined): string {
  if (!html) return "";
  return sanitizeHtml(html, OPTIONS).trim();
}

/** The same rules for the text inside one Editor.js block: inline markup only (no paragraphs, headings, lists). */
const INLINE_OPTIONS: sanitizeHtml.IOptions = {
  ...OPTIONS,
  allowedTags: ["br", "strong", "b", "em", "i", "u", "s", "a", "img", "span"],
};

/** Sanitised inline HTML of a block's text (kept in stored documents, so they are as safe as the HTML). */
export function sanitizeInlineRichText(html: string): string {
  if (!html) return "";
  return sanitizeHtml(html, INLINE_OPTIONS);
}

/** Plain text of rich text (business cards show a text description), whitespace collapsed. */
export function richTextToPlain(html: string | null | undefined): string {
  if (!html) return "";
  // A space at every block edge, nested lists' included ("Pick<ol><li>Kale" reads "Pick Kale").
  const text = sanitizeHtml(html.replace(/<\/?(p|h[1-6]|li|ul|ol|blockquote)\b[^>]*>|<br\s*\/?>/gi, " $& "), {
    allowedTags: [],
    allowedAttributes: {},
    nonTextTags: ["script", "style", "textarea", "option", "noscript", "title"],
  });
  return decodeEntities(text).replace(/\s+/g, " ").trim();
}

function decodeEntities(s: string): string {
  return s
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&amp;/g, "&");
}
