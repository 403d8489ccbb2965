/** Dates and words of the Fulfilment screen (money is formatted by @shared/money.ts). */
import { monthYear } from "../../../lib/dates.ts";

const dayFormat = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });

/** "Apr 1, 2026" for a calendar date "2026-04-01" (no time zone: the business's day as the server names it). */
export function formatDay(isoDate: string | null | undefined): string {
  if (!isoDate) return "";
  const [y, m, d] = isoDate.split("-").map(Number);
  return dayFormat.format(new Date(Date.UTC(y, m - 1, d)));
}

/** "Apr 11, 2026, 12:00 AM" in the business's time zone. */
export function formatInstant(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return "";
  return new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZone }).format(new Date(iso));
}

/**
 * "April 2026" for "2026-04": every month a person reads on the screen and the printed lists and slips (the CSV
 * download keeps the ISO "YYYY-MM" of the route and its columns).
 */
export function formatMonth(yearMonth: string): string {
  return monthYear(yearMonth);
}

/** How a box on hold reads on the screen and the printed lists. */
export const HOLD_LABEL = "Hold — payment failed";
