/**
 * What is coming for one business, on its owner's dashboard: the next billing run, this month's boxes to pack and
 * the memberships past due with their next retry. Each read checks the business's dashboard permission itself
 * (dashboardBusiness: viewDashboard) and reads that business's rows only.
 *
 * Unlike the aggregates of service.ts these read rows: a membership's next charge date, what its renewal charges
 * and when a declined period is retried are rules, and they are computed here by the functions the renewal run
 * itself uses (api/rules/dates.ts, api/billing/renewals/), not restated in SQL. The month's boxes are the
 * Fulfilment screen's own count (api/packing/).
 */
import type { ServiceContext } from "../context.ts";
import type { FulfillmentMode } from "../generated/prisma/client.ts";
import { nextRetryAt, unpaidAttempts } from "../billing/renewals/attempts.ts";
import { changeTakesEffect, priceScheduledChanges, renewalAmountCents, type ChangingMembership } from "../billing/renewals/pricing.ts";
import { cycleDifferences, cycleTotals, fulfilmentCycle } from "../packing/service.ts";
import { endedBefore, nextChargeDate, owedPeriod } from "../rules/dates.ts";
import { dayNumber, isoDate, localDate, yearMonthOf, type LocalDate, type YearMonth } from "../shared/calendar.ts";
import { dashboardBusiness, type MetricsScope } from "./service.ts";

export interface NextBillingRun {
  /** The local day (ISO date, the business's time zone) of the next renewal pass that charges some membership. */
  date: string;
  /** The period that pass charges. */
  period: YearMonth;
  /** The memberships it charges for the first time for that period (past-due retries are not among them). */
  memberships: number;
  /** What it is expected to charge them: the renewal's own pricing (a scheduled change taking effect, coupon, tax). */
  amountCents: number;
  /** Of those memberships, the ones whose scheduled change takes effect with this charge. */
  changes: number;
}

interface RunRow {
  id: number;
  billing_day: number;
  paid_through_period: string | null;
  total_cents: number;
  coupon_id: number | null;
  cancel_after_period: string | null;
  skipped: string[];
  change_plan_id: number | null;
  change_mode: FulfillmentMode | null;
  change_point: string | null;
  change_addon_ids: number[] | null;
  change_period: string | null;
}

/**
 * The next billing run of the business: the first local day, from today on, on which a renewal pass charges some
 * of its ACTIVE memberships, with how many and for how much. A membership's day is its next charge date
 * (nextChargeDate: its own billing day in the next period billed, skipped months passed over), or today when that
 * day is behind today and the period is still unpaid (the next pass charges it). Past-due memberships are left out:
 * their runs are retries of a period already tried, and their next period is billed only once that one is paid.
 * The amount prices each membership as the renewal does (renewalAmountCents: the stored total, or a scheduled change
 * taking effect in that period priced by priceScheduledChanges with its coupon while active and the business's tax).
 * A membership whose member's cancel ends it before its next charge is left out (the run cancels it instead).
 * Null when the business has no ACTIVE membership to charge (past-due ones are retries).
 */
export async function nextBillingRun(ctx: ServiceContext, scope: MetricsScope): Promise<NextBillingRun | null> {
  const businessId = await dashboardBusiness(ctx, scope);
  const today = localDate(ctx.clock.now(), scope.timeZone);
  const rows = await ctx.db.$queryRaw<RunRow[]>`
    SELECT s.id, s.billing_day, s.paid_through_period, s.total_cents, s.coupon_id, s.cancel_after_period,
           ARRAY(SELECT k.year_month FROM skips k WHERE k.subscription_id = s.id AND k.year_month >= ${yearMonthOf(today)}) AS skipped,
           c.plan_id AS change_plan_id, c.mode::text AS change_mode, c.fulfillment_point AS change_point,
           c.addon_ids AS change_addon_ids, c.effective_period AS change_period
      FROM subscriptions s
      LEFT JOIN subscription_changes c ON c.subscription_id = s.id
     WHERE s.business_id = ${businessId} AND s.status = 'ACTIVE'
     ORDER BY s.id`;
  const chargedOn = (r: RunRow): LocalDate => {
    const date = nextChargeDate({ today, paidThroughPeriod: r.paid_through_period, billingDay: r.billing_day, skippedMonths: new Set(r.skipped) });
    return dayNumber(date) < dayNumber(today) ? today : date;
  };
  // A membership whose member's cancel ends it before that charge is canceled then, not charged.
  const days = rows.map((r) => ({ r, day: chargedOn(r) })).filter((d) => !endedBefore(yearMonthOf(d.day), d.r.cancel_after_period));
  if (days.length === 0) return null;
  const first = days.reduce((min, d) => (dayNumber(d.day) < dayNumber(min) ? d.day : min), days[0].day);
  const due = days.filter((d) => dayNumber(d.day) === dayNumber(first)).map((d) => d.r);
  const period = yearMonthOf(first);

  const changing = due.flatMap((r): ChangingMembership[] => {
    if (r.change_plan_id === null) return [];
    const change = { planId: r.change_plan_id, mode: r.change_mode!, fulfillmentPoint: r.change_point ?? "", addonIds: r.change_addon_ids ?? [], effectivePeriod: r.change_period! };
    return changeTakesEffect(change, period) ? [{ id: r.id, businessId, couponId: r.coupon_id, pendingChange: change }] : [];
  });
  const page = changing.length ? await ctx.db.page.findUnique({ where: { businessId }, select: { taxEnabled: true, taxRateBps: true } }) : null;
  const priced = await priceScheduledChanges(ctx.db, changing, new Map([[businessId, page]]));
  return {
    date: isoDate(first),
    period,
    memberships: due.length,
    amountCents: due.reduce((sum, r) => sum + renewalAmountCents({ totalCents: r.total_cents }, priced.get(r.id)), 0),
    changes: [...priced.values()].filter((p) => p !== null).length,
  };
}

export interface MonthBoxes {
  /** This month ("YYYY-MM", the business's time zone): the Fulfilment screen's month to link to. */
  month: YearMonth;
  /** Boxes to pack (without a hold), as the Fulfilment screen counts them. */
  boxes: number;
  /** Boxes held because the month's charge failed (past due for it). */
  held: number;
  /** The month's packing snapshot is frozen (the counts are the snapshot's). */
  frozen: boolean;
  /** Frozen: boxes paid for after the freeze (the Fulfilment screen's ADDED differences), not in `boxes`. */
  addedSinceFreeze: number;
}

/**
 * This month's boxes to pack: the Fulfilment screen's totals of the month (api/packing/service.ts: the snapshot's
 * once frozen, else the cycle preview's), read through its own functions.
 */
export async function boxesThisMonth(ctx: ServiceContext, scope: MetricsScope): Promise<MonthBoxes> {
  const businessId = await dashboardBusiness(ctx, scope);
  const month = yearMonthOf(localDate(ctx.clock.now(), scope.timeZone));
  const cycle = await fulfilmentCycle(ctx, businessId, month);
  const [totals, differences] = await Promise.all([cycleTotals(ctx, cycle), cycleDifferences(ctx, cycle)]);
  const addedSinceFreeze = differences?.filter((d) => d.kind === "ADDED").length ?? 0;
  return { month, boxes: totals.boxes, held: totals.held, frozen: cycle.state === "FROZEN", addedSinceFreeze };
}

/** How many past-due memberships the dashboard lists (the total is counted apart). */
export const PAST_DUE_SHOWN = 25;

export interface PastDueMembership {
  membershipId: number;
  /** The member's full name (their profile's); null when they have given none. */
  fullName: string | null;
  username: string;
  /** The period it owes (owedPeriod): the one its retries try to charge. */
  owedPeriod: YearMonth;
  /** Attempts at that period so far, none paid. */
  attempts: number;
  /** When the renewal run tries the period again (nextRetryAt); null when no renewal attempt at it was made. */
  nextRetryAt: Date | null;
  /** nextRetryAt's local day (ISO date, the business's time zone). */
  nextRetryDate: string | null;
}

export interface PastDueList {
  total: number;
  /** The first PAST_DUE_SHOWN, the soonest retry first (those without one last). */
  memberships: PastDueMembership[];
}

/**
 * The business's past-due memberships with the period each owes and its next retry (the renewal run's schedule:
 * 1, 3 and 7 days after the first declined attempt). Two statements: the memberships, and their attempts.
 */
export async function pastDueMemberships(ctx: ServiceContext, scope: MetricsScope): Promise<PastDueList> {
  const businessId = await dashboardBusiness(ctx, scope);
  const today = localDate(ctx.clock.now(), scope.timeZone);
  const subs = await ctx.db.subscription.findMany({
    where: { businessId, status: "PAST_DUE" },
    select: { id: true, paidThroughPeriod: true, user: { select: { name: true, username: true } } },
    orderBy: { id: "asc" },
  });
  const owed = subs.map((s) => ({ id: s.id, period: owedPeriod(today, s.paidThroughPeriod) }));
  const attemptsOf = await unpaidAttempts(ctx.db, owed);
  const rows = subs.map((s, i): PastDueMembership => {
    const attempts = attemptsOf.get(s.id) ?? [];
    const retry = attempts.length ? nextRetryAt(attempts) : null;
    return {
      membershipId: s.id,
      fullName: s.user.name?.trim() || null,
      username: s.user.username,
      owedPeriod: owed[i].period,
      attempts: attempts.length,
      nextRetryAt: retry,
      nextRetryDate: retry ? isoDate(localDate(retry, scope.timeZone)) : null,
    };
  });
  const order = (r: PastDueMembership) => r.nextRetryAt?.getTime() ?? Number.POSITIVE_INFINITY;
  rows.sort((a, b) => order(a) - order(b) || a.membershipId - b.membershipId);
  return { total: rows.length, memberships: rows.slice(0, PAST_DUE_SHOWN) };
}
