import { monthName } from "@shared/calendar.ts";

/**
 * Words for a sign-up past the cutoff at a page that takes them for next month's box: the business page
 * and checkout name the first box's month and the first charge's day as people do ("April", "April 6").
 */

/** The month number of "2026-04" or "2026-04-06"; null when it is not one. */
function monthOf(iso: string): number | null {
  const m = /^\d{4}-(0[1-9]|1[0-2])(?:-|$)/.exec(iso);
  return m ? Number(m[1]) : null;
}

/** A period "2026-04" (or an ISO date) → "April"; anything else as given. */
export function periodMonthName(period: string): string {
  const month = monthOf(period);
  return month ? monthName(month) : period;
}

/** An ISO date "2026-04-06" → "April 6" (no ordinal, no year); anything else as given. */
export function monthDay(iso: string): string {
  const month = monthOf(iso);
  const day = /^\d{4}-\d{2}-(\d{2})/.exec(iso);
  return month && day && Number(day[1]) >= 1 ? `${monthName(month)} ${Number(day[1])}` : iso;
}

/** The business page's offer past the cutoff: "Sign up now for your April box". */
export function signupNowTitle(firstPeriod: string): string {
  return `Sign up now for your ${periodMonthName(firstPeriod)} box`;
}
