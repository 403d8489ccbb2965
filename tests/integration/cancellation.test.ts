/**
 * A member's own cancel (api/subscriptions/cancellation.ts) on the injectable clock: an accepted retention discount
 * keeps the membership and discounts the next charge once (the preview, the pre-charge notice and the charge agree);
 * a confirmed cancel keeps the paid box, sends no notice for the month after, and the renewal run cancels on the next
 * billing day (reason member), freeing the place only then; "Keep my membership" before it, and it renews. Both
 * databases.
 */
import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Prisma } from "../../api/generated/prisma/client.ts";
import { runRenewals } from "../../api/billing/renewals/clock.ts";
import { placesTaken } from "../../api/catalog/capacity.ts";
import { findCheckoutCoupon } from "../../api/coupons/redemption.ts";
import { planReminders } from "../../api/mail/reminders.ts";
import { previewOf } from "../../api/packing/preview.ts";
import { freeze } from "../../api/packing/snapshot.ts";
import { globalId } from "../../api/shared/global-id.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";
import { seedSavedCard } from "../support/payments.ts";

// 2026-03-05 10:00 in New York: inside the default 1–14 skip and change windows.
const NOW = "2026-03-05T15:00:00Z";

let t: TestApp;
let f: Factories;
const log = pino({ level: "silent" });
const billing = () => ({ db: t.db.prisma, clock: t.clock, config: t.config, log });

beforeAll(async () => {
  t = await createTestApp({ now: NOW });
  f = factories(t);
});
afterAll(() => t.close());
beforeEach(() => t.clock.set(NOW));

const MEMBERSHIP = `membership { status cancelAfterPeriod endsOn totalCents skips { yearMonth } }`;
const REQUEST = `mutation($input: RequestCancellationInput!) { requestCancellation(input: $input) {
  __typename ... on RequestCancellationSuccess { data { requestId afterPeriod endsOn offers { offer month resumeDate maxMonths percent } ${MEMBERSHIP} } }
  ... on Error { message reason } } }`;
const ACCEPT = `mutation($input: AcceptRetentionOfferInput!) { acceptRetentionOffer(input: $input) {
  __typename ... on AcceptRetentionOfferSuccess { data { offer ${MEMBERSHIP} } } ... on Error { message reason } } }`;
const CONFIRM = `mutation($input: ConfirmCancellationInput!) { confirmCancellation(input: $input) {
  __typename ... on ConfirmCancellationSuccess { data { afterPeriod endsOn ${MEMBERSHIP} } } ... on Error { message reason } } }`;
const WITHDRAW = `mutation($input: WithdrawCancellationInput!) { withdrawCancellation(input: $input) {
  __typename ... on WithdrawCancellationSuccess { data { ${MEMBERSHIP} } } ... on Error { message reason } } }`;

const ALL_OFFERS = ["SKIP", "PAUSE", "SWITCH_PLAN", "DISCOUNT"] as const;

/**
 * A member of a SELF_SERVICE business billing on the 3rd (tax 5.75 %, every offer, a 20 % discount) with a saved
 * card, paid through March: $21.15 a month. The business also lists a smaller box ($15.00).
 */
async function member(page: Partial<Prisma.PageCreateWithoutBusinessInput> = {}) {
  const business = await f.business({
    page: { billingDay: 3, taxEnabled: true, taxRateBps: 575, cancellationPolicy: "SELF_SERVICE", retentionOffers: [...ALL_OFFERS], retentionDiscountPercent: 20, ...page },
  });
  const plan = await f.plan(business, { name: "Veg Box", prices: { PICKUP: 2000 } });
  await f.plan(business, { name: "Small Box", prices: { PICKUP: 1500 } });
  const user = await f.user({ email: `cancel-${business.id}@example.com` });
  let token = await f.session(user, business.slug);
  const card = await seedSavedCard(t.db.prisma, user);
  const sub = await f.subscription({ user, business, plan, planAmountCents: 2000, totalCents: 2115, paidThroughPeriod: "2026-03" });
  await t.db.prisma.subscription.update({ where: { id: sub.id }, data: { billingDay: 3, taxCents: 115, taxRateBps: 575, providerPaymentMethodId: card } });
  const gql = (query: string, input: Record<string, unknown>) => t.gqlOk(query, { input }, { token }).then((d) => Object.values(d)[0] as any);
  const request = (reason = "TOO_EXPENSIVE", note?: string) => gql(REQUEST, { subscriptionId: String(sub.id), reason, note });
  /** A new session as of the clock's now (a session expires: a year on, the member logs in again). */
  const login = async () => void (token = await f.session(user, business.slug));
  return { business, plan, user, sub, gql, request, login, get token() { return token; } };
}

const renew = (businessId: number) => runRenewals(billing(), { businessId });
const membership = (id: number) => t.db.prisma.subscription.findUniqueOrThrow({ where: { id } });
const requestsOf = (id: number) => t.db.prisma.cancellationRequest.findMany({ where: { subscriptionId: id }, orderBy: { id: "asc" } });
const eventsOf = (type: string, id: number) => t.db.prisma.event.findMany({ where: { type, objectId: globalId("Membership", id) }, orderBy: { sequence: "asc" } });
const ordersOf = async (id: number) => (await t.db.prisma.order.findMany({ where: { subscriptionId: id }, orderBy: { period: "asc" } })).map((o) => [o.period, o.totalCents, o.couponCode]);
async function outlookOf(businessId: number, period: string, membershipId: number) {
  const preview = await previewOf(t.db.prisma, businessId, period);
  const m = preview.members.find((x) => x.membershipId === membershipId);
  return { outlook: m?.outlook ?? null, amountCents: m?.amountCents ?? null, boxed: preview.boxes.some((b) => b.membershipId === membershipId) };
}
const notices = (userId: number, template: string) => t.db.prisma.mailMessage.findMany({ where: { recipientUserId: userId, template }, orderBy: { id: "asc" } });
async function noticeOn(day: string) {
  t.clock.set(`${day}T15:00:00Z`);
  await planReminders(billing());
}

describe("an accepted retention discount", () => {
  it("keeps the membership: the next renewal is discounted once (preview = notice = charge), the one after is at full price", async () => {
    const { business, user, sub, gql, request } = await member();
    const r = await request("TOO_EXPENSIVE", "  Prices went up  ");
    expect(r.data).toMatchObject({
      afterPeriod: "2026-03",
      endsOn: "2026-04-03",
      offers: [
        { offer: "SKIP", month: "2026-04", resumeDate: "2026-05-03", maxMonths: null, percent: null },
        { offer: "PAUSE", month: "2026-04", resumeDate: null, maxMonths: 3, percent: null },
        { offer: "SWITCH_PLAN", month: null, resumeDate: null, maxMonths: null, percent: null },
        { offer: "DISCOUNT", month: "2026-04", resumeDate: null, maxMonths: null, percent: 20 },
      ],
      membership: { status: "ACTIVE", cancelAfterPeriod: null, endsOn: null },
    });
    expect(await requestsOf(sub.id)).toMatchObject([{ reason: "TOO_EXPENSIVE", note: "Prices went up", offersShown: [...ALL_OFFERS], offerAccepted: null, outcome: "OPEN", decidedAt: null }]);

    const accepted = await gql(ACCEPT, { requestId: r.data.requestId, offer: "DISCOUNT" });
    // 20 % off 20.00 = 16.00, + 5.75 % tax (0.92) = 16.92.
    expect(accepted).toEqual({ __typename: "AcceptRetentionOfferSuccess", data: { offer: "DISCOUNT", membership: { status: "ACTIVE", cancelAfterPeriod: null, endsOn: null, totalCents: 1692, skips: [] } } });
    expect(await requestsOf(sub.id)).toMatchObject([{ offerAccepted: "DISCOUNT", outcome: "RETAINED", decidedAt: new Date(NOW) }]);
    const coupon = await t.db.prisma.coupon.findFirstOrThrow({ where: { businessId: business.id } });
    expect(coupon).toMatchObject({ code: "Stay20-2026", kind: "RETENTION", type: "PERCENT", value: 20, duration: "ONCE", redemptionCount: 1 });
    const redeemed = await t.db.prisma.event.findMany({ where: { type: "coupon.redeemed.v1", objectId: globalId("Coupon", coupon.id) } });
    expect(redeemed.map((e) => e.payload)).toEqual([{ couponId: coupon.id, businessId: business.id, membershipId: sub.id, userId: user.id }]);
    // No member can type it, as written or as a checkout writes a typed code.
    const at = { business: { id: business.id, timeZone: "America/New_York" }, planId: sub.planId, now: new Date(NOW) };
    for (const code of ["Stay20-2026", "STAY20-2026"]) await expect(findCheckoutCoupon({ db: t.db.prisma }, code, at)).rejects.toMatchObject({ message: "Invalid or inactive coupon code" });

    expect(await outlookOf(business.id, "2026-04", sub.id)).toEqual({ outlook: "WILL_CHARGE", amountCents: 1692, boxed: true });
    await noticeOn("2026-03-31");
    t.clock.set("2026-04-03T14:00:00Z");
    expect(await renew(business.id)).toMatchObject({ charged: 1, ended: 0 });
    expect(await outlookOf(business.id, "2026-05", sub.id)).toEqual({ outlook: "WILL_CHARGE", amountCents: 2115, boxed: true });
    await noticeOn("2026-04-30");
    t.clock.set("2026-05-03T14:00:00Z");
    expect(await renew(business.id)).toMatchObject({ charged: 1 });
    expect((await notices(user.id, "precharge_notice")).map((n) => n.subject)).toEqual(["Upcoming charge: $16.92 on April 3, 2026", "Upcoming charge: $21.15 on May 3, 2026"]);
    expect(await ordersOf(sub.id)).toEqual([["2026-04", 1692, "Stay20-2026"], ["2026-05", 2115, null]]);
    expect(await membership(sub.id)).toMatchObject({ status: "ACTIVE", couponId: null, totalCents: 2115 });
  });

  it("is offered at most once in 12 months (then again, as that year's coupon), and never with a coupon in force", async () => {
    const { business, sub, gql, request, login } = await member();
    const [first, second] = [await request(), await request()];
    await gql(ACCEPT, { requestId: first.data.requestId, offer: "DISCOUNT" });
    // A coupon in force: not offered, and not taken through another request that offered it before.
    expect(await gql(ACCEPT, { requestId: second.data.requestId, offer: "DISCOUNT" })).toMatchObject({ __typename: "RuleViolationError", reason: "offer_not_available" });
    const held = await request();
    expect(held.data.offers.map((o: any) => o.offer)).toEqual(["SKIP", "PAUSE", "SWITCH_PLAN"]);
    // Spent by the April charge: still not offered in the 12 months after it was taken.
    await t.db.prisma.subscription.update({ where: { id: sub.id }, data: { couponId: null, discountCents: 0, taxCents: 115, totalCents: 2115 } });
    t.clock.set("2027-03-04T15:00:00Z");
    await login();
    const again = await request();
    expect(again.data.offers.map((o: any) => o.offer)).not.toContain("DISCOUNT");
    expect(await gql(ACCEPT, { requestId: again.data.requestId, offer: "DISCOUNT" })).toMatchObject({ __typename: "RuleViolationError", reason: "offer_not_available" });
    t.clock.set("2027-03-06T15:00:00Z");
    const year = await request();
    expect(year.data.offers.map((o: any) => o.offer)).toContain("DISCOUNT");
    expect((await gql(ACCEPT, { requestId: year.data.requestId, offer: "DISCOUNT" })).data.membership.totalCents).toBe(1692);
    expect((await t.db.prisma.coupon.findMany({ where: { businessId: business.id }, orderBy: { id: "asc" } })).map((c) => c.code)).toEqual(["Stay20-2026", "Stay20-2027"]);

    const other = await member();
    const coupon = await t.db.prisma.coupon.create({ data: { businessId: other.business.id, code: "LOYAL5", type: "FIXED", value: 500, duration: "FOREVER" } });
    await t.db.prisma.subscription.update({ where: { id: other.sub.id }, data: { couponId: coupon.id } });
    expect((await other.request()).data.offers.map((o: any) => o.offer)).toEqual(["SKIP", "PAUSE", "SWITCH_PLAN"]);
  });
});

describe("a confirmed cancel", () => {
  it("keeps the paid box and its place, announces nothing for the month after, and the run cancels on the next billing day (reason member)", async () => {
    const { business, plan, user, token, sub, gql, request } = await member();
    await t.db.prisma.plan.update({ where: { id: plan.id }, data: { capacity: 1 } });
    const neighbour = await member();
    const r = await request("MOVING");
    const confirmed = await gql(CONFIRM, { requestId: r.data.requestId });
    expect(confirmed).toEqual({
      __typename: "ConfirmCancellationSuccess",
      data: { afterPeriod: "2026-03", endsOn: "2026-04-03", membership: { status: "ACTIVE", cancelAfterPeriod: "2026-03", endsOn: "2026-04-03", totalCents: 2115, skips: [] } },
    });
    expect(await requestsOf(sub.id)).toMatchObject([{ reason: "MOVING", outcome: "CANCEL_SCHEDULED", offerAccepted: null, decidedAt: new Date(NOW) }]);
    expect((await eventsOf("membership.cancel_scheduled.v1", sub.id)).map((e) => e.payload)).toEqual([{ membershipId: sub.id, userId: user.id, afterPeriod: "2026-03", reason: "MOVING" }]);
    expect(await request()).toMatchObject({ __typename: "RuleViolationError", reason: "cancel_scheduled", message: "Your membership already ends after your March 2026 box." });
    // The portal's read (the fast read path) says the same, with the policy for the card.
    const portal = await t.gqlOk(`{ viewer { subscriptions { databaseId cancelAfterPeriod endsOn business { page { cancellationPolicy } } } } }`, {}, { token });
    expect(portal.viewer.subscriptions).toEqual([{ databaseId: sub.id, cancelAfterPeriod: "2026-03", endsOn: "2026-04-03", business: { page: { cancellationPolicy: "SELF_SERVICE" } } }]);

    // The paid March box is packed; April has none.
    const frozen = await freeze(billing(), business.id, "2026-03", { trigger: "operator" });
    expect(await t.db.prisma.packingBox.count({ where: { snapshotId: frozen.snapshotId, subscriptionId: sub.id } })).toBe(1);
    expect(await outlookOf(business.id, "2026-04", sub.id)).toEqual({ outlook: null, amountCents: null, boxed: false });
    // The window reminder (the 11th) and the pre-charge notice (3 days before the 3rd) are not sent for April.
    await noticeOn("2026-03-11");
    await noticeOn("2026-03-31");
    expect(await notices(user.id, "window_reminder")).toEqual([]);
    expect(await notices(user.id, "precharge_notice")).toEqual([]);
    expect((await notices(neighbour.user.id, "precharge_notice")).map((n) => n.subject)).toEqual(["Upcoming charge: $21.15 on April 3, 2026"]);

    // Still a member until the billing day: the place stays taken.
    const taken = async () => (await placesTaken(t.db.prisma, business.id, [plan.id])).byPlan.get(plan.id) ?? 0;
    expect(await taken()).toBe(1);
    t.clock.set("2026-04-03T03:00:00Z"); // still April 2nd in New York
    expect(await renew(business.id)).toMatchObject({ ended: 0, charged: 0 });
    expect(await taken()).toBe(1);
    t.clock.set("2026-04-03T14:00:00Z");
    expect(await renew(business.id)).toMatchObject({ due: 1, ended: 1, charged: 0, skipped: 0 });
    expect(await taken()).toBe(0);
    expect(await membership(sub.id)).toMatchObject({ status: "CANCELED", canceledAt: new Date("2026-04-03T14:00:00Z"), cancelAfterPeriod: null, paidThroughPeriod: "2026-03" });
    expect((await eventsOf("membership.canceled.v1", sub.id)).map((e) => e.payload)).toEqual([{ membershipId: sub.id, userId: user.id, reason: "member" }]);
    expect(await requestsOf(sub.id)).toMatchObject([{ outcome: "CANCELED", decidedAt: new Date("2026-04-03T14:00:00Z") }]);
    expect(await ordersOf(sub.id)).toEqual([]);
    expect(await t.db.prisma.payment.count({ where: { subscriptionId: sub.id } })).toBe(0);
    expect(await renew(business.id)).toMatchObject({ due: 0, ended: 0 });
  });

  it("ends after a skipped month too: the first billing day after its last month cancels it, skip or not", async () => {
    const { business, sub, gql, request } = await member();
    await t.db.prisma.skip.create({ data: { subscriptionId: sub.id, yearMonth: "2026-05" } });
    const r = await request("TAKING_A_BREAK");
    await gql(CONFIRM, { requestId: r.data.requestId });
    t.clock.set("2026-04-03T14:00:00Z");
    await t.db.prisma.skip.create({ data: { subscriptionId: sub.id, yearMonth: "2026-04" } });
    expect(await renew(business.id)).toMatchObject({ ended: 1, skipped: 0, charged: 0 });
    expect(await membership(sub.id)).toMatchObject({ status: "CANCELED" });
  });

  it("withdrawn before the billing day ('Keep my membership'): it renews as before", async () => {
    const { business, user, sub, gql, request } = await member();
    expect(await gql(WITHDRAW, { subscriptionId: String(sub.id) })).toMatchObject({ __typename: "RuleViolationError", reason: "not_ending" });
    const r = await request("QUALITY");
    await gql(CONFIRM, { requestId: r.data.requestId });
    t.clock.set("2026-04-02T15:00:00Z");
    expect(await gql(WITHDRAW, { subscriptionId: String(sub.id) })).toEqual({
      __typename: "WithdrawCancellationSuccess",
      data: { membership: { status: "ACTIVE", cancelAfterPeriod: null, endsOn: null, totalCents: 2115, skips: [] } },
    });
    expect(await requestsOf(sub.id)).toMatchObject([{ outcome: "WITHDRAWN", decidedAt: new Date("2026-04-02T15:00:00Z") }]);
    expect((await eventsOf("membership.cancel_withdrawn.v1", sub.id)).map((e) => e.payload)).toEqual([{ membershipId: sub.id, userId: user.id }]);
    expect(await outlookOf(business.id, "2026-04", sub.id)).toEqual({ outlook: "WILL_CHARGE", amountCents: 2115, boxed: true });
    t.clock.set("2026-04-03T14:00:00Z");
    expect(await renew(business.id)).toMatchObject({ charged: 1, ended: 0 });
    expect(await ordersOf(sub.id)).toEqual([["2026-04", 2115, null]]);
  });
});
