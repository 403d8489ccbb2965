import { monthYear } from "../../lib/dates.ts";

/**
 * A run of consecutive months ("YYYY-MM", in order) as the portal names it: "April 2026", "April 2026 and May 2026",
 * "April 2026 through June 2026".
 */
export function monthSpan(months: readonly string[]): string {
  const first = months[0];
  const last = months.at(-1);
  if (!first || !last) return "";
  if (months.length === 1) return monthYear(first);
  return `${monthYear(first)} ${months.length === 2 ? "and" : "through"} ${monthYear(last)}`;
}
