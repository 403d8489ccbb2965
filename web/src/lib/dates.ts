import { addMonths, monthName, ordinal, parseYearMonth, yearMonthOf } from "@shared/calendar.ts";

/**
 * The calendar parts of an ISO date ("2026-04-01" or a full timestamp), read as written: no time-zone shift;
 * null when it is not one (shown as given).
 */
function dateParts(iso: string): { year: number; month: number; day: number } | null {
  const m = /^(\d{4})-(0[1-9]|1[0-2])-(\d{2})/.exec(iso);
  if (!m) return null;
  return { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
}

/** "2026-04-01" → "April 1st" (the pay button and the skip message). */
export function monthDayOrdinal(iso: string): string {
  const p = dateParts(iso);
  return p ? `${monthName(p.month)} ${ordinal(p.day)}` : iso;
}

/** "2026-04-01" → "April 1, 2026". */
export function longDate(iso: string): string {
  const p = dateParts(iso);
  return p ? `${monthName(p.month)} ${p.day}, ${p.year}` : iso;
}

/** A timestamp shown in the viewer's locale ("Mar 5, 2026, 3:00 PM"). */
export function dateTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" });
}

/** A billing period "2027-01" (or an ISO date) → "January 2027". */
export function monthYear(period: string): string {
  const m = /^(\d{4})-(\d{2})/.exec(period);
  return m && Number(m[2]) >= 1 && Number(m[2]) <= 12 ? `${monthName(Number(m[2]))} ${m[1]}` : period;
}

/** A billing period "2027-01" (or an ISO date) → "January". */
export function monthOnly(period: string): string {
  const m = /^(\d{4})-(\d{2})/.exec(period);
  return m && Number(m[2]) >= 1 && Number(m[2]) <= 12 ? monthName(Number(m[2])) : period;
}

/** The month `n` months after "YYYY-MM" (the admin screens' ‹ and › buttons). */
export function shiftMonth(yearMonth: string, n: number): string {
  return yearMonthOf(addMonths(parseYearMonth(yearMonth), n));
}
