import { describe, expect, it } from "vitest";
import { blocksToHtml, htmlToBlocks, initialBlocks, type Block } from "./blocksHtml.ts";

const PNG = "data:image/png;base64,iVBORw0KGgo=";

describe("blocksToHtml", () => {
  it("writes paragraphs, headings, nested lists and images", () => {
    const blocks: Block[] = [
      { type: "header", data: { text: "Fresh <b>eggs</b>", level: 2 } },
      { type: "paragraph", data: { text: 'Visit <a href="https://x.test">us</a>' } },
      { type: "paragraph", data: { text: "  " } },
      { type: "list", data: { style: "unordered", items: [{ content: "one", items: [{ content: "one.a", items: [] }] }, { content: "two", items: [] }] } },
      { type: "list", data: { style: "ordered", items: [{ content: "first", items: [] }] } },
      { type: "image", data: { url: PNG, caption: 'a "hen"' } },
    ];
    expect(blocksToHtml(blocks)).toBe(
      "<h2>Fresh <b>eggs</b></h2>" +
        '<p>Visit <a href="https://x.test">us</a></p>' +
        "<ul><li>one<ul><li>one.a</li></ul></li><li>two</li></ul>" +
        "<ol><li>first</li></ol>" +
        `<p><img src="${PNG}" alt="a &quot;hen&quot;"></p>`,
    );
  });
  it("keeps headings within what the server keeps (h1–h4)", () => {
    expect(blocksToHtml([{ type: "header", data: { text: "x", level: 6 } }])).toBe("<h4>x</h4>");
  });
});

describe("htmlToBlocks", () => {
  it("reads stored HTML into blocks", () => {
    const html = `<h3>Title</h3><p>Some <strong>bold</strong> text</p><ul><li>a<ul><li>a1</li></ul></li><li>b</li></ul><p><img src="${PNG}" alt="pic"></p>`;
    expect(htmlToBlocks(html)).toEqual([
      { type: "header", data: { text: "Title", level: 3 } },
      { type: "paragraph", data: { text: "Some <strong>bold</strong> text" } },
      { type: "list", data: { style: "unordered", meta: {}, items: [{ content: "a", meta: {}, items: [{ content: "a1", meta: {}, items: [] }] }, { content: "b", meta: {}, items: [] }] } },
      { type: "image", data: { url: PNG, caption: "pic" } },
    ]);
  });
  it("wraps loose text and inline markup in paragraphs and unwraps divs", () => {
    expect(htmlToBlocks("Plain <em>text</em><div><p>inner</p></div>")).toEqual([
      { type: "paragraph", data: { text: "Plain <em>text</em>" } },
      { type: "paragraph", data: { text: "inner" } },
    ]);
    expect(htmlToBlocks("   ")).toEqual([]);
  });
  it("round-trips", () => {
    const html = "<h2>A</h2><p>b <i>c</i></p><ol><li>d</li></ol>";
    expect(blocksToHtml(htmlToBlocks(html))).toBe(html);
  });
  it("reads back the server's rendering of ordered lists with a start and counter, and of checklists", () => {
    const html = '<ol start="3" style="list-style-type:upper-roman"><li>c<ol><li>c.1</li></ol></li></ol><ul style="list-style-type:none"><li>☑ done</li><li>☐ to do</li></ul>';
    expect(htmlToBlocks(html)).toEqual([
      { type: "list", data: { style: "ordered", meta: { start: 3, counterType: "upper-roman" }, items: [{ content: "c", meta: {}, items: [{ content: "c.1", meta: {}, items: [] }] }] } },
      { type: "list", data: { style: "checklist", meta: {}, items: [{ content: "done", meta: { checked: true }, items: [] }, { content: "to do", meta: { checked: false }, items: [] }] } },
    ]);
    expect(blocksToHtml(htmlToBlocks(html))).toBe(html);
  });
});

describe("initialBlocks", () => {
  it("opens the stored document when there is one, else imports the stored HTML", () => {
    const doc = { time: 1, version: "2.31.7", blocks: [{ type: "paragraph" as const, data: { text: "from the document" } }] };
    expect(initialBlocks({ doc, html: "<p>rendered by the server</p>" })).toEqual(doc.blocks);
    expect(initialBlocks({ doc: null, html: "<h3>Imported</h3>" })).toEqual([{ type: "header", data: { text: "Imported", level: 3 } }]);
    expect(initialBlocks({ doc: null, html: "" })).toEqual([]);
  });
});
