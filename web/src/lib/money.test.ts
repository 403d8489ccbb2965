import { describe, expect, it } from "vitest";
import { formatCents, formatSurcharge } from "./money.ts";

describe("formatCents", () => {
  it("shows US dollars with two decimals", () => {
    expect(formatCents(0)).toBe("$0.00");
    expect(formatCents(5)).toBe("$0.05");
    expect(formatCents(1200)).toBe("$12.00");
    expect(formatCents(5999)).toBe("$59.99");
    expect(formatCents(123456789)).toBe("$1,234,567.89");
  });
  it("shows negative amounts (refunds, discounts)", () => {
    expect(formatCents(-500)).toBe("-$5.00");
  });
});

describe("formatSurcharge", () => {
  it("shows only a positive difference", () => {
    expect(formatSurcharge(700)).toBe("(+$7.00)");
    expect(formatSurcharge(0)).toBe("");
    expect(formatSurcharge(-100)).toBe("");
  });
});
