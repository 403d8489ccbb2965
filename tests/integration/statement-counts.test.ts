import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";
import { businessPageQuery, dashboardQuery, membershipsPageQuery, portalViewerQuery, relayOperation } from "../bench/queries.ts";

/**
 * The SQL statements behind each screen the benchmarks measure do not grow with the page size (no
 * N+1). Each operation runs on a small and a large variant of the same data (5 and 50 rows per list) and must
 * issue exactly as many statements for both. The benchmark (tests/bench/run.ts) prints these counts.
 */

let t: TestApp;
let f: Factories;
let statements = 0;
let adminToken: string;
const members: Record<"small" | "large", string> = { small: "", large: "" };
const businessIds: Record<"small" | "large", number> = { small: 0, large: 0 };

async function count<T>(fn: () => Promise<T>): Promise<{ result: T; statements: number }> {
  statements = 0;
  const result = await fn();
  return { result, statements };
}

async function rest(url: string, token?: string) {
  const res = await t.app.inject({ method: "GET", url, headers: token ? { authorization: `Bearer ${token}` } : {} });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

beforeAll(async () => {
  t = await createTestApp({ logQueries: true, now: "2026-03-05T15:00:00Z" });
  f = factories(t);
  t.db.onStatement(() => statements++);

  const admin = await f.user({ isAdmin: true, username: "counter-admin" });
  adminToken = await f.session(admin);

  // Bulk rows (createMany): the statement counting needs volume, not the factories' one-row-at-a-time realism.
  const db = f.db;
  const slugs = ["count-small", "count-large", ...Array.from({ length: 50 }, (_, i) => `count-other-${i}`)];
  const listSize = (slug: string) => (slug === "count-small" ? 5 : slug === "count-large" ? 50 : 1);
  const businesses = await db.business.createManyAndReturn({ data: slugs.map((slug) => ({ slug, name: slug, collectsOnPlatform: true })) });
  const bySlug = new Map(businesses.map((b) => [b.slug, b]));
  await db.page.createMany({
    data: businesses.map((b) => ({ businessId: b.id, brandName: b.name, shippingEnabled: true, deliveryEnabled: true, faqs: [{ q: "Q?", a: "<p>A</p>" }] })),
  });
  const plans = await db.plan.createManyAndReturn({
    data: businesses.flatMap((b) => Array.from({ length: listSize(b.slug) }, (_, i) => ({ businessId: b.id, ref: `item_${b.id}_${i}`, name: `Plan ${i}`, position: i }))),
  });
  await db.planVariation.createMany({
    data: plans.flatMap((p) => (["PICKUP", "SHIPPING", "DELIVERY"] as const).map((mode, i) => ({ planId: p.id, mode, amountCents: 3000 + 500 * i }))),
  });
  const addons = await db.addon.createManyAndReturn({
    data: businesses.flatMap((b) => Array.from({ length: listSize(b.slug) }, (_, i) => ({ businessId: b.id, ref: `addon_${b.id}_${i}`, name: `Addon ${i}`, amountCents: 300 + i, position: i }))),
  });
  const firstPlan = (businessId: number) => plans.find((p) => p.businessId === businessId)!;
  const addonsOf = (businessId: number) => addons.filter((a) => a.businessId === businessId);
  businessIds.small = bySlug.get("count-small")!.id;
  businessIds.large = bySlug.get("count-large")!.id;

  // Memberships: two portal members with 5 and 50 (one per business), and 5 and 50 members in the two
  // dashboard businesses (every fourth canceled; the search "count-member" matches them). Each membership has
  // an add-on, a scheduled change (with every add-on of its business) and two orders.
  const joins: { username: string; businessId: number }[] = [];
  for (const [size, n] of [["small", 5], ["large", 50]] as const) {
    for (let i = 0; i < n; i++) joins.push({ username: `portal-${size}`, businessId: bySlug.get(`count-other-${i}`)!.id });
  }
  for (const [slug, n] of [["count-small", 5], ["count-large", 50]] as const) {
    for (let i = 0; i < n; i++) joins.push({ username: `count-member-${slug}-${i}`, businessId: bySlug.get(slug)!.id });
  }
  const users = await db.user.createManyAndReturn({
    data: [...new Set(joins.map((j) => j.username))].map((username) => ({ username, passwordHash: "x", email: `${username}@example.com`, name: username })),
  });
  const userId = new Map(users.map((u) => [u.username, u.id]));
  const subs = await db.subscription.createManyAndReturn({
    data: joins.map((j, i) => ({
      userId: userId.get(j.username)!,
      businessId: j.businessId,
      planId: firstPlan(j.businessId).id,
      status: j.username.startsWith("count-member") && i % 4 === 3 ? ("CANCELED" as const) : ("ACTIVE" as const),
      mode: "PICKUP" as const,
      planAmountCents: 3000,
      addonsAmountCents: 300,
      totalCents: 3300,
      paidThroughPeriod: "2026-03",
      startedAt: new Date(Date.UTC(2026, 0, 1 + (i % 28), 12)),
    })),
  });
  await db.subscriptionAddon.createMany({ data: subs.map((s) => ({ subscriptionId: s.id, addonId: addonsOf(s.businessId)[0].id, amountCents: 300 })) });
  // Of the dashboard businesses' members, every third (by start) paused for April, the month of their next box, and
  // every third (the next) ending after March: rows of the memberships list's Paused and Ending filters.
  const listed = subs.filter((s) => s.businessId === businessIds.small || s.businessId === businessIds.large).sort((x, y) => x.startedAt.getTime() - y.startedAt.getTime() || x.id - y.id);
  await db.skip.createMany({ data: listed.filter((_, k) => k % 3 === 0).map((s) => ({ subscriptionId: s.id, yearMonth: "2026-04" })) });
  await db.subscription.updateMany({ where: { id: { in: listed.filter((_, k) => k % 3 === 1).map((s) => s.id) } }, data: { cancelAfterPeriod: "2026-03" } });
  await db.subscriptionChange.createMany({
    data: subs.map((s) => ({ subscriptionId: s.id, planId: s.planId, mode: "SHIPPING" as const, addonIds: addonsOf(s.businessId).map((a) => a.id), effectivePeriod: "2026-04" })),
  });
  await db.order.createMany({
    data: subs.flatMap((s) =>
      ["2026-02", "2026-03"].map((period) => ({
        subscriptionId: s.id, userId: s.userId, businessId: s.businessId, kind: "RENEWAL" as const, period, mode: s.mode,
        selection: { chosenItemName: "Plan 0", chosenVariationName: "Pickup", mode: "pickup", chosenAddons: [] },
        subtotalCents: 3300, totalCents: 3300, createdAt: new Date(`${period}-01T12:00:00Z`),
      })),
    ),
  });
  members.small = await f.session({ id: userId.get("portal-small")! });
  members.large = await f.session({ id: userId.get("portal-large")! });
}, 60_000);
afterAll(() => t?.close());

describe("statements per request do not grow with the page size", () => {
  it("business page (GraphQL BusinessRoute query): 5 and 50 plans and add-ons", async () => {
    const query = businessPageQuery();
    const a = await count(() => t.gqlOk(query, { slug: "count-small" }));
    const b = await count(() => t.gqlOk(query, { slug: "count-large" }));
    expect(a.result.business.slug).toBe("count-small");
    expect(JSON.stringify(b.result).length).toBeGreaterThan(JSON.stringify(a.result).length * 5);
    expect(b.statements).toBe(a.statements);
  });

  it("business page (REST GET /api/businesses/{slug}/page)", async () => {
    const a = await count(() => rest("/api/businesses/count-small/page"));
    const b = await count(() => rest("/api/businesses/count-large/page"));
    expect(JSON.stringify(b.result).length).toBeGreaterThan(JSON.stringify(a.result).length);
    expect(b.statements).toBe(a.statements);
  });

  it("admin memberships (GraphQL memberships(first, after, search, status)): first 5 and first 50, then the next page", async () => {
    const vars = { search: "count-member", status: "ANY" };
    const a = await count(() => t.gqlOk(membershipsPageQuery, { ...vars, first: 5 }, { token: adminToken }));
    const b = await count(() => t.gqlOk(membershipsPageQuery, { ...vars, first: 50 }, { token: adminToken }));
    expect(a.result.memberships.edges).toHaveLength(5);
    expect(b.result.memberships.edges).toHaveLength(50);
    expect(b.statements).toBe(a.statements);
    const after = a.result.memberships.pageInfo.endCursor;
    const c = await count(() => t.gqlOk(membershipsPageQuery, { ...vars, status: "ACTIVE", first: 5, after }, { token: adminToken }));
    const d = await count(() => t.gqlOk(membershipsPageQuery, { ...vars, status: "ACTIVE", first: 50, after }, { token: adminToken }));
    expect(d.result.memberships.edges.length).toBeGreaterThan(c.result.memberships.edges.length);
    expect(d.statements).toBe(c.statements);
  });

  it("admin memberships (REST GET /api/admin/memberships?q&status&business): 5 and 50 rows", async () => {
    const a = await count(() => rest(`/api/admin/memberships?q=count-member&status=any&business=${businessIds.small}`, adminToken));
    const b = await count(() => rest(`/api/admin/memberships?q=count-member&status=any&business=${businessIds.large}`, adminToken));
    expect(a.result.items).toHaveLength(5);
    expect(b.result.items).toHaveLength(50);
    expect(b.statements).toBe(a.statements);
  });

  it("the web's memberships list (MembershipsPanelPaginationQuery) in each status filter, Paused and Ending too: 5 and 50 rows", async () => {
    const query = relayOperation("web/src/features/admin/memberships/__generated__/MembershipsPanelPaginationQuery.graphql.ts");
    const counts: Record<string, number> = {};
    for (const status of ["ANY", "ACTIVE", "PAUSED", "ENDING"]) {
      const a = await count(() => t.gqlOk(query, { status, businessId: businessIds.small }, { token: adminToken }));
      const b = await count(() => t.gqlOk(query, { status, businessId: businessIds.large }, { token: adminToken }));
      const nodes = b.result.memberships.edges.map((e: any) => e.node);
      expect(a.result.memberships.edges.length, status).toBeGreaterThan(0);
      expect(nodes.length, status).toBeGreaterThan(a.result.memberships.edges.length);
      if (status === "PAUSED") expect(nodes.every((n: any) => n.pausedThrough === "2026-04" && n.resumeDate)).toBe(true);
      if (status === "ENDING") expect(nodes.every((n: any) => n.cancelAfterPeriod === "2026-03")).toBe(true);
      expect(b.statements, status).toBe(a.statements);
      counts[status] = a.statements;
    }
    // The filter is in the keyset statement: the session and the keyset statement (2); what the rows' "Paused until"
    // reads beyond it, their business's calendar and their skips, in the one Prisma read by id (subscriptions,
    // businesses, pages, skips: 4); the next charges (api/subscriptions/next-charge.ts: the memberships, businesses,
    // skips, scheduled changes, tax settings, and the changes' plans, variations and add-ons: 8). Ending after March,
    // the Ending rows have no next charge, so no scheduled change to price (5).
    expect(counts).toEqual({ ANY: 14, ACTIVE: 14, PAUSED: 14, ENDING: 11 });
  });

  it("member portal (GraphQL MembershipRoute viewer query): 5 and 50 memberships with scheduled changes and orders", async () => {
    const query = portalViewerQuery();
    const a = await count(() => t.gqlOk(query, { businessSlug: null }, { token: members.small }));
    const b = await count(() => t.gqlOk(query, { businessSlug: null }, { token: members.large }));
    expect(a.result.viewer.subscriptions).toHaveLength(5);
    expect(b.result.viewer.subscriptions).toHaveLength(50);
    expect(b.statements).toBe(a.statements);
  });

  it("scheduled changes with their add-ons (PendingMembershipChange.addons): 5 and 50 memberships", async () => {
    const query = `{ viewer { subscriptions { id pendingChange { effectivePeriod plan { name } addons { id name } } } } }`;
    const a = await count(() => t.gqlOk(query, {}, { token: members.small }));
    const b = await count(() => t.gqlOk(query, {}, { token: members.large }));
    expect(b.result.viewer.subscriptions).toHaveLength(50);
    expect(b.result.viewer.subscriptions.every((s: any) => s.pendingChange.addons.length === 1)).toBe(true);
    expect(b.statements).toBe(a.statements);
  });

  it("business dashboard metrics (GraphQL BusinessDashboardRoute query): 5 and 50 memberships", async () => {
    const query = dashboardQuery();
    const a = await count(() => t.gqlOk(query, { id: businessIds.small }, { token: adminToken }));
    const b = await count(() => t.gqlOk(query, { id: businessIds.large }, { token: adminToken }));
    expect(b.result.adminBusiness.metrics.totals.subscriptionsAll).toBe(50);
    expect(b.statements).toBe(a.statements);
    // Session, the business (its row gives the scope's time zone), the aggregates (memberships per status for
    // totals and average, orders per period for revenue and series, active members per month) in one
    // statement, the recent memberships with their members and businesses (one joined statement): 4; the owner's
    // outlook (api/metrics/outlook.ts and service.ts: next billing run with its pricing, boxes to pack as the
    // Fulfilment screen counts them, past due with retries, the month's members, MRR now and at last month's end),
    // each read checking the permission itself: 13 more. None grows with the memberships (b = a above).
    expect(a.statements).toBe(17);
  });

  it("a logged-in request reads its session and user in one statement", async () => {
    const a = await count(() => t.gqlOk(`{ __typename }`, {}, { token: adminToken }));
    expect(a.statements).toBe(1);
  });
});
