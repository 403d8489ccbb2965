import type { FulfillmentModeName } from "@shared/fulfillment.ts";

/**
 * The pickup point (pickup) or delivery area (delivery) a member chooses from the page's lists. The
 * server takes only an entry of the current list (the only one when the list has one), so the business page asks
 * only when there is a choice to make.
 */

/** The points a mode offers (none for shipping). */
export function pointsForMode(f: { pickupPoints: readonly string[]; deliveryAreas: readonly string[] }, mode: FulfillmentModeName | null): string[] {
  if (mode === "pickup") return [...f.pickupPoints];
  if (mode === "delivery") return [...f.deliveryAreas];
  return [];
}

/** The point to start with: the only one, else the preferred one (what the member holds or chose) while offered, else none. */
export function initialPoint(points: readonly string[], preferred: string | null | undefined): string {
  if (points.length === 1) return points[0];
  return preferred && points.includes(preferred) ? preferred : "";
}

/** The radio group's legend, or null when there is nothing to choose (none, or one shown as text). */
export function pointQuestion(mode: FulfillmentModeName | null, points: readonly string[]): string | null {
  if (points.length < 2) return null;
  return mode === "pickup" ? "Choose a pickup point" : mode === "delivery" ? "Choose a delivery area" : null;
}

/** What the member must still do before checking out: null when the point is chosen (or none is needed). */
export function missingPoint(mode: FulfillmentModeName | null, points: readonly string[], point: string): string | null {
  if (points.length === 0 || points.includes(point)) return null;
  return mode === "pickup" ? "Choose a pickup point to continue." : "Choose a delivery area to continue.";
}

/** The label a chosen point shows under (review, order summary, portal). */
export const POINT_LABEL: Record<FulfillmentModeName, string> = { pickup: "Pickup point", delivery: "Delivery area", shipping: "Shipping" };
