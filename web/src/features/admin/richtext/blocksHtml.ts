/**
 * Editor.js blocks ↔ HTML in the browser. The editors save Editor.js documents; the server renders the HTML
 * that the public pages, the portal and REST clients read. Here: the same block renderer as the server's
 * (shared, for the live previews) and the import of HTML into blocks, for content saved as HTML only (older
 * content, REST writes). Inline markup inside a block (bold, italic, links) is Editor.js's own HTML.
 */
import type { RichTextBlock, RichTextCounterType, RichTextDoc, RichTextListItem } from "@shared/richtext-blocks.ts";

export { blocksToHtml, INLINE_IMAGE_MAX_BYTES, INLINE_IMAGE_TYPES, LIST_MAX_DEPTH } from "@shared/richtext-blocks.ts";
export type { RichTextDoc } from "@shared/richtext-blocks.ts";
export type Block = RichTextBlock;
type ListItem = RichTextListItem;

/** A rich-text field as the editors hold it: the document (null until the editor has made one) and its HTML. */
export interface RichTextValue {
  doc: RichTextDoc | null;
  html: string;
}

/** The blocks an editor opens with: the stored document's, else the stored HTML imported. */
export function initialBlocks(value: RichTextValue): Block[] {
  return value.doc?.blocks ?? htmlToBlocks(value.html);
}

const HEADING = /^H([1-6])$/;

function listFromElement(list: Element): ListItem[] {
  return Array.from(list.children)
    .filter((child) => child.tagName === "LI")
    .map((li) => {
      const nested = Array.from(li.children).filter((c) => c.tagName === "UL" || c.tagName === "OL");
      const clone = li.cloneNode(true) as Element;
      clone.querySelectorAll(":scope > ul, :scope > ol").forEach((n) => n.remove());
      return { content: clone.innerHTML.trim(), meta: {}, items: nested.flatMap((n) => listFromElement(n)) };
    });
}

const COUNTER_TYPES: Record<string, RichTextCounterType> = {
  decimal: "numeric",
  "upper-roman": "upper-roman",
  "lower-roman": "lower-roman",
  "upper-alpha": "upper-alpha",
  "lower-alpha": "lower-alpha",
};
const CHECK_MARK = /^([☑☐])\s?/;

function asChecklist(items: ListItem[]): ListItem[] {
  return items.map((item) => {
    const mark = CHECK_MARK.exec(item.content);
    return { content: item.content.replace(CHECK_MARK, ""), meta: { checked: mark?.[1] === "☑" }, items: asChecklist(item.items) };
  });
}

/** A list as the list tool's block: the server renders checklists as unbulleted ☑/☐ items, so they come back as one. */
function listBlock(list: Element): Block {
  const items = listFromElement(list);
  if (list.tagName === "OL") {
    const start = Number(list.getAttribute("start"));
    const counterType = COUNTER_TYPES[(list as HTMLElement).style?.listStyleType ?? ""];
    const meta = { ...(list.hasAttribute("start") && Number.isInteger(start) && { start }), ...(counterType && { counterType }) };
    return { type: "list", data: { style: "ordered", meta, items } };
  }
  if (items.length && items.every((item) => CHECK_MARK.test(item.content))) return { type: "list", data: { style: "checklist", meta: {}, items: asChecklist(items) } };
  return { type: "list", data: { style: "unordered", meta: {}, items } };
}

function onlyImage(element: Element): HTMLImageElement | null {
  const images = element.querySelectorAll("img");
  if (images.length !== 1) return null;
  const text = element.textContent?.trim() ?? "";
  return text ? null : images[0];
}

function collect(nodes: NodeListOf<ChildNode> | ChildNode[], out: Block[]): void {
  let inline = "";
  const flushInline = () => {
    if (inline.trim()) out.push({ type: "paragraph", data: { text: inline.trim() } });
    inline = "";
  };
  for (const node of Array.from(nodes)) {
    if (node.nodeType === 3) {
      inline += (node.textContent ?? "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
      continue;
    }
    if (node.nodeType !== 1) continue;
    const element = node as Element;
    const tag = element.tagName;
    const heading = HEADING.exec(tag);
    if (heading) {
      flushInline();
      out.push({ type: "header", data: { text: element.innerHTML.trim(), level: Number(heading[1]) } });
    } else if (tag === "UL" || tag === "OL") {
      flushInline();
      out.push(listBlock(element));
    } else if (tag === "IMG") {
      flushInline();
      const src = element.getAttribute("src");
      if (src) out.push({ type: "image", data: { url: src, caption: element.getAttribute("alt") ?? "" } });
    } else if (tag === "P") {
      flushInline();
      const image = onlyImage(element);
      if (image?.getAttribute("src")) out.push({ type: "image", data: { url: image.getAttribute("src")!, caption: image.getAttribute("alt") ?? "" } });
      else if (element.innerHTML.trim()) out.push({ type: "paragraph", data: { text: element.innerHTML.trim() } });
    } else if (tag === "DIV" || tag === "BLOCKQUOTE" || tag === "SECTION" || tag === "FIGURE") {
      flushInline();
      collect(element.childNodes, out);
    } else if (tag === "BR") {
      flushInline();
    } else {
      // Inline markup (strong, em, a, span…) joins the current paragraph.
      inline += element.outerHTML;
    }
  }
  flushInline();
}

/** HTML (stored or older content) into Editor.js blocks. */
export function htmlToBlocks(html: string): Block[] {
  if (!html.trim()) return [];
  const template = document.createElement("template");
  template.innerHTML = html;
  const blocks: Block[] = [];
  collect(template.content.childNodes, blocks);
  return blocks;
}
