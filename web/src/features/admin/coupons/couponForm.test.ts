import { describe, expect, it } from "vitest";
import { parseCouponForm } from "./couponForm.ts";

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
