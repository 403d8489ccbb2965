import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSession } from "../../api/auth/sessions.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { restClient } from "../contract/helpers.ts";

/** The past-cutoff message on the business page, and the support phone page setting. */
let t: TestApp;
let call: ReturnType<typeof restClient>;
beforeAll(async () => {
  t = await createTestApp();
  call = restClient(t);
});
afterAll(() => t.close());

let seq = 0;
async function editorOf(slug: string) {
  const user = await t.db.prisma.user.create({ data: { username: `editor-${++seq}`, passwordHash: "unused" } });
  const business = await t.db.prisma.business.create({
    data: { collectsOnPlatform: true, slug, name: slug, timeZone: "America/New_York", page: { create: { brandName: slug } }, nextBox: { create: {} }, users: { create: [{ userId: user.id, role: "EDITOR" }] } },
  });
  const { token } = await openSession({ db: t.db.prisma, clock: t.clock, config: t.config }, user.id, { tenantSlug: null });
  return { id: business.id, slug, token };
}

const SAVE = `mutation($input: SaveBusinessPageInput!) { saveBusinessPage(input: $input) {
  __typename ... on SaveBusinessPageSuccess { data { page { supportPhone } } } ... on ValidationError { message issues { path message } } ... on Error { message } } }`;
const READ = `query($slug: String!) { business(slug: $slug) { checkoutClosedMessage page { supportPhone subscriptionCutoffDay } } }`;

describe("Business.checkoutClosedMessage", () => {
  it("is spec §8's message the day after the cutoff, on the server's clock in the business's time zone, and null otherwise", async () => {
    const b = await editorOf("cutoff-farm");
    await t.db.prisma.page.update({ where: { businessId: b.id }, data: { cutoffDay: 4 } });
    t.clock.set("2026-03-04T15:00:00Z");
    expect((await t.gqlOk(READ, { slug: b.slug })).business.checkoutClosedMessage).toBeNull();
    // 02:00 UTC on the 5th is still the 4th in New York.
    t.clock.set("2026-03-05T02:00:00Z");
    expect((await t.gqlOk(READ, { slug: b.slug })).business.checkoutClosedMessage).toBeNull();
    t.clock.set("2026-03-05T15:00:00Z");
    expect((await t.gqlOk(READ, { slug: b.slug })).business.checkoutClosedMessage).toBe(
      "The last day to subscribe for this month has passed. The cutoff day is the 4th of each month. Please try again next month.",
    );
    // Without a cutoff day checkout never closes.
    await t.db.prisma.page.update({ where: { businessId: b.id }, data: { cutoffDay: null } });
    expect((await t.gqlOk(READ, { slug: b.slug })).business.checkoutClosedMessage).toBeNull();
  });
});

describe("support phone page setting", () => {
  it("is saved and read through GraphQL, validated as one phone number, and cleared with an empty value", async () => {
    const b = await editorOf("phone-farm");
    const save = (supportPhone: unknown) => t.gqlOk(SAVE, { input: { businessId: b.id, content: { brand: { name: "Phone Farm" }, supportPhone } } }, { token: b.token });

    expect((await save("(330) 555-0142")).saveBusinessPage.data.page.supportPhone).toBe("(330) 555-0142");
    const ok = await save("  +1 (330) 555-0142 ext. 12 ");
    expect(ok.saveBusinessPage).toEqual({ __typename: "SaveBusinessPageSuccess", data: { page: { supportPhone: "+1 (330) 555-0142 ext. 12" } } });
    expect((await t.gqlOk(READ, { slug: b.slug })).business.page.supportPhone).toBe("+1 (330) 555-0142 ext. 12");

    for (const bad of ["call us", "555", "(330) 555-0142\n2", "330\t555 0142", "1234567890123456", "+1 330 555 0142 <b>"]) {
      const r = await save(bad);
      expect(r.saveBusinessPage.__typename, bad).toBe("ValidationError");
      expect(r.saveBusinessPage.issues[0].path).toBe("content.supportPhone");
    }
    expect((await t.gqlOk(READ, { slug: b.slug })).business.page.supportPhone).toBe("+1 (330) 555-0142 ext. 12");

    expect((await save("")).saveBusinessPage.data.page.supportPhone).toBe("");
  });

  it("REST saves in the §3 shape keep it when left out, set it when given and refuse a bad one; GET keeps the §3 keys", async () => {
    const b = await editorOf("rest-phone-farm");
    const saved = await t.gqlOk(SAVE, { input: { businessId: b.id, content: { brand: { name: "Rest Farm" }, supportPhone: "(503) 555-0187" } } }, { token: b.token });
    expect(saved.saveBusinessPage.data.page.supportPhone).toBe("(503) 555-0187");
    const url = `/api/admin/businesses/${b.id}/page`;
    const legacy = await call("POST", url, { token: b.token, payload: { content: { brand: { name: "Rest Farm 2" } } } });
    expect(legacy.status).toBe(200);
    expect((await t.gqlOk(READ, { slug: b.slug })).business.page.supportPhone).toBe("(503) 555-0187");

    expect((await call("POST", url, { token: b.token, payload: { content: { brand: { name: "Rest Farm" }, supportPhone: "503.555.0100" } } })).status).toBe(200);
    expect((await t.gqlOk(READ, { slug: b.slug })).business.page.supportPhone).toBe("503.555.0100");

    const bad = await call("POST", url, { token: b.token, payload: { content: { brand: { name: "Rest Farm" }, supportPhone: "not a phone" } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("Support phone must be a phone number such as (555) 123-4567");

    const read = await call("GET", url, { token: b.token });
    expect(read.status).toBe(200);
    expect(read.body.content).not.toHaveProperty("supportPhone");
  });
});
