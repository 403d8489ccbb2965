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
/** Recent answers: a request asks the same instant (its clock's now) in the same zone many times over. */
const recent = new Map<string, LocalDate>();
const RECENT_MAX = 1_000;

export function localDate(at: Date, timeZone: string): LocalDate {
  const key = `${at.getTime()} ${timeZone}`;
  const known = recent.get(key);
  if (known) return { ...known };
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "numeric", day: "numeric" });
    formatters.set(timeZone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(at).map((p) => [p.type, p.value]));
  const date = { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day) };
  if (recent.size >= RECENT_MAX) recent.clear();
  recent.set(key, date);
  return { ...date };
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

const DAY_MS = 86_400_000;

/** A local date as a UTC midnight timestamp: for day arithmetic and comparisons, not an instant in any zone. */
export const dayNumber = (d: LocalDate): number => Date.UTC(d.year, d.month - 1, d.day);

/** Whole days from `a` to `b` (negative when `b` is earlier). */
export const daysBetween = (a: LocalDate, b: LocalDate): number => Math.round((dayNumber(b) - dayNumber(a)) / DAY_MS);

export function addDays(d: LocalDate, n: number): LocalDate {
  const t = new Date(dayNumber(d) + n * DAY_MS);
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

/** Day `day` of a month, clamped to the month (a billing day of 31 is February's last day). */
export function dayOfMonth(m: { year: number; month: number }, day: number): LocalDate {
  return { year: m.year, month: m.month, day: Math.min(Math.max(1, day), daysInMonth(m.year, m.month)) };
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC at `at`, in ms (local wall time minus UTC). */
function zoneOffsetMs(at: number, timeZone: string): number {
  let f = offsetFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" });
    offsetFormatters.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(at)).map((x) => [x.type, Number(x.value)]));
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - Math.floor(at / 1000) * 1000;
}

/** The first instant of a local calendar day in a time zone (DST-safe: the offset is read twice). */
export function startOfLocalDay(d: LocalDate, timeZone: string): Date {
  const wall = dayNumber(d);
  const first = wall - zoneOffsetMs(wall, timeZone);
  return new Date(wall - zoneOffsetMs(first, timeZone));
}
