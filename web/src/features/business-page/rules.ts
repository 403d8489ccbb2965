import { MODE_ORDER, type FulfillmentModeName } from "@shared/fulfillment.ts";

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

/**
 * Whether a plan (mode null) or a plan in one mode is sold out, so that choice is disabled. The server
 * decides what is sold out (api/catalog/capacity.ts soldOutOf): for a visitor, the plan's `soldOut` and
 * `soldOutModes`; for a member changing their box, the same fields of their membership's `soldOutForChange`
 * (the places they hold need none again). A plan is sold out when its capacity is reached or every mode it
 * offers is.
 */
export function soldOutChoice(
  plan: { soldOut: boolean; soldOutModes: readonly string[]; variations: readonly { mode: string }[] },
  mode: FulfillmentModeName | null,
): boolean {
  const listed = (m: string) => plan.soldOutModes.some((s) => s.toLowerCase() === m.toLowerCase());
  if (mode === null) return plan.soldOut || (plan.variations.length > 0 && plan.variations.every((v) => listed(v.mode)));
  return plan.soldOut || listed(mode);
}
