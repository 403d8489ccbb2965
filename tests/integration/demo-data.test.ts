import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemoData } from "../../prisma/seed-data.ts";
import { providerFor } from "../../api/billing/service.ts";
import { addMonths, localDate, yearMonthOf } from "../../api/shared/calendar.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories } from "../support/factories.ts";

/**
 * The demo data agrees with itself and with the date it is seeded on (issue "demo data that undermines
 * trust"), and the home page's stats are the database's counts. Seeded on a December and a June day.
 */

/** Words of the other half of the year: a winter note naming none of the summer ones, and the other way round. */
const SUMMER_WORDS = ["summer", "strawberr", "tomato", "sweet corn", "zucchini", "cucumber", "berries", "peach", "cold brew", "over ice", "snap pea"];
const WINTER_WORDS = ["winter", "squash", "root cellar", "storage", "cranberr", "pumpkin", "apple", "fireside", "holiday", "citrus"];

const STATS = `{ platformStats { businesses members boxesDelivered } }`;

const SEASONS = [
  { name: "December", now: "2025-12-10T15:00:00Z", outOfSeason: SUMMER_WORDS },
  { name: "June", now: "2026-06-15T15:00:00Z", outOfSeason: WINTER_WORDS },
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

describe.each(SEASONS)("demo data seeded in $name", ({ now, outOfSeason }) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ now });
    expect(await seedDemoData(t.db.prisma, t.clock)).toBe(true);
  });
  afterAll(() => t.close());

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
      expect(await providerFor({ db: t.db.prisma, clock: t.clock, config: t.config }).retrieveAccount(b.paymentAccount!.accountId)).toMatchObject({ chargesEnabled: true, payoutsEnabled: true });
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
