/**
 * Dashboard metrics (spec §2 admin home and business dashboard, §3 Metrics). Every figure is an aggregate
 * query; no membership or order rows are loaded to compute them.
 *
 * Definitions: memberships never paid (INCOMPLETE) are not counted anywhere. "Active" means ACTIVE or
 * PAST_DUE (as on business cards and in the memberships filter). Revenue is the sum of orders' totals minus
 * refunds (an order exists only for a paid period). The average price is that of active memberships'
 * monthly totals. A month's active members are the memberships active at some point in that month.
 */
import { Prisma } from "../generated/prisma/client.ts";
import type { ServiceContext } from "../context.ts";
import { assertCan, requireAdmin } from "../auth/policy.ts";
import { MEMBER_STATUSES } from "../businesses/service.ts";
import { addMonths, localDate, yearMonthOf, type YearMonth } from "../shared/calendar.ts";

/** Which memberships a dashboard covers: the whole platform (admin) or one business. */
export interface MetricsScope {
  businessId: number | null;
  /** Months are counted in this zone: the business's, or UTC for the platform. */
  timeZone: string;
}

export const MONTHS_IN_SERIES = 12;
export const RECENT_COUNT = 10;

export async function adminScope(ctx: ServiceContext): Promise<MetricsScope> {
  requireAdmin(ctx);
  return { businessId: null, timeZone: "UTC" };
}

export async function businessScope(ctx: ServiceContext, businessId: number): Promise<MetricsScope> {
  await assertCan(ctx, businessId, "viewDashboard");
  const business = await ctx.db.business.findUniqueOrThrow({ where: { id: businessId }, select: { timeZone: true } });
  return { businessId, timeZone: business.timeZone };
}

/** Memberships counted in a scope (never-paid checkouts excluded). */
export function countedWhere(scope: MetricsScope): Prisma.SubscriptionWhereInput {
  return { status: { not: "INCOMPLETE" }, ...(scope.businessId != null ? { businessId: scope.businessId } : {}) };
}

export interface Totals {
  subscriptionsAll: number;
  subscriptionsActive: number;
  subscriptionsCanceled: number;
  totalRevenueCents: number;
}

export async function totals(ctx: ServiceContext, scope: MetricsScope): Promise<Totals> {
  const [byStatus, revenue] = await Promise.all([
    ctx.db.subscription.groupBy({ by: ["status"], where: countedWhere(scope), _count: { _all: true } }),
    ctx.db.order.aggregate({
      where: scope.businessId != null ? { businessId: scope.businessId } : {},
      _sum: { totalCents: true, refundedCents: true },
    }),
  ]);
  const count = (statuses: readonly string[]) =>
    byStatus.filter((g) => statuses.includes(g.status)).reduce((sum, g) => sum + g._count._all, 0);
  return {
    subscriptionsAll: count(["ACTIVE", "PAST_DUE", "CANCELED"]),
    subscriptionsActive: count(MEMBER_STATUSES),
    subscriptionsCanceled: count(["CANCELED"]),
    totalRevenueCents: (revenue._sum.totalCents ?? 0) - (revenue._sum.refundedCents ?? 0),
  };
}

export async function averages(ctx: ServiceContext, scope: MetricsScope): Promise<{ subscriptionPriceCents: number }> {
  const avg = await ctx.db.subscription.aggregate({
    where: { ...countedWhere(scope), status: { in: [...MEMBER_STATUSES] } },
    _avg: { totalCents: true },
  });
  return { subscriptionPriceCents: Math.round(avg._avg.totalCents ?? 0) };
}

export interface BusinessCount {
  businessId: number;
  businessSlug: string;
  businessName: string;
  count: number;
}

/** Admin breakdown: memberships per business (every business, zero included), most first. */
export async function subscriptionsByBusiness(ctx: ServiceContext, scope: MetricsScope): Promise<BusinessCount[]> {
  const [groups, businesses] = await Promise.all([
    ctx.db.subscription.groupBy({ by: ["businessId"], where: countedWhere(scope), _count: { _all: true } }),
    ctx.db.business.findMany({
      where: scope.businessId != null ? { id: scope.businessId } : {},
      select: { id: true, slug: true, name: true },
    }),
  ]);
  const counts = new Map(groups.map((g) => [g.businessId, g._count._all]));
  return businesses
    .map((b) => ({ businessId: b.id, businessSlug: b.slug, businessName: b.name, count: counts.get(b.id) ?? 0 }))
    .sort((a, b) => b.count - a.count || a.businessSlug.localeCompare(b.businessSlug));
}

export interface MonthlyPoint {
  yearMonth: YearMonth;
  activeMembers: number;
  revenueCents: number;
}

/** The last MONTHS_IN_SERIES months, oldest first, ending with the current month in the scope's zone. */
export function seriesMonths(now: Date, timeZone: string): YearMonth[] {
  const today = localDate(now, timeZone);
  return Array.from({ length: MONTHS_IN_SERIES }, (_, i) => yearMonthOf(addMonths(today, i - (MONTHS_IN_SERIES - 1))));
}

/** Chart series: active members and revenue (by billing period) per month. */
export async function monthly(ctx: ServiceContext, scope: MetricsScope): Promise<MonthlyPoint[]> {
  const months = seriesMonths(ctx.clock.now(), scope.timeZone);
  const business = scope.businessId != null ? Prisma.sql`AND s.business_id = ${scope.businessId}` : Prisma.empty;
  // Timestamps are stored as UTC; month boundaries are local midnights in the scope's zone.
  const activeQuery = ctx.db.$queryRaw<{ ym: string; n: number }[]>`
    SELECT to_char(m.start, 'YYYY-MM') AS ym, COUNT(s.id)::int AS n
    FROM generate_series(${`${months[0]}-01`}::timestamp, ${`${months[months.length - 1]}-01`}::timestamp, interval '1 month') AS m(start)
    LEFT JOIN subscriptions s
      ON s.status <> 'INCOMPLETE'
     AND ((s.started_at AT TIME ZONE 'UTC') AT TIME ZONE ${scope.timeZone}) < m.start + interval '1 month'
     AND (s.canceled_at IS NULL OR ((s.canceled_at AT TIME ZONE 'UTC') AT TIME ZONE ${scope.timeZone}) >= m.start)
     ${business}
    GROUP BY m.start
    ORDER BY m.start`;
  const revenueQuery = ctx.db.order.groupBy({
    by: ["period"],
    where: { period: { in: months }, ...(scope.businessId != null ? { businessId: scope.businessId } : {}) },
    _sum: { totalCents: true, refundedCents: true },
  });
  const [active, revenue] = await Promise.all([activeQuery, revenueQuery]);
  const activeBy = new Map(active.map((r) => [r.ym, Number(r.n)]));
  const revenueBy = new Map(revenue.map((r) => [r.period, (r._sum.totalCents ?? 0) - (r._sum.refundedCents ?? 0)]));
  return months.map((yearMonth) => ({ yearMonth, activeMembers: activeBy.get(yearMonth) ?? 0, revenueCents: revenueBy.get(yearMonth) ?? 0 }));
}

export interface MonthFigures {
  yearMonth: YearMonth;
  /** Monthly recurring revenue: what active memberships charge per period. */
  mrrCents: number;
  /** Memberships active at the start of the month (the churn base). */
  activeAtStart: number;
  /** Of those and of the ones started since, how many were canceled this month. */
  canceledThisMonth: number;
  /** canceledThisMonth / activeAtStart, 0 when there was nobody at the start. */
  churnRate: number;
}

/** This month's MRR and churn, in the scope's time zone. */
export async function thisMonth(ctx: ServiceContext, scope: MetricsScope): Promise<MonthFigures> {
  const yearMonth = yearMonthOf(localDate(ctx.clock.now(), scope.timeZone));
  const business = scope.businessId != null ? Prisma.sql`AND s.business_id = ${scope.businessId}` : Prisma.empty;
  const local = (column: Prisma.Sql) => Prisma.sql`((${column} AT TIME ZONE 'UTC') AT TIME ZONE ${scope.timeZone})`;
  const [row] = await ctx.db.$queryRaw<{ at_start: number; canceled: number }[]>`
    SELECT
      COUNT(*) FILTER (WHERE ${local(Prisma.sql`s.started_at`)} < ${`${yearMonth}-01`}::timestamp
                         AND (s.canceled_at IS NULL OR ${local(Prisma.sql`s.canceled_at`)} >= ${`${yearMonth}-01`}::timestamp))::int AS at_start,
      COUNT(*) FILTER (WHERE s.canceled_at IS NOT NULL AND ${local(Prisma.sql`s.canceled_at`)} >= ${`${yearMonth}-01`}::timestamp)::int AS canceled
    FROM subscriptions s
    WHERE s.status <> 'INCOMPLETE' ${business}`;
  const mrr = await ctx.db.subscription.aggregate({ where: { ...countedWhere(scope), status: { in: [...MEMBER_STATUSES] } }, _sum: { totalCents: true } });
  const activeAtStart = Number(row?.at_start ?? 0);
  const canceledThisMonth = Number(row?.canceled ?? 0);
  return {
    yearMonth,
    mrrCents: mrr._sum.totalCents ?? 0,
    activeAtStart,
    canceledThisMonth,
    churnRate: activeAtStart ? Math.round((canceledThisMonth / activeAtStart) * 10_000) / 10_000 : 0,
  };
}
