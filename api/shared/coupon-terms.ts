/**
 * A coupon's terms as people read them, and how many charges it discounts. Dependency-free: the server (breakdowns,
 * the coupons screens' reads) and the web app (alias `@shared`) use this one copy.
 */
import { formatCents } from "./money.ts";

type CouponDurationName = "ONCE" | "REPEATING" | "FOREVER";

export interface CouponTerms {
  type: "PERCENT" | "FIXED";
  /** PERCENT: whole percent; FIXED: cents. */
  value: number;
  duration: CouponDurationName;
  /** REPEATING: the charges it discounts (2..36). */
  durationMonths: number | null;
}

/** Months a REPEATING coupon may run (the database's CHECK says the same). */
export const COUPON_MONTHS = { min: 2, max: 36 } as const;

/**
 * The charges a coupon discounts, counted from its first (the checkout's, or the next renewal's when attached
 * later): ONCE 1, REPEATING its months, FOREVER null (every charge).
 */
export function couponChargeLimit(t: Pick<CouponTerms, "duration" | "durationMonths">): number | null {
  if (t.duration === "ONCE") return 1;
  if (t.duration === "REPEATING") return t.durationMonths ?? 1;
  return null;
}

/** Charges it still discounts after `chargesUsed` of them (null: every one). */
export function couponChargesLeft(t: Pick<CouponTerms, "duration" | "durationMonths">, chargesUsed: number): number | null {
  const limit = couponChargeLimit(t);
  return limit === null ? null : Math.max(0, limit - chargesUsed);
}

/** "10 % off", "$5.00 off". */
function couponDiscountLabel(t: Pick<CouponTerms, "type" | "value">): string {
  return t.type === "PERCENT" ? `${t.value} % off` : `${formatCents(t.value)} off`;
}

/** "Once", "3 months", "Forever" (a duration the reader does not know reads as forever). */
export function couponDurationLabel(t: { duration: string; durationMonths?: number | null }): string {
  if (t.duration === "ONCE") return "Once";
  if (t.duration === "REPEATING") return `${t.durationMonths ?? 0} months`;
  return "Forever";
}

/**
 * The coupon on a membership's breakdown: "10 % off · 2 months left" (the charges still discounted, the next one
 * included), "$5.00 off · 1 month left", or "10 % off" for a coupon that discounts every charge.
 */
export function couponTermsLabel(t: CouponTerms, chargesUsed: number): string {
  const left = couponChargesLeft(t, chargesUsed);
  const discount = couponDiscountLabel(t);
  if (left === null) return discount;
  return `${discount} · ${left} month${left === 1 ? "" : "s"} left`;
}
