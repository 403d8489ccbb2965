import { dollarsToCents } from "@shared/money.ts";

export type CouponType = "PERCENT" | "FIXED";

/**
 * Spec §5 coupon create: code required; fixed amounts are dollars, numeric and not negative, sent as rounded
 * cents; percent is rounded and 0–100. The code is sent upper-case.
 */
export function parseCouponForm(input: { code: string; type: CouponType; value: string }): { ok: true; code: string; value: number } | { ok: false; error: string } {
  const code = input.code.trim().toUpperCase();
  if (!code) return { ok: false, error: "Please enter a coupon code" };
  if (input.type === "FIXED") {
    const cents = dollarsToCents(input.value);
    if (cents === null || cents < 0) return { ok: false, error: "Invalid fixed amount" };
    return { ok: true, code, value: cents };
  }
  const number = input.value.trim() === "" ? NaN : Number(input.value);
  const percent = Math.round(number);
  if (!Number.isFinite(number) || percent < 0 || percent > 100) return { ok: false, error: "Invalid percent value (0-100)" };
  return { ok: true, code, value: percent };
}
