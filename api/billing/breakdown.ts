/**
 * The one priced breakdown a person reads: the checkout's summary, the change and restart dialogs, an
 * order in the order history and every receipt show these lines, in cents, built from the amounts that are charged
 * (a quote's PriceBreakdown, a membership's stored prices, an order's stored amounts), never recomputed from today's
 * catalogue. Its lines sum to the total: plan + surcharge + add-ons = subtotal; subtotal − coupon + tax = total.
 */
import type { FulfillmentMode } from "../generated/prisma/client.ts";
import { MODE_NAMES } from "../shared/fulfillment.ts";
import { orderSelectionView } from "./orders.ts";
import type { PriceBreakdown } from "../rules/pricing.ts";
import { couponTermsLabel, type CouponTerms } from "../shared/coupon-terms.ts";

export type PriceLineKind = "PLAN" | "SURCHARGE" | "ADDON" | "DISCOUNT" | "TAX";

export interface PriceLine {
  kind: PriceLineKind;
  label: string;
  /** Negative for the coupon's discount. */
  amountCents: number;
}

export interface ItemisedPrice {
  /** Plan, the mode's surcharge (when any), each add-on, the coupon (when any), tax (when enabled). */
  lines: PriceLine[];
  subtotalCents: number;
  couponCode: string | null;
  discountCents: number;
  /** Basis points (575 = 5.75 %). */
  taxRateBps: number;
  taxCents: number;
  totalCents: number;
}

/** The stored amounts a breakdown is read from (a quote, a membership or an order). */
interface ChargedAmounts {
  planName: string;
  mode: FulfillmentMode;
  subtotalCents: number;
  modeSurchargeCents: number;
  addons: { name: string; amountCents: number }[];
  couponCode: string | null;
  /** A membership's coupon as it stands ("10 % off · 2 months left"), shown after its code. */
  couponTerms?: string | null;
  discountCents: number;
  taxRateBps: number;
  taxCents: number;
  totalCents: number;
}

/** "Coupon WELCOME10", or with a membership's terms "Coupon WELCOME10 · 10 % off · 2 months left". */
const couponLabel = (code: string | null, terms: string | null | undefined): string =>
  code ? `Coupon ${code}${terms ? ` · ${terms}` : ""}` : "Discount";

/**
 * What a membership's coupon still does, for its breakdown: its terms with the charges left after those made with it
 * (its redemption's count; none recorded: none made yet).
 */
export function membershipCouponTerms(
  coupon: (CouponTerms & { id: number }) | null,
  redemptions: { couponId: number; chargesUsed: number }[],
): string | null {
  if (!coupon) return null;
  return couponTermsLabel(coupon, redemptions.find((r) => r.couponId === coupon.id)?.chargesUsed ?? 0);
}

/** "Tax (5.75%)": spec §9 shows the rate with two decimals. */
const taxLabel = (bps: number): string => `Tax (${(bps / 100).toFixed(2)}%)`;

function itemise(a: ChargedAmounts): ItemisedPrice {
  const addonsCents = a.addons.reduce((sum, x) => sum + x.amountCents, 0);
  const surcharge = a.mode === "PICKUP" ? 0 : a.modeSurchargeCents;
  // Spec §9: the package line is the price minus the add-ons (and here the surcharge), so the lines always make
  // the stored subtotal, even for an order whose snapshot predates a field.
  const planCents = a.subtotalCents - addonsCents - surcharge;
  const lines: PriceLine[] = [
    { kind: "PLAN", label: a.planName, amountCents: planCents },
    ...(surcharge > 0 ? [{ kind: "SURCHARGE" as const, label: MODE_NAMES[a.mode], amountCents: surcharge }] : []),
    ...a.addons.map((x) => ({ kind: "ADDON" as const, label: x.name, amountCents: x.amountCents })),
    ...(a.discountCents > 0 ? [{ kind: "DISCOUNT" as const, label: couponLabel(a.couponCode, a.couponTerms), amountCents: -a.discountCents }] : []),
    ...(a.taxRateBps > 0 || a.taxCents > 0 ? [{ kind: "TAX" as const, label: taxLabel(a.taxRateBps), amountCents: a.taxCents }] : []),
  ];
  return {
    lines,
    subtotalCents: a.subtotalCents,
    couponCode: a.couponCode,
    discountCents: a.discountCents,
    taxRateBps: a.taxRateBps,
    taxCents: a.taxCents,
    totalCents: a.totalCents,
  };
}

/** A priced selection (checkout quote, change quote) as lines. */
export function itemiseQuote(q: {
  planName: string;
  mode: FulfillmentMode;
  price: PriceBreakdown;
  addons: { name: string; amountCents: number }[];
  couponCode: string | null;
  couponTerms?: string | null;
}): ItemisedPrice {
  return itemise({
    planName: q.planName,
    mode: q.mode,
    subtotalCents: q.price.subtotalCents,
    modeSurchargeCents: q.price.modeSurchargeCents,
    addons: q.addons,
    couponCode: q.couponCode,
    couponTerms: q.couponTerms,
    discountCents: q.price.discountCents,
    taxRateBps: q.price.taxRateBps,
    taxCents: q.price.taxCents,
    totalCents: q.price.totalCents,
  });
}

/** What a membership charges each period (a restart, a renewal without a change), from its stored prices. */
export function itemiseMembership(m: {
  plan: { name: string };
  mode: FulfillmentMode;
  planAmountCents: number;
  modeSurchargeCents: number;
  addonsAmountCents: number;
  addons: { amountCents: number; addon: { name: string } }[];
  coupon: (CouponTerms & { id: number; code: string }) | null;
  couponRedemptions: { couponId: number; chargesUsed: number }[];
  discountCents: number;
  taxRateBps: number;
  taxCents: number;
  totalCents: number;
}): ItemisedPrice {
  return itemise({
    planName: m.plan.name,
    mode: m.mode,
    subtotalCents: m.planAmountCents + m.addonsAmountCents,
    modeSurchargeCents: m.modeSurchargeCents,
    addons: m.addons.map((a) => ({ name: a.addon.name, amountCents: a.amountCents })),
    couponCode: m.coupon?.code ?? null,
    couponTerms: membershipCouponTerms(m.coupon, m.couponRedemptions),
    discountCents: m.discountCents,
    taxRateBps: m.taxRateBps,
    taxCents: m.taxCents,
    totalCents: m.totalCents,
  });
}

/** The select a membership's breakdown reads. */
export const membershipPriceSelect = {
  mode: true,
  planAmountCents: true,
  modeSurchargeCents: true,
  addonsAmountCents: true,
  discountCents: true,
  taxRateBps: true,
  taxCents: true,
  totalCents: true,
  plan: { select: { name: true } },
  addons: { select: { amountCents: true, addon: { select: { name: true } } }, orderBy: { addonId: "asc" } },
  coupon: { select: { id: true, code: true, type: true, value: true, duration: true, durationMonths: true } },
  couponRedemptions: { select: { couponId: true, chargesUsed: true } },
} as const;

/** A paid order as lines: its own stored amounts and selection snapshot, whatever the catalogue says today. */
export function itemiseOrder(o: {
  mode: FulfillmentMode;
  selection: unknown;
  subtotalCents: number;
  modeSurchargeCents: number;
  couponCode: string | null;
  discountCents: number;
  taxRateBps: number;
  taxCents: number;
  totalCents: number;
}): ItemisedPrice {
  const view = orderSelectionView(o.selection);
  return itemise({
    planName: view.planName ?? "Membership box",
    mode: o.mode,
    subtotalCents: o.subtotalCents,
    modeSurchargeCents: o.modeSurchargeCents,
    addons: view.addons,
    couponCode: o.couponCode,
    discountCents: o.discountCents,
    taxRateBps: o.taxRateBps,
    taxCents: o.taxCents,
    totalCents: o.totalCents,
  });
}
