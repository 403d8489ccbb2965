/**
 * Editor.js blocks ↔ HTML. The server stores sanitised HTML only (REST clients and the public pages read
 * HTML), so the editor loads HTML into blocks and saves blocks back as HTML. Inline markup inside a block
 * (bold, italic, links) is Editor.js's own HTML and passes through unchanged.
 */
export interface ListItem {
  content: string;
  meta?: Record<string, unknown>;
  items: ListItem[];
}

export type Block =
  | { id?: string; type: "paragraph"; data: { text: string } }
  | { id?: string; type: "header"; data: { text: string; level: number } }
  | { id?: string; type: "list"; data: { style: "ordered" | "unordered"; meta?: Record<string, unknown>; items: ListItem[] } }
  | { id?: string; type: "image"; data: { url: string; caption?: string } };

const HEADING = /^H([1-6])$/;

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function listItemsToHtml(items: ListItem[] | string[], tag: "ul" | "ol"): string {
  const inner = items
    .map((item) => {
      if (typeof item === "string") return `<li>${item}</li>`;
      const nested = item.items?.length ? listItemsToHtml(item.items, tag) : "";
      return `<li>${item.content}${nested}</li>`;
    })
    .join("");
  return `<${tag}>${inner}</${tag}>`;
}

export function blocksToHtml(blocks: readonly Block[]): string {
  return blocks
    .map((block) => {
      switch (block.type) {
        case "paragraph":
          return block.data.text.trim() ? `<p>${block.data.text}</p>` : "";
        case "header": {
          // The sanitiser keeps h1–h4.
          const level = Math.min(4, Math.max(1, Math.round(block.data.level || 2)));
          return `<h${level}>${block.data.text}</h${level}>`;
        }
        case "list":
          return block.data.items.length ? listItemsToHtml(block.data.items, block.data.style === "ordered" ? "ol" : "ul") : "";
        case "image": {
          if (!block.data.url) return "";
          const alt = block.data.caption ? ` alt="${escapeAttribute(block.data.caption)}"` : ' alt=""';
          return `<p><img src="${escapeAttribute(block.data.url)}"${alt}></p>`;
        }
        default:
          return "";
      }
    })
    .filter(Boolean)
    .join("");
}

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
      out.push({ type: "list", data: { style: tag === "OL" ? "ordered" : "unordered", meta: {}, items: listFromElement(element) } });
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
