import { fromModeCode, MODE_ORDER, type FulfillmentModeName } from "@shared/fulfillment.ts";

/** The enabled fulfillment modes in spec order (pickup, shipping, delivery). */
export function enabledModes(f: { pickup: boolean; shipping: boolean; delivery: boolean }): FulfillmentModeName[] {
  return MODE_ORDER.filter((m) => f[m]);
}

/** Spec §4: the mode defaults to the first enabled in pickup, shipping, delivery order. */
export function defaultMode(f: { pickup: boolean; shipping: boolean; delivery: boolean }): FulfillmentModeName | null {
  return enabledModes(f)[0] ?? null;
}

/**
 * Spec §4 add-on limit: 0 = unlimited; once the limit is reached, with limit 1 the new add-on replaces the old,
 * with a greater limit the extra choice is ignored. Toggling a chosen add-on removes it.
 */
export function toggleAddon(chosen: readonly string[], id: string, limit: number): string[] {
  if (chosen.includes(id)) return chosen.filter((x) => x !== id);
  if (limit > 0 && chosen.length >= limit) return limit === 1 ? [id] : [...chosen];
  return [...chosen, id];
}

/** Spec §9: the extra of a mode over pickup ('(+$X)' shown only when positive); null when either price is missing. */
export function modeExtraCents(variations: readonly { mode: string; amountCents: number }[], mode: FulfillmentModeName): number | null {
  const price = (m: FulfillmentModeName) => variations.find((v) => v.mode.toLowerCase() === m)?.amountCents;
  const base = price("pickup");
  const other = price(mode);
  if (mode === "pickup" || base === undefined || other === undefined) return null;
  return other - base;
}

/** Same add-on ids regardless of order. */
export function sameIds(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && [...a].sort().join("|") === [...b].sort().join("|");
}

/** A plan and mode a membership holds a place in (api/catalog/capacity.ts PlaceSelection, by the plan's ref). */
export interface HeldPlace {
  planRef: string;
  mode: FulfillmentModeName;
}

/** The statuses that hold a place (api/catalog/capacity.ts PLACE_STATUSES). */
const PLACE_STATUSES: readonly string[] = ["ACTIVE", "PAST_DUE"];

/**
 * The places the member's membership already holds, as the server counts them (capacity.ts heldSelections): its
 * current plan and mode and its scheduled change, while it is active or past due; none otherwise.
 */
export function heldPlaces(
  membership: { status: string; mode: string; plan: { ref: string }; pendingChange?: { mode: string; plan: { ref: string } } | null } | null,
): HeldPlace[] {
  if (!membership || !PLACE_STATUSES.includes(membership.status)) return [];
  const held = [{ planRef: membership.plan.ref, mode: fromModeCode(membership.mode) }];
  const next = membership.pendingChange;
  return next ? [...held, { planRef: next.plan.ref, mode: fromModeCode(next.mode) }] : held;
}

/**
 * Issue 20: whether a plan (mode null) or a plan in one mode is sold out for this visitor or member, so that choice
 * is disabled. The same rule as the server's (capacity.ts assertPlaceAvailable), from the page's fields:
 * `soldOut` (the plan's own capacity is reached) and `soldOutModes` (the offered modes with no place left: all of
 * them when the plan is full, else those whose own capacity is reached); a plan is sold out when every mode it
 * offers is.
 *
 * What the member holds (`held`, change mode) needs no new place: a plan they hold is never full for them (the
 * plan's capacity counts them already), so changing only the mode within it is blocked only by the new mode's own
 * capacity; the same plan and mode is never blocked. While their plan is full as a whole, `soldOutModes` lists
 * every mode and cannot tell which one is full by its own capacity: the mode stays choosable and the change
 * dialog's quote (the server's rule) says "This box is sold out." for one that is.
 */
export function soldOutChoice(
  plan: { ref: string; soldOut: boolean; soldOutModes: readonly string[]; variations: readonly { mode: string }[] },
  mode: FulfillmentModeName | null,
  held: readonly HeldPlace[],
): boolean {
  const listed = (m: string) => plan.soldOutModes.some((s) => s.toLowerCase() === m.toLowerCase());
  const holdsPlan = held.some((h) => h.planRef === plan.ref);
  if (mode === null) return !holdsPlan && (plan.soldOut || (plan.variations.length > 0 && plan.variations.every((v) => listed(v.mode))));
  if (held.some((h) => h.planRef === plan.ref && h.mode === mode)) return false;
  if (!holdsPlan) return plan.soldOut || listed(mode);
  return !plan.soldOut && listed(mode);
}
