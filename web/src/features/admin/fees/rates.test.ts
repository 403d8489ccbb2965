import { describe, expect, it } from "vitest";
import { bpsToPercent, dollarsToWholeCents, feesSentence, feeText, percentToBps } from "./rates.ts";

describe("bpsToPercent", () => {
  it("writes basis points as a percent with at most two decimals, without float drift", () => {
    expect(bpsToPercent(500)).toBe("5");
    expect(bpsToPercent(290)).toBe("2.9");
    expect(bpsToPercent(295)).toBe("2.95");
    expect(bpsToPercent(5)).toBe("0.05");
    expect(bpsToPercent(50)).toBe("0.5");
    expect(bpsToPercent(0)).toBe("0");
    expect(bpsToPercent(1234)).toBe("12.34");
    expect(bpsToPercent(5000)).toBe("50");
    // 0.07 × 100 is 7.000000000000001 as a double; read from the digits it is exact.
    expect(bpsToPercent(7)).toBe("0.07");
    expect(bpsToPercent(-290)).toBe("-2.9");
  });
});

describe("percentToBps", () => {
  it("reads a typed percent as whole basis points on the digits", () => {
    expect(percentToBps("2.9")).toBe(290);
    expect(percentToBps("2.90")).toBe(290);
    expect(percentToBps(" 5 ")).toBe(500);
    expect(percentToBps("5%")).toBe(500);
    expect(percentToBps("5 %")).toBe(500);
    expect(percentToBps(".25")).toBe(25);
    expect(percentToBps("0")).toBe(0);
    expect(percentToBps("0.07")).toBe(7);
    expect(percentToBps("4.35")).toBe(435); // 4.35 × 100 = 434.99999999999994 as floats
  });

  it("refuses what is not a percent with at most two decimals", () => {
    for (const text of ["", " ", ".", "%", "2.955", "-1", "+1", "1e2", "abc", "2,9", "2.9.1", "$5"]) expect(percentToBps(text)).toBeNull();
  });

  it("round-trips with bpsToPercent", () => {
    for (const bps of [0, 1, 9, 10, 99, 100, 290, 295, 500, 999, 5000]) expect(percentToBps(bpsToPercent(bps))).toBe(bps);
  });
});

describe("dollarsToWholeCents", () => {
  it("reads typed dollars as whole cents on the digits", () => {
    expect(dollarsToWholeCents("$0.30")).toBe(30);
    expect(dollarsToWholeCents("0.30")).toBe(30);
    expect(dollarsToWholeCents("0.3")).toBe(30);
    expect(dollarsToWholeCents("$.3")).toBe(30);
    expect(dollarsToWholeCents("1")).toBe(100);
    expect(dollarsToWholeCents(" $ 1.15 ")).toBe(115); // 1.15 × 100 = 114.99999999999999 as floats
    expect(dollarsToWholeCents("0")).toBe(0);
  });

  it("refuses negative amounts, fractions of a cent and anything else", () => {
    for (const text of ["", "$", ".", "-1", "0.305", "1,000", "1e2", "abc", "$$1", "1$"]) expect(dollarsToWholeCents(text)).toBeNull();
  });
});

describe("feeText and feesSentence", () => {
  it("says a fee as rate and fixed part", () => {
    expect(feeText(500, 0)).toBe("5 %");
    expect(feeText(290, 30)).toBe("2.9 % + $0.30");
    expect(feeText(0, 30)).toBe("$0.30");
    expect(feeText(0, 0)).toBe("0 %");
  });

  it("says the fees in force", () => {
    expect(feesSentence({ platformBps: 500, platformCents: 0, processingBps: 290, processingCents: 30 })).toBe("Platform fee 5 % · card processing 2.9 % + $0.30 per charge");
    expect(feesSentence({ platformBps: 350, platformCents: 25, processingBps: 0, processingCents: 0 })).toBe("Platform fee 3.5 % + $0.25 · card processing 0 % per charge");
  });
});
