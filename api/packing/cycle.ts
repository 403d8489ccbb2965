/**
 * The fulfilment cycle of month M (period "YYYY-MM"), defined once here; everything else (the preview, the
 * packing snapshot job, the differences, the admin screen) asks these functions.
 *
 * - **Billing day.** The renewal run charges M on the business's billing day (1–28, in its time zone; each
 *   membership keeps the billing day it was sold with, api/billing/renewals/clock.ts).
 * - **Freeze.** The packing snapshot of M is frozen at the end of the business's cutoff day of M (its time zone:
 *   the first instant of the next local day). A cutoff day before the billing day freezes at the end of the
 *   billing day instead: before it, nothing of M is paid yet, so there would be nothing to pack. A cutoff day
 *   beyond the month's length is its last day. Without a cutoff day the snapshot is frozen when the renewal run
 *   for M has completed: from the start of the billing day, once no membership of the business is still due for
 *   M (the freeze job checks that after each renewal pass, api/packing/snapshot.ts).
 * - **Box ready.** The box of M is ready on the business's box-ready day of M (default 1st).
 *
 * Pure functions of a business's timing settings, its time zone and an instant from the injectable clock.
 */
import { addDays, addMonths, dayOfMonth, localDate, parseYearMonth, startOfLocalDay, yearMonthOf, type LocalDate, type YearMonth } from "../shared/calendar.ts";

/** The page settings that time a cycle (a business without a page: the spec §9 defaults). */
interface CycleTiming {
  billingDay: number;
  cutoffDay: number | null;
  boxReadyDay: number | null;
}

export interface CycleBusiness {
  timeZone: string;
  page: CycleTiming | null;
}

/** How a snapshot is triggered (the packing_snapshots.trigger column). */
export type FreezeTrigger = "cutoff" | "renewal_run";

export type CycleState = "open" | "frozen";

export interface Cycle {
  period: YearMonth;
  /** The business's billing day in M. */
  billingDate: LocalDate;
  /** The cutoff day in M, when the business has one. */
  cutoffDate: LocalDate | null;
  boxReadyDate: LocalDate;
  /** When the snapshot of M is frozen; for "renewal_run" the earliest instant (the run must have completed too). */
  freezeAt: Date;
  trigger: FreezeTrigger;
}

const DEFAULT_BILLING_DAY = 1;
const DEFAULT_BOX_READY_DAY = 1;

/** The cycle of month `period` for a business. */
export function cycleOf(business: CycleBusiness, period: YearMonth): Cycle {
  const { year, month } = parseYearMonth(period);
  const page = business.page;
  const billingDate = dayOfMonth({ year, month }, page?.billingDay || DEFAULT_BILLING_DAY);
  const cutoffDate = page?.cutoffDay && page.cutoffDay > 0 ? dayOfMonth({ year, month }, page.cutoffDay) : null;
  const boxReadyDate = dayOfMonth({ year, month }, page?.boxReadyDay || DEFAULT_BOX_READY_DAY);
  if (cutoffDate) {
    const last = cutoffDate.day >= billingDate.day ? cutoffDate : billingDate;
    return { period, billingDate, cutoffDate, boxReadyDate, freezeAt: startOfLocalDay(addDays(last, 1), business.timeZone), trigger: "cutoff" };
  }
  return { period, billingDate, cutoffDate, boxReadyDate, freezeAt: startOfLocalDay(billingDate, business.timeZone), trigger: "renewal_run" };
}

/** When the snapshot of M is frozen (see cycleOf). */
export function freezeAt(business: CycleBusiness, period: YearMonth): Date {
  return cycleOf(business, period).freezeAt;
}

/**
 * The state of M at `now`: frozen once its freeze time has passed. For a business without a cutoff day that is
 * the earliest the renewal run can complete; whether a snapshot exists is the database's answer (snapshot.ts).
 */
export function cycleState(business: CycleBusiness, period: YearMonth, now: Date): CycleState {
  return now.getTime() >= freezeAt(business, period).getTime() ? "frozen" : "open";
}

/** The month containing `now` in the business's time zone, and the one before (the freeze job looks at both). */
export function currentAndPreviousPeriod(business: Pick<CycleBusiness, "timeZone">, now: Date): [YearMonth, YearMonth] {
  const today = localDate(now, business.timeZone);
  return [yearMonthOf(today), yearMonthOf(addMonths(today, -1))];
}

/**
 * The month whose box is next at `now` (the admin Fulfilment screen's first month): this month (the business's
 * time zone) through its box-ready day, else the next one.
 */
export function nextBoxPeriod(business: CycleBusiness, now: Date): YearMonth {
  const today = localDate(now, business.timeZone);
  const current = yearMonthOf(today);
  return today.day <= cycleOf(business, current).boxReadyDate.day ? current : yearMonthOf(addMonths(today, 1));
}
