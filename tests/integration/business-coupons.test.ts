/**
 * A business's own coupons (issue "Owners run their own business"): its owners and editors manage them (editContent),
 * administrators keep platform coupons, codes never clash across the two, checkout looks the business's own code up
 * first, then the platform's, and refuses an expired, used-up or other-plan code with spec §4's one message; REST
 * keeps answering platform coupons only. Runs on both databases.
 */
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runRenewals } from "../../api/billing/renewals/clock.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";
import { PAY } from "../support/payments.ts";

let t: TestApp;
let f: Factories;
let seq = 0;
const INVALID = "Invalid or inactive coupon code";
/** A business in Los Angeles (its expiry days end there), and another in New York. */
let alpha: { id: number; slug: string };
let beta: { id: number; slug: string };
let boxA = 0;
let bigA = 0;
const tokens: Record<string, string> = {};
let ownerA: { id: number };

const CREATE = `mutation($input: CreateCouponInput!) { createCoupon(input: $input) {
  __typename ... on CreateCouponSuccess { data { databaseId code isPlatform duration durationMonths expiresOn maxRedemptions planIds active business { slug } } }
  ... on Error { message reason } ... on ValidationError { issues { path message } } } }`;
const UPDATE = `mutation($input: UpdateCouponInput!) { updateCoupon(input: $input) {
  __typename ... on UpdateCouponSuccess { data { code expiresOn maxRedemptions planIds active value } } ... on Error { message } } }`;
const TOGGLE = `mutation($id: ID!) { toggleCoupon(input: { id: $id }) { __typename ... on ToggleCouponSuccess { data { active } } ... on Error { message } } }`;
const DELETE = `mutation($id: ID!) { deleteCoupon(input: { id: $id }) { __typename ... on Error { message } } }`;
const BUSINESS_COUPONS = `query($id: Int!) { adminBusiness(id: $id) { coupons { edges { node { code redemptionCount
  redemptions { edges { node { username businessName chargesUsed chargesLeft redeemedAt } } } } } } } }`;
const QUOTE = `query($s: CheckoutSelectionInput!) { checkoutQuote(selection: $s) {
  __typename ... on CheckoutQuoteSuccess { data { discountCents couponCode totalCents } } ... on Error { message } } }`;

const run = async (token: string | null, query: string, variables: Record<string, unknown>) => {
  const res = await t.gql(query, variables, { token });
  return res.errors ? { __typename: "GraphQLError", message: res.errors[0].message } : Object.values(res.data)[0] as { __typename: string; data?: any; message?: string };
};
const create = (token: string | null, input: Record<string, unknown>) => run(token, CREATE, { input: { type: "PERCENT", value: 10, ...input } });
const quote = (slug: string, couponCode: string, planRef = "item_box_" + slug) =>
  t.gqlOk(QUOTE, { s: { businessSlug: slug, planRef, mode: "PICKUP", couponCode } }).then((d) => d.checkoutQuote);

async function checkout(slug: string, couponCode: string) {
  const user = await f.user({ username: `shopper${++seq}`, email: `shopper${seq}@example.com` });
  const token = await f.session(user, slug);
  const selection = { businessSlug: slug, planRef: "item_box_" + slug, mode: "PICKUP", couponCode };
  const started = (await t.gqlOk(PAY.START, { input: { selection, email: `shopper${seq}@example.com`, idempotencyKey: `biz-coupons-${seq}` } }, { token, tenant: slug })).startCheckout;
  if (started.__typename !== "StartCheckoutSuccess") return started;
  await t.gqlOk(PAY.CONFIRM, { s: started.data.clientSecret }, { token, tenant: slug });
  return (await t.gqlOk(PAY.COMPLETE, { id: started.data.paymentIntentId }, { token, tenant: slug })).completeCheckout;
}

beforeAll(async () => {
  t = await createTestApp({ now: "2026-03-05T15:00:00Z" });
  f = factories(t);
  alpha = await f.business({ slug: "alpha", timeZone: "America/Los_Angeles", page: { pickupEnabled: true, billingDay: 10 } });
  beta = await f.business({ slug: "beta", page: { pickupEnabled: true, billingDay: 10 } });
  for (const b of [alpha, beta]) {
    await t.db.prisma.plan.create({ data: { businessId: b.id, ref: `item_box_${b.slug}`, name: "Box", variations: { create: [{ mode: "PICKUP", amountCents: 3000 }] } } });
  }
  boxA = (await t.db.prisma.plan.findFirstOrThrow({ where: { ref: "item_box_alpha" } })).id;
  bigA = (await t.db.prisma.plan.create({ data: { businessId: alpha.id, ref: "item_big_alpha", name: "Big Box", variations: { create: [{ mode: "PICKUP", amountCents: 5000 }] } } })).id;
  const users: Record<string, { id: number }> = {};
  const user = async (name: string, o: { isAdmin?: boolean } = {}) => {
    users[name] = await f.user({ username: name.toLowerCase(), ...o });
    tokens[name] = await f.session(users[name]);
    return users[name];
  };
  await user("admin", { isAdmin: true });
  for (const [name, role] of [["ownerA", "OWNER"], ["editorA", "EDITOR"], ["viewerA", "VIEWER"]] as const) await f.attach(alpha, await user(name), role);
  await f.attach(beta, await user("ownerB"), "OWNER");
  ownerA = users.ownerA;
  await user("member");
});
afterAll(() => t?.close());

describe("who manages a business's coupons", () => {
  it("its owners and editors create, update, toggle and delete them; viewers, other owners, members, partners and visitors are refused", async () => {
    const partner = await f.partnerToken(alpha, ownerA, ["memberships:read", "orders:read", "fulfilment:read"]);
    for (const [who, token] of [["viewerA", tokens.viewerA], ["ownerB", tokens.ownerB], ["member", tokens.member], ["partner", partner], ["anonymous", null]] as const) {
      const made = await create(token, { businessId: String(alpha.id), code: `NO${who}` });
      expect(made.__typename, who).toMatch(/ForbiddenError|UnauthenticatedError/);
      const list = await t.gql(BUSINESS_COUPONS, { id: alpha.id }, { token });
      expect(list.data?.adminBusiness?.coupons ?? null, who).toBeNull();
    }
    for (const who of ["ownerA", "editorA", "admin"]) {
      const made = await create(tokens[who], { businessId: String(alpha.id), code: `by-${who}` });
      expect(made, who).toMatchObject({ __typename: "CreateCouponSuccess", data: { code: `BY-${who.toUpperCase()}`, isPlatform: false, business: { slug: "alpha" } } });
      const id = String(made.data.databaseId);
      expect((await run(tokens[who], UPDATE, { input: { id, maxRedemptions: 5 } })).__typename, who).toBe("UpdateCouponSuccess");
      expect((await run(tokens[who], TOGGLE, { id })).data, who).toEqual({ active: false });
      // Another business's owner or a viewer cannot touch it, whatever they know of its id.
      for (const other of ["ownerB", "viewerA", "member"]) {
        expect((await run(tokens[other], TOGGLE, { id })).__typename, `${other} on ${who}'s`).toBe("ForbiddenError");
        expect((await run(tokens[other], DELETE, { id })).__typename, `${other} on ${who}'s`).toBe("ForbiddenError");
        expect((await run(tokens[other], UPDATE, { input: { id, active: true } })).__typename, `${other} on ${who}'s`).toBe("ForbiddenError");
      }
      expect((await run(tokens[who], DELETE, { id })).__typename, who).toBe("DeleteCouponSuccess");
    }
    // Platform coupons stay the administrators': an owner may not make one, nor toggle one.
    expect((await create(tokens.ownerA, { code: "OWNERPLATFORM" })).__typename).toBe("ForbiddenError");
    const platform = await create(tokens.admin, { code: "PLATFORM5" });
    expect(platform.data).toMatchObject({ isPlatform: true, business: null });
    expect((await run(tokens.ownerA, TOGGLE, { id: String(platform.data.databaseId) })).__typename).toBe("ForbiddenError");
    // The admins' list is the platform's; the business's is its own.
    const adminList = await t.gqlOk(`{ coupons { edges { node { code } } } }`, {}, { token: tokens.admin });
    expect(adminList.coupons.edges.map((e: any) => e.node.code)).toEqual(["PLATFORM5"]);
    expect((await t.gql(`{ coupons { edges { node { code } } } }`, {}, { token: tokens.ownerA })).errors?.[0]?.message).toBe("You do not have permission to do this.");
  });

  it("announces each change in the business's own events (businessId in the payload)", async () => {
    const made = await create(tokens.editorA, { businessId: String(alpha.id), code: "EVENTFUL" });
    const events = await t.db.prisma.event.findMany({ where: { type: { startsWith: "coupon." }, payload: { path: ["couponId"], equals: made.data.databaseId } } });
    expect(events.map((e) => [e.type, e.businessId, e.payload])).toEqual([
      ["coupon.created.v1", alpha.id, { couponId: made.data.databaseId, businessId: alpha.id, code: "EVENTFUL", type: "PERCENT", value: 10, active: true }],
    ]);
  });
});

describe("codes", () => {
  it("a business code may not equal a platform code, nor a platform code one a business uses; other businesses may share theirs", async () => {
    expect(await create(tokens.ownerA, { businessId: String(alpha.id), code: "platform5" })).toMatchObject({ __typename: "ConflictError", message: "This code is a platform coupon's. Please choose another." });
    expect((await create(tokens.ownerA, { businessId: String(alpha.id), code: "SHARED" })).__typename).toBe("CreateCouponSuccess");
    expect((await create(tokens.ownerB, { businessId: String(beta.id), code: "shared" })).__typename).toBe("CreateCouponSuccess");
    expect(await create(tokens.ownerA, { businessId: String(alpha.id), code: "Shared" })).toMatchObject({ __typename: "ConflictError", message: "A coupon with this code already exists" });
    expect(await create(tokens.admin, { code: "SHARED" })).toMatchObject({ __typename: "ConflictError", message: "A business uses this code for its own coupon. Please choose another." });
    // Renaming is held to the same rules.
    const other = await create(tokens.ownerA, { businessId: String(alpha.id), code: "RENAMEME" });
    expect((await run(tokens.ownerA, UPDATE, { input: { id: String(other.data.databaseId), code: "platform5" } })).message).toBe("This code is a platform coupon's. Please choose another.");
  });

  it("checkout looks up the business's own code first, then the platform's", async () => {
    // Two coupons of one code, written straight to the database (the rules above keep new ones from clashing).
    await t.db.prisma.coupon.create({ data: { businessId: alpha.id, code: "BOTH", type: "PERCENT", value: 20 } });
    await t.db.prisma.coupon.create({ data: { businessId: null, code: "BOTH", type: "PERCENT", value: 10 } });
    expect((await quote("alpha", "both")).data).toMatchObject({ couponCode: "BOTH", discountCents: 600 });
    expect((await quote("beta", "both")).data).toMatchObject({ couponCode: "BOTH", discountCents: 300 });
    // A business's own coupon is nobody else's; a platform coupon works at every business.
    await create(tokens.ownerA, { businessId: String(alpha.id), code: "ALPHAONLY" });
    expect((await quote("alpha", "ALPHAONLY")).__typename).toBe("CheckoutQuoteSuccess");
    expect(await quote("beta", "ALPHAONLY")).toMatchObject({ __typename: "ValidationError", message: INVALID });
    for (const slug of ["alpha", "beta"]) expect((await quote(slug, "PLATFORM5")).data.discountCents).toBe(300);
  });
});

describe("terms refused at checkout, the quote and the checkout alike", () => {
  it("a plan list: other plans are refused", async () => {
    const made = await create(tokens.ownerA, { businessId: String(alpha.id), code: "BIGONLY", planIds: [String(bigA)] });
    expect(made.data.planIds).toEqual([bigA]);
    expect((await quote("alpha", "BIGONLY", "item_big_alpha")).data.discountCents).toBe(500);
    expect(await quote("alpha", "BIGONLY")).toMatchObject({ __typename: "ValidationError", message: INVALID });
    expect(await checkout("alpha", "BIGONLY")).toMatchObject({ __typename: "ValidationError", message: INVALID });
    // Plans of another business, or on a platform coupon, are refused when the coupon is made.
    const betaPlan = await t.db.prisma.plan.findFirstOrThrow({ where: { businessId: beta.id } });
    expect((await create(tokens.ownerA, { businessId: String(alpha.id), code: "WRONGPLAN", planIds: [String(betaPlan.id)] })).message).toBe("Choose plans of this business");
    expect((await create(tokens.admin, { code: "PLATFORMPLAN", planIds: [String(boxA)] })).__typename).toBe("ValidationError");
  });

  it("an expiry day ends at midnight in the business's time zone", async () => {
    const made = await create(tokens.ownerA, { businessId: String(alpha.id), code: "MARCH5", expiresOn: "2026-03-05" });
    expect(made.data.expiresOn).toBe("2026-03-05");
    expect((await create(tokens.ownerA, { businessId: String(alpha.id), code: "PAST", expiresOn: "2026-03-04" })).message).toBe("The expiry date has passed");
    try {
      // 23:59 on March 5th in Los Angeles is 07:59 UTC on the 6th: still accepted.
      t.clock.set("2026-03-06T07:59:00Z");
      expect((await quote("alpha", "MARCH5")).__typename).toBe("CheckoutQuoteSuccess");
      t.clock.set("2026-03-06T08:00:00Z");
      expect(await quote("alpha", "MARCH5")).toMatchObject({ __typename: "ValidationError", message: INVALID });
      expect(await checkout("alpha", "MARCH5")).toMatchObject({ __typename: "ValidationError", message: INVALID });
    } finally {
      t.clock.set("2026-03-05T15:00:00Z");
    }
  });

  it("a used-up coupon is refused; its redemptions list the member, the date and the months used", async () => {
    const made = await create(tokens.ownerA, { businessId: String(alpha.id), code: "TWICE", maxRedemptions: 2, duration: "REPEATING", durationMonths: 3 });
    expect(made.data).toMatchObject({ maxRedemptions: 2, duration: "REPEATING", durationMonths: 3 });
    expect((await create(tokens.ownerA, { businessId: String(alpha.id), code: "BADMONTHS", duration: "REPEATING", durationMonths: 1 })).message).toBe("Please enter 2 to 36 months");
    for (let i = 0; i < 2; i++) expect((await checkout("alpha", "twice")).__typename).toBe("CompleteCheckoutSuccess");
    const last = seq;
    expect(await quote("alpha", "TWICE")).toMatchObject({ __typename: "ValidationError", message: INVALID });
    expect(await checkout("alpha", "TWICE")).toMatchObject({ __typename: "ValidationError", message: INVALID });
    const list = await t.gqlOk(BUSINESS_COUPONS, { id: alpha.id }, { token: tokens.editorA });
    const twice = list.adminBusiness.coupons.edges.map((e: any) => e.node).find((c: any) => c.code === "TWICE");
    expect(twice.redemptionCount).toBe(2);
    expect(twice.redemptions.edges.map((e: any) => e.node)).toEqual([
      { username: `shopper${last}`, businessName: expect.any(String), chargesUsed: 1, chargesLeft: 2, redeemedAt: "2026-03-05T15:00:00.000Z" },
      { username: `shopper${last - 1}`, businessName: expect.any(String), chargesUsed: 1, chargesLeft: 2, redeemedAt: "2026-03-05T15:00:00.000Z" },
    ]);
    // The limit is never set below what was redeemed; terms stay as they were redeemed.
    const id = String(made.data.databaseId);
    expect((await run(tokens.ownerA, UPDATE, { input: { id, maxRedemptions: 1 } })).message).toBe("The maximum redemptions cannot be below the 2 already made");
    expect((await run(tokens.ownerA, UPDATE, { input: { id, value: 50 } })).message).toBe("A redeemed coupon keeps its code, discount and duration: create a new coupon instead.");
    expect((await run(tokens.ownerA, UPDATE, { input: { id, maxRedemptions: 3, expiresOn: "2026-12-31" } })).data).toMatchObject({ maxRedemptions: 3, expiresOn: "2026-12-31" });
    expect((await quote("alpha", "TWICE")).__typename).toBe("CheckoutQuoteSuccess");
  });

  it("deleting a coupon ends its discount for the memberships holding it from their next charge; orders keep theirs", async () => {
    await create(tokens.ownerA, { businessId: String(alpha.id), code: "GONE" });
    const done = await checkout("alpha", "GONE");
    expect(done.data.order.totalCents).toBe(2700);
    const coupon = await t.db.prisma.coupon.findFirstOrThrow({ where: { code: "GONE" } });
    const holder = await t.db.prisma.subscription.findFirstOrThrow({ where: { couponId: coupon.id } });
    expect((await run(tokens.editorA, DELETE, { id: String(coupon.id) })).__typename).toBe("DeleteCouponSuccess");
    expect(await t.db.prisma.subscription.findUniqueOrThrow({ where: { id: holder.id } })).toMatchObject({ couponId: null, discountCents: 0, totalCents: 3000 });
    expect(await t.db.prisma.order.findFirstOrThrow({ where: { subscriptionId: holder.id } })).toMatchObject({ couponCode: "GONE", discountCents: 300, totalCents: 2700 });
  });
});

describe("REST keeps the spec's coupon calls, for platform coupons only", () => {
  const call = async (method: "GET" | "POST" | "DELETE", url: string) => {
    const res = await t.app.inject({ method, url, headers: { authorization: `Bearer ${tokens.admin}` } });
    return { status: res.statusCode, body: res.json() };
  };

  it("lists platform coupons in the spec's shape and does not reach a business's", async () => {
    const list = await call("GET", "/api/admin/coupons");
    expect(list.status).toBe(200);
    const platform = await t.db.prisma.coupon.findMany({ where: { businessId: null }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
    expect(list.body).toEqual(platform.map((c) => ({ id: c.id, code: c.code, type: c.type.toLowerCase(), value: c.value, active: c.active })));
    const own = await t.db.prisma.coupon.findFirstOrThrow({ where: { businessId: alpha.id } });
    expect((await call("POST", `/api/admin/coupons/${own.id}/toggle`)).status).toBe(404);
    expect((await call("DELETE", `/api/admin/coupons/${own.id}`)).status).toBe(404);
    expect(await t.db.prisma.coupon.findUnique({ where: { id: own.id } })).toMatchObject({ active: own.active });
  });
});

describe("a next-month sign-up", () => {
  it("redeems the coupon when it signs up; the coupon's first charge, and the one a once coupon discounts, is the first renewal's", async () => {
    const late = await f.business({ slug: "late", page: { pickupEnabled: true, billingDay: 1, cutoffDay: 20, afterCutoff: "NEXT_MONTH" } });
    await t.db.prisma.plan.create({ data: { businessId: late.id, ref: "item_box_late", name: "Box", variations: { create: [{ mode: "PICKUP", amountCents: 3000 }] } } });
    await t.db.prisma.coupon.create({ data: { businessId: late.id, code: "FIRSTBOX", type: "PERCENT", value: 50, duration: "ONCE" } });
    const ctx = () => ({ db: t.db.prisma, clock: t.clock, config: t.config, log: pino({ level: "silent" }) });
    try {
      t.clock.set("2026-03-21T15:00:00Z");
      const user = await f.user({ username: "latecomer", email: "latecomer@example.com" });
      const token = await f.session(user, "late");
      const selection = { businessSlug: "late", planRef: "item_box_late", mode: "PICKUP", couponCode: "firstbox" };
      const started = (await t.gqlOk(PAY.START, { input: { selection, email: "latecomer@example.com", idempotencyKey: "late-coupon-1" } }, { token, tenant: "late" })).startCheckout;
      await t.gqlOk(`mutation($s: String!) { confirmSandboxSetup(clientSecret: $s, card: { number: "4242424242424242", expMonth: 12, expYear: 2031, cvc: "123" }) { __typename } }`, { s: started.data.clientSecret }, { token });
      const done = await t.gqlOk(`mutation($si: String) { completeCheckout(setupIntentId: $si) { __typename ... on CompleteCheckoutSuccess { data { chargedCents } } ... on Error { message } } }`, { si: started.data.paymentIntentId }, { token, tenant: "late" });
      expect(done.completeCheckout).toEqual({ __typename: "CompleteCheckoutSuccess", data: { chargedCents: 0 } });
      const membershipId = started.data.membership.databaseId;
      const redemption = () => t.db.prisma.couponRedemption.findFirstOrThrow({ where: { subscriptionId: membershipId } });
      expect(await redemption()).toMatchObject({ chargesUsed: 0, redeemedAt: new Date("2026-03-21T15:00:00Z") });
      t.clock.set("2026-04-01T15:00:00Z");
      await runRenewals(ctx(), { businessId: late.id });
      t.clock.set("2026-05-01T15:00:00Z");
      await runRenewals(ctx(), { businessId: late.id });
      const orders = await t.db.prisma.order.findMany({ where: { subscriptionId: membershipId }, orderBy: { period: "asc" } });
      expect(orders.map((o) => [o.period, o.kind, o.totalCents])).toEqual([["2026-04", "INITIAL", 1500], ["2026-05", "RENEWAL", 3000]]);
      expect(await redemption()).toMatchObject({ chargesUsed: 1 });
    } finally {
      t.clock.set("2026-03-05T15:00:00Z");
    }
  });
});
