/**
 * Rich text as Editor.js documents: the editor saves the document, the server renders and sanitises the
 * HTML and stores both; REST and older clients keep reading and writing HTML, and a write of HTML clears the
 * document so the editor imports the new HTML next time.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSession } from "../../api/auth/sessions.ts";
import { restClient } from "../contract/helpers.ts";
import { createTestApp, type TestApp } from "../support/app.ts";

let t: TestApp;
let call: ReturnType<typeof restClient>;
beforeAll(async () => {
  t = await createTestApp();
  call = restClient(t);
});
afterAll(() => t.close());

let seq = 0;
async function person(label: string, opts: { admin?: boolean } = {}) {
  const user = await t.db.prisma.user.create({ data: { username: `${label}-${++seq}`, passwordHash: "unused", isAdmin: opts.admin ?? false } });
  const { token } = await openSession({ db: t.db.prisma, clock: t.clock, config: t.config }, user.id, { tenantSlug: null });
  return { id: user.id, token };
}

async function editedBusiness(slug: string) {
  const editor = await person("editor");
  const business = await t.db.prisma.business.create({
    data: { collectsOnPlatform: true, slug, name: slug, page: { create: { brandName: slug } }, nextBox: { create: {} }, users: { create: [{ userId: editor.id, role: "EDITOR" }] } },
  });
  return { id: business.id, slug, editor };
}

const PNG = "data:image/png;base64,iVBORw0KGgo=";
const item = (content: string, items: unknown[] = []) => ({ content, meta: {}, items });
/** What the page editor sends for the description: a document made by Editor.js with every block type. */
const DESCRIPTION_DOC = {
  time: 1_772_722_800_000,
  version: "2.31.7",
  blocks: [
    { id: "b1", type: "header", data: { text: "Fresh from <b>Green Acres</b>", level: 2 } },
    { id: "b2", type: "paragraph", data: { text: `Veg &amp; eggs<script>steal()</script> <a href="javascript:alert(1)">bad</a> <a href="https://farm.example">farm</a>` } },
    { id: "b3", type: "list", data: { style: "ordered", meta: { start: 1, counterType: "numeric" }, items: [item("Pick", [item("Kale")]), item("Enjoy")] } },
    { id: "b4", type: "image", data: { url: PNG, caption: "field.png" } },
  ],
};
const DESCRIPTION_HTML =
  `<h2>Fresh from <b>Green Acres</b></h2><p>Veg &amp; eggs <a>bad</a> <a href="https://farm.example">farm</a></p>` +
  `<ol><li>Pick<ol><li>Kale</li></ol></li><li>Enjoy</li></ol><p><img alt="field.png" src="${PNG}" /></p>`;
const ANSWER_DOC = { blocks: [{ id: "a1", type: "paragraph", data: { text: "Every <i>Monday</i>" } }] };

const PAGE_RICH_TEXT = `descriptionHtml descriptionDoc faqs { q a answerDoc }`;
const SAVE = `mutation($input: SaveBusinessPageInput!) { saveBusinessPage(input: $input) {
  __typename ... on SaveBusinessPageSuccess { data { page { ${PAGE_RICH_TEXT} } } }
  ... on Error { message } ... on ValidationError { issues { path message } } } }`;
const SAVE_HOME = `mutation($input: SaveHomePageInput!) { saveHomePage(input: $input) {
  __typename ... on SaveHomePageSuccess { data { ${PAGE_RICH_TEXT} } } ... on Error { message } } }`;
const SAVE_NEXT_BOX = `mutation($input: SaveNextBoxInput!) { saveNextBox(input: $input) {
  __typename ... on SaveNextBoxSuccess { data { contentHtml contentDoc } }
  ... on Error { message } ... on ValidationError { issues { path message } } } }`;
const PUBLIC = `query($slug: String!) { business(slug: $slug) { page { ${PAGE_RICH_TEXT} } nextBox { contentHtml contentDoc } } }`;

/** The stored document without what the server drops (nothing here) or sanitises (the script, the bad link). */
const storedDescriptionDoc = {
  ...DESCRIPTION_DOC,
  blocks: DESCRIPTION_DOC.blocks.map((b) => (b.id === "b2" ? { ...b, data: { text: `Veg &amp; eggs <a>bad</a> <a href="https://farm.example">farm</a>` } } : b)),
};

describe("page rich text from the editor's documents", () => {
  it("stores each document with the HTML rendered from it; GraphQL reads both, REST reads the HTML", async () => {
    const b = await editedBusiness("doc-farm");
    const input = {
      businessId: b.id,
      content: {
        descriptionHtml: "<p>ignored: the document wins</p>",
        descriptionDoc: DESCRIPTION_DOC,
        faqs: [
          { q: "When?", answerDoc: ANSWER_DOC },
          { q: "Legacy?", a: "<p>HTML answer</p>" },
        ],
      },
    };
    const r = await t.gqlOk(SAVE, { input }, { token: b.editor.token });
    expect(r.saveBusinessPage.__typename).toBe("SaveBusinessPageSuccess");

    const stored = await t.db.prisma.page.findUniqueOrThrow({ where: { businessId: b.id } });
    expect(stored.descriptionHtml).toBe(DESCRIPTION_HTML);
    expect(stored.descriptionDoc).toEqual(storedDescriptionDoc);
    expect(stored.faqs).toEqual([
      { q: "When?", a: "<p>Every <i>Monday</i></p>", aDoc: ANSWER_DOC },
      { q: "Legacy?", a: "<p>HTML answer</p>" },
    ]);

    const { business } = await t.gqlOk(PUBLIC, { slug: b.slug });
    expect(business.page).toEqual({
      descriptionHtml: DESCRIPTION_HTML,
      descriptionDoc: storedDescriptionDoc,
      faqs: [
        { q: "When?", a: "<p>Every <i>Monday</i></p>", answerDoc: ANSWER_DOC },
        { q: "Legacy?", a: "<p>HTML answer</p>", answerDoc: null },
      ],
    });

    // REST clients get the HTML exactly as before: no documents in the body.
    const rest = await call("GET", `/api/businesses/${b.slug}/page`);
    expect(rest.status).toBe(200);
    expect(rest.body.content.description).toBe(DESCRIPTION_HTML);
    expect(rest.body.content.faqs).toEqual([
      { q: "When?", a: "<p>Every <i>Monday</i></p>" },
      { q: "Legacy?", a: "<p>HTML answer</p>" },
    ]);
    expect(JSON.stringify(rest.body)).not.toMatch(/Doc|blocks/);
    const cards = await call("GET", "/api/businesses");
    expect(cards.body.businesses.find((c: { slug: string }) => c.slug === b.slug).description).toBe("Fresh from Green Acres Veg & eggs bad farm Pick Kale Enjoy");
  });

  it("a REST write of HTML replaces the content and clears the documents", async () => {
    const b = await editedBusiness("rest-farm");
    await t.gqlOk(SAVE, { input: { businessId: b.id, content: { descriptionDoc: DESCRIPTION_DOC, faqs: [{ q: "When?", answerDoc: ANSWER_DOC }] } } }, { token: b.editor.token });
    const res = await call("POST", `/api/admin/businesses/${b.id}/page`, {
      token: b.editor.token,
      payload: { content: { description: `<h3>Edited by a partner</h3><p onclick="x()">Hi</p>`, faqs: [{ q: "When?", a: "<p>Tuesdays</p>" }] } },
    });
    expect(res.status).toBe(200);
    expect(res.body.content.description).toBe("<h3>Edited by a partner</h3><p>Hi</p>");

    const stored = await t.db.prisma.page.findUniqueOrThrow({ where: { businessId: b.id } });
    expect(stored.descriptionDoc).toBeNull();
    expect(stored.faqs).toEqual([{ q: "When?", a: "<p>Tuesdays</p>" }]);
    const { business } = await t.gqlOk(PUBLIC, { slug: b.slug }, { token: b.editor.token });
    expect(business.page).toEqual({
      descriptionHtml: "<h3>Edited by a partner</h3><p>Hi</p>",
      descriptionDoc: null,
      faqs: [{ q: "When?", a: "<p>Tuesdays</p>", answerDoc: null }],
    });
  });

  it("an older client's HTML-only GraphQL save is sanitised and clears the stored document", async () => {
    const b = await editedBusiness("old-client-farm");
    await t.gqlOk(SAVE, { input: { businessId: b.id, content: { descriptionDoc: DESCRIPTION_DOC } } }, { token: b.editor.token });
    const r = await t.gqlOk(SAVE, { input: { businessId: b.id, content: { descriptionHtml: "<p>Plain<script>x</script></p>", faqs: [{ q: "Q", a: "<p>A</p>" }] } } }, { token: b.editor.token });
    expect(r.saveBusinessPage.data.page).toEqual({ descriptionHtml: "<p>Plain</p>", descriptionDoc: null, faqs: [{ q: "Q", a: "<p>A</p>", answerDoc: null }] });
  });

  it("refuses an invalid document with a clear message and keeps the saved content", async () => {
    const b = await editedBusiness("invalid-doc-farm");
    await t.gqlOk(SAVE, { input: { businessId: b.id, content: { descriptionDoc: DESCRIPTION_DOC, faqs: [{ q: "When?", answerDoc: ANSWER_DOC }] } } }, { token: b.editor.token });
    const before = await t.db.prisma.page.findUniqueOrThrow({ where: { businessId: b.id } });

    const svg = { blocks: [{ type: "image", data: { url: "data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+" } }] };
    const r = await t.gqlOk(SAVE, { input: { businessId: b.id, content: { brand: { name: "Changed" }, descriptionDoc: svg, faqs: [{ q: "When?", answerDoc: { blocks: [{ type: "table", data: {} }] } }] } } }, { token: b.editor.token });
    expect(r.saveBusinessPage).toEqual({
      __typename: "ValidationError",
      message: "Description: embedded images must be PNG, GIF, JPEG, BMP or ICO (or an http(s) address)",
      issues: [
        { path: "content.descriptionDoc.blocks.0.data.url", message: "Description: embedded images must be PNG, GIF, JPEG, BMP or ICO (or an http(s) address)" },
        { path: "content.faqs.0.answerDoc.blocks.0.type", message: "FAQ answer: blocks must be paragraphs, headings, lists or images" },
      ],
    });
    const big = { blocks: [{ type: "image", data: { url: `data:image/png;base64,${"A".repeat(1_000_000)}` } }] };
    const tooBig = await t.gqlOk(SAVE, { input: { businessId: b.id, content: { descriptionDoc: big } } }, { token: b.editor.token });
    expect(tooBig.saveBusinessPage.message).toBe("Description is too large (at most 1,000,000 characters, embedded images included)");

    expect(await t.db.prisma.page.findUniqueOrThrow({ where: { businessId: b.id } })).toEqual(before);
    expect(before.descriptionHtml).toBe(DESCRIPTION_HTML);
  });

  it("saves the home page's documents too", async () => {
    const admin = await person("admin", { admin: true });
    const r = await t.gqlOk(SAVE_HOME, { input: { content: { descriptionDoc: ANSWER_DOC, faqs: [{ q: "What?", answerDoc: ANSWER_DOC }] } } }, { token: admin.token });
    expect(r.saveHomePage.data).toEqual({
      descriptionHtml: "<p>Every <i>Monday</i></p>",
      descriptionDoc: ANSWER_DOC,
      faqs: [{ q: "What?", a: "<p>Every <i>Monday</i></p>", answerDoc: ANSWER_DOC }],
    });
    expect((await call("GET", "/api/page")).body.content.description).toBe("<p>Every <i>Monday</i></p>");
  });
});

describe("Next Box rich text", () => {
  const BOX_DOC = {
    blocks: [
      { type: "header", data: { text: "March box", level: 3 } },
      { type: "list", data: { style: "unordered", meta: {}, items: [item("Carrots<img src=x onerror=alert(1)>"), item("Kale")] } },
    ],
  };
  const BOX_HTML = "<h3>March box</h3><ul><li>Carrots</li><li>Kale</li></ul>";
  const STORED_BOX_DOC = { blocks: [BOX_DOC.blocks[0], { type: "list", data: { style: "unordered", meta: {}, items: [item("Carrots"), item("Kale")] } }] };

  it("stores the document with its rendered HTML; the portal, GraphQL and REST read the HTML", async () => {
    const b = await editedBusiness("box-doc-farm");
    const r = await t.gqlOk(SAVE_NEXT_BOX, { input: { businessId: b.id, contentDoc: BOX_DOC } }, { token: b.editor.token });
    expect(r.saveNextBox).toEqual({ __typename: "SaveNextBoxSuccess", data: { contentHtml: BOX_HTML, contentDoc: STORED_BOX_DOC } });
    const stored = await t.db.prisma.nextBox.findUniqueOrThrow({ where: { businessId: b.id } });
    expect(stored).toMatchObject({ contentHtml: BOX_HTML, contentDoc: STORED_BOX_DOC, updatedById: b.editor.id });
    expect((await t.gqlOk(PUBLIC, { slug: b.slug })).business.nextBox).toEqual({ contentHtml: BOX_HTML, contentDoc: STORED_BOX_DOC });
    expect((await call("GET", `/api/businesses/${b.slug}/next-box`)).body).toEqual({ content: BOX_HTML });
    expect((await call("GET", `/api/admin/businesses/${b.id}/next-box`, { token: b.editor.token })).body).toEqual({ content: BOX_HTML });
  });

  it("a REST write of HTML clears the document; an invalid document or no content is refused and nothing changes", async () => {
    const b = await editedBusiness("box-rest-farm");
    await t.gqlOk(SAVE_NEXT_BOX, { input: { businessId: b.id, contentDoc: BOX_DOC } }, { token: b.editor.token });
    const res = await call("POST", `/api/admin/businesses/${b.id}/next-box`, { token: b.editor.token, payload: { content: "<p>April: <b>beets</b></p><script>x</script>" } });
    expect(res.body).toEqual({ content: "<p>April: <b>beets</b></p>" });
    const afterRest = await t.db.prisma.nextBox.findUniqueOrThrow({ where: { businessId: b.id } });
    expect(afterRest).toMatchObject({ contentHtml: "<p>April: <b>beets</b></p>", contentDoc: null });

    await t.gqlOk(SAVE_NEXT_BOX, { input: { businessId: b.id, contentDoc: BOX_DOC } }, { token: b.editor.token });
    const before = await t.db.prisma.nextBox.findUniqueOrThrow({ where: { businessId: b.id } });
    const deep = (levels: number): unknown => (levels === 1 ? item("leaf") : item("x", [deep(levels - 1)]));
    const bad = await t.gqlOk(SAVE_NEXT_BOX, { input: { businessId: b.id, contentDoc: { blocks: [{ type: "list", data: { style: "unordered", items: [deep(9)] } }] } } }, { token: b.editor.token });
    expect(bad.saveNextBox).toEqual({
      __typename: "ValidationError",
      message: "Next Box content: lists can be nested at most 8 levels deep",
      issues: [{ path: "contentDoc.blocks.0.data.items", message: "Next Box content: lists can be nested at most 8 levels deep" }],
    });
    const none = await t.gqlOk(SAVE_NEXT_BOX, { input: { businessId: b.id } }, { token: b.editor.token });
    expect(none.saveNextBox).toMatchObject({ __typename: "ValidationError", message: "Next Box content is required" });
    expect(await t.db.prisma.nextBox.findUniqueOrThrow({ where: { businessId: b.id } })).toEqual(before);

    // An older client sending HTML over GraphQL: sanitised, document cleared.
    const old = await t.gqlOk(SAVE_NEXT_BOX, { input: { businessId: b.id, contentHtml: "<p>May</p>" } }, { token: b.editor.token });
    expect(old.saveNextBox.data).toEqual({ contentHtml: "<p>May</p>", contentDoc: null });
  });
});
