import { describe, expect, it } from "vitest";
import { dollarsToCents, formatCents, formatSurcharge } from "./money.ts";

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

describe("dollarsToCents", () => {
  it("rounds the typed decimal half away from zero, not through binary floats", () => {
    expect(dollarsToCents("1.005")).toBe(101);
    expect(dollarsToCents("10.075")).toBe(1008);
    expect(dollarsToCents("-1.005")).toBe(-101);
    expect(dollarsToCents("12.5")).toBe(1250);
    expect(dollarsToCents(" 3 ")).toBe(300);
    expect(dollarsToCents(".5")).toBe(50);
    expect(dollarsToCents("1.0049")).toBe(100);
  });
  it("refuses what is not a plain decimal", () => {
    for (const junk of ["", " ", "-", ".", "1e3", "1,000", "$5", "0x10", "abc", "Infinity", "99999999999999999999"]) expect(dollarsToCents(junk), junk).toBeNull();
  });
});
