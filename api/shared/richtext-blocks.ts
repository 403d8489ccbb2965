/**
 * The Editor.js documents the rich-text editors make (description, FAQ answers, Next Box) and how their blocks
 * read as HTML. Pure and dependency-free on purpose: the server renders stored documents with it (then
 * sanitises, see richtext-doc.ts) and the web editor's live previews import the same function, so a preview
 * shows what the server will store.
 */

/** An item of an @editorjs/list v2 list; `items` nests a sublist of the same style. */
export interface RichTextListItem {
  /** Inline HTML. */
  content: string;
  /** Checklist items carry `checked`; other styles an empty object. */
  meta?: { checked?: boolean };
  items: RichTextListItem[];
}

type RichTextListStyle = "ordered" | "unordered" | "checklist";
export type RichTextCounterType = "numeric" | "upper-roman" | "lower-roman" | "upper-alpha" | "lower-alpha";

export type RichTextBlock =
  | { id?: string; type: "paragraph"; data: { text: string } }
  | { id?: string; type: "header"; data: { text: string; level: number } }
  | { id?: string; type: "list"; data: { style: RichTextListStyle; meta?: { start?: number; counterType?: RichTextCounterType }; items: RichTextListItem[] } }
  /** The inline image tool: a data URL (or an http(s) address from imported HTML) and its file name. */
  | { id?: string; type: "image"; data: { url: string; caption?: string } };

/** Editor.js OutputData as the app stores it. */
export interface RichTextDoc {
  time?: number;
  version?: string;
  blocks: RichTextBlock[];
}

/** Spec §5: images in rich text are embedded as data URLs of these types only. */
export const INLINE_IMAGE_TYPES = ["image/png", "image/gif", "image/jpeg", "image/bmp", "image/x-icon"] as const;
/**
 * Largest embedded image (decoded). A document is stored and sent whole, and a request body may be at most
 * 2 MB (server/app.ts), so an embedded image stays well under that; bigger photos belong in the gallery.
 */
export const INLINE_IMAGE_MAX_BYTES = 700 * 1024;
/** Headings the sanitiser keeps: h1–h4; the editor offers h2–h4. */
const HEADING_MAX_LEVEL = 4;
/** Nesting of lists, as the editor's list tool is configured (spec §9 indent levels 1 to 8). */
export const LIST_MAX_DEPTH = 8;

const COUNTER_STYLE: Record<RichTextCounterType, string> = {
  numeric: "decimal",
  "upper-roman": "upper-roman",
  "lower-roman": "lower-roman",
  "upper-alpha": "upper-alpha",
  "lower-alpha": "lower-alpha",
};

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function listItemsToHtml(items: readonly RichTextListItem[], style: RichTextListStyle, open: string): string {
  const tag = style === "ordered" ? "ol" : "ul";
  const inner = items
    .map((item) => {
      const mark = style === "checklist" ? (item.meta?.checked ? "☑ " : "☐ ") : "";
      const nested = item.items?.length ? listItemsToHtml(item.items, style, style === "checklist" ? '<ul style="list-style-type:none">' : `<${tag}>`) : "";
      return `<li>${mark}${item.content}${nested}</li>`;
    })
    .join("");
  return `${open}${inner}</${tag}>`;
}

function listOpenTag(data: Extract<RichTextBlock, { type: "list" }>["data"]): string {
  if (data.style === "checklist") return '<ul style="list-style-type:none">';
  if (data.style !== "ordered") return "<ul>";
  const start = data.meta?.start;
  const counter = data.meta?.counterType;
  const startAttribute = typeof start === "number" && Number.isInteger(start) && start !== 1 ? ` start="${start}"` : "";
  const styleAttribute = counter && counter !== "numeric" && COUNTER_STYLE[counter] ? ` style="list-style-type:${COUNTER_STYLE[counter]}"` : "";
  return `<ol${startAttribute}${styleAttribute}>`;
}

/**
 * Blocks as HTML. Inline markup inside a block's text (bold, italic, links) passes through as it is: the
 * server sanitises the result; a preview shows the editor's own output.
 */
export function blocksToHtml(blocks: readonly RichTextBlock[]): string {
  return blocks
    .map((block) => {
      switch (block.type) {
        case "paragraph":
          return block.data.text.trim() ? `<p>${block.data.text}</p>` : "";
        case "header": {
          if (!block.data.text.trim()) return "";
          const level = Math.min(HEADING_MAX_LEVEL, Math.max(1, Math.round(block.data.level || 2)));
          return `<h${level}>${block.data.text}</h${level}>`;
        }
        case "list":
          return block.data.items.length ? listItemsToHtml(block.data.items, block.data.style, listOpenTag(block.data)) : "";
        case "image": {
          if (!block.data.url) return "";
          return `<p><img src="${escapeAttribute(block.data.url)}" alt="${escapeAttribute(block.data.caption ?? "")}"></p>`;
        }
        default:
          return "";
      }
    })
    .filter(Boolean)
    .join("");
}
