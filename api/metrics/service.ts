/**
 * Dashboard metrics (spec §2 admin home and business dashboard, §3 Metrics). Every figure is an aggregate
 * query; no membership or order rows are loaded to compute them.
 *
 * Definitions: memberships never paid (INCOMPLETE) are not counted anywhere. "Active" means ACTIVE or
 * PAST_DUE (as on business cards and in the memberships filter). Revenue is the sum of orders' totals minus
 * refunds (an order exists only for a paid period). The average price is that of active memberships'
 * monthly totals. A month's active members are the memberships active at some point in that month.
 *
 * Statements: a dashboard asks for several figures of one scope, each its own resolver (GraphQL) or call
 * (REST), and each reads only the aggregates it needs. Figures that come from the same aggregate share it
 * (memberships per status give totals, averages and MRR; orders per billing period give the revenue total and
 * the monthly series), and the aggregates asked for together (in the same tick, as sibling GraphQL fields are)
 * go to PostgreSQL as one statement (`aggregate`, a DataLoader per request): each statement through Prisma
 * costs about a quarter of a millisecond of the process's time whatever it does, most of a small aggregate's
 * cost.
 */
import DataLoader from "dataloader";
import { Prisma } from "../generated/prisma/client.ts";
import type { ServiceContext } from "../context.ts";
import { assertCan, requireAdmin } from "../auth/policy.ts";
import { ValidationError } from "../shared/errors.ts";
import { MEMBER_STATUSES } from "../rules/member.ts";
import { addMonths, localDate, yearMonthOf, type YearMonth } from "../shared/calendar.ts";
import { membershipOrder } from "../subscriptions/memberships-list.ts";
import { compileJoined, covers, type Joinable, joinSql, type Shape } from "../selection-sql/index.ts";

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

/** businessScope of a business already read (GraphQL `Business.metrics`: its parent row): no statement. */
export async function businessScopeOf(ctx: ServiceContext, business: { id: number; timeZone: string }): Promise<MetricsScope> {
  await assertCan(ctx, business.id, "viewDashboard");
  return { businessId: business.id, timeZone: business.timeZone };
}

/**
 * The business of a scope, its dashboard permission checked again (viewDashboard): each read of the owner's
 * dashboard (membersThisMonth, recurringRevenue, api/metrics/outlook.ts) checks it itself, so none depends on how
 * its scope was made. The platform's scope has none of these figures.
 */
export async function dashboardBusiness(ctx: ServiceContext, scope: MetricsScope): Promise<number> {
  if (scope.businessId == null) throw new ValidationError("These figures are a business's: name one.");
  await assertCan(ctx, scope.businessId, "viewDashboard");
  return scope.businessId;
}

/** countedWhere's business condition in SQL, on `subscriptions s` (or another table aliased s with business_id). */
const businessSql = (scope: MetricsScope) => (scope.businessId != null ? Prisma.sql`AND s.business_id = ${scope.businessId}` : Prisma.empty);

interface AggregateKey {
  key: string;
  /** A scalar subquery whose value is JSON. */
  sql: Prisma.Sql;
}

/** One loader per scope object, which is made per request: nothing is cached beyond the request. */
const aggregateLoaders = new WeakMap<MetricsScope, DataLoader<AggregateKey, unknown, string>>();

/**
 * One aggregate of the scope, as JSON from a scalar subquery, read once per request. The aggregates asked for
 * together (sibling GraphQL fields, or one REST call's figures) are batched by DataLoader into the columns of
 * one statement; DataLoader's schedule waits for the promise jobs queued so far, so resolvers started together
 * are batched even when their wrappers await once before calling in.
 */
function aggregate<T>(ctx: ServiceContext, scope: MetricsScope, key: string, sql: Prisma.Sql, parse: (json: unknown) => T): Promise<T> {
  let loader = aggregateLoaders.get(scope);
  if (!loader) {
    loader = new DataLoader(
      async (batch: readonly AggregateKey[]) => {
        const columns = batch.map((a) => Prisma.sql`(${a.sql}) AS ${Prisma.raw(`"${a.key}"`)}`);
        const [row] = await ctx.db.$queryRaw<Record<string, unknown>[]>`SELECT ${Prisma.join(columns, ", ")}`;
        return batch.map((a) => row[a.key]);
      },
      { cacheKeyFn: (a) => a.key },
    );
    aggregateLoaders.set(scope, loader);
  }
  return loader.load({ key, sql }).then((json) => parse(typeof json === "string" ? JSON.parse(json) : json));
}

/** Rows of a subquery as a JSON array (empty: []). */
const jsonRows = (rows: Prisma.Sql) => Prisma.sql`SELECT coalesce(json_agg(r), '[]'::json) FROM (${rows}) r`;

/** Counted memberships per status, with their summed monthly totals. */
function byStatus(ctx: ServiceContext, scope: MetricsScope) {
  const rows = jsonRows(Prisma.sql`
    SELECT s.status::text AS status, count(*)::int AS n, sum(s.total_cents)::bigint AS cents
      FROM subscriptions s
     WHERE s.status <> 'INCOMPLETE' ${businessSql(scope)}
     GROUP BY s.status`);
  return aggregate(ctx, scope, "byStatus", rows, (json) => {
    const groups = json as { status: string; n: number; cents: number | null }[];
    const sum = (statuses: readonly string[], of: (g: (typeof groups)[number]) => number) =>
      groups.filter((g) => statuses.includes(g.status)).reduce((total, g) => total + of(g), 0);
    return {
      count: (statuses: readonly string[]) => sum(statuses, (g) => Number(g.n)),
      totalCents: (statuses: readonly string[]) => sum(statuses, (g) => Number(g.cents ?? 0)),
    };
  });
}

/** Revenue (orders' totals minus refunds) per billing period, every period. */
function revenueByPeriod(ctx: ServiceContext, scope: MetricsScope): Promise<Map<string, number>> {
  const rows = jsonRows(Prisma.sql`
    SELECT s.period, sum(s.total_cents - s.refunded_cents)::bigint AS cents
      FROM orders s
     WHERE true ${businessSql(scope)}
     GROUP BY s.period`);
  return aggregate(ctx, scope, "revenueByPeriod", rows, (json) =>
    new Map((json as { period: string; cents: number | null }[]).map((g) => [g.period, Number(g.cents ?? 0)])),
  );
}

/** Memberships counted in a scope (never-paid checkouts excluded). */
export function countedWhere(scope: MetricsScope): Prisma.SubscriptionWhereInput {
  return { status: { not: "INCOMPLETE" }, ...(scope.businessId != null ? { businessId: scope.businessId } : {}) };
}

/** What a caller reads of each recent membership: its Prisma selection (GraphQL: the Pothos query). */
type SubscriptionSelection = { select?: Prisma.SubscriptionSelect | null; include?: Prisma.SubscriptionInclude | null };

/** The recent list's columns when the caller names none (REST). */
export const RECENT_COLUMNS = {
  select: { status: true, startedAt: true, userId: true, user: { select: { publicId: true } }, business: { select: { slug: true } } },
} as const satisfies SubscriptionSelection;

/**
 * The RECENT_COUNT newest counted memberships of the scope (newest first, the admin tables' order), with the
 * caller's selection: GraphQL passes the Pothos query of the fields asked, REST takes RECENT_COLUMNS.
 *
 * One statement: Prisma reads each relation in a statement of its own (membership, then member, then business:
 * three round trips one after the other, most of the dashboard's time over its SQL), so when the selection
 * asks for the membership's columns and its member's and business's columns only, which is what both
 * dashboards ask, the rows come from one joined statement in the shape Prisma returns; anything else
 * (nested relations, counts, filters) goes through Prisma with the same selection.
 */
export function recentSubscriptions(ctx: ServiceContext, scope: MetricsScope): Promise<Prisma.SubscriptionGetPayload<typeof RECENT_COLUMNS>[]>;
export function recentSubscriptions<S extends SubscriptionSelection>(ctx: ServiceContext, scope: MetricsScope, selection: S): Promise<Prisma.SubscriptionGetPayload<S>[]>;
export async function recentSubscriptions(ctx: ServiceContext, scope: MetricsScope, selection: SubscriptionSelection = RECENT_COLUMNS): Promise<unknown[]> {
  const joined = compileJoined("Subscription", "s", selection, RECENT_JOINABLE);
  if (joined.rest || !joined.fields || !covers("Subscription", selection, RECENT_SHAPE)) {
    return ctx.db.subscription.findMany({ ...selection, where: countedWhere(scope), orderBy: membershipOrder, take: RECENT_COUNT });
  }
  const rows = await ctx.db.$queryRaw<Record<string, unknown>[]>`
    SELECT ${Prisma.raw(joined.columns.join(", "))}
      FROM subscriptions s ${Prisma.raw(joinSql("Subscription", "s", RECENT_JOINABLE, joined.joins))}
     WHERE s.status <> 'INCOMPLETE' ${businessSql(scope)}
     ORDER BY s.started_at DESC, s.id DESC
     LIMIT ${RECENT_COUNT}`;
  return joined.read(rows);
}

/** The relations the joined statement reads (the member and the business), with their table aliases. */
const RECENT_JOINABLE: Joinable = { user: "u", business: "b" };
const RECENT_SHAPE: Shape = { relations: { user: {}, business: {} } };

export interface Totals {
  subscriptionsAll: number;
  subscriptionsActive: number;
  subscriptionsCanceled: number;
  totalRevenueCents: number;
}

export async function totals(ctx: ServiceContext, scope: MetricsScope): Promise<Totals> {
  const [statuses, revenue] = await Promise.all([byStatus(ctx, scope), revenueByPeriod(ctx, scope)]);
  return {
    subscriptionsAll: statuses.count(["ACTIVE", "PAST_DUE", "CANCELED"]),
    subscriptionsActive: statuses.count(MEMBER_STATUSES),
    subscriptionsCanceled: statuses.count(["CANCELED"]),
    totalRevenueCents: [...revenue.values()].reduce((sum, cents) => sum + cents, 0),
  };
}

export async function averages(ctx: ServiceContext, scope: MetricsScope): Promise<{ subscriptionPriceCents: number }> {
  const statuses = await byStatus(ctx, scope);
  const active = statuses.count(MEMBER_STATUSES);
  return { subscriptionPriceCents: active ? Math.round(statuses.totalCents(MEMBER_STATUSES) / active) : 0 };
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
  // Timestamps are stored as UTC; month boundaries are local midnights in the scope's zone.
  const activeRows = jsonRows(Prisma.sql`
    SELECT to_char(m.start, 'YYYY-MM') AS ym, COUNT(s.id)::int AS n
    FROM generate_series(${`${months[0]}-01`}::timestamp, ${`${months[months.length - 1]}-01`}::timestamp, interval '1 month') AS m(start)
    LEFT JOIN subscriptions s
      ON s.status <> 'INCOMPLETE'
     AND ((s.started_at AT TIME ZONE 'UTC') AT TIME ZONE ${scope.timeZone}) < m.start + interval '1 month'
     AND (s.canceled_at IS NULL OR ((s.canceled_at AT TIME ZONE 'UTC') AT TIME ZONE ${scope.timeZone}) >= m.start)
     ${businessSql(scope)}
    GROUP BY m.start`);
  const activeQuery = aggregate(ctx, scope, "activeByMonth", activeRows, (json) => json as { ym: string; n: number }[]);
  const [active, revenueBy] = await Promise.all([activeQuery, revenueByPeriod(ctx, scope)]);
  const activeBy = new Map(active.map((r) => [r.ym, Number(r.n)]));
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
  const local = (column: Prisma.Sql) => Prisma.sql`((${column} AT TIME ZONE 'UTC') AT TIME ZONE ${scope.timeZone})`;
  const churnRow = Prisma.sql`
    SELECT row_to_json(r) FROM (SELECT
      COUNT(*) FILTER (WHERE ${local(Prisma.sql`s.started_at`)} < ${`${yearMonth}-01`}::timestamp
                         AND (s.canceled_at IS NULL OR ${local(Prisma.sql`s.canceled_at`)} >= ${`${yearMonth}-01`}::timestamp))::int AS at_start,
      COUNT(*) FILTER (WHERE s.canceled_at IS NOT NULL AND ${local(Prisma.sql`s.canceled_at`)} >= ${`${yearMonth}-01`}::timestamp)::int AS canceled
    FROM subscriptions s
    WHERE s.status <> 'INCOMPLETE' ${businessSql(scope)}) r`;
  const churnQuery = aggregate(ctx, scope, "churn", churnRow, (json) => json as { at_start: number; canceled: number } | null);
  const [row, statuses] = await Promise.all([churnQuery, byStatus(ctx, scope)]);
  const activeAtStart = Number(row?.at_start ?? 0);
  const canceledThisMonth = Number(row?.canceled ?? 0);
  return {
    yearMonth,
    mrrCents: statuses.totalCents(MEMBER_STATUSES),
    activeAtStart,
    canceledThisMonth,
    churnRate: activeAtStart ? Math.round((canceledThisMonth / activeAtStart) * 10_000) / 10_000 : 0,
  };
}

/** A timestamp column as a local wall time in the scope's zone (stored as UTC without a zone). */
const localSql = (scope: MetricsScope, column: Prisma.Sql) => Prisma.sql`((${column} AT TIME ZONE 'UTC') AT TIME ZONE ${scope.timeZone})`;

export interface MonthMovements {
  yearMonth: YearMonth;
  /** Memberships started this month (never-paid checkouts excluded), canceled since or not. */
  newMembers: number;
  /** Memberships canceled this month and still canceled (a restart clears the cancellation). */
  canceled: number;
  /** Members' own requests to cancel made this month (self-service pages): why, and what the offers did. */
  cancellationRequests: CancellationRequestCounts;
}

export interface CancellationRequestCounts {
  requests: number;
  /** Requests answered with at least one retention offer, and those where the member took one (kept). */
  offersShown: number;
  offersAccepted: number;
  /** Requests that went on to a scheduled or carried-out cancel. */
  cancelsScheduled: number;
  /** Requests by reason, the most given first. */
  byReason: { reason: string; count: number }[];
}

/**
 * New members and cancellations of this month, in the business's time zone (the owner's dashboard): memberships
 * whose start, and memberships whose cancellation, falls on a local day of this month.
 */
export async function membersThisMonth(ctx: ServiceContext, scope: MetricsScope): Promise<MonthMovements> {
  await dashboardBusiness(ctx, scope);
  const today = localDate(ctx.clock.now(), scope.timeZone);
  const yearMonth = yearMonthOf(today);
  const from = `${yearMonth}-01`;
  const until = `${yearMonthOf(addMonths(today, 1))}-01`;
  const inMonth = (column: Prisma.Sql) => Prisma.sql`${localSql(scope, column)} >= ${from}::timestamp AND ${localSql(scope, column)} < ${until}::timestamp`;
  const row = Prisma.sql`
    SELECT row_to_json(r) FROM (SELECT
      COUNT(*) FILTER (WHERE ${inMonth(Prisma.sql`s.started_at`)})::int AS started,
      COUNT(*) FILTER (WHERE s.status = 'CANCELED' AND s.canceled_at IS NOT NULL AND ${inMonth(Prisma.sql`s.canceled_at`)})::int AS canceled,
      (SELECT json_build_object(
          'requests', COUNT(*)::int,
          'offersShown', COUNT(*) FILTER (WHERE cardinality(c.offers_shown) > 0)::int,
          'offersAccepted', COUNT(*) FILTER (WHERE c.offer_accepted IS NOT NULL)::int,
          'cancelsScheduled', COUNT(*) FILTER (WHERE c.outcome IN ('CANCEL_SCHEDULED', 'CANCELED'))::int,
          'byReason', COALESCE((SELECT json_agg(json_build_object('reason', g.reason, 'count', g.n) ORDER BY g.n DESC, g.reason)
                                  FROM (SELECT c2.reason::text AS reason, COUNT(*)::int AS n FROM cancellation_requests c2
                                         WHERE c2.business_id = ${scope.businessId} AND ${inMonth(Prisma.sql`c2.created_at`)} GROUP BY c2.reason) g), '[]'::json))
         FROM cancellation_requests c WHERE c.business_id = ${scope.businessId} AND ${inMonth(Prisma.sql`c.created_at`)}) AS requests
    FROM subscriptions s
    WHERE s.status <> 'INCOMPLETE' ${businessSql(scope)}) r`;
  const counts = await aggregate(ctx, scope, "movements", row, (json) => json as { started: number; canceled: number; requests: CancellationRequestCounts | null } | null);
  const requests = counts?.requests ?? { requests: 0, offersShown: 0, offersAccepted: 0, cancelsScheduled: 0, byReason: [] };
  return { yearMonth, newMembers: Number(counts?.started ?? 0), canceled: Number(counts?.canceled ?? 0), cancellationRequests: requests };
}

export interface RecurringRevenue {
  /** MRR now: the monthly totals (total_cents) of the memberships active now (ACTIVE and PAST_DUE). */
  mrrCents: number;
  /** Last month ("YYYY-MM", the business's time zone), whose end MRR is compared with. */
  previousMonth: YearMonth;
  /** MRR at the end of previousMonth: see recurringRevenue. */
  previousMonthEndCents: number;
  /** mrrCents - previousMonthEndCents. */
  changeCents: number;
}

/**
 * Monthly recurring revenue and its change since the end of last month (the owner's dashboard), in cents.
 *
 * MRR now is the sum of the monthly totals (`total_cents`: plan, add-ons, discount and tax, what a renewal charges
 * without a scheduled change) of the memberships active now, ACTIVE and PAST_DUE (as thisMonth's mrrCents).
 * MRR at the end of last month is the sum, over the memberships active at that instant (started before this month
 * began and not canceled before it, in the business's time zone; never-paid checkouts excluded), of what each
 * charged for last month (its order of that period, refunds not subtracted) or, without such an order (last month
 * skipped, a first month still to come, a charge still owed), its monthly total now. So a change of price that took
 * effect this month (a scheduled change applied by this month's renewal) shows in the change, and one on a
 * membership without a last-month order does not. A restart clears a cancellation: a membership canceled last month
 * and restarted this month counts as active at its end.
 */
export async function recurringRevenue(ctx: ServiceContext, scope: MetricsScope): Promise<RecurringRevenue> {
  await dashboardBusiness(ctx, scope);
  const today = localDate(ctx.clock.now(), scope.timeZone);
  const previousMonth = yearMonthOf(addMonths(today, -1));
  const monthStart = `${yearMonthOf(today)}-01`;
  const previousRow = Prisma.sql`
    SELECT coalesce(sum(coalesce(o.total_cents, s.total_cents)), 0)::bigint
      FROM subscriptions s
      LEFT JOIN orders o ON o.subscription_id = s.id AND o.period = ${previousMonth}
     WHERE s.status <> 'INCOMPLETE' ${businessSql(scope)}
       AND ${localSql(scope, Prisma.sql`s.started_at`)} < ${monthStart}::timestamp
       AND (s.canceled_at IS NULL OR ${localSql(scope, Prisma.sql`s.canceled_at`)} >= ${monthStart}::timestamp)`;
  const [statuses, previousMonthEndCents] = await Promise.all([
    byStatus(ctx, scope),
    aggregate(ctx, scope, "mrrPreviousMonthEnd", Prisma.sql`SELECT to_json((${previousRow}))`, (json) => Number(json ?? 0)),
  ]);
  const mrrCents = statuses.totalCents(MEMBER_STATUSES);
  return { mrrCents, previousMonth, previousMonthEndCents, changeCents: mrrCents - previousMonthEndCents };
}
