/**
 * Pure calendar rules of a membership (spec §4, §5, §8): cutoff, skip/change windows, next box date, skip
 * target and resume date. "today" is always the local date in the business's time zone (see
 * api/shared/calendar.ts); nothing here reads a clock or a database.
 */
import { addMonths, daysInMonth, ordinal, parseYearMonth, yearMonthOf, type LocalDate, type YearMonth } from "../shared/calendar.ts";

type Month = { year: number; month: number };

/** Spec §9 defaults. */
export const DEFAULT_BOX_READY_DAY = 1;
export const DEFAULT_BILLING_DAY = 1;
/** Spec §3/§9: a page's skip and change windows when it sets none. */
export const DEFAULT_WINDOW = { startDay: 1, endDay: 14 } as const;
/** The longest pause (consecutive skipped months) a page allows when it sets none, and the most it may set. */
export const DEFAULT_PAUSE_MAX_MONTHS = 3;
export const PAUSE_MAX_MONTHS_LIMIT = 12;

/** A cutoff day only counts when it is a positive number (spec §5: "when it is a non-zero number"). */
function effectiveCutoff(cutoffDay: number | null | undefined): number | null {
  return typeof cutoffDay === "number" && cutoffDay > 0 ? cutoffDay : null;
}

/** Spec §5: subscribing is refused when the day of the month is greater than the cutoff day. */
export function isPastCutoff(today: LocalDate, cutoffDay: number | null | undefined): boolean {
  const cutoff = effectiveCutoff(cutoffDay);
  return cutoff !== null && today.day > cutoff;
}

/** Spec §8 "Past cutoff". */
export function cutoffMessage(cutoffDay: number): string {
  return `The last day to subscribe for this month has passed. The cutoff day is the ${ordinal(cutoffDay)} of each month. Please try again next month.`;
}

/** What a business does with sign-ups past its cutoff day (pages.after_cutoff). */
export type AfterCutoffPolicy = "REFUSE" | "NEXT_MONTH";

export interface SignupTerms {
  /** Spec §8's refusal, past the cutoff at a REFUSE business (null: a sign-up is taken today). */
  closedMessage: string | null;
  /** Past the cutoff at a NEXT_MONTH business: the card is saved today and nothing is charged until firstPeriod. */
  startsNextMonth: boolean;
  /** The first month with a box and a charge for a sign-up today. */
  firstPeriod: YearMonth;
  /** When that first charge is made: today, or the billing day of next month for a next-month sign-up. */
  firstChargeDate: LocalDate;
}

/**
 * A sign-up today: this month's box, paid now; or past the cutoff day, spec §5's refusal (REFUSE, the
 * default) or next month's box (NEXT_MONTH), its first charge on that month's billing day.
 */
export function signupTerms(today: LocalDate, page: { cutoffDay: number | null | undefined; afterCutoff: AfterCutoffPolicy; billingDay: number | null | undefined }): SignupTerms {
  const thisMonth = { closedMessage: null, startsNextMonth: false, firstPeriod: yearMonthOf(today), firstChargeDate: today };
  if (!isPastCutoff(today, page.cutoffDay)) return thisMonth;
  if (page.afterCutoff === "REFUSE") return { ...thisMonth, closedMessage: cutoffMessage(page.cutoffDay!) };
  const next = addMonths(today, 1);
  return { closedMessage: null, startsNextMonth: true, firstPeriod: yearMonthOf(next), firstChargeDate: dayInMonth(next, page.billingDay || DEFAULT_BILLING_DAY) };
}

/** A day of a month, clamped to the month's length (a day 31 setting in February is the 28th/29th). */
function dayInMonth(m: Month, day: number): LocalDate {
  return { year: m.year, month: m.month, day: Math.min(Math.max(1, day), daysInMonth(m.year, m.month)) };
}

export interface DayWindow {
  startDay: number;
  endDay: number;
}

export interface WindowState {
  /** today lies between opensOn and closesOn (inclusive). */
  open: boolean;
  /** First day of the current window, or of the next one once this month's has closed. */
  opensOn: LocalDate;
  /** Last day of this month's window while today ≤ end day, else of next month's (spec §4). */
  closesOn: LocalDate;
}

/** Skip and change windows: start day to end day of each month; past the end day the next window is next month's. */
export function windowState(today: LocalDate, window: DayWindow): WindowState {
  const month: Month = today.day <= window.endDay ? today : addMonths(today, 1);
  const opensOn = dayInMonth(month, window.startDay);
  const closesOn = dayInMonth(month, window.endDay);
  const open = compareDates(today, opensOn) >= 0 && compareDates(today, closesOn) <= 0;
  return { open, opensOn, closesOn };
}

function compareDates(a: LocalDate, b: LocalDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

interface BoxTiming {
  /** Day of the month the box is ready (default 1). */
  boxReadyDay?: number | null;
  /** Past this day, the next box is next month's (default: the box-ready day). */
  cutoffDay?: number | null;
}

/** Month of the next box before any skip: this month, or next month once today is past the cutoff. */
function nextBoxMonth(today: LocalDate, timing: BoxTiming): Month {
  const boxReadyDay = timing.boxReadyDay || DEFAULT_BOX_READY_DAY;
  const cutoff = effectiveCutoff(timing.cutoffDay) ?? boxReadyDay;
  return today.day > cutoff ? addMonths(today, 1) : { year: today.year, month: today.month };
}

/**
 * Month of the next box still to come: nextBoxMonth, or the month after when this month's box-ready day is
 * already behind today (a cutoff later than the box-ready day): a next box is never in the past.
 */
function upcomingBoxMonth(today: LocalDate, timing: BoxTiming): Month {
  const month = nextBoxMonth(today, timing);
  const ready = dayInMonth(month, timing.boxReadyDay || DEFAULT_BOX_READY_DAY);
  return compareDates(ready, today) < 0 ? addMonths(month, 1) : month;
}

export interface NextBoxInput extends BoxTiming {
  today: LocalDate;
  /** The subscription is active (ACTIVE or PAST_DUE: still a member). */
  active: boolean;
  skippedMonths: ReadonlySet<YearMonth>;
  /** Local date the subscription started. */
  startedAt: LocalDate;
  /** A next-month sign-up's first month (no box before it). */
  firstPeriod?: YearMonth | null;
}

/**
 * Spec §4 "Next Box date": with an active subscription, the box-ready day of this month, or of next month
 * if today is past the cutoff; if that month is skipped, one month later (repeated while the later month is
 * skipped too, so a date shown is never a skipped box). Without an active subscription: one month after
 * the start. Never before today: once this month's box-ready day has passed (a cutoff later than it), the
 * next box is next month's.
 */
export function nextBoxDate(input: NextBoxInput): LocalDate {
  if (!input.active) return dayInMonth(addMonths(input.startedAt, 1), input.startedAt.day);
  let month = upcomingBoxMonth(input.today, input);
  if (input.firstPeriod && yearMonthOf(month) < input.firstPeriod) month = parseYearMonth(input.firstPeriod);
  for (let guard = 0; input.skippedMonths.has(yearMonthOf(month)) && guard < 120; guard++) month = addMonths(month, 1);
  return dayInMonth(month, input.boxReadyDay || DEFAULT_BOX_READY_DAY);
}

export interface SkipTargetInput extends BoxTiming {
  today: LocalDate;
  /** Last period already paid for ("YYYY-MM"), if any. */
  paidThroughPeriod?: YearMonth | null;
}

/**
 * The month a skip pauses: the month of the next box (skips ignored, so skipping twice names the same
 * month and is refused as a duplicate). A month already paid for is never skipped: then the first unpaid
 * month is. A month not yet billed is skippable even once its box-ready day has passed (billing later in the
 * month): its charge is what the skip saves. The portal shows this month (Membership.skipTarget), never a guess.
 */
export function skipTargetMonth(input: SkipTargetInput): YearMonth {
  const box = yearMonthOf(nextBoxMonth(input.today, input));
  const paid = input.paidThroughPeriod;
  if (paid && paid >= box) {
    return yearMonthOf(addMonths(parseYearMonth(paid), 1));
  }
  return box;
}

/** The months of a pause of `months` months from `from` (its first month) on, in order. */
export function pauseMonths(from: YearMonth, months: number): YearMonth[] {
  const first = parseYearMonth(from);
  return Array.from({ length: months }, (_, i) => yearMonthOf(addMonths(first, i)));
}

/**
 * A membership's pause: the run of consecutive skipped months from `from` (the month a skip now pauses,
 * skipTargetMonth), its last month, and the box date of the month after it (the box-ready day), when the
 * membership's boxes come again. Null when `from` is not skipped: the next box comes as usual.
 */
export function pauseOf(from: YearMonth, skippedMonths: ReadonlySet<YearMonth>, boxReadyDay: number | null | undefined): { months: YearMonth[]; through: YearMonth; resumeBoxDate: LocalDate } | null {
  const months: YearMonth[] = [];
  for (let month = from; skippedMonths.has(month) && months.length < 120; month = yearMonthOf(addMonths(parseYearMonth(month), 1))) months.push(month);
  const through = months.at(-1);
  if (!through) return null;
  return { months, through, resumeBoxDate: dayInMonth(addMonths(parseYearMonth(through), 1), boxReadyDay || DEFAULT_BOX_READY_DAY) };
}

/** Payments resume on the billing day of the month after the skipped one (spec §4 skip success message). */
export function resumeDate(skippedMonth: YearMonth, billingDay: number | null | undefined): LocalDate {
  return dayInMonth(addMonths(parseYearMonth(skippedMonth), 1), billingDay || DEFAULT_BILLING_DAY);
}

/** The billing period (YYYY-MM) that contains today. */
export function currentPeriod(today: LocalDate): YearMonth {
  return yearMonthOf(today);
}

/**
 * The period a past-due membership owes: the month after the one it is paid through, whose declined charge its
 * retries (1, 3 and 7 days on) keep trying, into the next month when the billing day was late in the month; the
 * current month when it has no paid period. Its next month is billed only once that one is paid (or the membership
 * is canceled after the last retry).
 */
export function owedPeriod(today: LocalDate, paidThroughPeriod?: YearMonth | null): YearMonth {
  return paidThroughPeriod ? yearMonthOf(addMonths(parseYearMonth(paidThroughPeriod), 1)) : currentPeriod(today);
}

/**
 * The next period that will be billed: the one after the last paid period, but never one already begun
 * without payment being due again (a long-unpaid subscription bills from the current period). Without a
 * paid period, next month's. A scheduled change takes effect then (spec: "next billing cycle").
 */
export function nextBillingPeriod(today: LocalDate, paidThroughPeriod?: YearMonth | null): YearMonth {
  if (!paidThroughPeriod) return yearMonthOf(addMonths(today, 1));
  const afterPaid = yearMonthOf(addMonths(parseYearMonth(paidThroughPeriod), 1));
  const current = currentPeriod(today);
  return afterPaid > current ? afterPaid : current;
}

/**
 * The date of a member's next renewal charge: the billing day of the next period billed (nextBillingPeriod),
 * past any skipped months (the run does not charge a skipped month). It may be today or behind today when that
 * period is due and the run has not charged it yet.
 */
export function nextChargeDate(input: { today: LocalDate; paidThroughPeriod?: YearMonth | null; billingDay: number | null | undefined; skippedMonths: ReadonlySet<YearMonth> }): LocalDate {
  const period = firstChargedPeriod(nextBillingPeriod(input.today, input.paidThroughPeriod), input.skippedMonths);
  return dayInMonth(parseYearMonth(period), input.billingDay || DEFAULT_BILLING_DAY);
}

/**
 * The first period from `from` on that is charged: skipped months are passed over (the renewal run neither charges
 * them nor applies a scheduled change in them). A change "from December" while December is skipped takes effect,
 * and is named, from January.
 */
/**
 * A member's own cancel ended the membership before `period` (its last month, `cancelAfterPeriod`, is earlier): no
 * box, no charge and nothing announced for it; the renewal run cancels it instead. Null: not ending.
 */
export function endedBefore(period: YearMonth, cancelAfterPeriod: YearMonth | null | undefined): boolean {
  return cancelAfterPeriod != null && period > cancelAfterPeriod;
}

export function firstChargedPeriod(from: YearMonth, skippedMonths: ReadonlySet<YearMonth> | readonly YearMonth[]): YearMonth {
  const skipped = skippedMonths instanceof Set ? skippedMonths : new Set(skippedMonths as readonly YearMonth[]);
  let period = from;
  for (let guard = 0; skipped.has(period) && guard < 120; guard++) period = yearMonthOf(addMonths(parseYearMonth(period), 1));
  return period;
}
