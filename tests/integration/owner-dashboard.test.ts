/**
 * The owner's dashboard of a business (Business.metrics: nextBillingRun, boxesThisMonth, pastDue, membersThisMonth,
 * recurringRevenue) on the injectable clock, against a hand computation on data made here: a New York farm on
 * April 2nd 2026, its memberships billing on their own days, one skipping April, one with a scheduled change and a
 * coupon, two past due; starts and cancellations on both sides of the local month's first instant; another business
 * beside it whose rows must not count. Then who may read it, and the renewal run charging what was announced.
 */
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceContext } from "../../api/context.ts";
import { runRenewals } from "../../api/billing/renewals/clock.ts";
import { sandboxFor } from "../../api/billing/service.ts";
import * as outlook from "../../api/metrics/outlook.ts";
import * as metrics from "../../api/metrics/service.ts";
import { freeze } from "../../api/packing/snapshot.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";

let t: TestApp;
let f: Factories;
const log = pino({ level: "silent" });
const billingCtx = () => ({ db: t.db.prisma, clock: t.clock, config: t.config, log });
const NOW = "2026-04-02T15:00:00Z"; // April 2nd, 11:00 in New York
const GOOD_CARD = "4242424242424242";

type Sub = { id: number; userId: number; businessId: number; mode: "PICKUP" | "SHIPPING" | "DELIVERY" };
let farm: { id: number };
let other: { id: number };
const subs: Record<string, Sub> = {};
const users: Record<string, { id: number; isAdmin: boolean; publicId: string; username: string }> = {};
const tokens: Record<string, string> = {};
type SubOptions = { name?: string | null; business?: { id: number }; status?: "ACTIVE" | "PAST_DUE" | "CANCELED" | "INCOMPLETE"; billingDay?: number; total: number; paidThrough?: string | null; startedAt?: string; canceledAt?: string; couponId?: number };
/** A membership of one of the businesses, made in beforeAll (with the plans made there). */
let sub: (key: string, o: SubOptions) => Promise<Sub>;

/** A user with a saved sandbox card (the renewal run charges it at the end). */
async function cardHolder(username: string, name: string | null) {
  const user = await f.user({ username, name: name ?? undefined });
  const s = sandboxFor(billingCtx());
  const customerId = await s.ensureCustomer({ userId: user.id });
  await t.db.prisma.user.update({ where: { id: user.id }, data: { paymentCustomerId: customerId } });
  const seti = await s.createSetupIntent({ customerId, idempotencyKey: `setup-${user.id}` });
  const confirmed = await s.confirmSetupIntent(seti.clientSecret, { number: GOOD_CARD, expMonth: 12, expYear: 2031, cvc: "123" });
  return { user, paymentMethodId: confirmed.paymentMethodId };
}

beforeAll(async () => {
  t = await createTestApp({ now: NOW });
  f = factories(t);
  farm = await f.business({ slug: "farm", name: "Farm", page: { taxEnabled: true, taxRateBps: 575, shippingEnabled: true } });
  other = await f.business({ slug: "other", name: "Other" });
  const small = await f.plan(farm, { name: "Small Box", prices: { PICKUP: 2000, SHIPPING: 2600 } });
  const family = await f.plan(farm, { name: "Family Box", prices: { PICKUP: 3000, SHIPPING: 3600 } });
  const eggs = await f.addon(farm, { name: "Eggs", amountCents: 500 });
  const coupon = await f.coupon({ code: "TENOFF", type: "PERCENT", value: 10 });
  const otherPlan = await f.plan(other);

  sub = async (key, o) => {
    const holder = await cardHolder(key, o.name === undefined ? `${key[0].toUpperCase()}${key.slice(1)} Smith` : o.name);
    users[key] = holder.user;
    const business = o.business ?? farm;
    const created = await f.subscription({
      user: holder.user,
      business,
      plan: business === farm ? small : otherPlan,
      status: o.status,
      planAmountCents: 2000,
      totalCents: o.total,
      paidThroughPeriod: o.paidThrough,
      startedAt: o.startedAt,
      canceledAt: o.canceledAt,
    });
    await t.db.prisma.subscription.update({
      where: { id: created.id },
      data: { billingDay: o.billingDay ?? 1, couponId: o.couponId ?? null, providerPaymentMethodId: holder.paymentMethodId },
    });
    subs[key] = created;
    return created;
  };

  // ACTIVE, billing on the 5th: charged for April on April 5th.
  await sub("alice", { billingDay: 5, total: 2115 });
  // Billing on the 3rd but April skipped: next charged on May 3rd.
  await sub("bob", { billingDay: 3, total: 2000 });
  await t.db.prisma.skip.create({ data: { subscriptionId: subs.bob.id, yearMonth: "2026-04" } });
  // On the 5th, with 10 % off, changing to the Family Box shipped with eggs from April: 3600 + 500 = 4100, 10 % off
  // = 3690, tax 5.75 % = 212.175 → 212: 3902 (not its stored 1904).
  await sub("carol", { billingDay: 5, total: 1904, couponId: coupon.id });
  await t.db.prisma.subscriptionChange.create({ data: { subscriptionId: subs.carol.id, planId: family.id, mode: "SHIPPING", addonIds: [eggs.id], effectivePeriod: "2026-04" } });
  // On the 10th.
  await sub("dan", { billingDay: 10, total: 3000 });
  // Past due for April (billing on the 1st): declined on April 1st and 2nd, next try 3 days after the first.
  await sub("eve", { status: "PAST_DUE", billingDay: 1, total: 2500 });
  // Already charged for April on the 1st, at a new price (a change applied then): March was 1700.
  await sub("frank", { billingDay: 1, total: 2200, paidThrough: "2026-04" });
  // Started on March 31st at 23:30 in New York (April 1st in UTC); bills on the 28th.
  await sub("ivy", { billingDay: 28, total: 2600, startedAt: "2026-04-01T03:30:00Z" });
  // Started on April 1st at 00:30 in New York, paid for April.
  await sub("jack", { billingDay: 1, total: 2400, startedAt: "2026-04-01T04:30:00Z", paidThrough: "2026-04" });
  // Past due for March (billing on the 28th, declined on March 30th, 31st and April 2nd): no name on the profile.
  await sub("lee", { name: null, status: "PAST_DUE", billingDay: 28, total: 1800, paidThrough: "2026-02" });
  // Canceled on March 31st at 23:00 in New York (April 1st in UTC), and on April 1st at 01:00.
  await sub("gina", { status: "CANCELED", total: 2050, canceledAt: "2026-04-01T03:00:00Z" });
  await sub("hank", { status: "CANCELED", total: 2300, canceledAt: "2026-04-01T05:00:00Z" });
  // Started on April 1st and canceled the next day: new and canceled this month.
  await sub("mia", { status: "CANCELED", total: 2000, startedAt: "2026-04-01T12:00:00Z", canceledAt: "2026-04-02T12:00:00Z", paidThrough: "2026-04" });
  // A checkout never paid: counted nowhere.
  await sub("kim", { status: "INCOMPLETE", billingDay: 2, total: 9999, startedAt: "2026-04-02T12:00:00Z", paidThrough: null });
  // The other business: due today, new this month, past due, canceled this month. None of it is the farm's.
  await sub("oscar", { business: other, billingDay: 2, total: 7000, startedAt: "2026-04-02T12:00:00Z", paidThrough: "2026-03" });
  await sub("olga", { business: other, status: "PAST_DUE", total: 7000 });
  await sub("omar", { business: other, status: "CANCELED", total: 7000, canceledAt: "2026-04-02T12:00:00Z" });

  const order = (key: string, period: string, totalCents: number, refundedCents = 0) => f.order({ subscription: subs[key], period, totalCents, refundedCents });
  await order("alice", "2026-03", 2115);
  await order("bob", "2026-03", 2000);
  await order("carol", "2026-03", 1904);
  await order("dan", "2026-03", 3000);
  await order("eve", "2026-03", 2500);
  await order("frank", "2026-03", 1700);
  await order("frank", "2026-04", 2200);
  await order("ivy", "2026-03", 2600);
  await order("jack", "2026-04", 2400);
  await order("hank", "2026-03", 2300, 500);
  await order("mia", "2026-04", 2000);

  const declined = (key: string, period: string, attempt: number, at: string) =>
    t.db.prisma.payment.create({
      data: { userId: subs[key].userId, businessId: subs[key].businessId, subscriptionId: subs[key].id, provider: "sandbox", providerPaymentId: `pi_${key}_${attempt}`, idempotencyKey: `renewal:${subs[key].id}:${period}:${attempt}`, amountCents: 2500, status: "FAILED", createdAt: new Date(at) },
    });
  await declined("eve", "2026-04", 1, "2026-04-01T14:00:00Z");
  await declined("eve", "2026-04", 2, "2026-04-02T14:00:00Z");
  await declined("lee", "2026-03", 1, "2026-03-30T14:00:00Z");
  await declined("lee", "2026-03", 2, "2026-03-31T14:00:00Z");
  await declined("lee", "2026-03", 3, "2026-04-02T14:00:00Z");
  await declined("olga", "2026-04", 1, "2026-04-01T14:00:00Z");

  // Members' own requests to cancel (self-service): three in April in New York, one on March 31st there (April 1st
  // in UTC), and one at the other business.
  const request = (key: string, reason: "TOO_EXPENSIVE" | "MOVING" | "QUALITY" | "TOO_MUCH", at: string, o: { shown?: ("SKIP" | "DISCOUNT")[]; accepted?: "DISCOUNT"; outcome?: "RETAINED" | "CANCEL_SCHEDULED" } = {}) =>
    t.db.prisma.cancellationRequest.create({
      data: { subscriptionId: subs[key].id, userId: subs[key].userId, businessId: subs[key].businessId, reason, offersShown: o.shown ?? [], offerAccepted: o.accepted ?? null, outcome: o.outcome ?? "OPEN", createdAt: new Date(at) },
    });
  await request("alice", "TOO_EXPENSIVE", "2026-04-01T12:00:00Z", { shown: ["SKIP", "DISCOUNT"], accepted: "DISCOUNT", outcome: "RETAINED" });
  await request("bob", "TOO_EXPENSIVE", "2026-04-02T10:00:00Z", { shown: ["SKIP"], outcome: "CANCEL_SCHEDULED" });
  await request("carol", "MOVING", "2026-04-02T11:00:00Z", { outcome: "CANCEL_SCHEDULED" });
  await request("dan", "QUALITY", "2026-04-01T03:00:00Z");
  await request("oscar", "TOO_MUCH", "2026-04-02T12:00:00Z", { shown: ["SKIP"] });

  for (const role of ["OWNER", "EDITOR", "VIEWER"] as const) {
    const staff = await f.user({ username: role.toLowerCase() });
    await f.attach(farm, staff, role);
    tokens[role.toLowerCase()] = await f.session(staff);
  }
  const otherOwner = await f.user({ username: "other-owner" });
  await f.attach(other, otherOwner, "OWNER");
  tokens.otherOwner = await f.session(otherOwner);
  tokens.admin = await f.session(await f.user({ username: "admin", isAdmin: true }));
  tokens.member = await f.session(users.alice);
  tokens.partner = await f.partnerToken(farm, users.alice);
});
afterAll(() => t.close());

const DASHBOARD = `query($slug: String!) { business(slug: $slug) { metrics {
  nextBillingRun { date period memberships amountCents changes }
  boxesThisMonth { month boxes held frozen addedSinceFreeze }
  pastDue { total memberships { membershipId fullName username owedPeriod attempts nextRetryAt nextRetryDate } }
  membersThisMonth { yearMonth newMembers canceled cancellationRequests { requests offersShown offersAccepted cancelsScheduled byReason { reason count } } }
  recurringRevenue { mrrCents previousMonth previousMonthEndCents changeCents }
} } }`;
const dashboard = async (token = tokens.owner, slug = "farm") => (await t.gqlOk(DASHBOARD, { slug }, { token })).business.metrics;

describe("the owner's dashboard", () => {
  it("names the next billing run: its day, its memberships and what it charges them", async () => {
    // Due: alice and carol on the 5th. Not bob (April skipped: May 3rd), dan (the 10th), ivy (the 28th), frank and
    // jack (paid for April: May 1st), nor eve and lee (past due: retries) nor the other business's oscar (today).
    // 2115 + carol's changed box 3902 = 6017.
    expect((await dashboard()).nextBillingRun).toEqual({ date: "2026-04-05", period: "2026-04", memberships: 2, amountCents: 6017, changes: 1 });
  });

  it("counts this month's boxes as the Fulfilment screen does", async () => {
    // Boxes: alice, carol, dan, frank, ivy, jack, and lee (past due for March: April is still to be charged);
    // eve's is held (April declined); bob skips April; the canceled and the never paid have none.
    const m = await dashboard();
    expect(m.boxesThisMonth).toEqual({ month: "2026-04", boxes: 7, held: 1, frozen: false, addedSinceFreeze: 0 });
    const screen = await t.gqlOk(`{ business(slug: "farm") { fulfilment(month: "2026-04") { totals { boxes held } } } }`, {}, { token: tokens.owner });
    expect(screen.business.fulfilment.totals).toEqual({ boxes: 7, held: 1 });
  });

  it("lists the past-due memberships with the period each owes and its next retry, soonest first", async () => {
    expect((await dashboard()).pastDue).toEqual({
      total: 2,
      memberships: [
        // Declined April 1st and 2nd: tried again 3 days after the first.
        { membershipId: subs.eve.id, fullName: "Eve Smith", username: "eve", owedPeriod: "2026-04", attempts: 2, nextRetryAt: "2026-04-04T14:00:00.000Z", nextRetryDate: "2026-04-04" },
        // Declined three times from March 30th: the last try 7 days after the first. No name given: null.
        { membershipId: subs.lee.id, fullName: null, username: "lee", owedPeriod: "2026-03", attempts: 3, nextRetryAt: "2026-04-06T14:00:00.000Z", nextRetryDate: "2026-04-06" },
      ],
    });
  });

  it("counts new members and cancellations of the month in the business's time zone", async () => {
    // New: jack (April 1st 00:30 local) and mia; not ivy (March 31st local, April in UTC), nor kim (never paid).
    // Canceled: hank (April 1st 01:00 local) and mia; not gina (March 31st 23:00 local, April in UTC).
    // Requests to cancel: alice (kept by the discount), bob and carol (cancels scheduled); not dan's (March 31st in
    // New York) nor the other business's.
    expect((await dashboard()).membersThisMonth).toEqual({
      yearMonth: "2026-04",
      newMembers: 2,
      canceled: 2,
      cancellationRequests: { requests: 3, offersShown: 2, offersAccepted: 1, cancelsScheduled: 2, byReason: [{ reason: "TOO_EXPENSIVE", count: 2 }, { reason: "MOVING", count: 1 }] },
    });
  });

  it("gives MRR and its change since the end of last month", async () => {
    // Now, active and past due: alice 2115 + bob 2000 + carol 1904 + dan 3000 + eve 2500 + frank 2200 + ivy 2600
    // + jack 2400 + lee 1800 = 20519.
    // End of March, the memberships active then at what they charged for March: alice 2115 + bob 2000 + carol 1904
    // + dan 3000 + eve 2500 + frank 1700 (his April price is 2200) + ivy 2600 + hank 2300 (refunds aside) + lee
    // 1800 (no March order: his monthly total) = 19919. Not jack and mia (April), nor gina (canceled in March).
    // The change, +600, is jack's 2400 - hank's 2300 + frank's 500.
    const m = await dashboard();
    expect(m.recurringRevenue).toEqual({ mrrCents: 20519, previousMonth: "2026-03", previousMonthEndCents: 19919, changeCents: 600 });
    const thisMonth = await t.gqlOk(`{ business(slug: "farm") { metrics { thisMonth { mrrCents } } } }`, {}, { token: tokens.owner });
    expect(thisMonth.business.metrics.thisMonth.mrrCents).toBe(20519);
  });

  it("covers the other business with its own rows only", async () => {
    const m = await dashboard(tokens.otherOwner, "other");
    expect(m.nextBillingRun).toEqual({ date: "2026-04-02", period: "2026-04", memberships: 1, amountCents: 7000, changes: 0 });
    expect(m.pastDue.memberships.map((p: { username: string }) => p.username)).toEqual(["olga"]);
    expect(m.membersThisMonth).toEqual({
      yearMonth: "2026-04",
      newMembers: 1,
      canceled: 1,
      cancellationRequests: { requests: 1, offersShown: 1, offersAccepted: 0, cancelsScheduled: 0, byReason: [{ reason: "TOO_MUCH", count: 1 }] },
    });
    expect(m.recurringRevenue).toEqual({ mrrCents: 14000, previousMonth: "2026-03", previousMonthEndCents: 14000, changeCents: 0 });
  });
});

describe("a frozen month", () => {
  it("counts the snapshot's boxes, and apart those paid for after the freeze, as the Fulfilment screen's differences", async () => {
    // The other business's April, frozen today: oscar is still to be charged for it (no box yet), olga's is held
    // (declined); otto pays for April after the freeze.
    await freeze(billingCtx(), other.id, "2026-04", { trigger: "operator" });
    const frozen = (await dashboard(tokens.otherOwner, "other")).boxesThisMonth;
    expect(frozen).toEqual({ month: "2026-04", boxes: 0, held: 1, frozen: true, addedSinceFreeze: 0 });
    await sub("otto", { business: other, billingDay: 2, total: 7000, startedAt: "2026-04-02T14:00:00Z", paidThrough: "2026-04" });
    await f.order({ subscription: subs.otto, period: "2026-04", totalCents: 7000 });
    expect((await dashboard(tokens.otherOwner, "other")).boxesThisMonth).toEqual({ ...frozen, addedSinceFreeze: 1 });
    const screen = await t.gqlOk(`{ business(slug: "other") { fulfilment(month: "2026-04") { differences { kind } } } }`, {}, { token: tokens.otherOwner });
    expect(screen.business.fulfilment.differences.map((d: { kind: string }) => d.kind)).toEqual(["ADDED"]);
  });
});

describe("who may read it", () => {
  it("is read by the business's owner, editors and viewers, and administrators", async () => {
    const owner = await dashboard(tokens.owner);
    for (const who of ["editor", "viewer", "admin"]) expect(await dashboard(tokens[who])).toEqual(owner);
  });

  it("is refused to another business's owner, a member, a partner token and anonymous visitors", async () => {
    for (const who of ["otherOwner", "member", "partner"]) {
      const r = await t.gql(DASHBOARD, { slug: "farm" }, { token: tokens[who] });
      expect(r.errors?.[0]?.message, who).toBe("You do not have permission to do this.");
    }
    expect((await t.gql(DASHBOARD, { slug: "farm" }, {})).errors?.[0]?.message).toBe("Please log in to continue.");
  });

  it("checks the permission in each domain read, whatever scope it is handed", async () => {
    const scope = { businessId: farm.id, timeZone: "America/New_York" };
    const asUser = (user: { id: number; publicId: string; username: string; isAdmin: boolean }): ServiceContext => ({
      ...billingCtx(),
      actor: { kind: "user", user: { id: user.id, publicId: user.publicId, username: user.username, isAdmin: user.isAdmin }, session: { id: 0, tenantSlug: null } },
      tenant: null,
      ip: "127.0.0.1",
      roleCache: new Map(),
    });
    const reads = [outlook.nextBillingRun, outlook.boxesThisMonth, outlook.pastDueMemberships, metrics.membersThisMonth, metrics.recurringRevenue];
    for (const read of reads) {
      await expect(read(asUser(users.alice), scope), read.name).rejects.toThrow("You do not have permission to do this.");
      await expect(read(asUser(users.alice), { businessId: null, timeZone: "UTC" }), read.name).rejects.toThrow("These figures are a business's");
    }
  });
});

describe("the renewal run", () => {
  it("charges on the announced day what the dashboard announced", async () => {
    const before = (await dashboard()).nextBillingRun;
    const seeded = new Set((await t.db.prisma.order.findMany({ select: { id: true } })).map((o) => o.id));
    t.clock.set("2026-04-05T14:00:00Z"); // April 5th, 10:00 in New York
    try {
      await runRenewals(billingCtx(), { businessId: farm.id });
      const orders = await t.db.prisma.order.findMany({ where: { businessId: farm.id, period: before.period }, select: { id: true, subscriptionId: true, totalCents: true } });
      // Eve's retry (due since April 4th) is paid too: a retry, not announced as a new charge.
      const renewed = orders.filter((o) => !seeded.has(o.id) && o.subscriptionId !== subs.eve.id);
      expect(renewed.map((o) => o.subscriptionId).sort((a, b) => a - b)).toEqual([subs.alice.id, subs.carol.id]);
      expect(renewed.reduce((sum, o) => sum + o.totalCents, 0)).toBe(before.amountCents);
      // And the next one is dan's, on the 10th.
      expect((await dashboard()).nextBillingRun).toEqual({ date: "2026-04-10", period: "2026-04", memberships: 1, amountCents: 3000, changes: 0 });
    } finally {
      t.clock.set(NOW);
    }
  });
});
