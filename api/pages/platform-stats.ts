/**
 * The figures of the home page's stats block (spec §2 "static stats"), counted from the database so the
 * marketing copy can never claim more than the platform holds:
 *
 * - businesses: the businesses of the public list (spec §2 /businesses), by the list's own rule.
 * - members: people, not memberships: distinct users with at least one membership that counts on business
 *   cards (active or past due). A member of two businesses is one member of the platform, so this can be less
 *   than the sum of the cards' member counts.
 * - boxesDelivered: paid boxes handed over up to today. A box is an order (one per membership and paid period;
 *   skipped months have none), delivered once its period's box-ready day (default the 1st) has come in its
 *   business's time zone; fully refunded orders are left out.
 *
 * Anonymous home page reads are not in the public response cache (api/graphql/yoga.ts), and the box count
 * scans the orders table, so each process keeps the figures for the public cache's lifetime
 * (PUBLIC_CACHE_TTL_SECONDS, the bound on how stale public member counts may be anyway); concurrent visitors
 * share one computation. With the lifetime 0 (the tests) every read counts afresh.
 */
import type { ServiceContext } from "../context.ts";
import { list } from "../businesses/service.ts";
import { MEMBER_STATUSES } from "../rules/member.ts";

export interface PlatformStats {
  businesses: number;
  members: number;
  boxesDelivered: number;
}

/** Per database client: the figures being computed or computed last, and until when they may be served. */
const memo = new WeakMap<object, { until: number; stats: Promise<PlatformStats> }>();

async function count(ctx: Pick<ServiceContext, "db" | "clock">): Promise<PlatformStats> {
  const now = ctx.clock.now();
  const [listed, members, [boxes]] = await Promise.all([
    list(ctx, { select: { id: true } }),
    ctx.db.user.count({ where: { subscriptions: { some: { status: { in: [...MEMBER_STATUSES] } } } } }),
    // The latest delivered period of a business is the month of (its local today - (box-ready day - 1) days):
    // box-ready days are 1 to 28, so that date falls in this month exactly when the day has come.
    ctx.db.$queryRaw<{ boxes: number }[]>`
      SELECT COUNT(*)::int AS boxes
        FROM orders o
        JOIN businesses b ON b.id = o.business_id
        LEFT JOIN pages p ON p.business_id = o.business_id
       WHERE (o.refunded_cents <= 0 OR o.refunded_cents < o.total_cents)
         AND o.period <= to_char(((${now}::timestamp AT TIME ZONE 'UTC') AT TIME ZONE b.time_zone)
                                 - make_interval(days => COALESCE(NULLIF(p.box_ready_day, 0), 1) - 1), 'YYYY-MM')`,
  ]);
  return { businesses: listed.length, members, boxesDelivered: boxes.boxes };
}

/** The home page's stats (GraphQL `platformStats`), for anyone. */
export function platformStats(ctx: Pick<ServiceContext, "db" | "clock" | "publicCache">): Promise<PlatformStats> {
  // Only the lifetime matters here: nothing invalidates these figures (nor needs the cache's Redis messages).
  const ttlMs = ctx.publicCache?.ttlMs ?? 0;
  if (ttlMs <= 0) return count(ctx);
  const held = memo.get(ctx.db);
  if (held && held.until > Date.now()) return held.stats;
  const stats = count(ctx);
  memo.set(ctx.db, { until: Date.now() + ttlMs, stats });
  // A failed count is not kept: the next visitor tries again.
  stats.catch(() => {
    if (memo.get(ctx.db)?.stats === stats) memo.delete(ctx.db);
  });
  return stats;
}
