import type { CouponType } from "../generated/prisma/enums.ts";

/**
 * What a selection costs per period. The server recomputes every amount from the catalogue, the coupon and
 * the tax settings; client-sent amounts are only compared against this, never trusted.
 */
export interface PriceInput {
  /** The plan's price in the chosen mode. */
  planAmountCents: number;
  /** The plan's pickup price (null: the plan has none): the mode's surcharge is what the mode adds to it (§9). */
  pickupAmountCents?: number | null;
  addonAmountsCents: number[];
  /** Coupon discount for a given subtotal (0 when no coupon). */
  discountFor?: (subtotalCents: number) => number;
  /** Tax rate in basis points (575 = 5.75 %), or null when tax is disabled. */
  taxRateBps: number | null;
}

export interface PriceBreakdown {
  /** The plan's price in the chosen mode, surcharge included. */
  planAmountCents: number;
  /** The part of planAmountCents the mode adds over the plan's pickup price (0 for pickup). */
  modeSurchargeCents: number;
  addonsAmountCents: number;
  subtotalCents: number;
  discountCents: number;
  taxCents: number;
  totalCents: number;
  taxRateBps: number;
}

export function priceSelection(input: PriceInput): PriceBreakdown {
  const addonsAmountCents = input.addonAmountsCents.reduce((a, b) => a + b, 0);
  const subtotalCents = input.planAmountCents + addonsAmountCents;
  // A discount never takes the price below zero.
  const discountCents = Math.min(subtotalCents, Math.max(0, Math.round(input.discountFor?.(subtotalCents) ?? 0)));
  const taxable = subtotalCents - discountCents;
  const taxRateBps = input.taxRateBps ?? 0;
  // Spec §9: tax = price in cents × rate / 100, rounded to the cent (rate in bps keeps this integer math).
  const taxCents = Math.round((taxable * taxRateBps) / 10_000);
  return {
    planAmountCents: input.planAmountCents,
    modeSurchargeCents: modeSurchargeCents(input.planAmountCents, input.pickupAmountCents),
    addonsAmountCents,
    subtotalCents,
    discountCents,
    taxCents,
    totalCents: taxable + taxCents,
    taxRateBps,
  };
}

/**
 * Spec §9: a mode's extra is its price minus the pickup price, shown only when positive. A plan without a pickup
 * price (or dearer at pickup) has no surcharge: its plan line is the mode's whole price.
 */
function modeSurchargeCents(planAmountCents: number, pickupAmountCents: number | null | undefined): number {
  return pickupAmountCents == null ? 0 : Math.max(0, planAmountCents - pickupAmountCents);
}

/**
 * What a scheduled change renews at: the new selection at today's prices, the membership's coupon while it is
 * still active and the business's tax. One rule for the change dialog's quote (subscriptions.quoteChange) and the
 * renewal that applies the change (api/billing/renewals/changes.ts).
 */
export function priceScheduledChange(input: {
  planAmountCents: number;
  pickupAmountCents?: number | null;
  addonAmountsCents: number[];
  coupon: { type: "PERCENT" | "FIXED"; value: number; active: boolean } | null;
  tax: { taxEnabled: boolean; taxRateBps: number } | null;
}): PriceBreakdown {
  const coupon = input.coupon?.active ? input.coupon : null;
  return priceSelection({
    planAmountCents: input.planAmountCents,
    pickupAmountCents: input.pickupAmountCents,
    addonAmountsCents: input.addonAmountsCents,
    discountFor: coupon ? (subtotal) => discountCents(coupon, subtotal) : undefined,
    taxRateBps: input.tax?.taxEnabled ? input.tax.taxRateBps : null,
  });
}

/**
 * A membership's stored selection priced again with a coupon, or without one (its coupon has discounted every charge
 * it was for): the plan and add-on amounts it holds stay, the tax at its stored rate.
 */
export function priceStoredSelection(
  sub: { planAmountCents: number; addonsAmountCents: number; taxRateBps: number },
  coupon: { type: CouponType; value: number } | null,
): Pick<PriceBreakdown, "discountCents" | "taxCents" | "totalCents"> {
  const { discountCents: discount, taxCents, totalCents } = priceSelection({
    planAmountCents: sub.planAmountCents,
    addonAmountsCents: [sub.addonsAmountCents],
    discountFor: coupon ? (subtotal) => discountCents(coupon, subtotal) : undefined,
    taxRateBps: sub.taxRateBps,
  });
  return { discountCents: discount, taxCents, totalCents };
}

/**
 * The discount a coupon gives on a subtotal, in cents: a percentage rounded to the cent, or a fixed amount
 * capped at the subtotal so the total never goes below zero.
 */
export function discountCents(coupon: { type: CouponType; value: number }, subtotalCents: number): number {
  const subtotal = Math.max(0, subtotalCents);
  const raw = coupon.type === "PERCENT" ? Math.round((subtotal * coupon.value) / 100) : coupon.value;
  return Math.min(subtotal, Math.max(0, raw));
}
