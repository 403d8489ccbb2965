/**
 * Skips (spec §4): the member skips the month of the next box, pauses for several months (consecutive skips; the
 * status stays ACTIVE), takes one skip back (unskip) or ends a pause early (resume). Skips are rows (`skips`, one a
 * month) that the renewal run, the next box and charge dates, the fulfilment preview, capacity and the reminders
 * honour; nothing else is written, so a pause needs no rule of its own anywhere else.
 *
 * Adding skips (skip, pause) and taking them back (unskip, resume) share their checks: the member's own ACTIVE
 * membership, inside the business's skip window, one write at a time (the membership's row locked). Taking a skip
 * back also needs its month still open: not before the month a skip now pauses, not frozen for packing (its freeze
 * time passed, or a snapshot taken) and not paid.
 */
import { z } from "zod";
import type { ServiceContext } from "../context.ts";
import { Prisma } from "../generated/prisma/client.ts";
import { cycleState } from "../packing/cycle.ts";
import { isoDate, monthName, parseYearMonth } from "../shared/calendar.ts";
import { ConflictError, RuleViolationError } from "../shared/errors.ts";
import { parseInput } from "../shared/validation.ts";
import { DEFAULT_BOX_READY_DAY, DEFAULT_PAUSE_MAX_MONTHS, PAUSE_MAX_MONTHS_LIMIT, firstChargedPeriod, pauseMonths, pauseOf, resumeDate, skipTargetMonth, windowState } from "../rules/dates.ts";
import type { EventPayloads } from "../events/vocabulary.ts";
import { changeEffectivePeriod, lockActiveMembership, membershipEvent, outsideWindowMessage, ownSubscription, requireActive, SubscriptionIdInput, type SubscriptionForRules } from "./service.ts";
import { isActiveStatus, timingOf, todayIn, type PageTiming } from "./timing.ts";

type Tx = Prisma.TransactionClient;

export interface SkipResult {
  subscriptionId: number;
  /** The month paused ("YYYY-MM"). */
  skippedMonth: string;
  /** ISO date payments resume (spec §4 'Payments paused until …'). */
  resumeDate: string;
}

export interface SkipTarget {
  /** The month a skip now pauses ("YYYY-MM", rules.skipTargetMonth). */
  month: string;
  /** ISO date payments resume after that month. */
  resumeDate: string;
  /** That month is already skipped (a skip now is refused as a duplicate). */
  skipped: boolean;
  /** A skip now would be accepted: an ACTIVE membership, inside the skip window, month not yet skipped. */
  allowed: boolean;
}

type TimedMembership = { status: string; paidThroughPeriod: string | null; skips: { yearMonth: string }[]; business: { timeZone: string; page: PageTiming | null } };

/**
 * What "Skip a month" does today, the one rule the portal shows and skipMonth applies: the month it pauses,
 * when payments resume, whether that month is already skipped and whether a skip is allowed now.
 */
export function skipTargetOf(ctx: Pick<ServiceContext, "clock">, sub: TimedMembership): SkipTarget {
  const timing = timingOf(sub.business.page);
  const today = todayIn(ctx, sub.business.timeZone);
  const month = skipTargetMonth({ today, boxReadyDay: timing.boxReadyDay, cutoffDay: timing.cutoffDay, paidThroughPeriod: sub.paidThroughPeriod });
  const skipped = sub.skips.some((s) => s.yearMonth === month);
  const allowed = sub.status === "ACTIVE" && windowState(today, timing.skipWindow).open && !skipped;
  return { month, resumeDate: isoDate(resumeDate(month, timing.billingDay)), skipped, allowed };
}

interface PauseView {
  /** The last month ("YYYY-MM") of the run of skipped months from the month a skip now pauses. */
  pausedThrough: string;
  /** ISO date of the first box after it (the box-ready day of the month after pausedThrough). */
  resumeDate: string;
}

/** A current membership's pause (Membership.pausedThrough and resumeDate); null when its next box is not skipped. */
export function pauseViewOf(ctx: Pick<ServiceContext, "clock">, sub: TimedMembership): PauseView | null {
  if (!isActiveStatus(sub.status)) return null;
  const pause = pauseOf(skipTargetOf(ctx, sub).month, new Set(sub.skips.map((s) => s.yearMonth)), timingOf(sub.business.page).boxReadyDay);
  return pause && { pausedThrough: pause.through, resumeDate: isoDate(pause.resumeBoxDate) };
}

/**
 * "Its next box is skipped" (pauseViewOf not null, the status aside) as SQL on the membership row `alias` at `now`,
 * for the memberships list's Paused filter: `joins` to add after `FROM subscriptions <alias>` and the condition
 * `skipped` they allow: a skip of the month a skip now pauses (skipTargetMonth: the next box's month in the business's
 * time zone, next month's once today is past the cutoff, else the box-ready day; never a month paid for: then the one
 * after the paid-through period). tests/integration/memberships-list-pause.test.ts holds it to pauseViewOf row by row.
 * The business and its page are joined to the membership, not to the skips in the EXISTS: there, with no column to
 * join them on, PostgreSQL paired every skip with every business before the semi-join.
 */
export function nextBoxSkippedSql(alias: string, now: Date): { joins: Prisma.Sql; skipped: Prisma.Sql } {
  const s = Prisma.raw(alias);
  const local = Prisma.sql`(${now.toISOString()}::timestamptz AT TIME ZONE ns_b.time_zone)`;
  const cutoff = Prisma.raw(`CASE WHEN ns_p.cutoff_day > 0 THEN ns_p.cutoff_day WHEN ns_p.box_ready_day <> 0 THEN ns_p.box_ready_day ELSE ${DEFAULT_BOX_READY_DAY} END`);
  const joins = Prisma.sql`JOIN businesses ns_b ON ns_b.id = ${s}.business_id LEFT JOIN pages ns_p ON ns_p.business_id = ns_b.id`;
  const skipped = Prisma.sql`EXISTS (
    SELECT 1 FROM skips ns_k
     WHERE ns_k.subscription_id = ${s}.id
       AND ns_k.year_month = GREATEST(
             to_char(date_trunc('month', ${local}) + CASE WHEN EXTRACT(DAY FROM ${local}) > ${cutoff} THEN interval '1 month' ELSE interval '0 months' END, 'YYYY-MM'),
             to_char(to_date(${s}.paid_through_period, 'YYYY-MM') + interval '1 month', 'YYYY-MM')))`;
  return { joins, skipped };
}

/** "2026-04" → "April 2026". */
const monthLabel = (ym: string) => `${monthName(parseYearMonth(ym).month)} ${parseYearMonth(ym).year}`;

/** The member's own active membership, to add or take back skips (`action`: "skipped", "paused", …). */
async function ownActive(ctx: ServiceContext, subscriptionId: number, action: string): Promise<SubscriptionForRules> {
  const sub = await ownSubscription(ctx, subscriptionId);
  requireActive(sub, action);
  return sub;
}

/** Skips are added and taken back only inside the business's skip window (`what`: "skip a month", …). */
function requireSkipWindow(ctx: ServiceContext, sub: SubscriptionForRules, what: string): void {
  const timing = timingOf(sub.business.page);
  const window = windowState(todayIn(ctx, sub.business.timeZone), timing.skipWindow);
  if (!window.open) throw new RuleViolationError(outsideWindowMessage(what, timing.skipWindow, window), "outside_skip_window");
}

/**
 * A change scheduled for a month now skipped takes effect, and is named, from the first month charged after it;
 * with skips taken back it comes forward again to the first month charged from the next one billed (never later
 * than it was): it applies at the first charged month on or after the one it was scheduled for.
 */
async function placeScheduledChange(ctx: ServiceContext, tx: Tx, sub: SubscriptionForRules): Promise<void> {
  const change = await tx.subscriptionChange.findUnique({ where: { subscriptionId: sub.id }, select: { effectivePeriod: true } });
  if (!change) return;
  const skips = await tx.skip.findMany({ where: { subscriptionId: sub.id }, select: { yearMonth: true } });
  const pushed = firstChargedPeriod(change.effectivePeriod, skips.map((s) => s.yearMonth));
  const earliest = changeEffectivePeriod(ctx, { ...sub, skips });
  const effectivePeriod = earliest < pushed ? earliest : pushed;
  if (effectivePeriod !== change.effectivePeriod) await tx.subscriptionChange.update({ where: { subscriptionId: sub.id }, data: { effectivePeriod } });
}

type SkipEvent = { type: "membership.skipped.v1"; payload: EventPayloads["membership.skipped.v1"] } | { type: "membership.paused.v1"; payload: EventPayloads["membership.paused.v1"] };

/**
 * Writes skips of `months` (in order) in one transaction with their event, which `outcome` makes (with the answer)
 * from the membership's skipped months once written. The first month must not be skipped yet (already_skipped); a
 * later one may be already.
 */
async function addSkips<R>(
  ctx: ServiceContext,
  sub: SubscriptionForRules,
  action: string,
  months: string[],
  outcome: (skipped: ReadonlySet<string>) => { event: SkipEvent; result: R },
): Promise<R> {
  const [first, ...rest] = months;
  const already = new ConflictError("This month is already skipped", "already_skipped");
  if (sub.skips.some((s) => s.yearMonth === first)) throw already;
  return ctx.db
    .$transaction(async (tx) => {
      await lockActiveMembership(tx, sub.id, action);
      await tx.skip.create({ data: { subscriptionId: sub.id, yearMonth: first } });
      if (rest.length) await tx.skip.createMany({ data: rest.map((yearMonth) => ({ subscriptionId: sub.id, yearMonth })), skipDuplicates: true });
      await placeScheduledChange(ctx, tx, sub);
      const skipped = await tx.skip.findMany({ where: { subscriptionId: sub.id, yearMonth: { gte: first } }, select: { yearMonth: true } });
      const { event, result } = outcome(new Set(skipped.map((s) => s.yearMonth)));
      await membershipEvent(ctx, tx, sub, event);
      return result;
    })
    .catch((e: { code?: string }) => {
      if (e.code === "P2002") throw already; // a concurrent skip of the same month won
      throw e;
    });
}

/**
 * Skips the month of the next box (see rules.skipTargetMonth): no box and no charge that month. Allowed
 * only to the member, on an active subscription, inside the business's skip window.
 */
export async function skipMonth(ctx: ServiceContext, input: { subscriptionId: number }): Promise<SkipResult> {
  const { subscriptionId } = parseInput(SubscriptionIdInput, input);
  const sub = await ownActive(ctx, subscriptionId, "skipped");
  requireSkipWindow(ctx, sub, "skip a month");
  const { month, resumeDate: resumesOn } = skipTargetOf(ctx, sub);
  return addSkips(ctx, sub, "skipped", [month], () => ({
    event: { type: "membership.skipped.v1", payload: { membershipId: sub.id, userId: sub.userId, month, resumeDate: resumesOn } },
    result: { subscriptionId, skippedMonth: month, resumeDate: resumesOn },
  }));
}

export interface PauseResult {
  subscriptionId: number;
  /** The first month paused ("YYYY-MM"): the month a skip now pauses. */
  fromMonth: string;
  /** The last month of the pause: the last of the run of skipped months from fromMonth (later skips join it). */
  throughMonth: string;
  /** ISO date of the first box after the pause. */
  resumeDate: string;
}

const PauseInput = SubscriptionIdInput.extend({
  months: z
    .number({ error: "Choose how many months to pause" })
    .int("Choose a whole number of months")
    .min(1, "Choose at least one month")
    .max(PAUSE_MAX_MONTHS_LIMIT, `You can pause for at most ${PAUSE_MAX_MONTHS_LIMIT} months`),
});

/**
 * Pauses the membership for `months` months from the month of the next box (the month skipMonth would skip): a skip
 * of each, in one transaction, with skipMonth's refusals. Up to the page's longest pause (pauseMaxMonths; 0: the
 * business offers no pause). The first month must not be skipped yet (already_skipped: the member skipped it or is
 * paused already); a later month already skipped stays skipped and the pause covers it.
 */
export async function pauseMembership(ctx: ServiceContext, input: { subscriptionId: number; months: number }): Promise<PauseResult> {
  const { subscriptionId, months } = parseInput(PauseInput, input);
  const sub = await ownActive(ctx, subscriptionId, "paused");
  const max = sub.business.page?.pauseMaxMonths ?? DEFAULT_PAUSE_MAX_MONTHS;
  if (max === 0) throw new RuleViolationError(`${sub.business.name} does not offer pausing a membership.`, "pause_not_offered");
  if (months > max) throw new RuleViolationError(`You can pause for at most ${max} month${max === 1 ? "" : "s"}.`, "pause_too_long");
  requireSkipWindow(ctx, sub, "pause your membership");
  const fromMonth = skipTargetOf(ctx, sub).month;
  return addSkips(ctx, sub, "paused", pauseMonths(fromMonth, months), (skipped) => {
    // fromMonth was just written: the pause runs from it through the last consecutive skip.
    const pause = pauseOf(fromMonth, skipped, timingOf(sub.business.page).boxReadyDay)!;
    const announced = { fromMonth, throughMonth: pause.through, resumeDate: isoDate(pause.resumeBoxDate) };
    return { event: { type: "membership.paused.v1", payload: { membershipId: sub.id, userId: sub.userId, ...announced } }, result: { subscriptionId, ...announced } };
  });
}

/**
 * Why each of `months` can no longer be taken back: before the month a skip now pauses or frozen for packing
 * (month_frozen), or paid (month_paid: paid through, an order, or a renewal payment of the month taken or in flight).
 */
async function closedMonths(ctx: ServiceContext, sub: SubscriptionForRules, months: string[]): Promise<Map<string, "month_frozen" | "month_paid">> {
  const now = ctx.clock.now();
  const target = skipTargetOf(ctx, sub).month;
  const [snapshots, orders, payments] = await Promise.all([
    ctx.db.packingSnapshot.findMany({ where: { businessId: sub.businessId, period: { in: months } }, select: { period: true } }),
    ctx.db.order.findMany({ where: { subscriptionId: sub.id, period: { in: months } }, select: { period: true } }),
    ctx.db.payment.findMany({
      where: { subscriptionId: sub.id, status: { in: ["SUCCEEDED", "PROCESSING", "REQUIRES_ACTION"] }, OR: months.map((m) => ({ idempotencyKey: { startsWith: `renewal:${sub.id}:${m}:` } })) },
      select: { idempotencyKey: true },
    }),
  ]);
  const frozen = new Set(snapshots.map((s) => s.period));
  const paid = new Set([...orders.map((o) => o.period), ...payments.map((p) => p.idempotencyKey?.split(":")[2])]);
  const closed = new Map<string, "month_frozen" | "month_paid">();
  for (const m of months) {
    if ((sub.paidThroughPeriod && m <= sub.paidThroughPeriod) || paid.has(m)) closed.set(m, "month_paid");
    else if (m < target || frozen.has(m) || cycleState(sub.business, m, now) === "frozen") closed.set(m, "month_frozen");
  }
  return closed;
}

function closedError(month: string, why: "month_frozen" | "month_paid"): RuleViolationError {
  return why === "month_paid"
    ? new RuleViolationError(`Your ${monthLabel(month)} box is already paid for, so its skip stays.`, why)
    : new RuleViolationError(`Your ${monthLabel(month)} box is already being packed, so its skip stays.`, why);
}

export interface UnskipResult {
  subscriptionId: number;
  /** The months ("YYYY-MM") whose skips were taken back: each gets its box and its charge again. */
  months: string[];
}

/** Takes back the skips of `months` (all skipped, all open) in one transaction, with membership.unskipped.v1. */
async function removeSkips(ctx: ServiceContext, sub: SubscriptionForRules, action: string, months: string[]): Promise<UnskipResult> {
  return ctx.db.$transaction(async (tx) => {
    await lockActiveMembership(tx, sub.id, action);
    // Under the lock: another write of this member's may have taken some back since they were read.
    const present = (await tx.skip.findMany({ where: { subscriptionId: sub.id, yearMonth: { in: months } }, select: { yearMonth: true } })).map((s) => s.yearMonth).sort();
    if (present.length === 0) throw new RuleViolationError(`${monthLabel(months[0])} is not skipped.`, "not_skipped");
    await tx.skip.deleteMany({ where: { subscriptionId: sub.id, yearMonth: { in: present } } });
    await placeScheduledChange(ctx, tx, sub);
    await membershipEvent(ctx, tx, sub, { type: "membership.unskipped.v1", payload: { membershipId: sub.id, userId: sub.userId, months: present } });
    return { subscriptionId: sub.id, months: present };
  });
}

const UnskipInput = SubscriptionIdInput.extend({ month: z.string().trim().regex(/^\d{4}-(0[1-9]|1[0-2])$/, "Choose a month (YYYY-MM)") });

/**
 * Takes back the skip of one month: its box and its charge come back (the next renewal pass charges it when its
 * billing day has come). Inside the skip window, for a month not yet frozen for packing and not paid.
 */
export async function unskipMonth(ctx: ServiceContext, input: { subscriptionId: number; month: string }): Promise<UnskipResult> {
  const { subscriptionId, month } = parseInput(UnskipInput, input);
  const sub = await ownActive(ctx, subscriptionId, "changed");
  if (!sub.skips.some((s) => s.yearMonth === month)) throw new RuleViolationError(`${monthLabel(month)} is not skipped.`, "not_skipped");
  requireSkipWindow(ctx, sub, "take back a skip");
  const why = (await closedMonths(ctx, sub, [month])).get(month);
  if (why) throw closedError(month, why);
  return removeSkips(ctx, sub, "changed", [month]);
}

/**
 * Ends a pause early: takes back the skips of the run of skipped months from the month a skip now pauses (the months
 * pausedThrough covers), except those already frozen or paid (they come first, and stay skipped). Refused when the
 * next box is not skipped (not_paused), outside the skip window, or when every month of the run is closed.
 */
export async function resumeMembership(ctx: ServiceContext, input: { subscriptionId: number }): Promise<UnskipResult> {
  const { subscriptionId } = parseInput(SubscriptionIdInput, input);
  const sub = await ownActive(ctx, subscriptionId, "resumed");
  const pause = pauseOf(skipTargetOf(ctx, sub).month, new Set(sub.skips.map((s) => s.yearMonth)), null);
  if (!pause) throw new RuleViolationError("Your membership is not paused: your next box comes as planned.", "not_paused");
  requireSkipWindow(ctx, sub, "resume your membership");
  const closed = await closedMonths(ctx, sub, pause.months);
  const open = pause.months.filter((m) => !closed.has(m));
  if (open.length === 0) throw closedError(pause.through, closed.get(pause.through)!);
  return removeSkips(ctx, sub, "resumed", open);
}
