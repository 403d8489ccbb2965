/**
 * A membership's acceptance story on a fake clock: a member subscribes, renews three times, skips a month, changes
 * the box, is canceled and restarts; every amount and date is what the spec's rules give. Runs on both databases.
 *
 * The business bills on the 28th (February has exactly 28 days in 2026), taxes 5.75 %, cutoff on the 20th,
 * skip and change windows on days 1–14; the member has a 10 % coupon.
 */
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runRenewals } from "../../api/billing/renewals/clock.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";

let t: TestApp;
let f: Factories;
let memberId: number;
let adminId: number;
/** A fresh login at the clock's current time (sessions last 30 days; this story spans seven months). */
const member = () => f.session({ id: memberId }, "farm");
const admin = () => f.session({ id: adminId });
let businessId: number;
let membershipId: number;
let familyPlanId: number;
let refs: { veg: { ref: string }; eggs: { ref: string } };

const log = pino({ level: "silent" });
const bill = async (at: string) => {
  t.clock.set(at);
  return runRenewals({ db: t.db.prisma, clock: t.clock, config: t.config, log }, { businessId });
};
const orders = async () =>
  (await t.db.prisma.order.findMany({ where: { subscriptionId: membershipId }, orderBy: { period: "asc" } })).map((o) => [o.period, o.kind, o.totalCents]);
const membership = () => t.db.prisma.subscription.findUniqueOrThrow({ where: { id: membershipId } });

const Q = {
  register: `mutation($i: RegisterInput!) { register(input: $i) { ... on RegisterSuccess { data { token } } } }`,
  start: `mutation($input: StartCheckoutInput!) { startCheckout(input: $input) { __typename ... on StartCheckoutSuccess { data { clientSecret paymentIntentId quote { subtotalCents discountCents taxCents totalCents nextBillingDate } membership { databaseId } } } ... on Error { message } } }`,
  confirm: `mutation($s: String!) { confirmSandboxPayment(clientSecret: $s, card: { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" }) { __typename } }`,
  complete: `mutation($id: String!) { completeCheckout(paymentIntentId: $id) { __typename ... on CompleteCheckoutSuccess { data { chargedCents nextBillingDate order { period kind } } } ... on Error { message } } }`,
  skip: `mutation($id: ID!) { skipMonth(input: { subscriptionId: $id }) { __typename ... on SkipMonthSuccess { data { resumeDate } } ... on Error { message } } }`,
  change: `mutation($input: ChangeSubscriptionInput!) { changeSubscription(input: $input) { __typename ... on ChangeSubscriptionSuccess { data { pendingChange { effectivePeriod } } } ... on Error { message } } }`,
  cancel: `mutation($id: ID!) { cancelSubscription(input: { subscriptionId: $id, mode: NOW }) { __typename ... on Error { message } } }`,
  restart: `mutation($id: ID!) { restartSubscription(input: { subscriptionId: $id }) { __typename ... on RestartSubscriptionSuccess { data { outcome membership { status } } } ... on Error { message } } }`,
  viewer: `{ viewer { subscriptions { status nextBoxDate totalCents } } }`,
};

beforeAll(async () => {
  t = await createTestApp({ now: "2026-01-10T15:00:00Z" });
  f = factories(t);
  const business = await f.business({
    slug: "farm",
    page: { billingDay: 28, cutoffDay: 20, taxEnabled: true, taxRateBps: 575, pickupEnabled: true, shippingEnabled: true },
  });
  businessId = business.id;
  const veg = await f.plan(business, { name: "Veg Box", prices: { PICKUP: 2400, SHIPPING: 2900 } });
  const family = await f.plan(business, { name: "Family Box", prices: { PICKUP: 3400, SHIPPING: 3900 } });
  familyPlanId = family.id;
  const eggs = await f.addon(business, { name: "Eggs", amountCents: 500 });
  await f.coupon({ code: "WELCOME10", type: "PERCENT", value: 10 });
  adminId = (await f.user({ isAdmin: true })).id;
  await t.gqlOk(Q.register, { i: { username: "lifecycle", password: "lifecycle-pass" } }, { tenant: "farm" });
  memberId = (await t.db.prisma.user.findUniqueOrThrow({ where: { username: "lifecycle" } })).id;
  refs = { veg, eggs };
});
afterAll(() => t.close());

describe("a membership's life on the billing clock", () => {
  it("checkout on Jan 10th: (2400 + 500) − 10 % + 5.75 % tax = $27.60, next billing Feb 28th", async () => {
    const { veg, eggs } = refs;
    const started = await t.gqlOk(Q.start, {
      input: {
        selection: { businessSlug: "farm", planRef: veg.ref, mode: "PICKUP", addonRefs: [eggs.ref], couponCode: "welcome10" },
        email: "life@example.com",
        idempotencyKey: "lifecycle-checkout-1",
        expectedTotalCents: 2760,
      },
    }, { token: await member(), tenant: "farm" });
    const data = started.startCheckout.data;
    // 2900 − 290 = 2610; 2610 × 5.75 % = 150.075 → 150
    expect(data.quote).toEqual({ subtotalCents: 2900, discountCents: 290, taxCents: 150, totalCents: 2760, nextBillingDate: "2026-02-28" });
    membershipId = data.membership.databaseId;
    await t.gqlOk(Q.confirm, { s: data.clientSecret });
    const done = await t.gqlOk(Q.complete, { id: data.paymentIntentId }, { token: await member() });
    expect(done.completeCheckout.data).toEqual({ chargedCents: 2760, nextBillingDate: "2026-02-28", order: { period: "2026-01", kind: "INITIAL" } });
  });

  it("renewal 1 on Feb 28th (the month's last day), not before", async () => {
    expect((await bill("2026-01-28T15:00:00Z")).charged).toBe(0); // January is paid
    expect((await bill("2026-02-27T15:00:00Z")).charged).toBe(0);
    expect((await bill("2026-02-28T15:00:00Z")).charged).toBe(1);
    expect(await orders()).toEqual([["2026-01", "INITIAL", 2760], ["2026-02", "RENEWAL", 2760]]);
  });

  it("skips March inside the skip window: no charge on March 28th, payments resume April 28th", async () => {
    t.clock.set("2026-03-05T15:00:00Z");
    const skipped = await t.gqlOk(Q.skip, { id: String(membershipId) }, { token: await member(), tenant: "farm" });
    expect(skipped.skipMonth.data.resumeDate).toBe("2026-04-28");
    expect(await bill("2026-03-28T15:00:00Z")).toMatchObject({ charged: 0, skipped: 1 });
    t.clock.set("2026-03-29T15:00:00Z");
    const outside = await t.gqlOk(Q.skip, { id: String(membershipId) }, { token: await member(), tenant: "farm" });
    expect(outside.skipMonth.__typename).toBe("RuleViolationError"); // day 29 is outside days 1–14
  });

  it("changes to the Family Box by shipping on April 2nd; April's renewal bills the new box: 3900 − 10 % + tax = $37.12", async () => {
    t.clock.set("2026-04-02T15:00:00Z");
    const changed = await t.gqlOk(Q.change, { input: { subscriptionId: String(membershipId), planId: String(familyPlanId), mode: "SHIPPING", addonIds: [] } }, { token: await member(), tenant: "farm" });
    expect(changed.changeSubscription.data.pendingChange).toEqual({ effectivePeriod: "2026-04" });
    // No charge today.
    expect(await orders()).toHaveLength(2);
    expect(await bill("2026-04-28T15:00:00Z")).toMatchObject({ charged: 1, changesApplied: 1 });
    // 3900 − 390 = 3510; × 5.75 % = 201.825 → 202
    expect((await orders()).at(-1)).toEqual(["2026-04", "RENEWAL", 3712]);
  });

  it("renewal 3 on May 28th", async () => {
    expect((await bill("2026-05-28T15:00:00Z")).charged).toBe(1);
    expect((await orders()).at(-1)).toEqual(["2026-05", "RENEWAL", 3712]);
  });

  it("canceled by the business on June 2nd, restarted by the member on June 10th with one charge for June", async () => {
    t.clock.set("2026-06-02T15:00:00Z");
    expect((await t.gqlOk(Q.cancel, { id: String(membershipId) }, { token: await admin() })).cancelSubscription.__typename).toBe("CancelSubscriptionSuccess");
    expect(await bill("2026-06-28T15:00:00Z")).toMatchObject({ due: 0 }); // canceled: never billed
    t.clock.set("2026-06-10T15:00:00Z");
    const restarted = await t.gqlOk(Q.restart, { id: String(membershipId) }, { token: await member(), tenant: "farm" });
    expect(restarted.restartSubscription.data).toEqual({ outcome: "PAID", membership: { status: "ACTIVE" } });
    const again = await t.gqlOk(Q.restart, { id: String(membershipId) }, { token: await member(), tenant: "farm" });
    expect(again.restartSubscription.__typename).not.toBe("RestartSubscriptionSuccess");
    expect((await bill("2026-06-28T15:00:00Z")).charged).toBe(0); // June paid by the restart
    expect((await bill("2026-07-28T15:00:00Z")).charged).toBe(1);
  });

  it("ends with exactly one paid order per billed month and one successful payment per order", async () => {
    expect(await orders()).toEqual([
      ["2026-01", "INITIAL", 2760],
      ["2026-02", "RENEWAL", 2760],
      ["2026-04", "RENEWAL", 3712],
      ["2026-05", "RENEWAL", 3712],
      ["2026-06", "RESTART", 3712],
      ["2026-07", "RENEWAL", 3712],
    ]);
    const payments = await t.db.prisma.payment.findMany({ where: { subscriptionId: membershipId, status: "SUCCEEDED" } });
    expect(payments).toHaveLength(6);
    expect(new Set(payments.map((p) => p.orderId)).size).toBe(6);
    expect(await membership()).toMatchObject({ status: "ACTIVE", paidThroughPeriod: "2026-07", totalCents: 3712, mode: "SHIPPING" });
    // On July 29th (past the 20th cutoff) the next box is August's, on the default box-ready day 1.
    t.clock.set("2026-07-29T15:00:00Z");
    const viewer = await t.gqlOk(Q.viewer, {}, { token: await member(), tenant: "farm" });
    expect(viewer.viewer.subscriptions[0]).toEqual({ status: "ACTIVE", nextBoxDate: "2026-08-01", totalCents: 3712 });
  });
});

describe("duplicate checkouts", () => {
  it("50 concurrent submits of one checkout open one payment and charge once", async () => {
    t.clock.set("2026-03-05T15:00:00Z");
    const { veg } = refs;
    const user = await f.user({ email: "rush@example.com" });
    const rush = await f.session(user, "farm");
    const input = { selection: { businessSlug: "farm", planRef: veg.ref, mode: "PICKUP", addonRefs: [] }, email: "rush@example.com", idempotencyKey: "same-click-key-123" };
    const results = await Promise.all(Array.from({ length: 50 }, () => t.gqlOk(Q.start, { input }, { token: rush, tenant: "farm" })));
    const ok = results.filter((r) => r.startCheckout.__typename === "StartCheckoutSuccess").map((r) => r.startCheckout.data);
    const refused = results.filter((r) => r.startCheckout.__typename !== "StartCheckoutSuccess");
    expect(ok.length).toBeGreaterThan(0);
    expect(new Set(ok.map((d) => d.paymentIntentId)).size).toBe(1);
    expect(refused.every((r) => r.startCheckout.__typename === "ConflictError")).toBe(true);
    expect(await t.db.prisma.subscription.count({ where: { userId: user.id } })).toBe(1);
    expect(await t.db.prisma.payment.count({ where: { userId: user.id } })).toBe(1);

    await t.gqlOk(Q.confirm, { s: ok[0].clientSecret });
    const completions = await Promise.all(Array.from({ length: 10 }, () => t.gqlOk(Q.complete, { id: ok[0].paymentIntentId }, { token: rush })));
    expect(completions.every((c) => c.completeCheckout.__typename === "CompleteCheckoutSuccess")).toBe(true);
    expect(await t.db.prisma.order.count({ where: { userId: user.id } })).toBe(1);
    expect(await t.db.prisma.payment.count({ where: { userId: user.id, status: "SUCCEEDED" } })).toBe(1);
  });
});
