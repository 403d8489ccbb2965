/**
 * Amounts a member is shown, on the injectable clock: the amount before a restart (and a restart refused when that amount changed
 * before it was confirmed), and a change of box made while next month is skipped, which takes effect, and is named,
 * from the first month charged. Green Acres' timing: billing day 1, skip and change windows 1st–14th.
 */
import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runRenewals } from "../../api/billing/renewals/clock.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";
import { seedSavedCard } from "../support/payments.ts";

let t: TestApp;
let f: Factories;
let farm: { id: number; slug: string };
let small: { id: number };
let big: { id: number };
let eggs: { id: number };
let member: { id: number };
let token: string;

const BREAKDOWN = `lines { kind label amountCents } subtotalCents taxCents totalCents`;
const RESTART_QUOTE = `query($id: ID!) { restartQuote(subscriptionId: $id) {
  __typename ... on RestartQuoteSuccess { data { todayCents period nextChargeDate nextChargeCents breakdown { ${BREAKDOWN} } } } ... on Error { message reason } } }`;
const RESTART = `mutation($input: RestartSubscriptionInput!) { restartSubscription(input: $input) {
  __typename ... on RestartSubscriptionSuccess { data { outcome chargedCents period nextBillingDate membership { status } } } ... on Error { message reason } } }`;
const SKIP = `mutation($id: ID!) { skipMonth(input: { subscriptionId: $id }) { __typename ... on SkipMonthSuccess { data { skippedMonth } } ... on Error { message } } }`;
const CHANGE_QUOTE = `query($input: ChangeSubscriptionInput!) { changeQuote(input: $input) {
  __typename ... on ChangeQuoteSuccess { data { effectivePeriod totalCents breakdown { ${BREAKDOWN} } } } ... on Error { message reason } } }`;
const CHANGE = `mutation($input: ChangeSubscriptionInput!) { changeSubscription(input: $input) {
  __typename ... on ChangeSubscriptionSuccess { data { pendingChange { effectivePeriod } } } ... on Error { message reason } } }`;
const PENDING = `query($id: ID!) { node(id: $id) { ... on Membership { pendingChange { effectivePeriod breakdown { totalCents lines { kind amountCents } } } } } }`;

const gid = (type: string, id: number) => Buffer.from(`${type}:${id}`).toString("base64");
const log = pino({ level: "silent" });

beforeAll(async () => {
  t = await createTestApp({ now: "2026-11-20T15:00:00Z" });
  f = factories(t);
  farm = await f.business({
    slug: "greenacres",
    name: "Green Acres Farm",
    page: { billingDay: 1, taxEnabled: true, taxRateBps: 575, skipWindowStart: 1, skipWindowEnd: 14, changeWindowStart: 1, changeWindowEnd: 14 },
  });
  small = await f.plan(farm, { name: "Small Box", prices: { PICKUP: 3000 } });
  big = await f.plan(farm, { name: "Family Box", prices: { PICKUP: 4000 } });
  eggs = await f.addon(farm, { name: "Eggs", amountCents: 600 });
  member = await f.user({ username: "dana", email: "dana@example.com" });
  await seedSavedCard(t.db.prisma, member);
  token = await f.session(member, "greenacres");
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.prisma.subscription.deleteMany({ where: { userId: member.id } });
});

/** A canceled membership of $30.00 + $6.00 eggs + 5.75 % tax = $38.07 a month, paid through `paidThrough`. */
function canceledMembership(paidThrough: string) {
  return t.db.prisma.subscription.create({
    data: {
      userId: member.id, businessId: farm.id, planId: small.id, status: "CANCELED", mode: "PICKUP", planAmountCents: 3000, addonsAmountCents: 600,
      taxRateBps: 575, taxCents: 207, totalCents: 3807, paidThroughPeriod: paidThrough, canceledAt: new Date("2026-10-20T12:00:00Z"),
      startedAt: new Date("2026-06-03T12:00:00Z"), addons: { create: [{ addonId: eggs.id, amountCents: 600 }] },
    },
  });
}

describe("restart: the amount first", () => {
  it("quotes today's charge, what a month costs line by line and the next charge; the restart charges exactly that", async () => {
    t.clock.set("2026-11-20T15:00:00Z");
    const sub = await canceledMembership("2026-10");
    const q = (await t.gqlOk(RESTART_QUOTE, { id: String(sub.id) }, { token })).restartQuote;
    expect(q.data).toEqual({
      todayCents: 3807,
      period: "2026-11",
      nextChargeDate: "2026-12-01",
      nextChargeCents: 3807,
      breakdown: {
        lines: [
          { kind: "PLAN", label: "Small Box", amountCents: 3000 },
          { kind: "ADDON", label: "Eggs", amountCents: 600 },
          { kind: "TAX", label: "Tax (5.75%)", amountCents: 207 },
        ],
        subtotalCents: 3600,
        taxCents: 207,
        totalCents: 3807,
      },
    });
    const r = await t.gqlOk(RESTART, { input: { subscriptionId: String(sub.id), expectedTotalCents: q.data.todayCents } }, { token });
    expect(r.restartSubscription.data).toEqual({ outcome: "PAID", chargedCents: 3807, period: "2026-11", nextBillingDate: "2026-12-01", membership: { status: "ACTIVE" } });
  });

  it("names the month after a skipped one as the next charge", async () => {
    t.clock.set("2026-11-20T15:00:00Z");
    const sub = await canceledMembership("2026-10");
    await t.db.prisma.skip.create({ data: { subscriptionId: sub.id, yearMonth: "2026-12" } });
    const q = (await t.gqlOk(RESTART_QUOTE, { id: String(sub.id) }, { token })).restartQuote.data;
    expect(q.nextChargeDate).toBe("2027-01-01");
  });

  it("refuses a restart whose amount changed between the quote and the confirmation, charging nothing; a new quote then goes through", async () => {
    // Quoted on the last day of a paid month: nothing today.
    t.clock.set("2026-11-30T15:00:00Z");
    const sub = await canceledMembership("2026-11");
    const q = (await t.gqlOk(RESTART_QUOTE, { id: String(sub.id) }, { token })).restartQuote.data;
    expect(q).toMatchObject({ todayCents: 0, period: "2026-11", nextChargeDate: "2026-12-01" });
    // Confirmed after midnight: December is due now, so the restart would charge $38.07, not the $0.00 shown.
    t.clock.set("2026-12-01T15:00:00Z");
    const refused = await t.gqlOk(RESTART, { input: { subscriptionId: String(sub.id), expectedTotalCents: q.todayCents } }, { token });
    expect(refused.restartSubscription).toEqual({
      __typename: "ConflictError",
      message: "The amount of your restart has changed. Please review it and confirm again.",
      reason: "price_mismatch",
    });
    expect(await t.db.prisma.payment.count({ where: { subscriptionId: sub.id } })).toBe(0);
    expect((await t.db.prisma.subscription.findUniqueOrThrow({ where: { id: sub.id } })).status).toBe("CANCELED");

    const again = (await t.gqlOk(RESTART_QUOTE, { id: String(sub.id) }, { token })).restartQuote.data;
    expect(again).toMatchObject({ todayCents: 3807, period: "2026-12", nextChargeDate: "2027-01-01" });
    const r = await t.gqlOk(RESTART, { input: { subscriptionId: String(sub.id), expectedTotalCents: again.todayCents } }, { token });
    expect(r.restartSubscription.data).toMatchObject({ outcome: "PAID", chargedCents: 3807, period: "2026-12" });
  });

  it("refuses to quote a membership that is not canceled, or someone else's", async () => {
    t.clock.set("2026-11-20T15:00:00Z");
    const sub = await f.subscription({ user: member, business: farm, plan: small, paidThroughPeriod: "2026-11" });
    expect((await t.gqlOk(RESTART_QUOTE, { id: String(sub.id) }, { token })).restartQuote).toMatchObject({ __typename: "ConflictError", reason: "not_canceled" });
    const other = await f.user();
    const res = (await t.gqlOk(RESTART_QUOTE, { id: String(sub.id) }, { token: await f.session(other, "greenacres") })).restartQuote;
    expect(res.__typename).toBe("ForbiddenError");
  });
});

describe("a change while next month is skipped", () => {
  const input = (id: number) => ({ subscriptionId: String(id), planId: String(big.id), mode: "PICKUP", addonIds: [] });

  it("takes effect, and is named, from the first month charged; the renewals skip December and charge the new box in January", async () => {
    t.clock.set("2026-11-05T15:00:00Z");
    const sub = await f.subscription({ user: member, business: farm, plan: small, planAmountCents: 3000, totalCents: 3173, paidThroughPeriod: "2026-11" });
    await t.db.prisma.subscription.update({ where: { id: sub.id }, data: { taxRateBps: 575, taxCents: 173 } });
    expect((await t.gqlOk(SKIP, { id: String(sub.id) }, { token })).skipMonth.data.skippedMonth).toBe("2026-12");

    const quote = (await t.gqlOk(CHANGE_QUOTE, { input: input(sub.id) }, { token })).changeQuote.data;
    // $40.00 + 5.75 % = $42.30 a month, from January: December has no box.
    expect(quote).toEqual({
      effectivePeriod: "2027-01",
      totalCents: 4230,
      breakdown: {
        lines: [
          { kind: "PLAN", label: "Family Box", amountCents: 4000 },
          { kind: "TAX", label: "Tax (5.75%)", amountCents: 230 },
        ],
        subtotalCents: 4000,
        taxCents: 230,
        totalCents: 4230,
      },
    });
    const changed = await t.gqlOk(CHANGE, { input: input(sub.id) }, { token });
    expect(changed.changeSubscription.data.pendingChange).toEqual({ effectivePeriod: "2027-01" });
    // The card reads the same monthly price from the membership itself.
    expect((await t.gqlOk(PENDING, { id: gid("Membership", sub.id) }, { token })).node.pendingChange).toEqual({
      effectivePeriod: "2027-01",
      breakdown: { totalCents: 4230, lines: [{ kind: "PLAN", amountCents: 4000 }, { kind: "TAX", amountCents: 230 }] },
    });
    const event = await t.db.prisma.event.findFirstOrThrow({ where: { type: "membership.changed.v1" }, orderBy: { sequence: "desc" } });
    expect(event.payload).toMatchObject({ membershipId: sub.id, effectivePeriod: "2027-01", totalCents: 4230 });

    t.clock.set("2026-12-01T15:00:00Z");
    await runRenewals({ db: t.db.prisma, clock: t.clock, config: t.config, log }, { businessId: farm.id });
    expect(await t.db.prisma.order.count({ where: { subscriptionId: sub.id } })).toBe(0);
    t.clock.set("2027-01-01T15:00:00Z");
    await runRenewals({ db: t.db.prisma, clock: t.clock, config: t.config, log }, { businessId: farm.id });
    const january = await t.db.prisma.order.findUniqueOrThrow({ where: { subscriptionId_period: { subscriptionId: sub.id, period: "2027-01" } } });
    expect(january.totalCents).toBe(4230);
  });

  it("a skip after the change moves it to the month after the skipped one", async () => {
    t.clock.set("2026-11-05T15:00:00Z");
    const sub = await f.subscription({ user: member, business: farm, plan: small, paidThroughPeriod: "2026-11" });
    expect((await t.gqlOk(CHANGE, { input: input(sub.id) }, { token })).changeSubscription.data.pendingChange).toEqual({ effectivePeriod: "2026-12" });
    expect((await t.gqlOk(SKIP, { id: String(sub.id) }, { token })).skipMonth.data.skippedMonth).toBe("2026-12");
    expect((await t.gqlOk(PENDING, { id: gid("Membership", sub.id) }, { token })).node.pendingChange.effectivePeriod).toBe("2027-01");
  });
});
