import { describe, expect, it } from "vitest";
import { PageContentSchema, pageData } from "../../api/pages/content.ts";
import { blocksToHtml, type RichTextBlock } from "../../api/shared/richtext-blocks.ts";
import { renderRichTextDoc, richTextDocSchema, richTextOf, type RichTextDoc } from "../../api/pages/richtext-doc.ts";

const PNG = "data:image/png;base64,iVBORw0KGgo=";
const schema = richTextDocSchema("Description");

/** The stored document, or the messages of a refusal as `path: message`. */
function parse(input: unknown): RichTextDoc {
  const r = schema.safeParse(input);
  if (!r.success) throw new Error(r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("\n"));
  return r.data;
}
function issues(input: unknown): string[] {
  const r = schema.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
}
const render = (blocks: unknown[]) => renderRichTextDoc(parse({ blocks }));
const item = (content: string, items: unknown[] = [], meta: object = {}) => ({ content, meta, items });

describe("rendering an Editor.js document", () => {
  it("renders paragraphs and drops empty ones", () => {
    expect(render([{ type: "paragraph", data: { text: "Fresh <b>veg</b> &amp; <i>eggs</i>" } }, { type: "paragraph", data: { text: " " } }])).toBe("<p>Fresh <b>veg</b> &amp; <i>eggs</i></p>");
  });

  it("renders heading levels 1 to 4 as they are and 5 and 6 as h4 (the sanitiser keeps h1–h4)", () => {
    const levels = [1, 2, 3, 4, 5, 6].map((level) => render([{ type: "header", data: { text: `L${level}`, level } }]));
    expect(levels).toEqual(["<h1>L1</h1>", "<h2>L2</h2>", "<h3>L3</h3>", "<h4>L4</h4>", "<h4>L5</h4>", "<h4>L6</h4>"]);
  });

  it("renders nested unordered and ordered lists in the @editorjs/list v2 shape", () => {
    expect(render([{ type: "list", data: { style: "unordered", meta: {}, items: [item("one", [item("one.a", [item("one.a.i")])]), item("two")] } }])).toBe(
      "<ul><li>one<ul><li>one.a<ul><li>one.a.i</li></ul></li></ul></li><li>two</li></ul>",
    );
    expect(render([{ type: "list", data: { style: "ordered", meta: { start: 1, counterType: "numeric" }, items: [item("first", [item("first.a")])] } }])).toBe(
      "<ol><li>first<ol><li>first.a</li></ol></li></ol>",
    );
  });

  it("keeps an ordered list's start number and counter type, and marks checklist items", () => {
    expect(render([{ type: "list", data: { style: "ordered", meta: { start: 3, counterType: "lower-alpha" }, items: [item("c")] } }])).toBe(
      '<ol start="3" style="list-style-type:lower-alpha"><li>c</li></ol>',
    );
    expect(render([{ type: "list", data: { style: "checklist", meta: {}, items: [item("done", [], { checked: true }), item("to do", [], { checked: false })] } }])).toBe(
      '<ul style="list-style-type:none"><li>☑ done</li><li>☐ to do</li></ul>',
    );
  });

  it("renders the inline image tool's block as an image with its file name as alt text", () => {
    expect(render([{ type: "image", data: { url: PNG, caption: 'hen "Betty" <3' } }])).toBe(`<p><img alt="hen &quot;Betty&quot; &lt;3" src="${PNG}" /></p>`);
    expect(render([{ type: "image", data: { url: "https://cdn.example/a.jpg" } }])).toBe('<p><img alt="" src="https://cdn.example/a.jpg" /></p>');
  });

  it("renders a whole document in block order, and an empty one as nothing", () => {
    const html = render([
      { id: "h", type: "header", data: { text: "March box", level: 2 } },
      { id: "p", type: "paragraph", data: { text: 'See <a href="https://farm.example">the farm</a>' } },
      { id: "l", type: "list", data: { style: "unordered", meta: {}, items: [item("Kale")] } },
      { id: "i", type: "image", data: { url: PNG, caption: "kale.png" } },
    ]);
    expect(html).toBe(`<h2>March box</h2><p>See <a href="https://farm.example">the farm</a></p><ul><li>Kale</li></ul><p><img alt="kale.png" src="${PNG}" /></p>`);
    expect(render([])).toBe("");
  });
});

describe("sanitising the text inside blocks", () => {
  it("strips scripts, event handlers and unsafe links from the rendered HTML and from the stored document", () => {
    const doc = parse({
      blocks: [
        { type: "paragraph", data: { text: `Hi<script>alert(1)</script> <a href="javascript:alert(1)" onclick="x()">bad</a> <a href="https://ok.example" target="_blank">ok</a>` } },
        { type: "header", data: { text: `<img src="x" onerror="alert(1)">Title`, level: 2 } },
        { type: "list", data: { style: "unordered", items: [item(`<a href="vbscript:x">v</a><iframe src="https://x"></iframe>`)] } },
      ],
    });
    const html = renderRichTextDoc(doc);
    expect(html).toBe(`<p>Hi <a>bad</a> <a href="https://ok.example" target="_blank" rel="noopener noreferrer">ok</a></p><h2>Title</h2><ul><li><a>v</a></li></ul>`);
    expect(JSON.stringify(doc)).not.toMatch(/script|onclick|onerror|javascript|vbscript|iframe/);
    // What is stored validates again and renders the same HTML (the editor sends it back unchanged).
    expect(renderRichTextDoc(parse(JSON.parse(JSON.stringify(doc))))).toBe(html);
  });

  it("keeps inline formatting but not block markup smuggled into a block's text", () => {
    expect(render([{ type: "paragraph", data: { text: "<b>b</b> <i>i</i> <u>u</u> <s>s</s><br><h1>not a heading</h1><ul><li>nor a list</li></ul>" } }])).toBe(
      "<p><b>b</b> <i>i</i> <u>u</u> <s>s</s><br />not a headingnor a list</p>",
    );
  });

  it("keeps inline images in text only with allowed sources", () => {
    expect(render([{ type: "paragraph", data: { text: `a<img src="${PNG}">b` } }])).toBe(`<p>a<img src="${PNG}" />b</p>`);
    expect(render([{ type: "paragraph", data: { text: `a<img src="data:image/svg+xml;base64,PHN2Zz4=">b` } }])).toBe("<p>ab</p>");
  });

  it("drops unknown keys (tunes, stray data) from the stored document", () => {
    const doc = parse({ time: 1, version: "2.31.7", blocks: [{ id: "x1", type: "paragraph", data: { text: "t", extra: 1 }, tunes: { a: 1 } }], other: true });
    expect(doc).toEqual({ time: 1, version: "2.31.7", blocks: [{ id: "x1", type: "paragraph", data: { text: "t" } }] });
  });
});

describe("image blocks", () => {
  it("accept data URLs of the spec's raster types and http(s) addresses", () => {
    for (const type of ["png", "gif", "jpeg", "bmp", "x-icon"]) expect(issues({ blocks: [{ type: "image", data: { url: `data:image/${type};base64,AAAA` } }] })).toEqual([]);
    expect(issues({ blocks: [{ type: "image", data: { url: "http://cdn.example/a.png" } }] })).toEqual([]);
  });

  it("refuse other sources with a message naming the field", () => {
    for (const url of ["data:image/svg+xml;base64,PHN2Zz4=", "data:image/webp;base64,AAAA", "data:text/html;base64,PHNjcmlwdD4=", "javascript:alert(1)", "//evil.example/a.png", "x"]) {
      expect(issues({ blocks: [{ type: "image", data: { url } }] })).toEqual(["blocks.0.data.url: Description: embedded images must be PNG, GIF, JPEG, BMP or ICO (or an http(s) address)"]);
    }
    expect(issues({ blocks: [{ type: "image", data: { url: "" } }] })).toEqual(["blocks.0.data.url: Description: an image block needs an image"]);
  });

  it("refuse an embedded image over 700 KB and accept one just under", () => {
    const ofBytes = (bytes: number) => `data:image/jpeg;base64,${"A".repeat(Math.ceil(bytes / 3) * 4)}`;
    expect(issues({ blocks: [{ type: "image", data: { url: ofBytes(700 * 1024 - 3) } }] })).toEqual([]);
    expect(issues({ blocks: [{ type: "image", data: { url: ofBytes(700 * 1024 + 3) } }] })).toEqual([
      "blocks.0.data.url: Description: embedded images can be at most 700 KB; add larger photos to the gallery",
    ]);
  });
});

describe("refusing documents the editor does not make", () => {
  it("says what a document must be", () => {
    for (const bad of [null, "<p>html</p>", 42, [], { blocks: "x" }, {}]) {
      expect(issues(bad)).toEqual([expect.stringMatching(/^(blocks)?: Description must be an Editor\.js document with a list of blocks$/)]);
    }
  });

  it("refuses unknown block types, bad heading levels, list styles and the old list item shape", () => {
    expect(issues({ blocks: [{ type: "table", data: {} }] })).toEqual(["blocks.0.type: Description: blocks must be paragraphs, headings, lists or images"]);
    expect(issues({ blocks: [{ type: "header", data: { text: "x", level: 7 } }] })).toEqual(["blocks.0.data.level: Description: headings need a level from 1 to 6"]);
    expect(issues({ blocks: [{ type: "header", data: { text: "x", level: 2.5 } }] })).toEqual(["blocks.0.data.level: Description: headings need a level from 1 to 6"]);
    expect(issues({ blocks: [{ type: "list", data: { style: "roman", items: [] } }] })).toEqual(["blocks.0.data.style: Description: lists must be ordered, unordered or checklist"]);
    expect(issues({ blocks: [{ type: "list", data: { style: "unordered", items: ["a"] } }] })).toEqual([
      "blocks.0.data.items.0: Description: list items must be objects with content and items (@editorjs/list 2)",
    ]);
    expect(issues({ blocks: [{ type: "paragraph", data: { text: 5 } }] })).toEqual(["blocks.0.data.text: Description: a block's text must be a string"]);
  });

  it("limits blocks, text, list size and nesting", () => {
    const paragraph = { type: "paragraph", data: { text: "p" } };
    expect(issues({ blocks: Array(500).fill(paragraph) })).toEqual([]);
    expect(issues({ blocks: Array(501).fill(paragraph) })).toEqual(["blocks: Description has too many blocks (at most 500)"]);
    expect(issues({ blocks: [{ type: "paragraph", data: { text: "x".repeat(100_001) } }] })).toEqual([
      "blocks.0.data.text: Description: a block's text is too long (at most 100,000 characters)",
    ]);
    expect(issues({ blocks: [{ type: "list", data: { style: "unordered", items: Array.from({ length: 1001 }, (_, i) => item(`i${i}`)) } }] })).toEqual([
      "blocks.0.data.items: Description: a list can have at most 1,000 items",
    ]);
    const nested = (levels: number): object => (levels === 1 ? item("leaf") : item(`level ${levels}`, [nested(levels - 1)]));
    expect(issues({ blocks: [{ type: "list", data: { style: "unordered", items: [nested(8)] } }] })).toEqual([]);
    expect(issues({ blocks: [{ type: "list", data: { style: "unordered", items: [nested(9)] } }] })).toEqual(["blocks.0.data.items: Description: lists can be nested at most 8 levels deep"]);
  });

  it("refuses a document over 1,000,000 characters and a deeply nested value without overflowing the stack", () => {
    const big = { blocks: Array.from({ length: 20 }, () => ({ type: "paragraph", data: { text: "x".repeat(60_000) } })) };
    expect(issues(big)).toEqual([": Description is too large (at most 1,000,000 characters, embedded images included)"]);
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(issues({ blocks: deep })).toEqual([": Description is nested too deeply (lists at most 8 levels)"]);
  });
});

describe("a field's stored pair", () => {
  it("renders the HTML from the document when there is one, else sanitises the sent HTML with no document", () => {
    const doc = parse({ blocks: [{ type: "paragraph", data: { text: "from doc" } }] });
    expect(richTextOf(doc, "<p>ignored</p>")).toEqual({ html: "<p>from doc</p>", doc });
    expect(richTextOf(null, `<p onclick="x">old</p><script>x</script>`)).toEqual({ html: "<p>old</p>", doc: null });
  });

  it("is what a page save stores for the description and each FAQ answer", () => {
    const content = PageContentSchema.parse({
      descriptionHtml: "<p>stale</p>",
      descriptionDoc: { blocks: [{ type: "header", data: { text: "About", level: 2 } }] },
      faqs: [
        { q: "Doc?", answerDoc: { blocks: [{ type: "paragraph", data: { text: "Yes<script>x</script>" } }] } },
        { q: "HTML?", a: "<p>Old client</p>" },
        { q: "Null HTML?", a: null, answerDoc: null },
      ],
    });
    const data = pageData(content);
    expect(data.descriptionHtml).toBe("<h2>About</h2>");
    expect(data.descriptionDoc).toEqual({ blocks: [{ type: "header", data: { text: "About", level: 2 } }] });
    expect(data.faqs).toEqual([
      { q: "Doc?", a: "<p>Yes</p>", aDoc: { blocks: [{ type: "paragraph", data: { text: "Yes" } }] } },
      { q: "HTML?", a: "<p>Old client</p>" },
      { q: "Null HTML?", a: "" },
    ]);
    expect(pageData(PageContentSchema.parse({ descriptionHtml: "<p>x</p>" })).descriptionDoc).toBeNull();
  });

  it("names the field in a refused save's issues", () => {
    const r = PageContentSchema.safeParse({ descriptionDoc: { blocks: [{ type: "video", data: {} }] }, faqs: [{ q: "Q", answerDoc: "nope" }] });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => `${i.path.join(".")}: ${i.message}`)).toEqual([
      "descriptionDoc.blocks.0.type: Description: blocks must be paragraphs, headings, lists or images",
      "faqs.0.answerDoc: FAQ answer must be an Editor.js document with a list of blocks",
    ]);
  });
});

describe("blocksToHtml (shared with the editor's previews)", () => {
  it("writes the editor's blocks as they are (the server sanitises)", () => {
    const blocks: RichTextBlock[] = [{ type: "paragraph", data: { text: "a <b>b</b>" } }, { type: "header", data: { text: "h", level: 3 } }];
    expect(blocksToHtml(blocks)).toBe("<p>a <b>b</b></p><h3>h</h3>");
  });
});
