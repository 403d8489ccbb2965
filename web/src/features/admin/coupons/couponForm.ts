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

export type CouponDuration = "ONCE" | "REPEATING" | "FOREVER";

/** What the form's terms fields hold, as typed. */
export interface CouponTermsForm {
  duration: CouponDuration;
  /** REPEATING: months, 2 to 36. */
  months: string;
  /** "" or YYYY-MM-DD (a date input). */
  expiresOn: string;
  /** "" (no limit) or a whole number from 1. */
  maxRedemptions: string;
}

export interface CouponTerms {
  duration: CouponDuration;
  durationMonths: number | null;
  expiresOn: string | null;
  maxRedemptions: number | null;
}

/** The server's own messages (api/coupons/service.ts), so a refusal reads the same before and after sending. */
export const TERMS_ERRORS = {
  months: "Please enter 2 to 36 months",
  limit: "The maximum redemptions must be a whole number of at least 1",
  date: "Please enter the expiry date as YYYY-MM-DD",
} as const;

const wholeNumber = (text: string): number | null => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : null);

/** A coupon's duration, expiry day and redemption limit from the form; empty expiry and limit mean none. */
export function parseCouponTerms(input: CouponTermsForm): ({ ok: true } & CouponTerms) | { ok: false; error: string } {
  let durationMonths: number | null = null;
  if (input.duration === "REPEATING") {
    const months = wholeNumber(input.months);
    if (months === null || months < 2 || months > 36) return { ok: false, error: TERMS_ERRORS.months };
    durationMonths = months;
  }
  const expiresOn = input.expiresOn.trim() || null;
  if (expiresOn !== null && !/^\d{4}-\d{2}-\d{2}$/.test(expiresOn)) return { ok: false, error: TERMS_ERRORS.date };
  const limitText = input.maxRedemptions.trim();
  const maxRedemptions = limitText === "" ? null : wholeNumber(limitText);
  if (maxRedemptions === 0 || (limitText !== "" && maxRedemptions === null)) return { ok: false, error: TERMS_ERRORS.limit };
  return { ok: true, duration: input.duration, durationMonths, expiresOn, maxRedemptions };
}

const dayFormat = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });

/** "Mar 31, 2026" for a YYYY-MM-DD day (the business's day, shown as written), "" for none. */
export function formatDay(day: string | null): string {
  return day ? dayFormat.format(new Date(`${day}T00:00:00Z`)) : "";
}

/** "2 of 10", or "2" without a limit. */
export function redemptionsLabel(count: number, max: number | null | undefined): string {
  return max == null ? String(count) : `${count} of ${max}`;
}
