import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";
import * as metrics from "../../api/metrics/service.ts";
import { membershipOrder } from "../../api/subscriptions/memberships-list.ts";
import type { ServiceContext } from "../../api/context.ts";

let t: TestApp;
let f: Factories;
let adminToken: string;
let viewerToken: string;
let memberToken: string;
let partnerToken: string;
const subs: Record<string, number> = {};
let statements = 0;

beforeAll(async () => {
  t = await createTestApp({ now: "2026-03-05T15:00:00Z", logQueries: true });
  t.db.onStatement(() => void statements++);
  f = factories(t);
  const acme = await f.business({ slug: "acme", name: "Acme" });
  const bakery = await f.business({ slug: "bakery", name: "Bakery" });
  const planA = await f.plan(acme);
  const planB = await f.plan(bakery);
  const member = await f.user({ username: "member" });
  const viewer = await f.user({ username: "viewer" });
  const admin = await f.user({ username: "admin", isAdmin: true });
  await f.attach(acme, viewer, "VIEWER");
  adminToken = await f.session(admin);
  viewerToken = await f.session(viewer);
  memberToken = await f.session(member);
  partnerToken = await f.partnerToken(acme, admin);

  const u = async (name: string) => f.user({ username: name });
  const s1 = await f.subscription({ user: await u("m1"), business: acme, plan: planA, totalCents: 3000, startedAt: "2025-12-15T12:00:00Z" });
  const s2 = await f.subscription({ user: await u("m2"), business: acme, plan: planA, status: "PAST_DUE", totalCents: 4000, startedAt: "2026-02-10T12:00:00Z" });
  const s3 = await f.subscription({ user: await u("m3"), business: acme, plan: planA, status: "CANCELED", totalCents: 2000, startedAt: "2025-10-01T12:00:00Z", canceledAt: "2026-01-20T12:00:00Z" });
  const s4 = await f.subscription({ user: await u("m4"), business: acme, plan: planA, status: "INCOMPLETE", totalCents: 9999, startedAt: "2026-03-01T12:00:00Z" });
  // 2026-03-01 03:00 UTC is still February 28th in New York: a March start for the platform, February for the bakery.
  const s5 = await f.subscription({ user: member, business: bakery, plan: planB, totalCents: 5000, startedAt: "2026-03-01T03:00:00Z" });
  Object.assign(subs, { s1: s1.id, s2: s2.id, s3: s3.id, s4: s4.id, s5: s5.id });
  await f.order({ subscription: s1, period: "2025-12", totalCents: 3000 });
  await f.order({ subscription: s1, period: "2026-01", totalCents: 3000 });
  await f.order({ subscription: s1, period: "2026-02", totalCents: 3000, refundedCents: 1000 });
  await f.order({ subscription: s3, period: "2025-10", totalCents: 2000 });
  await f.order({ subscription: s5, period: "2026-03", totalCents: 5000 });
});
afterAll(() => t.close());

const FIELDS = `totals { subscriptionsAll subscriptionsActive subscriptionsCanceled totalRevenueCents }
  averages { subscriptionPriceCents }
  recentSubscriptions { databaseId }
  monthly { yearMonth activeMembers revenueCents }`;

const series = (m: { yearMonth: string; activeMembers: number; revenueCents: number }[]) =>
  Object.fromEntries(m.filter((p) => p.activeMembers || p.revenueCents).map((p) => [p.yearMonth, [p.activeMembers, p.revenueCents]]));

describe("admin metrics", () => {
  it("computes totals, averages, breakdown, recent memberships and monthly series", async () => {
    const r = await t.gqlOk(`{ adminMetrics { ${FIELDS} subscriptionsByBusiness { businessSlug count } } }`, {}, { token: adminToken });
    const m = r.adminMetrics;
    expect(m.totals).toEqual({ subscriptionsAll: 4, subscriptionsActive: 3, subscriptionsCanceled: 1, totalRevenueCents: 15000 });
    expect(m.averages).toEqual({ subscriptionPriceCents: 4000 });
    expect(m.subscriptionsByBusiness).toEqual([{ businessSlug: "acme", count: 3 }, { businessSlug: "bakery", count: 1 }]);
    expect(m.recentSubscriptions.map((s: { databaseId: number }) => s.databaseId)).toEqual([subs.s5, subs.s2, subs.s1, subs.s3]);
    expect(m.monthly).toHaveLength(12);
    expect(m.monthly[0].yearMonth).toBe("2025-04");
    expect(m.monthly[11].yearMonth).toBe("2026-03");
    expect(series(m.monthly)).toEqual({
      "2025-10": [1, 2000],
      "2025-11": [1, 0],
      "2025-12": [2, 3000],
      "2026-01": [2, 3000],
      "2026-02": [2, 2000],
      "2026-03": [3, 5000],
    });
  });

  it("is for administrators only", async () => {
    for (const token of [viewerToken, memberToken, partnerToken]) {
      expect((await t.gql(`{ adminMetrics { totals { subscriptionsAll } } }`, {}, { token })).errors?.[0]?.message).toBe("You do not have permission to do this.");
    }
    expect((await t.gql(`{ adminMetrics { totals { subscriptionsAll } } }`, {}, {})).errors?.[0]?.message).toBe("Please log in to continue.");
  });
});

describe("business metrics", () => {
  it("covers one business, with months counted in its time zone", async () => {
    const r = await t.gqlOk(`{ acme: business(slug: "acme") { metrics { business { slug name } ${FIELDS} } } }`, {}, { token: viewerToken });
    const m = r.acme.metrics;
    expect(m.business).toEqual({ slug: "acme", name: "Acme" });
    expect(m.totals).toEqual({ subscriptionsAll: 3, subscriptionsActive: 2, subscriptionsCanceled: 1, totalRevenueCents: 10000 });
    expect(m.averages).toEqual({ subscriptionPriceCents: 3500 });
    expect(m.recentSubscriptions.map((s: { databaseId: number }) => s.databaseId)).toEqual([subs.s2, subs.s1, subs.s3]);
    expect(series(m.monthly)["2026-03"]).toEqual([2, 0]);

    const b = await t.gqlOk(`{ business(slug: "bakery") { metrics { monthly { yearMonth activeMembers revenueCents } } } }`, {}, { token: adminToken });
    expect(series(b.business.metrics.monthly)).toEqual({ "2026-02": [1, 0], "2026-03": [1, 5000] });
  });

  it("is refused to members, partner tokens and staff of other businesses", async () => {
    for (const [slug, token] of [["acme", memberToken], ["acme", partnerToken], ["bakery", viewerToken]] as const) {
      const r = await t.gql(`{ business(slug: "${slug}") { metrics { totals { subscriptionsAll } } } }`, {}, { token });
      expect(r.errors?.[0]?.message).toBe("You do not have permission to do this.");
    }
  });

  it("aggregates without loading rows: a constant number of statements", async () => {
    const before = statements;
    await t.gqlOk(`{ adminMetrics { ${FIELDS} subscriptionsByBusiness { count } } }`, {}, { token: adminToken });
    // session + the aggregates (memberships per status, orders per period, active members per month) in one
    // statement + recent (nothing nested) + breakdown (groupBy, businesses)
    expect(statements - before).toBe(5);
  });

  it("reads the aggregates a query asks for in one statement, each once: totals, averages, series and MRR", async () => {
    const q = (fields: string) => `{ acme: business(slug: "acme") { id metrics { ${fields} } } }`;
    const alone = async (fields: string) => {
      const before = statements;
      await t.gqlOk(q(fields), {}, { token: viewerToken });
      return statements - before;
    };
    const base = await alone("__typename");
    expect(await alone("totals { subscriptionsAll totalRevenueCents }")).toBe(base + 1);
    expect(await alone("totals { subscriptionsAll totalRevenueCents } averages { subscriptionPriceCents } monthly { revenueCents }")).toBe(base + 1);
    expect(await alone("totals { subscriptionsAll } averages { subscriptionPriceCents } thisMonth { mrrCents } monthly { activeMembers }")).toBe(base + 1);
    // What each field reads: the same figures whether asked alone or together.
    const together = await t.gqlOk(q("totals { subscriptionsAll totalRevenueCents } averages { subscriptionPriceCents } thisMonth { mrrCents activeAtStart } monthly { activeMembers revenueCents }"), {}, { token: viewerToken });
    for (const field of ["totals { subscriptionsAll totalRevenueCents }", "averages { subscriptionPriceCents }", "thisMonth { mrrCents activeAtStart }", "monthly { activeMembers revenueCents }"]) {
      const name = field.split(" ")[0];
      expect((await t.gqlOk(q(field), {}, { token: viewerToken })).acme.metrics[name]).toEqual(together.acme.metrics[name]);
    }
  });

  it("REST dashboards list the same recent memberships as GraphQL (one read in the metrics service)", async () => {
    const rest = async (url: string) => {
      const res = await t.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${adminToken}` } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().recentSubscriptions as { public_id: string; user_id: number; business_slug: string; status: string; started_at: string }[];
    };
    const gql = await t.gqlOk(
      `{ adminMetrics { recentSubscriptions { userPublicId status startedAt business { slug } } }
         acme: business(slug: "acme") { databaseId metrics { recentSubscriptions { userPublicId status startedAt business { slug } } } } }`,
      {},
      { token: adminToken },
    );
    const asRest = (rows: { userPublicId: string; status: string; startedAt: string; business: { slug: string } }[]) =>
      rows.map((r) => ({ public_id: r.userPublicId, business_slug: r.business.slug, status: r.status.toLowerCase(), started_at: r.startedAt }));
    const strip = (rows: Awaited<ReturnType<typeof rest>>) => rows.map(({ user_id: _, ...r }) => r);
    expect(strip(await rest("/api/admin/metrics"))).toEqual(asRest(gql.adminMetrics.recentSubscriptions));
    expect(strip(await rest(`/api/admin/businesses/${gql.acme.databaseId}/metrics`))).toEqual(asRest(gql.acme.metrics.recentSubscriptions));
    expect((await rest("/api/admin/metrics")).map((r) => r.user_id)).toHaveLength(4);
  });
});

describe("recent memberships (metrics.recentSubscriptions)", () => {
  const ctx = () => ({ db: t.db.prisma }) as unknown as ServiceContext;
  const prisma = (scope: metrics.MetricsScope, selection: object) =>
    t.db.prisma.subscription.findMany({ ...selection, where: metrics.countedWhere(scope), orderBy: membershipOrder, take: metrics.RECENT_COUNT });

  it("returns the rows Prisma returns for the same selection, in one statement when it asks for columns of the membership, member and business", async () => {
    // Every column of each (dates, enums, JSON, nulls), as GraphQL's default selection asks.
    await t.db.prisma.subscription.update({ where: { id: subs.s1 }, data: { address: { city: "Springfield" }, email: "m1@example.com" } });
    const scopes = [{ businessId: null, timeZone: "UTC" }, { businessId: (await t.db.prisma.business.findUniqueOrThrow({ where: { slug: "acme" } })).id, timeZone: "UTC" }];
    const selections = [
      { include: { user: true, business: true } },
      { include: { user: { select: { publicId: true, username: true } }, business: true } },
      { select: { id: true, status: true, startedAt: true, user: { select: { publicId: true } } } },
      metrics.RECENT_COLUMNS,
    ];
    for (const scope of scopes) {
      for (const selection of selections) {
        const before = statements;
        const rows = await metrics.recentSubscriptions(ctx(), scope, selection);
        expect(statements - before, JSON.stringify(selection)).toBe(1);
        expect(rows).toEqual(await prisma(scope, selection));
      }
    }
  });

  it("reads anything else through Prisma with the same selection", async () => {
    const scope = { businessId: null, timeZone: "UTC" };
    const selection = { include: { user: true, skips: true, plan: { select: { name: true } } } };
    const rows = await metrics.recentSubscriptions(ctx(), scope, selection);
    expect(rows).toEqual(await prisma(scope, selection));
    expect(rows[0].plan.name).toBeTruthy();
  });
});

describe("this month's MRR and churn", () => {
  const QUERY = `{ adminMetrics { thisMonth { yearMonth mrrCents activeAtStart canceledThisMonth churnRate } } }`;

  it("counts recurring revenue of active memberships and churn against the members at the month's start", async () => {
    const before = await t.gqlOk(QUERY, {}, { token: adminToken });
    // At start of March (UTC): s1 and s2; s5 started in March; s3 ended in January; s4 never paid.
    expect(before.adminMetrics.thisMonth).toEqual({ yearMonth: "2026-03", mrrCents: 12000, activeAtStart: 2, canceledThisMonth: 0, churnRate: 0 });

    await t.db.prisma.subscription.update({ where: { id: subs.s1 }, data: { status: "CANCELED", canceledAt: new Date("2026-03-04T12:00:00Z") } });
    try {
      const after = await t.gqlOk(QUERY, {}, { token: adminToken });
      expect(after.adminMetrics.thisMonth).toEqual({ yearMonth: "2026-03", mrrCents: 9000, activeAtStart: 2, canceledThisMonth: 1, churnRate: 0.5 });
    } finally {
      await t.db.prisma.subscription.update({ where: { id: subs.s1 }, data: { status: "ACTIVE", canceledAt: null } });
    }
  });
});
