/**
 * A coupon's months are the charges made with it, counted from its first (api/shared/coupon-terms.ts): once = the
 * checkout's charge only, 3 months = it and the next two, forever = every charge; a coupon attached between charges
 * (through the redemption function) counts from the next renewal. Four months on the injectable clock: in each, the
 * pre-charge notice, the portal's price (and a scheduled change's breakdown) and the charge agree, and the coupon's
 * redemption counts the charges made with it. Runs on both databases.
 */
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runRenewals } from "../../api/billing/renewals/clock.ts";
import { attachCoupon } from "../../api/billing/coupons.ts";
import { planReminders } from "../../api/mail/reminders.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";
import { PAY } from "../support/payments.ts";

let t: TestApp;
let f: Factories;
const log = pino({ level: "silent" });
const ctx = () => ({ db: t.db.prisma, clock: t.clock, config: t.config, log });

const SLUG = "durations";
/** $30.00 box, 5.75 % tax: full 3000 + 173 = 3173; 10 % off 2700 + 155 = 2855; $5.00 off 2500 + 144 = 2644. */
const FULL = 3173;
const TEN_OFF = 2855;
const FIVE_OFF = 2644;
/** With the $5.00 add-on (3500): full 3500 + 201 = 3701; 10 % off 3150 + 181 = 3331. */
const EGGS_FULL = 3701;
const EGGS_TEN_OFF = 3331;

const members = new Map<string, { userId: number; token: string; membershipId: number }>();
let planId = 0;
let eggsId = 0;

async function checkout(name: string, couponCode?: string) {
  const user = await f.user({ username: name, email: `${name}@example.com` });
  const token = await f.session(user, SLUG);
  const selection = { businessSlug: SLUG, planRef: "item_box", mode: "PICKUP", ...(couponCode ? { couponCode } : {}) };
  const started = (await t.gqlOk(PAY.START, { input: { selection, email: `${name}@example.com`, idempotencyKey: `durations-${name}` } }, { token, tenant: SLUG })).startCheckout;
  expect(started.__typename, started.message).toBe("StartCheckoutSuccess");
  await t.gqlOk(PAY.CONFIRM, { s: started.data.clientSecret }, { token, tenant: SLUG });
  const done = (await t.gqlOk(PAY.COMPLETE, { id: started.data.paymentIntentId }, { token, tenant: SLUG })).completeCheckout;
  expect(done.__typename, done.message).toBe("CompleteCheckoutSuccess");
  members.set(name, { userId: user.id, token, membershipId: started.data.membership.databaseId });
  return done.data.chargedCents as number;
}

/** The portal's price of the membership (what its card shows a month) and its scheduled change's breakdown. */
async function portal(name: string) {
  const m = members.get(name)!;
  // A session of today (the clock moves by months).
  const token = await f.session({ id: m.userId }, SLUG);
  const data = await t.gqlOk(
    `{ viewer { subscriptions { databaseId totalCents pendingChange { breakdown { totalCents lines { kind label amountCents } } } } } }`,
    {},
    { token, tenant: SLUG },
  );
  return data.viewer.subscriptions.find((s: { databaseId: number }) => s.databaseId === m.membershipId);
}

/** The amount of the pre-charge notice planned for `name` for `period`. */
async function noticeCents(name: string, period: string) {
  const m = members.get(name)!;
  const mail = await t.db.prisma.mailMessage.findFirstOrThrow({ where: { recipientUserId: m.userId, template: "precharge_notice", dedupeKey: { endsWith: `:${period}` } } });
  return Math.round(Number(/\$([\d,.]+)/.exec(mail.subject)![1].replace(",", "")) * 100);
}

async function charged(name: string, period: string) {
  const m = members.get(name)!;
  const order = await t.db.prisma.order.findUniqueOrThrow({ where: { subscriptionId_period: { subscriptionId: m.membershipId, period } }, include: { payments: true } });
  expect(order.payments.map((p) => p.amountCents), `${name} ${period}`).toEqual([order.totalCents]);
  return order.totalCents;
}

const chargesUsed = async (name: string) =>
  (await t.db.prisma.couponRedemption.findFirstOrThrow({ where: { subscriptionId: members.get(name)!.membershipId } })).chargesUsed;

beforeAll(async () => {
  t = await createTestApp({ now: "2026-03-05T15:00:00Z" });
  f = factories(t);
  const business = await f.business({ slug: SLUG, page: { billingDay: 10, pickupEnabled: true, taxEnabled: true, taxRateBps: 575 } });
  const plan = await t.db.prisma.plan.create({ data: { businessId: business.id, ref: "item_box", name: "Box", variations: { create: [{ mode: "PICKUP", amountCents: 3000 }] } } });
  planId = plan.id;
  eggsId = (await f.addon(business, { name: "Eggs", amountCents: 500 })).id;
  const coupon = (code: string, o: object) => t.db.prisma.coupon.create({ data: { businessId: business.id, code, type: "PERCENT", value: 10, ...o } });
  await coupon("ONCE10", { duration: "ONCE" });
  await coupon("THREE10", { duration: "REPEATING", durationMonths: 3 });
  await coupon("EVER10", { duration: "FOREVER" });
  await coupon("LATER5", { type: "FIXED", value: 500, duration: "REPEATING", durationMonths: 2 });
});
afterAll(() => t?.close());

describe("a coupon's months are the charges made with it", () => {
  it("the checkout's quote says what the renewals charge: discounted while the coupon lasts, then full", async () => {
    const quote = async (couponCode?: string) =>
      (
        await t.gqlOk(
          `query($s: CheckoutSelectionInput!) { checkoutQuote(selection: $s) { ... on CheckoutQuoteSuccess { data { totalCents discountedRenewals fullTotalCents } } } }`,
          { s: { businessSlug: SLUG, planRef: "item_box", mode: "PICKUP", ...(couponCode ? { couponCode } : {}) } },
        )
      ).checkoutQuote.data;
    expect(await quote()).toEqual({ totalCents: FULL, discountedRenewals: null, fullTotalCents: FULL });
    expect(await quote("ONCE10")).toEqual({ totalCents: TEN_OFF, discountedRenewals: 0, fullTotalCents: FULL });
    expect(await quote("THREE10")).toEqual({ totalCents: TEN_OFF, discountedRenewals: 2, fullTotalCents: FULL });
    expect(await quote("EVER10")).toEqual({ totalCents: TEN_OFF, discountedRenewals: null, fullTotalCents: FULL });
  });

  it("March: the checkouts' charges are the first ones counted; once is spent at once", async () => {
    expect(await checkout("once", "once10")).toBe(TEN_OFF);
    expect(await checkout("three", "three10")).toBe(TEN_OFF);
    expect(await checkout("ever", "ever10")).toBe(TEN_OFF);
    expect(await checkout("later")).toBe(FULL);
    expect(await checkout("eggs", "three10")).toBe(TEN_OFF);
    expect({ once: await chargesUsed("once"), three: await chargesUsed("three"), ever: await chargesUsed("ever") }).toEqual({ once: 1, three: 1, ever: 1 });
    // Once: the next period is priced without it already, and the membership holds it no more.
    expect((await portal("once")).totalCents).toBe(FULL);
    expect(await t.db.prisma.subscription.findUniqueOrThrow({ where: { id: members.get("once")!.membershipId } })).toMatchObject({ couponId: null, discountCents: 0, totalCents: FULL });
    expect((await portal("three")).totalCents).toBe(TEN_OFF);
    expect((await t.db.prisma.coupon.findFirstOrThrow({ where: { code: "THREE10" } })).redemptionCount).toBe(2);
  });

  it("a scheduled change keeps the coupon for the charges it has left, and its breakdown says so", async () => {
    const m = members.get("eggs")!;
    const changed = await t.gqlOk(
      `mutation($input: ChangeSubscriptionInput!) { changeSubscription(input: $input) { __typename ... on Error { message } } }`,
      { input: { subscriptionId: String(m.membershipId), planId: String(planId), mode: "PICKUP", addonIds: [String(eggsId)] } },
      { token: m.token, tenant: SLUG },
    );
    expect(changed.changeSubscription.__typename, changed.changeSubscription.message).toBe("ChangeSubscriptionSuccess");
    const breakdown = (await portal("eggs")).pendingChange.breakdown;
    expect(breakdown.totalCents).toBe(EGGS_TEN_OFF);
    expect(breakdown.lines.find((l: { kind: string }) => l.kind === "DISCOUNT")).toEqual({ kind: "DISCOUNT", label: "Coupon THREE10 · 10 % off · 2 months left", amountCents: -350 });
  });

  it("a coupon attached between charges is redeemed through the one redemption function and counts from the next renewal", async () => {
    await attachCoupon(ctx(), { subscriptionId: members.get("later")!.membershipId, code: "later5" });
    expect(await chargesUsed("later")).toBe(0);
    expect((await portal("later")).totalCents).toBe(FIVE_OFF);
    // A membership redeems a coupon once; the code is refused like at checkout.
    await expect(attachCoupon(ctx(), { subscriptionId: members.get("once")!.membershipId, code: "ONCE10" })).rejects.toMatchObject({ message: "Invalid or inactive coupon code" });
  });

  const MONTHS: [period: string, noticeAt: string, chargeAt: string, expected: Record<string, number>][] = [
    ["2026-04", "2026-04-07T15:00:00Z", "2026-04-10T15:00:00Z", { once: FULL, three: TEN_OFF, ever: TEN_OFF, later: FIVE_OFF, eggs: EGGS_TEN_OFF }],
    ["2026-05", "2026-05-07T15:00:00Z", "2026-05-10T15:00:00Z", { once: FULL, three: TEN_OFF, ever: TEN_OFF, later: FIVE_OFF, eggs: EGGS_TEN_OFF }],
    ["2026-06", "2026-06-07T15:00:00Z", "2026-06-10T15:00:00Z", { once: FULL, three: FULL, ever: TEN_OFF, later: FULL, eggs: EGGS_FULL }],
    ["2026-07", "2026-07-07T15:00:00Z", "2026-07-10T15:00:00Z", { once: FULL, three: FULL, ever: TEN_OFF, later: FULL, eggs: EGGS_FULL }],
  ];
  for (const [period, noticeAt, chargeAt, expected] of MONTHS) {
    it(`${period}: the pre-charge notice, the portal and the charge agree`, async () => {
      t.clock.set(noticeAt);
      await planReminders(ctx());
      for (const [name, cents] of Object.entries(expected)) {
        // The eggs member's notice of April names the change it applies, priced as the run will (the portal's card
        // still shows the current price until then).
        const preview = name === "eggs" && period === "2026-04" ? (await portal(name)).pendingChange.breakdown.totalCents : (await portal(name)).totalCents;
        expect({ name, notice: await noticeCents(name, period), preview }).toEqual({ name, notice: cents, preview: cents });
      }
      t.clock.set(chargeAt);
      const report = await runRenewals(ctx());
      expect(report).toMatchObject({ charged: 5, errors: 0 });
      for (const [name, cents] of Object.entries(expected)) expect({ name, charged: await charged(name, period) }).toEqual({ name, charged: cents });
    });
  }

  it("the redemptions counted every discounted charge and no more; spent coupons were let go", async () => {
    expect({
      once: await chargesUsed("once"),
      three: await chargesUsed("three"),
      ever: await chargesUsed("ever"),
      later: await chargesUsed("later"),
      eggs: await chargesUsed("eggs"),
    }).toEqual({ once: 1, three: 3, ever: 5, later: 2, eggs: 3 });
    const subs = await t.db.prisma.subscription.findMany({ where: { id: { in: [...members.values()].map((m) => m.membershipId) } }, include: { coupon: true } });
    expect(subs.filter((s) => s.coupon).map((s) => s.coupon!.code)).toEqual(["EVER10"]);
    // The orders keep the discount they were charged with, and name the coupon.
    const threeOrders = await t.db.prisma.order.findMany({ where: { subscriptionId: members.get("three")!.membershipId }, orderBy: { period: "asc" } });
    expect(threeOrders.map((o) => [o.period, o.couponCode, o.totalCents])).toEqual([
      ["2026-03", "THREE10", TEN_OFF], ["2026-04", "THREE10", TEN_OFF], ["2026-05", "THREE10", TEN_OFF], ["2026-06", null, FULL], ["2026-07", null, FULL],
    ]);
  });
});
