import type { FulfillmentMode } from "../generated/prisma/client.ts";
import { ValidationError } from "../shared/errors.ts";

/**
 * The member's pickup point (PICKUP) or delivery area (DELIVERY): one of the page's current list for that mode.
 * Checkout, change of box and restart all choose it through here; the membership, its scheduled change and each
 * order carry it as `fulfillmentPoint` (empty for shipping, and when the business lists none for the mode).
 */

export interface OfferedPoints {
  pickupPoints: string[];
  deliveryAreas: string[];
}

const WHAT: Record<Exclude<FulfillmentMode, "SHIPPING">, { list: keyof OfferedPoints; choose: string; gone: string }> = {
  PICKUP: { list: "pickupPoints", choose: "Please choose a pickup point.", gone: "This pickup point is not offered. Please choose another." },
  DELIVERY: { list: "deliveryAreas", choose: "Please choose a delivery area.", gone: "This delivery area is not offered. Please choose another." },
};

/** The points a mode offers now (none for shipping). */
function pointsFor(page: OfferedPoints, mode: FulfillmentMode): string[] {
  return mode === "SHIPPING" ? [] : page[WHAT[mode].list];
}

/** Whether `point` may be kept for `mode` (a membership restarting or changing only part of its selection). */
export function isOffered(page: OfferedPoints, mode: FulfillmentMode, point: string): boolean {
  const points = pointsFor(page, mode);
  return points.length === 0 ? point === "" : points.includes(point);
}

/**
 * The spec's free-text `fulfillmentDetails` (REST clients) names a point only when it is exactly one of the mode's
 * list; anything else (an older client's description) is not a choice.
 */
export function pointInDetails(page: OfferedPoints, mode: FulfillmentMode, details: string | null | undefined): string | undefined {
  const text = details?.trim();
  return text && pointsFor(page, mode).includes(text) ? text : undefined;
}

/**
 * The point a selection takes: the given one when the page lists it; the only one when the list has one entry and
 * none was given; "" for shipping or an empty list. Anything else is refused, naming `path`.
 */
export function choosePoint(page: OfferedPoints, mode: FulfillmentMode, given: string | null | undefined, path = "fulfillmentPoint"): string {
  if (mode === "SHIPPING") return "";
  const points = pointsFor(page, mode);
  const chosen = given?.trim() ?? "";
  if (points.length === 0) return "";
  if (chosen === "") {
    if (points.length === 1) return points[0];
    throw new ValidationError(WHAT[mode].choose, [{ path, message: WHAT[mode].choose }]);
  }
  if (!points.includes(chosen)) throw new ValidationError(WHAT[mode].gone, [{ path, message: WHAT[mode].gone }]);
  return chosen;
}
