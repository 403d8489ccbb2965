import { formatCents } from "@shared/money.ts";

/**
 * The review step's applied coupon: "WELCOME10 applied · −$4.15", the discount as the server priced it
 * (the sum of its breakdown's discount lines, negative cents), written with a minus sign.
 */
export function couponAppliedText(code: string, discountCents: number): string {
  return discountCents === 0 ? `${code} applied` : `${code} applied · −${formatCents(Math.abs(discountCents))}`;
}
