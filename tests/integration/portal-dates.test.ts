/**
 * Member portal dates: the month "Skip a month" names is the month the server skips, and the next
 * box is never before today. On the injectable clock, with Green Acres' timing (billing day 1, cutoff 25th,
 * box ready on the 6th, skip window 1st–14th).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sandboxFor } from "../../api/billing/service.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";

let t: TestApp;
let f: Factories;
let farm: { id: number; slug: string };
let plan: { id: number };
let member: { id: number };
let token: string;

beforeAll(async () => {
  t = await createTestApp({ now: "2026-12-05T15:00:00Z" });
  f = factories(t);
  farm = await f.business({ slug: "greenacres", name: "Green Acres Farm", page: { billingDay: 1, cutoffDay: 25, boxReadyDay: 6, skipWindowStart: 1, skipWindowEnd: 14 } });
  plan = await f.plan(farm, { name: "Veggie Box", prices: { PICKUP: 3000 } });
  member = await f.user({ username: "dana" });
  token = await f.session(member, "greenacres");
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.prisma.subscription.deleteMany({ where: { userId: member.id } });
});

const FIELDS = `nextBoxDate skips { yearMonth } skipWindow { open } skipTarget { month resumeDate skipped allowed }`;
const MEMBERSHIP = `query($id: ID!) { node(id: $id) { ... on Membership { ${FIELDS} } } }`;
const SKIP = `mutation($input: SkipMonthInput!) { skipMonth(input: $input) {
  __typename ... on SkipMonthSuccess { data { skippedMonth resumeDate membership { ${FIELDS} } } }
  ... on Error { message reason } } }`;

const globalId = (type: string, id: number) => Buffer.from(`${type}:${id}`).toString("base64");
const membership = async (id: number) => (await t.gqlOk(MEMBERSHIP, { id: globalId("Membership", id) }, { token })).node;

describe("skip target (December 5th, December already billed)", () => {
  it("names January, the month the server skips, with the resume date; then shows it skipped and refuses a second skip", async () => {
    t.clock.set("2026-12-05T15:00:00Z");
    const sub = await f.subscription({ user: member, business: farm, plan, planAmountCents: 3000, startedAt: "2026-10-03T15:00:00Z", paidThroughPeriod: "2026-12" });
    // Before: the portal is told what a skip does: January 2027 (December is paid), payments resume February 1st.
    expect(await membership(sub.id)).toEqual({
      nextBoxDate: "2026-12-06",
      skips: [],
      skipWindow: { open: true },
      skipTarget: { month: "2027-01", resumeDate: "2027-02-01", skipped: false, allowed: true },
    });
    const r = await t.gqlOk(SKIP, { input: { subscriptionId: String(sub.id) } }, { token });
    // The month skipped is the month announced.
    expect(r.skipMonth.data).toEqual({
      skippedMonth: "2027-01",
      resumeDate: "2027-02-01",
      membership: {
        nextBoxDate: "2026-12-06",
        skips: [{ yearMonth: "2027-01" }],
        skipWindow: { open: true },
        skipTarget: { month: "2027-01", resumeDate: "2027-02-01", skipped: true, allowed: false },
      },
    });
    // A second try is refused, as the portal already shows (Skip disabled).
    const again = await t.gqlOk(SKIP, { input: { subscriptionId: String(sub.id) } }, { token });
    expect(again.skipMonth).toMatchObject({ __typename: "ConflictError", message: "This month is already skipped" });
    // On January 3rd (January skipped, not billed) the next box is February's, and January shows skipped.
    t.clock.set("2027-01-03T15:00:00Z");
    expect(await membership(sub.id)).toMatchObject({ nextBoxDate: "2027-02-06", skipTarget: { month: "2027-01", skipped: true, allowed: false } });
  });

  it("is not allowed outside the skip window or on a canceled membership", async () => {
    t.clock.set("2026-12-20T15:00:00Z");
    const sub = await f.subscription({ user: member, business: farm, plan, planAmountCents: 3000, paidThroughPeriod: "2026-12" });
    expect((await membership(sub.id)).skipTarget).toEqual({ month: "2027-01", resumeDate: "2027-02-01", skipped: false, allowed: false });
    await t.db.prisma.subscription.update({ where: { id: sub.id }, data: { status: "CANCELED", canceledAt: new Date("2026-12-20T15:00:00Z") } });
    t.clock.set("2026-12-05T15:00:00Z");
    expect((await membership(sub.id)).skipTarget.allowed).toBe(false);
  });
});

describe("next box date", () => {
  it("is never before today for a membership started today (November 23rd: not November 6th, December 6th)", async () => {
    t.clock.set("2026-11-23T17:00:00Z");
    const sub = await f.subscription({ user: member, business: farm, plan, planAmountCents: 3000, startedAt: "2026-11-23T17:00:00Z", paidThroughPeriod: "2026-11" });
    const m = await membership(sub.id);
    expect(m.nextBoxDate).toBe("2026-12-06");
    // The skip names the same month as the next box.
    expect(m.skipTarget).toMatchObject({ month: "2026-12", resumeDate: "2027-01-01" });
  });

  it("on the box-ready day itself is today; the day after, next month's", async () => {
    const sub = await f.subscription({ user: member, business: farm, plan, planAmountCents: 3000, paidThroughPeriod: "2026-11" });
    t.clock.set("2026-11-06T15:00:00Z");
    expect((await membership(sub.id)).nextBoxDate).toBe("2026-11-06");
    t.clock.set("2026-11-07T15:00:00Z");
    expect((await membership(sub.id)).nextBoxDate).toBe("2026-12-06");
    // Past the cutoff (25th): next month's as before.
    t.clock.set("2026-11-26T15:00:00Z");
    expect((await membership(sub.id)).nextBoxDate).toBe("2026-12-06");
  });
});

describe("restart confirmation (what was charged)", () => {
  const RESTART = `mutation($input: RestartSubscriptionInput!) { restartSubscription(input: $input) {
    __typename ... on RestartSubscriptionSuccess { data { outcome chargedCents period nextBillingDate membership { status } } }
    ... on Error { message reason } } }`;

  it("answers the amount charged, the period and the next billing date", async () => {
    t.clock.set("2026-12-05T15:00:00Z");
    const sub = await f.subscription({ user: member, business: farm, plan, planAmountCents: 3000, status: "CANCELED", canceledAt: "2026-11-10T12:00:00Z", paidThroughPeriod: "2026-11" });
    const s = sandboxFor({ db: t.db.prisma, clock: t.clock, config: t.config });
    const user = await t.db.prisma.user.findUniqueOrThrow({ where: { id: member.id } });
    const customerId = await s.ensureCustomer({ userId: user.id, existingId: user.paymentCustomerId });
    await t.db.prisma.user.update({ where: { id: user.id }, data: { paymentCustomerId: customerId } });
    const seti = await s.createSetupIntent({ customerId, idempotencyKey: `seti-${sub.id}` });
    const saved = await s.confirmSetupIntent(seti.clientSecret, { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" });
    await t.db.prisma.subscription.update({ where: { id: sub.id }, data: { providerPaymentMethodId: saved.paymentMethodId } });

    const r = await t.gqlOk(RESTART, { input: { subscriptionId: String(sub.id) } }, { token });
    expect(r.restartSubscription.data).toEqual({ outcome: "PAID", chargedCents: 3000, period: "2026-12", nextBillingDate: "2027-01-01", membership: { status: "ACTIVE" } });
  });

  it("says nothing was charged when the current period was already paid", async () => {
    t.clock.set("2026-12-05T15:00:00Z");
    const sub = await f.subscription({ user: member, business: farm, plan, planAmountCents: 3000, status: "CANCELED", canceledAt: "2026-12-04T12:00:00Z", paidThroughPeriod: "2026-12" });
    const r = await t.gqlOk(RESTART, { input: { subscriptionId: String(sub.id) } }, { token });
    expect(r.restartSubscription.data).toEqual({ outcome: "REACTIVATED", chargedCents: 0, period: "2026-12", nextBillingDate: "2027-01-01", membership: { status: "ACTIVE" } });
  });
});

describe("change quote (the change dialog's price, tax included)", () => {
  const QUOTE = `query($input: ChangeSubscriptionInput!) { changeQuote(input: $input) {
    __typename ... on ChangeQuoteSuccess { data { subtotalCents discountCents taxCents taxRatePercent totalCents effectivePeriod } }
    ... on Error { message reason } } }`;

  it("prices the new selection with the business's tax, as the renewal that applies it will", async () => {
    t.clock.set("2026-12-05T15:00:00Z");
    const taxed = await f.business({ slug: "taxed", name: "Taxed Farm", page: { taxEnabled: true, taxRateBps: 575 } });
    const small = await f.plan(taxed, { name: "Small", prices: { PICKUP: 2000 } });
    const big = await f.plan(taxed, { name: "Big", prices: { PICKUP: 4000 } });
    const eggs = await f.addon(taxed, { name: "Eggs", amountCents: 600 });
    const sub = await f.subscription({ user: member, business: taxed, plan: small, planAmountCents: 2000, paidThroughPeriod: "2026-12" });
    const input = { subscriptionId: String(sub.id), planId: String(big.id), mode: "PICKUP", addonIds: [String(eggs.id)] };
    const r = await t.gqlOk(QUOTE, { input }, { token });
    // 46.00 + 5.75 % = 2.645 → 2.65 tax, 48.65 a month from January.
    expect(r.changeQuote.data).toEqual({ subtotalCents: 4600, discountCents: 0, taxCents: 265, taxRatePercent: 5.75, totalCents: 4865, effectivePeriod: "2027-01" });
    // Refused like the change itself: another member's membership, an unknown add-on.
    const other = await f.user({ username: "other-quote" });
    expect((await t.gqlOk(QUOTE, { input }, { token: await f.session(other, "taxed") })).changeQuote.__typename).toBe("ForbiddenError");
    expect((await t.gqlOk(QUOTE, { input: { ...input, addonIds: ["999999"] } }, { token })).changeQuote.__typename).toBe("ValidationError");
  });
});
