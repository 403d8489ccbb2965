import { describe, expect, it } from "vitest";
import { discountCents, priceSelection } from "../../api/rules/pricing.ts";

describe("priceSelection", () => {
  it("adds add-ons to the plan and applies tax in basis points, rounded to the cent", () => {
    // $24.00 plan + $5.00 + $3.50 add-ons = $32.50; 5.75 % tax = 186.875 cents → 187
    const p = priceSelection({ planAmountCents: 2400, addonAmountsCents: [500, 350], taxRateBps: 575 });
    expect(p).toMatchObject({ subtotalCents: 3250, addonsAmountCents: 850, discountCents: 0, taxCents: 187, totalCents: 3437 });
  });

  it("taxes the discounted price and never lets a discount go below zero", () => {
    const percent = priceSelection({ planAmountCents: 2000, addonAmountsCents: [], discountFor: (s) => s * 0.1, taxRateBps: 1000 });
    expect(percent).toMatchObject({ discountCents: 200, taxCents: 180, totalCents: 1980 });
    const huge = priceSelection({ planAmountCents: 1000, addonAmountsCents: [200], discountFor: () => 5000, taxRateBps: 575 });
    expect(huge).toMatchObject({ discountCents: 1200, taxCents: 0, totalCents: 0 });
  });

  it("has no tax when disabled", () => {
    expect(priceSelection({ planAmountCents: 1299, addonAmountsCents: [1], taxRateBps: null }).totalCents).toBe(1300);
  });
});

describe("coupons on a price", () => {
  const price = (type: "PERCENT" | "FIXED", value: number) =>
    priceSelection({ planAmountCents: 2400, addonAmountsCents: [500], discountFor: (s) => discountCents({ type, value }, s), taxRateBps: 575 });

  it.each([
    // type, value, discount, tax, total   (subtotal 2900, tax 5.75 % of the discounted price)
    ["PERCENT", 0, 0, 167, 3067],
    ["PERCENT", 10, 290, 150, 2760],
    ["PERCENT", 33, 957, 112, 2055], // 957 = round(2900 × 0.33); (2900 − 957) × 5.75 % = 111.72 → 112
    ["PERCENT", 100, 2900, 0, 0],
    ["FIXED", 0, 0, 167, 3067],
    ["FIXED", 500, 500, 138, 2538],
    ["FIXED", 99999, 2900, 0, 0], // never below zero
  ] as const)("%s %d → discount %d, tax %d, total %d", (type, value, discount, tax, total) => {
    expect(price(type, value)).toMatchObject({ subtotalCents: 2900, discountCents: discount, taxCents: tax, totalCents: total });
  });
});
