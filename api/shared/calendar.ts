/**
 * Calendar arithmetic in a business's time zone (billing days, windows and cutoffs count local days) and how
 * days and months read in messages. Dependency-free: the server and the web app (alias `@shared`) both use it.
 */

export interface LocalDate {
  year: number;
  /** 1..12 */
  month: number;
  day: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

export function localDate(at: Date, timeZone: string): LocalDate {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "numeric", day: "numeric" });
    formatters.set(timeZone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(at).map((p) => [p.type, p.value]));
  return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day) };
}

/** "YYYY-MM" */
export type YearMonth = string;

export function yearMonthOf(d: { year: number; month: number }): YearMonth {
  return `${d.year}-${String(d.month).padStart(2, "0")}`;
}

export function parseYearMonth(ym: YearMonth): { year: number; month: number } {
  const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(ym);
  if (!m) throw new RangeError(`Not a YYYY-MM month: ${ym}`);
  return { year: Number(m[1]), month: Number(m[2]) };
}

export function addMonths(d: { year: number; month: number }, n: number): { year: number; month: number } {
  const index = d.year * 12 + (d.month - 1) + n;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** ISO date "YYYY-MM-DD" of a local calendar date. */
export function isoDate(d: LocalDate): string {
  return `${yearMonthOf(d)}-${String(d.day).padStart(2, "0")}`;
}

const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** 1 → "January" … 12 → "December" (English, as every message of the platform). */
export function monthName(month: number): string {
  const name = MONTH_NAMES[month - 1];
  if (name === undefined) throw new RangeError(`Not a month number: ${month}`);
  return name;
}

/** 1 → "1st", 2 → "2nd", 11 → "11th", 22 → "22nd", 111 → "111th". */
export function ordinal(n: number): string {
  const mod100 = n % 100;
  if (mod100 >= 11 && mod100 <= 13) return `${n}th`;
  switch (n % 10) {
    case 1:
      return `${n}st`;
    case 2:
      return `${n}nd`;
    case 3:
      return `${n}rd`;
    default:
      return `${n}th`;
  }
}
