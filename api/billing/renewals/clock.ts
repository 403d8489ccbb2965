import { Prisma } from "../../generated/prisma/client.ts";
import { addMonths, isoDate, localDate, parseYearMonth, yearMonthOf } from "../../shared/calendar.ts";
import { owedPeriod } from "../../rules/dates.ts";
import { observeBillingRun } from "./run-events.ts";
import { MAX_ATTEMPTS } from "./attempts.ts";
import { emptyReport, renewClaimed } from "./batch.ts";
import type { BillingContext, DueList, RenewalReport } from "./types.ts";

/**
 * The billing clock: on its billing day (1–28, in the business's time zone) each active or past-due membership
 * is charged for the month, unless the month is skipped or already paid; a change scheduled for the month is
 * applied first. Safe to run from several server processes at once and to re-run for the same period:
 * a run claims each membership with a short lease, the charge's idempotency key is fixed per period and attempt,
 * and the order is unique per membership and period.
 *
 * Dunning: a declined renewal leaves the membership PAST_DUE; it is retried 1, 3 and 7 days after the first
 * decline (at once when the member saves a new card), and canceled when the last retry fails.
 *
 * A member's own cancel (api/subscriptions/cancellation.ts) ends the membership on the first billing day of a month
 * after its cancel_after_period: that month is neither charged nor skipped, the membership is canceled instead.
 *
 * Renewals are set-based: a run lists the due memberships once, then renews them in batches (one claim
 * statement, a few reads, one provider call for the batch's charges, one write transaction), a few batches at
 * once. The statements of a run grow with the number of batches, not of memberships.
 */

const LEASE_MS = 5 * 60 * 1000;
/** Memberships claimed and renewed together. */
export const DEFAULT_BATCH_SIZE = 500;
/** Batches in flight at once in one process: while one waits on the database or the provider, another computes. */
export const DEFAULT_CONCURRENCY = 2;

export { MAX_ATTEMPTS };
export type { BillingContext,  RenewalReport };

export interface RenewalOptions {
  /** One business only (default: every business). */
  businessId?: number;
  /** Memberships per batch (default DEFAULT_BATCH_SIZE). */
  batchSize?: number;
  /** Batches renewed at once (default DEFAULT_CONCURRENCY). */
  concurrency?: number;
  /**
   * Stops the run between batches: once aborted, no further batch is claimed; batches already claimed finish
   * (charged and recorded together), and the memberships not reached are left for the next run.
   */
  signal?: AbortSignal;
}

/** Runs one pass of the billing clock over every business (or one), as of the clock's now. */
export async function runRenewals(ctx: BillingContext, opts: RenewalOptions = {}): Promise<RenewalReport> {
  return observeBillingRun(ctx.db, "renewals", () => renewDue(ctx, opts)); // metrics: api/observability/metrics.ts
}

async function renewDue(ctx: BillingContext, opts: RenewalOptions): Promise<RenewalReport> {
  const report = emptyReport();
  const now = ctx.clock.now();
  const businesses = await ctx.db.business.findMany({
    where: opts.businessId ? { id: opts.businessId } : {},
    select: { id: true, timeZone: true, page: { select: { taxEnabled: true, taxRateBps: true } } },
    orderBy: { id: "asc" },
  });
  if (opts.signal?.aborted) return report;
  const tax = new Map(businesses.map((b) => [b.id, b.page]));
  // Businesses on the same local date share one listing: a handful at most, however many businesses.
  const byDate = new Map<string, { period: string; day: number; businessIds: number[] }>();
  for (const business of businesses) {
    const today = localDate(now, business.timeZone);
    const group = byDate.get(isoDate(today)) ?? { period: yearMonthOf(today), day: today.day, businessIds: [] };
    group.businessIds.push(business.id);
    byDate.set(isoDate(today), group);
  }
  const lists: DueList[] = [];
  const behind = new Map<string, DueList>();
  for (const { period, day, businessIds } of byDate.values()) {
    const previous = yearMonthOf(addMonths(parseYearMonth(period), -1));
    // Due this month: its billing day has come and it is not paid for it. A membership still past due for an
    // earlier month is not: that month is what it owes (below), and this one waits until it is paid.
    // A membership whose member's cancel ends it before this month is due whatever its skips: the batch cancels it.
    const rows = await ctx.db.$queryRaw<{ id: number; skipped: boolean }[]>`
      SELECT s.id, EXISTS (SELECT 1 FROM skips k WHERE k.subscription_id = s.id AND k.year_month = ${period})
                   AND (s.cancel_after_period IS NULL OR s.cancel_after_period >= ${period}) AS skipped
        FROM subscriptions s
       WHERE s.business_id = ANY(${businessIds}::int[])
         AND s.status IN ('ACTIVE', 'PAST_DUE')
         AND s.billing_day <= ${day}::int
         AND (s.paid_through_period IS NULL OR s.paid_through_period < ${period})
         AND (s.status = 'ACTIVE' OR s.paid_through_period IS NULL OR s.paid_through_period >= ${previous})
       ORDER BY s.id`;
    const due = rows.filter((r) => !r.skipped).map((r) => r.id);
    report.skipped += rows.length - due.length;
    lists.push({ period, ids: due, retryNow: false, tax });
    // Past due for an earlier month (declined late in it): its retries go on into this month, for that month.
    const owing = await ctx.db.$queryRaw<{ id: number; paid_through_period: string }[]>`
      SELECT s.id, s.paid_through_period FROM subscriptions s
       WHERE s.business_id = ANY(${businessIds}::int[]) AND s.status = 'PAST_DUE' AND s.paid_through_period < ${previous}
       ORDER BY s.id`;
    for (const r of owing) {
      const owed = yearMonthOf(addMonths(parseYearMonth(r.paid_through_period), 1));
      const list = behind.get(owed) ?? { period: owed, ids: [], retryNow: false, tax };
      list.ids.push(r.id);
      behind.set(owed, list);
    }
  }
  lists.push(...behind.values());
  await renewLists(ctx, lists, report, opts);
  return report;
}

/**
 * After a member saves a new card: try their past-due memberships at once instead of waiting for the next
 * scheduled retry. Returns what happened, per the billing clock's report.
 */
export async function retryPastDue(ctx: BillingContext, userId: number): Promise<RenewalReport> {
  return observeBillingRun(ctx.db, "retry", () => retryPastDueNow(ctx, userId));
}

async function retryPastDueNow(ctx: BillingContext, userId: number): Promise<RenewalReport> {
  const report = emptyReport();
  const pastDue = await ctx.db.subscription.findMany({
    where: { userId, status: "PAST_DUE" },
    select: { id: true, businessId: true, paidThroughPeriod: true, business: { select: { timeZone: true, page: { select: { taxEnabled: true, taxRateBps: true } } } } },
    orderBy: { id: "asc" },
  });
  const tax = new Map(pastDue.map((s) => [s.businessId, s.business.page]));
  const byPeriod = new Map<string, DueList>();
  for (const sub of pastDue) {
    const period = owedPeriod(localDate(ctx.clock.now(), sub.business.timeZone), sub.paidThroughPeriod);
    const list = byPeriod.get(period) ?? { period, ids: [], retryNow: true, tax };
    list.ids.push(sub.id);
    byPeriod.set(period, list);
  }
  await renewLists(ctx, [...byPeriod.values()], report, { concurrency: 1 });
  return report;
}

/** Cuts the lists into batches and renews them, `concurrency` batches at a time. */
async function renewLists(ctx: BillingContext, lists: DueList[], report: RenewalReport, opts: RenewalOptions): Promise<void> {
  const size = Math.max(1, opts.batchSize ?? DEFAULT_BATCH_SIZE);
  const batches: { list: DueList; ids: number[] }[] = [];
  for (const list of lists) {
    report.due += list.ids.length;
    for (let i = 0; i < list.ids.length; i += size) batches.push({ list, ids: list.ids.slice(i, i + size) });
  }
  let next = 0;
  const worker = async () => {
    while (next < batches.length && !opts.signal?.aborted) {
      const b = batches[next++];
      await renewBatch(ctx, b.list, b.ids, report);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, opts.concurrency ?? DEFAULT_CONCURRENCY), batches.length) }, worker));
  if (next < batches.length) {
    const left = batches.slice(next).reduce((n, b) => n + b.ids.length, 0);
    ctx.log.info({ left, batches: batches.length - next }, "billing run stopped between batches: the memberships left are renewed by the next run");
  }
}

/** Claims what is still due of `ids`, renews it, and adds the outcome to the report. Never throws: errors are counted. */
async function renewBatch(ctx: BillingContext, list: DueList, ids: number[], report: RenewalReport): Promise<void> {
  let claimed: number[] = [];
  try {
    const candidates = await claim(ctx, list, ids);
    claimed = candidates.filter((c) => c.free).map((c) => c.id);
    report.busy += candidates.length - claimed.length;
    if (claimed.length === 0) return;
    const outcome = await renewClaimed(ctx, list, claimed);
    for (const key of Object.keys(outcome) as (keyof RenewalReport)[]) report[key] += outcome[key];
  } catch (err) {
    report.errors += claimed.length || ids.length;
    ctx.log.error({ err, period: list.period, subscriptionIds: claimed.length ? claimed : ids }, "renewal batch failed: its memberships are tried again on the next run");
    if (claimed.length) {
      await ctx.db.subscription
        .updateMany({ where: { id: { in: claimed } }, data: { renewalLeaseUntil: null } })
        .catch((e) => ctx.log.error({ err: e }, "renewal leases not released: they expire on their own"));
    }
  }
}

/**
 * One statement: locks what of `ids` is still due (skipping rows another run is claiming this instant) and
 * leases the ones no other run holds. Returns every due candidate and whether this run got it.
 */
async function claim(ctx: BillingContext, list: DueList, ids: number[]): Promise<{ id: number; free: boolean }[]> {
  const now = ctx.clock.now();
  const until = new Date(now.getTime() + LEASE_MS);
  const { period } = list;
  const statuses = list.retryNow ? ["PAST_DUE"] : ["ACTIVE", "PAST_DUE"];
  const notSkipped = list.retryNow
    ? Prisma.empty
    : Prisma.sql`AND (s.cancel_after_period < ${period} OR NOT EXISTS (SELECT 1 FROM skips k WHERE k.subscription_id = s.id AND k.year_month = ${period}))`;
  return ctx.db.$queryRaw<{ id: number; free: boolean }[]>`
    WITH candidates AS (
      SELECT s.id, (s.renewal_lease_until IS NULL OR s.renewal_lease_until < ${now}::timestamp) AS free
        FROM subscriptions s
       WHERE s.id = ANY(${ids}::int[])
         AND s.status::text = ANY(${statuses}::text[])
         AND (s.paid_through_period IS NULL OR s.paid_through_period < ${period})
         AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.subscription_id = s.id AND o.period = ${period})
         ${notSkipped}
         FOR UPDATE OF s SKIP LOCKED
    ), claimed AS (
      UPDATE subscriptions SET renewal_lease_until = ${until}::timestamp
       WHERE id = ANY(ARRAY(SELECT id FROM candidates WHERE free))
    )
    SELECT id, free FROM candidates ORDER BY id`;
}
