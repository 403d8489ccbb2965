import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemoData } from "../../prisma/seed-data.ts";
import { itemiseOrder } from "../../api/billing/breakdown.ts";
import { businessBalance } from "../../api/billing/payouts-sync.ts";
import { PAYOUT_TRANSIT_MS } from "../../api/billing/providers/sandbox/balances.ts";
import { SandboxProvider } from "../../api/billing/providers/sandbox/provider.ts";
import { allBalanceTransactions, reconcileDay } from "../../api/billing/reconcile-run.ts";
import { providerFor } from "../../api/billing/service.ts";
import { isPayoutDay, startOfToday } from "../../api/payouts/payouts.ts";
import { addDays, addMonths, localDate, parseYearMonth, startOfLocalDay, yearMonthOf } from "../../api/shared/calendar.ts";
import { FixedClock } from "../../api/shared/clock.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories } from "../support/factories.ts";

/**
 * The demo data agrees with itself and with the date it is seeded on (issue "demo data that undermines
 * trust"), and the home page's stats are the database's counts. Its money is the sandbox's (prisma/seed-payouts.ts):
 * the seeded payments are sandbox charges, the seeded months' Monday payouts were made, and the balance, the
 * statements and the reconciliation agree with them. Seeded on a December and a June day (every payout has arrived),
 * and on Tuesday January 6th, 2026: Monday's payout of the 1st's charges is still in transit, and the bakery's
 * charge of the 5th (its billing day) is pending.
 */

/** Words of the other half of the year: a winter note naming none of the summer ones, and the other way round. */
const SUMMER_WORDS = ["summer", "strawberr", "tomato", "sweet corn", "zucchini", "cucumber", "berries", "peach", "cold brew", "over ice", "snap pea"];
const WINTER_WORDS = ["winter", "squash", "root cellar", "storage", "cranberr", "pumpkin", "apple", "fireside", "holiday", "citrus"];

const STATS = `{ platformStats { businesses members boxesDelivered } }`;

const OWNER_VIEW = `query($slug: String!, $month: String!) { business(slug: $slug) {
  balance { availableCents pendingCents }
  payouts(first: 100) { edges { node { providerPayoutId amountCents status arrivalDate createdAt } } }
  statement(month: $month) { grossCents refundsCents platformFeeCents processingFeeCents netCents entryCount }
} }`;

/** A charge's money is available two days after it is charged (docs/payments.md, Balances and payouts). */
const HOLD_MS = 2 * 86_400_000;
/** The sandbox's simulated Stripe fee: 2.9 % + 30¢, rounded half up. */
const stripeFee = (cents: number) => Math.floor((cents * 29 + 500) / 1000) + 30;

/** `inTransit`: the demo owner's latest payout has not arrived yet on that day. */
const SEASONS = [
  { name: "December", now: "2025-12-10T15:00:00Z", outOfSeason: SUMMER_WORDS, inTransit: false },
  { name: "January", now: "2026-01-06T15:00:00Z", outOfSeason: SUMMER_WORDS, inTransit: true },
  { name: "June", now: "2026-06-15T15:00:00Z", outOfSeason: WINTER_WORDS, inTransit: false },
];

/** Boxes delivered, counted here in JavaScript: each order not fully refunded whose period's box-ready day has come. */
async function deliveredBoxes(t: TestApp): Promise<number> {
  const orders = await t.db.prisma.order.findMany({ select: { period: true, totalCents: true, refundedCents: true, business: { select: { timeZone: true, page: { select: { boxReadyDay: true } } } } } });
  return orders.filter((o) => {
    if (o.refundedCents > 0 && o.refundedCents >= o.totalCents) return false;
    const today = localDate(t.clock.now(), o.business.timeZone);
    const boxReadyDay = o.business.page?.boxReadyDay || 1;
    const lastDelivered = today.day >= boxReadyDay ? yearMonthOf(today) : yearMonthOf(addMonths(today, -1));
    return o.period <= lastDelivered;
  }).length;
}

async function expectedStats(t: TestApp) {
  const p = t.db.prisma;
  const members = await p.subscription.findMany({ where: { status: { in: ["ACTIVE", "PAST_DUE"] } }, distinct: ["userId"], select: { userId: true } });
  return { businesses: await p.business.count(), members: members.length, boxesDelivered: await deliveredBoxes(t) };
}

describe.each(SEASONS)("demo data seeded in $name", ({ now, outOfSeason, inTransit }) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ now });
    expect(await seedDemoData(t.db.prisma, t.clock)).toBe(true);
  });
  afterAll(() => t.close());
  const ctx = () => ({ db: t.db.prisma, clock: t.clock, config: t.config });
  /** Each demo business with its account and its books' charges, oldest first. */
  const demoBooks = () =>
    t.db.prisma.business.findMany({
      orderBy: { id: "asc" },
      include: { paymentAccount: true, ledgerEntries: { orderBy: [{ occurredAt: "asc" }, { id: "asc" }] }, payouts: { orderBy: [{ createdAt: "asc" }, { id: "asc" }] } },
    });

  it("delivers each membership to an area that names the member's town, and picks up at a point the business has", async () => {
    const memberships = await t.db.prisma.subscription.findMany({ include: { business: { include: { page: true } }, orders: true, user: true } });
    expect(memberships.some((m) => m.mode === "DELIVERY")).toBe(true);
    for (const m of memberships) {
      const page = m.business.page!;
      if (m.mode === "DELIVERY") {
        const town = (m.address as { city: string }).city;
        expect(page.deliveryAreas, m.business.slug).toContain(m.fulfillmentPoint);
        expect(m.fulfillmentPoint, `${m.user.username} at ${m.business.slug}`).toContain(town);
        // The profile and every order name the same town.
        expect((m.user.address as { city: string }).city).toBe(town);
        for (const o of m.orders) expect([o.fulfillmentPoint, (o.address as { city: string }).city]).toEqual([m.fulfillmentPoint, town]);
      } else if (m.mode === "PICKUP") {
        expect(page.pickupPoints, m.business.slug).toContain(m.fulfillmentPoint);
        for (const o of m.orders) expect(o.fulfillmentPoint).toBe(m.fulfillmentPoint);
      } else {
        expect(m.fulfillmentPoint).toBe("");
      }
    }
  });

  it("shows on every seeded order's receipt the tax rate that makes its tax, the coupon that made its discount", async () => {
    const orders = await t.db.prisma.order.findMany({ include: { coupon: true, business: { include: { page: true } } } });
    expect(orders.some((o) => o.taxCents > 0)).toBe(true);
    for (const o of orders) {
      const { lines, totalCents } = itemiseOrder(o);
      const tax = lines.filter((l) => l.kind === "TAX");
      const what = `${o.business.slug} ${o.period} order ${o.id}: ${JSON.stringify(tax)}`;
      expect(lines.reduce((sum, l) => sum + l.amountCents, 0), what).toBe(totalCents);
      if (o.taxCents === 0) {
        expect(tax, what).toEqual([]);
        continue;
      }
      // The rate its line names ("Tax (5.75%)") reproduces the amount, and is the business's.
      expect(tax, what).toHaveLength(1);
      const bps = Math.round(Number(/^Tax \((\d+\.\d\d)%\)$/.exec(tax[0].label)?.[1]) * 100);
      expect(Math.round(((o.subtotalCents - o.discountCents) * bps) / 10_000), what).toBe(o.taxCents);
      expect(bps, what).toBe(o.business.page!.taxRateBps);
      expect(tax[0].amountCents).toBe(o.taxCents);
      expect(lines.find((l) => l.kind === "DISCOUNT")?.label ?? null, what).toBe(o.discountCents > 0 ? `Coupon ${o.coupon!.code}` : null);
    }
  });

  it("connects every demo business from its first demo month, its paid history in its books with the default fees", async () => {
    const businesses = await t.db.prisma.business.findMany({ include: { paymentAccount: true, payments: { include: { order: true, ledgerEntries: true } } } });
    for (const b of businesses) {
      expect(b.paymentAccount, b.slug).toMatchObject({ provider: "sandbox", status: "ENABLED", chargesEnabled: true, payoutsEnabled: true });
      const periods = b.payments.map((p) => p.order!.period).sort();
      expect(b.connectFromPeriod, b.slug).toBe(periods[0]);
      for (const p of b.payments) {
        expect(p.destination).toBe(b.paymentAccount!.accountId);
        expect(p.ledgerEntries).toHaveLength(1);
        const [e] = p.ledgerEntries;
        expect(e).toMatchObject({ kind: "CHARGE", grossCents: p.amountCents, period: p.order!.period });
        expect(e.platformFeeCents + e.processingFeeCents).toBe(p.applicationFeeCents);
        expect(e.grossCents).toBe(e.platformFeeCents + e.processingFeeCents + e.netCents);
      }
      // The sandbox knows the account as enabled (what the Payouts page's refresh reads).
      expect(await providerFor(ctx()).retrieveAccount(b.paymentAccount!.accountId)).toMatchObject({ chargesEnabled: true, payoutsEnabled: true });
    }
  });

  it("charges every seeded payment at the sandbox at its own time, routed to the business's account", async () => {
    const payments = await t.db.prisma.payment.findMany({ orderBy: { createdAt: "asc" } });
    const transactions = await allBalanceTransactions(ctx(), payments[0].createdAt, new Date(t.clock.now().getTime() + 1));
    for (const p of payments) {
      expect(p.providerPaymentId).toMatch(/^pi_sbx_/);
      const intent = await providerFor(ctx()).retrievePaymentIntent(p.providerPaymentId);
      expect(intent).toMatchObject({ status: "succeeded", amountCents: p.amountCents, route: { destination: p.destination, applicationFeeCents: p.applicationFeeCents } });
      // Its charge on the platform's account: at the payment's time, with the simulated fee, available two days later.
      const charge = transactions.find((x) => x.type === "charge" && x.source === p.providerPaymentId);
      expect(charge).toMatchObject({ amountCents: p.amountCents, feeCents: stripeFee(p.amountCents), createdAt: p.createdAt, availableOn: new Date(p.createdAt.getTime() + HOLD_MS) });
    }
  });

  it("pays the seeded months out every Monday, as the sandbox's payouts job would have; the mirror holds the sandbox's payouts", async () => {
    const now = t.clock.now();
    for (const b of await demoBooks()) {
      const account = b.paymentAccount!.accountId;
      const atProvider = (await providerFor(ctx()).listPayouts(account, { limit: 100 })).payouts.reverse();
      expect(b.payouts.map((p) => [p.providerPayoutId, p.amountCents, p.status, p.arrivalDate, p.createdAt])).toEqual(
        atProvider.map((p) => [p.id, p.amountCents, p.status.toUpperCase(), p.arrivalDate, p.createdAt]),
      );
      // Each at the first instant of a Monday in the business's time zone, paying exactly what became available since
      // the one before; arrived (PAID) two days later, unless that is still to come.
      let since = -Infinity;
      for (const p of b.payouts) {
        expect(isPayoutDay(p.createdAt, b.timeZone) && startOfToday(p.createdAt, b.timeZone).getTime() === p.createdAt.getTime(), `${b.slug} ${p.createdAt.toISOString()}`).toBe(true);
        const became = b.ledgerEntries.filter((e) => e.occurredAt.getTime() + HOLD_MS > since && e.occurredAt.getTime() + HOLD_MS <= p.createdAt.getTime());
        expect(p.amountCents, `${b.slug} ${p.createdAt.toISOString()}`).toBe(became.reduce((sum, e) => sum + e.netCents, 0));
        expect(p.status).toBe(p.createdAt.getTime() + PAYOUT_TRANSIT_MS <= now.getTime() ? "PAID" : "IN_TRANSIT");
        since = p.createdAt.getTime();
      }
      // Everything available by the latest Monday was paid out.
      let monday = localDate(now, b.timeZone);
      while (!isPayoutDay(startOfLocalDay(monday, b.timeZone), b.timeZone) || startOfLocalDay(monday, b.timeZone) > now) monday = addDays(monday, -1);
      const lastPass = startOfLocalDay(monday, b.timeZone).getTime();
      const availableByThen = b.ledgerEntries.filter((e) => e.occurredAt.getTime() + HOLD_MS <= lastPass).reduce((sum, e) => sum + e.netCents, 0);
      expect(b.payouts.reduce((sum, p) => sum + p.amountCents, 0), b.slug).toBe(availableByThen);
    }
  });

  it("shows the owner paid payouts and a balance that is the books' net less the payouts, never below zero at a payout", async () => {
    const owner = await t.db.prisma.user.findUniqueOrThrow({ where: { username: "owner" } });
    const token = await factories(t).session(owner);
    const now = t.clock.now();
    for (const b of await demoBooks()) {
      const balance = (await businessBalance(ctx(), b.id))!;
      const net = b.ledgerEntries.reduce((sum, e) => sum + e.netCents, 0);
      const paidOut = b.payouts.filter((p) => p.status !== "FAILED" && p.status !== "CANCELED").reduce((sum, p) => sum + p.amountCents, 0);
      expect(balance.availableCents + balance.pendingCents, b.slug).toBe(net - paidOut);
      expect(balance.pendingCents, b.slug).toBe(b.ledgerEntries.filter((e) => e.occurredAt.getTime() + HOLD_MS > now.getTime()).reduce((sum, e) => sum + e.netCents, 0));
      // At each payout's instant the sandbox's balance, the payout taken, is zero: it took what was available, no more.
      for (const p of b.payouts) {
        const then = await new SandboxProvider(t.db.prisma, new FixedClock(p.createdAt)).retrieveBalance(b.paymentAccount!.accountId);
        expect(then.availableCents, `${b.slug} ${p.createdAt.toISOString()}`).toBe(0);
      }
      if (b.slug !== "green-acres-farm") continue;
      // The demo owner's Payouts page: the same balance and the mirror's payouts, newest first, some already paid.
      const view = (await t.gqlOk(OWNER_VIEW, { slug: b.slug, month: yearMonthOf(localDate(now, b.timeZone)) }, { token })).business;
      expect(view.balance).toEqual({ availableCents: balance.availableCents, pendingCents: balance.pendingCents });
      const payouts = view.payouts.edges.map((e: { node: { amountCents: number; status: string } }) => e.node);
      expect(payouts.map((p: { providerPayoutId: string }) => p.providerPayoutId)).toEqual(b.payouts.map((p) => p.providerPayoutId).reverse());
      expect(payouts.filter((p: { status: string }) => p.status === "PAID").length).toBeGreaterThan(0);
      expect(payouts[0].status).toBe(inTransit ? "IN_TRANSIT" : "PAID");
      for (const p of payouts) expect(p.amountCents).toBeGreaterThan(0);
    }
  });

  it("makes each seeded month's statement the sum of its ledger rows, and of the provider's charges and fees", async () => {
    const owner = await t.db.prisma.user.findUniqueOrThrow({ where: { username: "owner" } });
    const token = await factories(t).session(owner);
    const farm = (await demoBooks()).find((b) => b.slug === "green-acres-farm")!;
    const months = [...new Set(farm.ledgerEntries.map((e) => yearMonthOf(localDate(e.occurredAt, farm.timeZone))))];
    expect(months.length).toBeGreaterThan(1);
    const ours = new Set((await t.db.prisma.payment.findMany({ where: { businessId: farm.id } })).map((p) => p.providerPaymentId));
    for (const month of months) {
      const rows = farm.ledgerEntries.filter((e) => yearMonthOf(localDate(e.occurredAt, farm.timeZone)) === month);
      const sum = (pick: (e: (typeof rows)[number]) => number) => rows.reduce((total, e) => total + pick(e), 0);
      const statement = (await t.gqlOk(OWNER_VIEW, { slug: farm.slug, month }, { token })).business.statement;
      expect(statement, month).toEqual({
        grossCents: sum((e) => (e.kind === "CHARGE" ? e.grossCents : 0)),
        refundsCents: sum((e) => (e.kind === "REFUND" ? e.grossCents : 0)),
        platformFeeCents: sum((e) => e.platformFeeCents),
        processingFeeCents: sum((e) => e.processingFeeCents),
        netCents: sum((e) => e.netCents),
        entryCount: rows.length,
      });
      // The provider's side of the same month: the farm's charges, the application fees taken and the transfers made.
      const m = parseYearMonth(month);
      const from = startOfLocalDay({ ...m, day: 1 }, farm.timeZone);
      const until = startOfLocalDay({ ...addMonths(m, 1), day: 1 }, farm.timeZone);
      const txns = (await allBalanceTransactions(ctx(), from, until)).filter((x) => ours.has(x.type === "charge" ? x.source : (x.origin ?? "")));
      const total = (type: string) => txns.filter((x) => x.type === type).reduce((s, x) => s + x.amountCents, 0);
      expect(total("charge"), month).toBe(statement.grossCents);
      expect(total("application_fee"), month).toBe(statement.platformFeeCents + statement.processingFeeCents);
      expect(-total("transfer") - total("application_fee"), month).toBe(statement.netCents);
    }
  });

  it("reconciles every seeded day with no difference", async () => {
    const payments = await t.db.prisma.payment.findMany({ select: { createdAt: true } });
    const days = [...new Set(payments.map((p) => p.createdAt.toISOString().slice(0, 10)))];
    for (const day of days) {
      const report = await reconcileDay(ctx(), day);
      expect(report.differences, day).toEqual([]);
      expect(report.checked, day).toBeGreaterThanOrEqual(payments.filter((p) => p.createdAt.toISOString().startsWith(day)).length);
      expect(report.checked, day).toBeGreaterThan(0);
      expect(report.matched, day).toBe(report.checked);
    }
  });

  it("writes Next Box notes of the season, naming nothing out of season", async () => {
    const notes = await t.db.prisma.nextBox.findMany({ select: { contentHtml: true, business: { select: { slug: true } } } });
    expect(notes).toHaveLength(3);
    for (const { contentHtml, business } of notes) {
      const text = contentHtml.toLowerCase();
      expect(outOfSeason.filter((w) => text.includes(w)), business.slug).toEqual([]);
    }
  });

  it("shows the database's counts as the home page's stats, and counts what is added", async () => {
    const seeded = (await t.gqlOk(STATS)).platformStats;
    expect(seeded).toEqual(await expectedStats(t));
    // The demo's own figures: three businesses, four people with a live membership, and boxes already delivered
    // (at most one per order: in December the bakery's box of the month is paid but not ready yet).
    expect(seeded.businesses).toBe(3);
    expect(seeded.members).toBe(4);
    expect(seeded.boxesDelivered).toBeGreaterThan(0);
    expect(seeded.boxesDelivered).toBeLessThanOrEqual(await t.db.prisma.order.count());

    // A new business with one new member: one delivered box (last month's), one not yet (this month's, box
    // ready on the 28th), one refunded.
    const f = factories(t);
    const business = await f.business({ page: { boxReadyDay: 28 } });
    const plan = await f.plan(business);
    const user = await f.user();
    const membership = await f.subscription({ user, business, plan });
    const thisMonth = yearMonthOf(localDate(t.clock.now(), business.timeZone));
    const lastMonth = yearMonthOf(addMonths(localDate(t.clock.now(), business.timeZone), -1));
    const twoMonthsAgo = yearMonthOf(addMonths(localDate(t.clock.now(), business.timeZone), -2));
    await f.order({ subscription: membership, period: lastMonth, totalCents: 3000 });
    await f.order({ subscription: membership, period: thisMonth, totalCents: 3000 });
    await f.order({ subscription: membership, period: twoMonthsAgo, totalCents: 3000, refundedCents: 3000 });

    const after = (await t.gqlOk(STATS)).platformStats;
    expect(after).toEqual(await expectedStats(t));
    expect(after).toEqual({ businesses: seeded.businesses + 1, members: seeded.members + 1, boxesDelivered: seeded.boxesDelivered + 1 });

    // A second membership of a member already counted is no new member; a canceled one is none at all.
    const jordan = await t.db.prisma.user.findUniqueOrThrow({ where: { username: "jordan" } });
    await f.subscription({ user: jordan, business, plan });
    await f.subscription({ user: await f.user(), business, plan, status: "CANCELED" });
    expect((await t.gqlOk(STATS)).platformStats.members).toBe(seeded.members + 1);
  });
});

describe("home page stats", () => {
  it("are public: an anonymous visitor reads them", async () => {
    const t = await createTestApp();
    try {
      const r = await t.gql(STATS);
      expect(r.errors).toBeUndefined();
      expect(r.data.platformStats).toEqual({ businesses: 0, members: 0, boxesDelivered: 0 });
    } finally {
      await t.close();
    }
  });

  it("with the public cache on, are counted once per cache lifetime in a process", async () => {
    const t = await createTestApp({ config: { publicCacheTtlMs: 60_000 } });
    try {
      expect((await t.gqlOk(STATS)).platformStats.businesses).toBe(0);
      await factories(t).business();
      expect((await t.gqlOk(STATS)).platformStats.businesses).toBe(0);
    } finally {
      await t.close();
    }
  });
});
