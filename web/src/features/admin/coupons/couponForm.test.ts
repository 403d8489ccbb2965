import { describe, expect, it } from "vitest";
import { formatDay, parseCouponForm, parseCouponTerms, redemptionsLabel, TERMS_ERRORS } from "./couponForm.ts";

describe("parseCouponForm (spec §5)", () => {
  it("requires a code and upper-cases it", () => {
    expect(parseCouponForm({ code: " ", type: "PERCENT", value: "10" })).toEqual({ ok: false, error: "Please enter a coupon code" });
    expect(parseCouponForm({ code: "spring", type: "PERCENT", value: "10.4" })).toEqual({ ok: true, code: "SPRING", value: 10 });
  });
  it("converts fixed dollars to rounded cents", () => {
    expect(parseCouponForm({ code: "x", type: "FIXED", value: "5.255" })).toEqual({ ok: true, code: "X", value: 526 });
    expect(parseCouponForm({ code: "x", type: "FIXED", value: "1.005" })).toEqual({ ok: true, code: "X", value: 101 });
    expect(parseCouponForm({ code: "x", type: "FIXED", value: "-1" })).toEqual({ ok: false, error: "Invalid fixed amount" });
    expect(parseCouponForm({ code: "x", type: "FIXED", value: "abc" })).toEqual({ ok: false, error: "Invalid fixed amount" });
  });
  it("keeps percent within 0-100", () => {
    expect(parseCouponForm({ code: "x", type: "PERCENT", value: "101" })).toEqual({ ok: false, error: "Invalid percent value (0-100)" });
    expect(parseCouponForm({ code: "x", type: "PERCENT", value: "" })).toEqual({ ok: false, error: "Invalid percent value (0-100)" });
  });
});

describe("parseCouponTerms", () => {
  const terms = (o: Partial<Parameters<typeof parseCouponTerms>[0]> = {}) => parseCouponTerms({ duration: "FOREVER", months: "3", expiresOn: "", maxRedemptions: "", ...o });
  it("forever and once take no months; empty expiry and limit mean none", () => {
    expect(terms()).toEqual({ ok: true, duration: "FOREVER", durationMonths: null, expiresOn: null, maxRedemptions: null });
    expect(terms({ duration: "ONCE", months: "x" })).toEqual({ ok: true, duration: "ONCE", durationMonths: null, expiresOn: null, maxRedemptions: null });
  });
  it("a number of months is 2 to 36 whole months", () => {
    expect(terms({ duration: "REPEATING", months: " 3 " })).toMatchObject({ ok: true, durationMonths: 3 });
    for (const months of ["1", "37", "2.5", "", "-3"]) expect(terms({ duration: "REPEATING", months })).toEqual({ ok: false, error: TERMS_ERRORS.months });
  });
  it("an expiry day and a limit of at least one", () => {
    expect(terms({ expiresOn: "2026-12-31", maxRedemptions: "100" })).toMatchObject({ ok: true, expiresOn: "2026-12-31", maxRedemptions: 100 });
    expect(terms({ expiresOn: "31/12/2026" })).toEqual({ ok: false, error: TERMS_ERRORS.date });
    for (const maxRedemptions of ["0", "1.5", "ten", "-1"]) expect(terms({ maxRedemptions })).toEqual({ ok: false, error: TERMS_ERRORS.limit });
  });
});

describe("coupon row labels", () => {
  it("shows an expiry day as written, whatever the browser's zone, and redemptions of the limit", () => {
    expect(formatDay("2026-03-31")).toBe("Mar 31, 2026");
    expect(formatDay(null)).toBe("");
    expect(redemptionsLabel(2, 10)).toBe("2 of 10");
    expect(redemptionsLabel(2, null)).toBe("2");
  });
});
