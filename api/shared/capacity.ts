/**
 * Capacity as the page editor and the server both read it: the most places a plan, or a plan in one
 * mode, may take; empty = no limit. Dependency-free (the web app imports it as `@shared/capacity.ts`).
 */

export const CAPACITY_MAX = 100_000;

export const CAPACITY_MESSAGE = "Maximum members must be a whole number from 0 to 100,000 (leave it empty for no limit).";

/** What the business page shows for a plan or mode with no place left. */
export const SOLD_OUT_LABEL = "Sold out";

/** A typed "Maximum members": null for empty (no limit), the number when whole and in range, undefined when invalid. */
export function parseCapacity(text: string): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  if (!/^\d+$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return value <= CAPACITY_MAX ? value : undefined;
}
