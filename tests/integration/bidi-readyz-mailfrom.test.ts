/**
 * Bidirectional controls (a right-to-left override reorders what an owner reads on a packing slip)
 * are refused, naming the field, in every single-line field and in gift messages and delivery instructions;
 * /readyz answers 503 "schema missing" on a database whose product tables were dropped while
 * `_prisma_migrations` stayed; MAIL_FROM takes the `Name <address>` form operators write.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, testConfig } from "../../api/config.ts";
import { businessSender, businessMailSelect, platformSender } from "../../api/mail/brand.ts";
import { deliver } from "../../api/mail/sender.ts";
import { newMessageId } from "../../api/mail/store.ts";
import { smtpTransport } from "../../api/mail/transport.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories } from "../support/factories.ts";
import { startTestSmtp } from "../support/smtp.ts";

const RLO = "\u202E";
const BIDI = /bidirectional control/i;

const REGISTER = `mutation($input: RegisterInput!) { register(input: $input) { __typename ... on Error { message } ... on ValidationError { issues { path message } } } }`;
const UPDATE_PROFILE = `mutation($input: UpdateProfileInput!) { updateProfile(input: $input) { __typename ... on Error { message } ... on ValidationError { issues { path message } } } }`;
const START = `mutation($input: StartCheckoutInput!) { startCheckout(input: $input) { __typename ... on Error { message } ... on ValidationError { issues { path message } } } }`;

/** A typed GraphQL ValidationError naming the field. */
function expectTypedRefusal(result: any, pathName: string) {
  expect(result?.__typename, JSON.stringify(result)).toBe("ValidationError");
  expect(result.message).toMatch(BIDI);
  expect(result.issues).toEqual(expect.arrayContaining([{ path: pathName, message: expect.stringMatching(BIDI) }]));
}

/** A REST 400 invalid_input naming the field. */
function expectRestRefusal(res: { statusCode: number; json(): any }, pathName: RegExp) {
  const body = res.json();
  expect(res.statusCode, JSON.stringify(body)).toBe(400);
  expect(body).toMatchObject({ reason: "invalid_input", error: expect.stringMatching(BIDI) });
  expect(body.issues).toEqual(expect.arrayContaining([{ path: expect.stringMatching(pathName), message: expect.stringMatching(BIDI) }]));
}

describe("bidirectional control characters", () => {
  let t: TestApp;
  let memberToken: string;
  let memberId: number;
  let planRef: string;
  let seq = 0;

  beforeAll(async () => {
    t = await createTestApp();
    const f = factories(t);
    const farm = await f.business({ slug: "farm", page: { pickupEnabled: true, deliveryEnabled: true, pickupPoints: ["Market Hall"], deliveryAreas: ["Riverside"] } });
    planRef = (await f.plan(farm, { name: "Veg Box", prices: { PICKUP: 3000, DELIVERY: 3300 } })).ref;
    const member = await f.user({ username: "mara", email: "mara@example.com" });
    memberId = member.id;
    memberToken = await f.session(member, "farm");
  });
  afterAll(() => t?.close());

  const rest = (url: string, payload: unknown, token?: string) =>
    t.app.inject({ method: "POST", url, headers: { "content-type": "application/json", "x-tenant": "farm", ...(token ? { authorization: `Bearer ${token}` } : {}) }, payload: JSON.stringify(payload) });
  const member = () => t.db.prisma.user.findUniqueOrThrow({ where: { id: memberId } });
  const counts = async () => ({ users: await t.db.prisma.user.count(), subscriptions: await t.db.prisma.subscription.count() });
  const address = (extra: Record<string, string> = {}) => ({ fullName: "Pat Lee", street: "1 Main St", city: "Springfield", state: "IL", zip: "62701", country: "US", ...extra });

  it("GraphQL: a username, a name and an address street with U+202E are refused naming the field, nothing stored", async () => {
    const before = { ...(await counts()), member: await member() };
    const reg = await t.gqlOk(REGISTER, { input: { username: `ali${RLO}ce`, password: "correct-horse" } });
    expectTypedRefusal(reg.register, "username");
    const name = await t.gqlOk(UPDATE_PROFILE, { input: { name: `Mara ${RLO}eeL` } }, { token: memberToken });
    expectTypedRefusal(name.updateProfile, "name");
    const street = await t.gqlOk(UPDATE_PROFILE, { input: { address: address({ street: `${RLO}12 Main St` }) } }, { token: memberToken });
    expectTypedRefusal(street.updateProfile, "address.street");
    // The isolates (U+2066–U+2069) and the other embeddings too.
    for (const ch of ["\u202A", "\u202B", "\u202C", "\u202D", "\u2066", "\u2067", "\u2068", "\u2069"]) {
      const r = await t.gqlOk(UPDATE_PROFILE, { input: { name: `Mara${ch}` } }, { token: memberToken });
      expectTypedRefusal(r.updateProfile, "name");
    }
    expect({ ...(await counts()), member: await member() }).toEqual(before);
  });

  it("REST: the same refusals, 400 invalid_input naming the field, nothing stored", async () => {
    const before = { ...(await counts()), member: await member() };
    expectRestRefusal(await rest("/api/auth/register", { username: `bob${RLO}`, password: "correct-horse" }), /^username$/);
    expectRestRefusal(await rest("/api/my/profile", { profile: { name: `Mara ${RLO}eeL` } }, memberToken), /(^|\.)name$/);
    expectRestRefusal(await rest("/api/my/profile", { profile: { address: address({ street: `${RLO}12 Main St` }) } }, memberToken), /address\.street$/);
    expect({ ...(await counts()), member: await member() }).toEqual(before);
  });

  it("a gift message and delivery instructions with U+202E are refused naming the field (GraphQL and REST), nothing stored", async () => {
    const before = { ...(await counts()), member: await member() };
    const start = (extra: Record<string, unknown>, mode = "PICKUP") =>
      t.gqlOk(START, { input: { selection: { businessSlug: "farm", planRef, mode }, email: "pat@example.com", idempotencyKey: `bidi-attempt-${++seq}`, ...extra } }, { token: memberToken, tenant: "farm" });
    expectTypedRefusal((await start({ isGift: true, giftMessage: `Happy birthday ${RLO}maS` })).startCheckout, "giftMessage");
    expectTypedRefusal((await start({ address: address({ instructions: `Gate code ${RLO}4321` }) }, "DELIVERY")).startCheckout, "address.instructions");
    const profile = await t.gqlOk(UPDATE_PROFILE, { input: { address: address({ instructions: `Leave at \u2067the shed\u2069` }) } }, { token: memberToken });
    expectTypedRefusal(profile.updateProfile, "address.instructions");

    const restStart = (selection: Record<string, unknown>) =>
      rest("/api/create-payment-intent", { selection: { businessSlug: "farm", chosenItemId: planRef, mode: "pickup", email: "pat@example.com", ...selection } }, memberToken);
    expectRestRefusal(await restStart({ isGift: true, giftMessage: `Happy birthday ${RLO}maS` }), /giftMessage$/);
    expectRestRefusal(await rest("/api/my/profile", { profile: { address: address({ instructions: `Gate ${RLO}4321` }) } }, memberToken), /address\.instructions$/);
    expect({ ...(await counts()), member: await member() }).toEqual(before);
  });

  it("multi-line gift messages and instructions keep their line breaks, and the directional marks stay allowed", async () => {
    const profile = await t.gqlOk(UPDATE_PROFILE, { input: { address: address({ fullName: "\u05E9\u05E8\u05D4 \u200F(2)", instructions: "Gate code 1234\nLeave by the shed" }) } }, { token: memberToken });
    expect(profile.updateProfile.__typename, JSON.stringify(profile)).not.toMatch(/Error$/);
    const started = await t.gqlOk(
      START,
      { input: { selection: { businessSlug: "farm", planRef, mode: "PICKUP" }, email: "pat@example.com", idempotencyKey: `bidi-attempt-${++seq}`, isGift: true, giftMessage: "Happy birthday,\nSam!" } },
      { token: memberToken, tenant: "farm" },
    );
    expect(started.startCheckout.__typename, JSON.stringify(started)).toBe("StartCheckoutSuccess");
  });
});

describe("/readyz and missing tables", () => {
  it("answers 503 schema missing on a database whose product table was dropped while _prisma_migrations stayed", async () => {
    const t = await createTestApp();
    try {
      await t.db.prisma.$executeRawUnsafe(`DROP TABLE coupons CASCADE`);
      expect(await t.db.prisma.$queryRawUnsafe(`SELECT count(*)::int AS n FROM _prisma_migrations`)).toEqual([{ n: expect.any(Number) }]);
      const res = await t.app.inject({ method: "GET", url: "/readyz" });
      expect(res.statusCode).toBe(503);
      expect(res.headers["cache-control"]).toBe("no-store");
      expect(res.json()).toEqual({ ready: false, reason: "schema missing" });
    } finally {
      await t.close();
    }
  });

  it("forgets a cached pass as soon as a request fails on the missing table", async () => {
    const t = await createTestApp();
    try {
      const f = factories(t);
      const adminToken = await f.session(await f.user({ username: "root", isAdmin: true }));
      expect((await t.app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(200);
      await t.db.prisma.$executeRawUnsafe(`DROP TABLE coupons CASCADE`);
      // Within the 30 s the pass is trusted…
      expect((await t.app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(200);
      // …until a request fails with "relation … does not exist" (GraphQL here, then REST).
      const gql = await t.gql(`{ coupons(first: 5) { edges { node { id } } } }`, {}, { token: adminToken });
      expect(gql.errors?.length, JSON.stringify(gql)).toBeGreaterThan(0);
      const res = await t.app.inject({ method: "GET", url: "/readyz" });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ ready: false, reason: "schema missing" });
    } finally {
      await t.close();
    }
  });

  it("REST: a failed request on a missing table drops the cached pass too", async () => {
    const t = await createTestApp();
    try {
      const f = factories(t);
      const adminToken = await f.session(await f.user({ username: "root", isAdmin: true }));
      expect((await t.app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(200);
      await t.db.prisma.$executeRawUnsafe(`DROP TABLE coupons CASCADE`);
      const res = await t.app.inject({ method: "GET", url: "/api/admin/coupons", headers: { authorization: `Bearer ${adminToken}` } });
      expect(res.statusCode).toBe(500);
      expect((await t.app.inject({ method: "GET", url: "/readyz" })).json()).toEqual({ ready: false, reason: "schema missing" });
    } finally {
      await t.close();
    }
  });
});

describe("MAIL_FROM with a name", () => {
  it("loadConfig accepts `Name <address>` (quoted or not) and a bare address, and refuses anything else", () => {
    expect(loadConfig({ MAIL_FROM: "Green Acres <noreply@example.com>" })).toMatchObject({ mailFrom: "noreply@example.com", mailFromName: "Green Acres" });
    expect(loadConfig({ MAIL_FROM: '"Acres, Inc." <noreply@example.com>' })).toMatchObject({ mailFrom: "noreply@example.com", mailFromName: "Acres, Inc." });
    expect(loadConfig({ MAIL_FROM: "noreply@example.com" })).toMatchObject({ mailFrom: "noreply@example.com", mailFromName: undefined });
    expect(loadConfig({})).toMatchObject({ mailFrom: "no-reply@localhost.localdomain", mailFromName: undefined });
    for (const bad of ["Green Acres", "Green Acres <not an address>", "Green <a@example.com> <b@example.com>", "Green\nAcres <a@example.com>"]) {
      expect(() => loadConfig({ MAIL_FROM: bad }), bad).toThrow(/MAIL_FROM: must be an email address/);
    }
  });

  it("the name is the From name where a business has no sender name (and of platform mail); the From header of a sent message", async () => {
    const smtp = await startTestSmtp();
    const config = { ...testConfig({ smtpUrl: smtp.url }), ...(({ mailFrom, mailFromName }) => ({ mailFrom, mailFromName }))(loadConfig({ MAIL_FROM: "Green Acres <noreply@example.com>" })) };
    const t = await createTestApp({ config });
    try {
      const f = factories(t);
      const plain = await f.business({ slug: "plain", name: "Plain Farm", page: {} });
      const named = await f.business({ slug: "named", name: "Named Farm", page: { mailSenderName: "Named Farm Team" } });
      const load = (id: number) => t.db.prisma.business.findUniqueOrThrow({ where: { id }, select: businessMailSelect });
      const sender = businessSender(config, await load(plain.id));
      expect(sender.fromName).toBe("Green Acres");
      expect(businessSender(config, await load(named.id)).fromName).toBe("Named Farm Team");
      expect((await platformSender(t.db.prisma, config)).fromName).toBe("Green Acres");
      // Without a name in MAIL_FROM the business's brand stays the From name.
      expect(businessSender({ ...config, mailFromName: undefined }, await load(plain.id)).fromName).toBe("Plain Farm");

      const row = await t.db.prisma.mailMessage.create({
        data: {
          businessId: plain.id,
          dedupeKey: "test:mail-from",
          template: "test",
          toAddress: "pat@example.com",
          fromName: sender.fromName,
          subject: "Hello",
          html: "<p>Hello</p>",
          text: "Hello",
          messageId: newMessageId(config),
          createdAt: t.clock.now(),
        },
      });
      const transport = smtpTransport(smtp.url);
      try {
        expect(await deliver({ db: t.db.prisma, clock: t.clock, config, transport }, row.id)).toBe("sent");
      } finally {
        transport.close();
      }
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0].from?.value[0]).toEqual({ name: "Green Acres", address: "noreply@example.com" });
    } finally {
      await t.close();
      await smtp.close();
    }
  });
});
