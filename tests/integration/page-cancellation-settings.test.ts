import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSession } from "../../api/auth/sessions.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { restClient } from "../contract/helpers.ts";

/**
 * The cancellation page settings (Page.cancellationPolicy, retentionOffers, retentionDiscountPercent): GraphQL reads
 * and writes them, REST saves keep them when left out, and only the business's editors read the offers and the discount.
 */
let t: TestApp;
let call: ReturnType<typeof restClient>;
beforeAll(async () => {
  t = await createTestApp();
  call = restClient(t);
});
afterAll(() => t.close());

let seq = 0;
async function editorOf(slug: string) {
  const user = await t.db.prisma.user.create({ data: { username: `cancel-editor-${++seq}`, passwordHash: "unused" } });
  const business = await t.db.prisma.business.create({
    data: { collectsOnPlatform: true, slug, name: slug, timeZone: "America/New_York", page: { create: { brandName: slug } }, nextBox: { create: {} }, users: { create: [{ userId: user.id, role: "EDITOR" }] } },
  });
  const { token } = await openSession({ db: t.db.prisma, clock: t.clock, config: t.config }, user.id, { tenantSlug: null });
  return { id: business.id, slug, token };
}

const FIELDS = "cancellationPolicy retentionOffers retentionDiscountPercent";
const SAVE = `mutation($input: SaveBusinessPageInput!) { saveBusinessPage(input: $input) {
  __typename ... on SaveBusinessPageSuccess { data { page { ${FIELDS} } } } ... on ValidationError { message issues { path message } } ... on Error { message } } }`;
const READ = `query($slug: String!) { business(slug: $slug) { page { ${FIELDS} } } }`;

describe("cancellation page settings", () => {
  it("default to PHONE with SKIP, PAUSE and SWITCH_PLAN at 10 %; saved and read through GraphQL, kept when a save leaves them out, validated", async () => {
    const b = await editorOf("cancel-farm");
    const read = async (token: string | null = b.token) => (await t.gqlOk(READ, { slug: b.slug }, { token })).business.page;
    const save = (content: Record<string, unknown>) => t.gqlOk(SAVE, { input: { businessId: b.id, content: { brand: { name: "Cancel Farm" }, ...content } } }, { token: b.token });
    expect(await read()).toEqual({ cancellationPolicy: "PHONE", retentionOffers: ["SKIP", "PAUSE", "SWITCH_PLAN"], retentionDiscountPercent: 10 });
    const chosen = { cancellationPolicy: "SELF_SERVICE", retentionOffers: ["DISCOUNT", "SKIP", "DISCOUNT"], retentionDiscountPercent: 25 };
    expect((await save(chosen)).saveBusinessPage.data.page).toEqual({ cancellationPolicy: "SELF_SERVICE", retentionOffers: ["DISCOUNT", "SKIP"], retentionDiscountPercent: 25 });
    expect((await save({})).saveBusinessPage.data.page).toEqual({ cancellationPolicy: "SELF_SERVICE", retentionOffers: ["DISCOUNT", "SKIP"], retentionDiscountPercent: 25 });
    expect((await save({ retentionOffers: [] })).saveBusinessPage.data.page.retentionOffers).toEqual([]);
    for (const bad of [4, 51]) {
      const r = (await save({ retentionDiscountPercent: bad })).saveBusinessPage;
      expect(r).toMatchObject({ __typename: "ValidationError", message: "Retention discount must be a whole percent from 5 to 50" });
      expect(r.issues[0].path).toBe("content.retentionDiscountPercent");
    }
    // The public (and a member) read the policy, not what the cancel flow offers.
    expect(await read(null)).toEqual({ cancellationPolicy: "SELF_SERVICE", retentionOffers: null, retentionDiscountPercent: null });
  });

  it("REST saves in the §3 shape keep them when left out and may set them; GET keeps the §3 keys", async () => {
    const b = await editorOf("rest-cancel-farm");
    const url = `/api/admin/businesses/${b.id}/page`;
    await t.gqlOk(SAVE, { input: { businessId: b.id, content: { brand: { name: "Rest Cancel Farm" }, cancellationPolicy: "SELF_SERVICE", retentionDiscountPercent: 30 } } }, { token: b.token });
    expect((await call("POST", url, { token: b.token, payload: { content: { brand: { name: "Rest Cancel Farm 2" }, billingDay: 4 } } })).status).toBe(200);
    expect((await t.gqlOk(READ, { slug: b.slug }, { token: b.token })).business.page).toEqual({ cancellationPolicy: "SELF_SERVICE", retentionOffers: ["SKIP", "PAUSE", "SWITCH_PLAN"], retentionDiscountPercent: 30 });
    const set = { cancellationPolicy: "PHONE", retentionOffers: ["PAUSE"], retentionDiscountPercent: 15 };
    expect((await call("POST", url, { token: b.token, payload: { content: { brand: { name: "Rest Cancel Farm" }, ...set } } })).status).toBe(200);
    expect((await t.gqlOk(READ, { slug: b.slug }, { token: b.token })).business.page).toEqual(set);
    const bad = await call("POST", url, { token: b.token, payload: { content: { brand: { name: "Rest Cancel Farm" }, retentionOffers: ["REFUND"] } } });
    expect(bad.status).toBe(400);
    const half = await call("POST", url, { token: b.token, payload: { content: { brand: { name: "Rest Cancel Farm" }, retentionDiscountPercent: 12.5 } } });
    expect(half.body.error).toBe("Retention discount must be a whole percent from 5 to 50");
    for (const path of [url, `/api/businesses/${b.slug}/page`]) {
      const got = await call("GET", path, { token: b.token });
      expect(got.status).toBe(200);
      for (const key of Object.keys(set)) expect(got.body.content ?? got.body).not.toHaveProperty(key);
    }
  });
});
