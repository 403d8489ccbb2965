import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSession } from "../../api/auth/sessions.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { restClient } from "../contract/helpers.ts";

/** The longest pause page setting (Page.pauseMaxMonths): GraphQL reads and writes it, REST saves keep it when left out. */
let t: TestApp;
let call: ReturnType<typeof restClient>;
beforeAll(async () => {
  t = await createTestApp();
  call = restClient(t);
});
afterAll(() => t.close());

let seq = 0;
async function editorOf(slug: string) {
  const user = await t.db.prisma.user.create({ data: { username: `pause-editor-${++seq}`, passwordHash: "unused" } });
  const business = await t.db.prisma.business.create({
    data: { collectsOnPlatform: true, slug, name: slug, timeZone: "America/New_York", page: { create: { brandName: slug } }, nextBox: { create: {} }, users: { create: [{ userId: user.id, role: "EDITOR" }] } },
  });
  const { token } = await openSession({ db: t.db.prisma, clock: t.clock, config: t.config }, user.id, { tenantSlug: null });
  return { id: business.id, slug, token };
}

const SAVE = `mutation($input: SaveBusinessPageInput!) { saveBusinessPage(input: $input) {
  __typename ... on SaveBusinessPageSuccess { data { page { pauseMaxMonths } } } ... on ValidationError { message issues { path message } } ... on Error { message } } }`;
const READ = `query($slug: String!) { business(slug: $slug) { page { pauseMaxMonths } } }`;

describe("longest pause page setting", () => {
  it("is 3 by default, saved and read through GraphQL, kept when a save leaves it out, and validated 0 to 12", async () => {
    const b = await editorOf("pause-farm");
    const read = async () => (await t.gqlOk(READ, { slug: b.slug })).business.page.pauseMaxMonths;
    const save = (content: Record<string, unknown>) => t.gqlOk(SAVE, { input: { businessId: b.id, content: { brand: { name: "Pause Farm" }, ...content } } }, { token: b.token });
    expect(await read()).toBe(3);
    expect((await save({ pauseMaxMonths: 6 })).saveBusinessPage.data.page.pauseMaxMonths).toBe(6);
    expect((await save({})).saveBusinessPage.data.page.pauseMaxMonths).toBe(6);
    expect((await save({ pauseMaxMonths: 0 })).saveBusinessPage.data.page.pauseMaxMonths).toBe(0);
    for (const bad of [13, -1]) {
      const r = (await save({ pauseMaxMonths: bad })).saveBusinessPage;
      expect(r).toMatchObject({ __typename: "ValidationError", message: "Longest pause must be between 0 and 12 months" });
      expect(r.issues[0].path).toBe("content.pauseMaxMonths");
    }
    expect(await read()).toBe(0);
  });

  it("REST saves in the §3 shape keep it when left out and may set it; GET keeps the §3 keys", async () => {
    const b = await editorOf("rest-pause-farm");
    const url = `/api/admin/businesses/${b.id}/page`;
    await t.gqlOk(SAVE, { input: { businessId: b.id, content: { brand: { name: "Rest Pause Farm" }, pauseMaxMonths: 5 } } }, { token: b.token });
    expect((await call("POST", url, { token: b.token, payload: { content: { brand: { name: "Rest Pause Farm 2" }, billingDay: 4 } } })).status).toBe(200);
    expect((await t.gqlOk(READ, { slug: b.slug })).business.page.pauseMaxMonths).toBe(5);
    expect((await call("POST", url, { token: b.token, payload: { content: { brand: { name: "Rest Pause Farm" }, pauseMaxMonths: 1 } } })).status).toBe(200);
    expect((await t.gqlOk(READ, { slug: b.slug })).business.page.pauseMaxMonths).toBe(1);
    const bad = await call("POST", url, { token: b.token, payload: { content: { brand: { name: "Rest Pause Farm" }, pauseMaxMonths: 24 } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("Longest pause must be between 0 and 12 months");
    const got = await call("GET", url, { token: b.token });
    expect(got.status).toBe(200);
    expect(got.body.content).not.toHaveProperty("pauseMaxMonths");
  });
});
