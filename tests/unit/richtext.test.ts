import { describe, expect, it } from "vitest";
import { isAllowedImageSrc, richTextToPlain, sanitizeRichText } from "../../api/rules/richtext.ts";

describe("sanitizeRichText", () => {
  it("keeps the editor's formatting", () => {
    const html =
      `<h1>Title</h1><h4>Sub</h4><p class="ql-align-center ql-indent-2" style="text-align: center; padding-left: 6em">` +
      `<strong>b</strong><b>b</b><em>i</em><i>i</i><u>u</u><s>s</s><span class="ql-size-large" style="font-size: 18px">big</span><br /></p>` +
      `<ul><li>one</li></ul><ol><li>two</li></ol><blockquote>quote</blockquote>`;
    expect(sanitizeRichText(html)).toBe(
      `<h1>Title</h1><h4>Sub</h4><p class="ql-align-center ql-indent-2" style="text-align:center;padding-left:6em">` +
        `<strong>b</strong><b>b</b><em>i</em><i>i</i><u>u</u><s>s</s><span class="ql-size-large" style="font-size:18px">big</span><br /></p>` +
        `<ul><li>one</li></ul><ol><li>two</li></ol><blockquote>quote</blockquote>`,
    );
  });

  it("removes script, style, iframe and svg elements with their content", () => {
    expect(sanitizeRichText(`<p>a<script>alert(1)</script><style>p{}</style><iframe src="https://x"></iframe><svg><script>x</script></svg>b</p>`)).toBe("<p>ab</p>");
    expect(sanitizeRichText(`<div><table><tr><td>cell</td></tr></table></div>`)).toBe("cell");
  });

  it("removes event handlers, unknown attributes, classes and styles", () => {
    expect(sanitizeRichText(`<p onclick="x()" id="a" class="evil ql-indent-9" style="color:red;position:fixed;font-size:expression(alert(1))">t</p>`)).toBe("<p>t</p>");
    expect(sanitizeRichText(`<span style="font-size:12px;background-image:url(javascript:alert(1))">t</span>`)).toBe(`<span style="font-size:12px">t</span>`);
  });

  it("keeps links only for http, https, mailto and tel", () => {
    expect(sanitizeRichText(`<a href="https://a.example/x?y=1">a</a>`)).toBe(`<a href="https://a.example/x?y=1">a</a>`);
    expect(sanitizeRichText(`<a href="mailto:hi@a.example">m</a><a href="tel:+15551234">t</a>`)).toBe(`<a href="mailto:hi@a.example">m</a><a href="tel:+15551234">t</a>`);
    for (const href of ["javascript:alert(1)", "JaVaScRiPt:alert(1)", "&#106;avascript:alert(1)", "java\tscript:alert(1)", "vbscript:x", "data:text/html,<script>x</script>", "//evil.example"]) {
      expect(sanitizeRichText(`<a href="${href}">x</a>`)).toBe("<a>x</a>");
    }
  });

  it("adds noopener to links opening a new tab and drops other targets", () => {
    expect(sanitizeRichText(`<a href="https://a.example" target="_blank" rel="opener">a</a>`)).toBe(`<a href="https://a.example" target="_blank" rel="noopener noreferrer">a</a>`);
    expect(sanitizeRichText(`<a href="https://a.example" target="frame">a</a>`)).toBe(`<a href="https://a.example">a</a>`);
  });

  it("keeps images from http(s) and raster data URLs only", () => {
    const png = "data:image/png;base64,iVBORw0KGgo=";
    expect(sanitizeRichText(`<img src="https://cdn.example/a.jpg" alt="a" onerror="alert(1)">`)).toBe(`<img alt="a" src="https://cdn.example/a.jpg" />`);
    expect(sanitizeRichText(`<img src="${png}">`)).toBe(`<img src="${png}" />`);
    for (const src of [
      "javascript:alert(1)",
      "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
      "data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+",
      "data:image/svg+xml,<svg onload=alert(1)>",
      "x",
      "//evil.example/a.png",
    ]) {
      expect(sanitizeRichText(`<p><img src="${src}">t</p>`)).toBe("<p>t</p>");
    }
  });

  it("accepts every raster image type of the spec", () => {
    for (const type of ["png", "gif", "jpeg", "bmp", "x-icon"]) expect(isAllowedImageSrc(`data:image/${type};base64,AAAA`)).toBe(true);
    expect(isAllowedImageSrc("data:image/webp;base64,AAAA")).toBe(false);
  });

  it("keeps a list's start number and counter style, nothing else on lists", () => {
    expect(sanitizeRichText(`<ol start="3" style="list-style-type:upper-roman" type="a"><li>c</li></ol>`)).toBe(`<ol start="3" style="list-style-type:upper-roman"><li>c</li></ol>`);
    expect(sanitizeRichText(`<ol start="3; x" style="list-style-type:url(javascript:x);color:red"><li>c</li></ol>`)).toBe("<ol><li>c</li></ol>");
    expect(sanitizeRichText(`<ul style="list-style-type:none" start="2"><li>c</li></ul>`)).toBe(`<ul style="list-style-type:none"><li>c</li></ul>`);
  });

  it("escapes text and returns empty for nothing", () => {
    expect(sanitizeRichText(`<p>1 < 2 & "q"</p>`)).toBe("<p>1 &lt; 2 &amp; \"q\"</p>");
    expect(sanitizeRichText("")).toBe("");
    expect(sanitizeRichText(null)).toBe("");
  });
});

describe("richTextToPlain", () => {
  it("strips tags and decodes entities, separating blocks", () => {
    expect(richTextToPlain(`<h2>Fresh</h2><p>eggs &amp; <b>milk</b><br>daily</p><script>x</script>`)).toBe("Fresh eggs & milk daily");
  });
  it("separates nested list items", () => {
    expect(richTextToPlain(`<ol><li>Pick<ol><li>Kale</li></ol></li><li>Enjoy</li></ol><p>then <b>rest</b></p>`)).toBe("Pick Kale Enjoy then rest");
  });
});
