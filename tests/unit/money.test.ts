import { describe, expect, it } from "vitest";
import { dollarsToCents, formatCents, formatSurcharge } from "../../api/shared/money.ts";

// api/shared/money.ts is the one money module of the server and the web app (imported there as @shared/money.ts):
// its tests stand here, once.

describe("formatCents", () => {
  it("shows US dollars with two decimals", () => {
    expect(formatCents(0)).toBe("$0.00");
    expect(formatCents(5)).toBe("$0.05");
    expect(formatCents(1200)).toBe("$12.00");
    expect(formatCents(5999)).toBe("$59.99");
    expect(formatCents(123456)).toBe("$1,234.56");
    expect(formatCents(123456789)).toBe("$1,234,567.89");
  });

  it("shows negative amounts (refunds, discounts)", () => {
    expect(formatCents(-500)).toBe("-$5.00");
    expect(formatCents(-1)).toBe("-$0.01");
  });

  it("rounds a fraction of a cent to a whole cent half away from zero, as dollarsToCents reads", () => {
    expect(formatCents(12.5)).toBe("$0.13");
    expect(formatCents(-12.5)).toBe("-$0.13");
    expect(formatCents(100.5)).toBe("$1.01");
    expect(formatCents(186.875)).toBe("$1.87");
    expect(formatCents(12.49)).toBe("$0.12");
    expect(formatCents(-0.4)).toBe("$0.00");
    expect(formatCents(-0)).toBe("$0.00");
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
  it("rounds the decimal as written, half a cent away from zero (not through binary floats)", () => {
    // 1.005 is 1.00499999999999989… as a double: Math.round(1.005 * 100) gave 100.
    expect(dollarsToCents("1.005")).toBe(101);
    expect(dollarsToCents("10.075")).toBe(1008);
    expect(dollarsToCents("0.285")).toBe(29);
    expect(dollarsToCents("1.0049999")).toBe(100);
    expect(dollarsToCents("1.0049")).toBe(100);
    expect(dollarsToCents("12.345")).toBe(1235);
    expect(dollarsToCents("19.99")).toBe(1999);
    expect(dollarsToCents("0.1")).toBe(10);
  });

  it("rounds negatives away from zero too", () => {
    expect(dollarsToCents("-1.005")).toBe(-101);
    expect(dollarsToCents("-10.075")).toBe(-1008);
    expect(dollarsToCents("-12.5")).toBe(-1250);
    expect(dollarsToCents("-0.004")).toBe(0);
    expect(Object.is(dollarsToCents("-0.004"), -0)).toBe(false);
    expect(Object.is(dollarsToCents("-0"), -0)).toBe(false);
  });

  it("takes what people type: whole dollars, one decimal, a sign, surrounding spaces", () => {
    expect(dollarsToCents("12.5")).toBe(1250);
    expect(dollarsToCents(" 3 ")).toBe(300);
    expect(dollarsToCents("0")).toBe(0);
    expect(dollarsToCents("12.")).toBe(1200);
    expect(dollarsToCents(".5")).toBe(50);
    expect(dollarsToCents("+4.20")).toBe(420);
    expect(dollarsToCents("0012.30")).toBe(1230);
  });

  it("takes numbers by their shortest decimal form", () => {
    expect(dollarsToCents(1.005)).toBe(101);
    expect(dollarsToCents(10.075)).toBe(1008);
    expect(dollarsToCents(19.99)).toBe(1999);
    expect(dollarsToCents(-2.5)).toBe(-250);
    expect(dollarsToCents(0.1 + 0.2)).toBe(30);
    expect(dollarsToCents(1000)).toBe(100000);
    expect(dollarsToCents(5e-7)).toBe(0);
  });

  it("refuses junk: empty, exponents in text, separators, currency signs, hex, infinities, too large", () => {
    for (const junk of ["", " ", "-", ".", "+.", "abc", "1e3", "1E3", "1,000", "$12", "12 50", "0x10", "1.2.3", "--1", "Infinity", "NaN", "12abc", "99999999999999999999"]) {
      expect(dollarsToCents(junk), JSON.stringify(junk)).toBeNull();
    }
    expect(dollarsToCents(Number.NaN)).toBeNull();
    expect(dollarsToCents(Number.POSITIVE_INFINITY)).toBeNull();
    expect(dollarsToCents(1e21)).toBeNull();
    expect(dollarsToCents(1e20)).toBeNull();
  });
});
