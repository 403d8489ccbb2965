/**
 * A membership's next renewal charge as staff read it (the member page, the memberships list, the memberships CSV):
 * its date (the billing day of the next period billed, past skipped months: nextChargeDate in api/rules/dates.ts; a
 * past-due membership's next retry once its period was declined) and what the renewal will charge then (the stored
 * total, or a scheduled change taking effect in that period priced as the run prices it: api/billing/renewals/pricing.ts).
 * None for a canceled membership. The same date is written as SQL for the memberships list's sort (nextChargeDateSql).
 */
import DataLoader from "dataloader";
import type { ServiceContext } from "../context.ts";
import { Prisma } from "../generated/prisma/client.ts";
import { nextRetryAt, unpaidAttempts } from "../billing/renewals/attempts.ts";
import { changeTakesEffect, priceScheduledChanges, renewalAmountCents, type ChangingMembership } from "../billing/renewals/pricing.ts";
import type { TaxSettings } from "../billing/renewals/types.ts";
import { isoDate, localDate } from "../shared/calendar.ts";
import { endedBefore, firstChargedPeriod, nextBillingPeriod, nextChargeDate, owedPeriod } from "../rules/dates.ts";
import { isActiveStatus, todayIn } from "./timing.ts";

/** What the date needs of a membership. */
interface ChargeDateRow {
  id: number;
  status: string;
  billingDay: number;
  paidThroughPeriod: string | null;
  business: { timeZone: string };
  skips: { yearMonth: string }[];
  /** The last month of a membership its member's cancel ends (YYYY-MM); null or absent: not ending. */
  cancelAfterPeriod?: string | null;
}

/**
 * A member's next renewal charge (ISO date, the business's time zone); a past-due one's is its period's next retry
 * once one is scheduled; none for others, nor for a membership whose member's cancel ends it before its next charged
 * month (the renewal run cancels it then instead of charging).
 */
export function nextChargeDateOf(ctx: Pick<ServiceContext, "clock">, m: ChargeDateRow, retryOn: string | undefined): string | null {
  if (!isActiveStatus(m.status)) return null;
  const today = todayIn(ctx, m.business.timeZone);
  const skipped = m.skips.map((s) => s.yearMonth);
  if (endedBefore(firstChargedPeriod(nextBillingPeriod(today, m.paidThroughPeriod), skipped), m.cancelAfterPeriod)) return null;
  if (m.status === "PAST_DUE" && retryOn) return retryOn;
  return isoDate(nextChargeDate({ today, paidThroughPeriod: m.paidThroughPeriod, billingDay: m.billingDay, skippedMonths: new Set(skipped) }));
}

/**
 * The next retry (ISO date, the business's time zone) of the past-due memberships among `rows`: the renewal run's
 * schedule (api/billing/renewals/attempts.ts) over the declined attempts at the period they owe, read in one statement.
 */
export async function retryDates(ctx: Pick<ServiceContext, "db" | "clock">, rows: readonly ChargeDateRow[]): Promise<Map<number, string>> {
  const pastDue = rows.filter((m) => m.status === "PAST_DUE");
  const out = new Map<number, string>();
  if (pastDue.length === 0) return out;
  const owed = pastDue.map((m) => ({ id: m.id, period: owedPeriod(todayIn(ctx, m.business.timeZone), m.paidThroughPeriod) }));
  const attemptsOf = await unpaidAttempts(ctx.db, owed);
  for (const m of pastDue) {
    const dates = attemptsOf.get(m.id);
    if (dates) out.set(m.id, isoDate(localDate(nextRetryAt(dates), m.business.timeZone)));
  }
  return out;
}

export interface NextCharge {
  /** ISO date, in the business's time zone. */
  date: string;
  /** The billing period (YYYY-MM) the charge pays for. */
  period: string;
  amountCents: number;
  /** A retry of a declined charge (past due). */
  retry: boolean;
}

const chargeSelect = {
  id: true,
  status: true,
  billingDay: true,
  paidThroughPeriod: true,
  cancelAfterPeriod: true,
  totalCents: true,
  businessId: true,
  couponId: true,
  business: { select: { timeZone: true, page: { select: { taxEnabled: true, taxRateBps: true } } } },
  skips: { select: { yearMonth: true } },
  pendingChange: { select: { planId: true, mode: true, fulfillmentPoint: true, addonIds: true, effectivePeriod: true } },
} as const satisfies Prisma.SubscriptionSelect;

/**
 * The next charges of the memberships (no authorization: the caller read the rows), in five statements whatever
 * their number: the memberships, their retries, and the pricing of the scheduled changes that take effect then.
 */
async function nextCharges(ctx: Pick<ServiceContext, "db" | "clock">, ids: readonly number[]): Promise<(NextCharge | null)[]> {
  const rows = await ctx.db.subscription.findMany({ where: { id: { in: [...ids] } }, select: chargeSelect });
  const retries = await retryDates(ctx, rows);
  const due = new Map<number, { row: (typeof rows)[number]; date: string; period: string; retry: boolean }>();
  for (const row of rows) {
    const retryOn = retries.get(row.id);
    const date = nextChargeDateOf(ctx, row, retryOn);
    if (!date) continue;
    const today = todayIn(ctx, row.business.timeZone);
    const period = retryOn
      ? owedPeriod(today, row.paidThroughPeriod)
      : firstChargedPeriod(nextBillingPeriod(today, row.paidThroughPeriod), row.skips.map((s) => s.yearMonth));
    due.set(row.id, { row, date, period, retry: retryOn !== undefined });
  }
  const changing: ChangingMembership[] = [...due.values()].flatMap(({ row, period }) =>
    row.pendingChange && changeTakesEffect(row.pendingChange, period) ? [{ id: row.id, businessId: row.businessId, couponId: row.couponId, pendingChange: row.pendingChange }] : [],
  );
  const tax = new Map<number, TaxSettings>(rows.map((r) => [r.businessId, r.business.page]));
  const priced = await priceScheduledChanges(ctx.db, changing, tax);
  return ids.map((id) => {
    const d = due.get(id);
    return d ? { date: d.date, period: d.period, amountCents: renewalAmountCents(d.row, priced.get(id)), retry: d.retry } : null;
  });
}

/** One loader per request context: the next charges of a page of memberships are read together. */
const loaders = new WeakMap<object, DataLoader<number, NextCharge | null>>();

/** A membership's next charge (null: none, it is not current), batched with the others asked for in the same request. */
export function nextChargeOf(ctx: Pick<ServiceContext, "db" | "clock">, membershipId: number): Promise<NextCharge | null> {
  let loader = loaders.get(ctx);
  if (!loader) {
    loader = new DataLoader((ids: readonly number[]) => nextCharges(ctx, ids));
    loaders.set(ctx, loader);
  }
  return loader.load(membershipId);
}

/**
 * nextChargeDateOf as SQL on the membership row `alias` at `now`, for the memberships list's sort: `joins` to add
 * after `FROM subscriptions <alias>` and the `date` they give (NULL: no charge): the business's local day, the period
 * after the paid one (never one already begun), past the skipped months, on the billing day; a past-due membership's
 * next retry (1, 3, 7 days after the first declined attempt at the period it owes) once there is one.
 * tests/integration/memberships-list.test.ts and member-page.test.ts hold it to the function row by row.
 *
 * Every row of the list is computed (no index can order by it), so it is set-based: the business and the skipped
 * months are joined (the skips in one hash-aggregated pass), the rest are expressions; only a membership with
 * skipped months looks for its first month not skipped (the least of the first candidate month and each skipped
 * month's next, not skipped) and only a past-due one reads its declined attempts. Per-row subqueries cost ~10 µs a
 * row and, estimated dearer, made PostgreSQL JIT-compile the statement (tests/bench/memberships-sort.ts).
 */
export function nextChargeDateSql(alias: string, now: Date): { joins: Prisma.Sql; date: Prisma.Sql } {
  const s = Prisma.raw(alias);
  const joins = Prisma.sql`
    JOIN businesses nc_b ON nc_b.id = ${s}.business_id
    LEFT JOIN (SELECT nc_k.subscription_id, array_agg(nc_k.year_month) AS months FROM skips nc_k GROUP BY nc_k.subscription_id) nc_s ON nc_s.subscription_id = ${s}.id
    CROSS JOIN LATERAL (SELECT date_trunc('month', ${now.toISOString()}::timestamptz AT TIME ZONE nc_b.time_zone) AS this_month) nc_z
    CROSS JOIN LATERAL (SELECT CASE WHEN ${s}.paid_through_period IS NULL THEN nc_z.this_month + interval '1 month'
                                    ELSE GREATEST(to_date(${s}.paid_through_period, 'YYYY-MM') + interval '1 month', nc_z.this_month) END AS from_month,
                               to_char(COALESCE(to_date(${s}.paid_through_period, 'YYYY-MM') + interval '1 month', nc_z.this_month), 'YYYY-MM') AS owed) nc_f
    CROSS JOIN LATERAL (SELECT CASE WHEN nc_s.months IS NULL THEN nc_f.from_month
                                    ELSE (SELECT min(nc_c.month) FROM (SELECT nc_f.from_month AS month
                                                                       UNION ALL SELECT to_date(nc_y, 'YYYY-MM') + interval '1 month' FROM unnest(nc_s.months) nc_y) nc_c
                                           WHERE nc_c.month >= nc_f.from_month AND to_char(nc_c.month, 'YYYY-MM') <> ALL (nc_s.months)) END AS month) nc_m`;
  const date = Prisma.sql`CASE WHEN ${s}.status NOT IN ('ACTIVE', 'PAST_DUE') THEN NULL
    WHEN ${s}.cancel_after_period IS NOT NULL AND to_char(nc_m.month, 'YYYY-MM') > ${s}.cancel_after_period THEN NULL ELSE COALESCE(
      CASE WHEN ${s}.status = 'PAST_DUE' THEN
        (SELECT (((min(nc_p.created_at) + CASE LEAST(count(*), 3) WHEN 1 THEN interval '1 day' WHEN 2 THEN interval '3 days' ELSE interval '7 days' END) AT TIME ZONE 'UTC') AT TIME ZONE nc_b.time_zone)::date
           FROM payments nc_p
          WHERE nc_p.subscription_id = ${s}.id AND nc_p.status <> 'SUCCEEDED' AND nc_p.idempotency_key LIKE 'renewal:' || ${s}.id || ':' || nc_f.owed || ':%') END,
      (nc_m.month + (LEAST(GREATEST(COALESCE(${s}.billing_day, 1), 1), EXTRACT(DAY FROM nc_m.month + interval '1 month' - interval '1 day')::int) - 1) * interval '1 day')::date) END`;
  return { joins, date };
}
