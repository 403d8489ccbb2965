import { describe, expect, it } from "vitest";
import { DEFAULT_FEE_RATES, feesFor, ratesFor, type FeeSchedule } from "../../api/payouts/fees.ts";
import { priceSelection } from "../../api/rules/pricing.ts";

const balanced = (f: ReturnType<typeof feesFor>) => f.platformFeeCents + f.processingFeeCents + f.netCents === f.grossCents;

describe("feesFor", () => {
  it("takes 5 % and 2.9 % + 30¢ of a $29.00 box by default", () => {
    expect(feesFor(2900, DEFAULT_FEE_RATES)).toEqual({ grossCents: 2900, platformFeeCents: 145, processingFeeCents: 114, netCents: 2641, applicationFeeCents: 259 });
  });

  it("rounds each fee half up to the cent", () => {
    // 5 % of $0.10 is 0.5¢: up to 1¢. 2.9 % of $0.50 is 1.45¢: down to 1¢. 2.9 % of $1.50 is 4.35¢: 4¢.
    expect(feesFor(10, { platformBps: 500, platformCents: 0, processingBps: 0, processingCents: 0 }).platformFeeCents).toBe(1);
    expect(feesFor(50, { platformBps: 0, platformCents: 0, processingBps: 290, processingCents: 0 }).processingFeeCents).toBe(1);
    expect(feesFor(150, { platformBps: 0, platformCents: 0, processingBps: 290, processingCents: 0 }).processingFeeCents).toBe(4);
    // 2.9 % of $12.50 is 36.25¢: 36¢; 5 % of $12.30 is exactly 61.5¢: 62¢.
    expect(feesFor(1250, { ...DEFAULT_FEE_RATES, processingCents: 0 }).processingFeeCents).toBe(36);
    expect(feesFor(1230, DEFAULT_FEE_RATES).platformFeeCents).toBe(62);
  });

  it("never takes more than the charge: a 20¢ charge keeps nothing for the business", () => {
    const f = feesFor(20, DEFAULT_FEE_RATES);
    expect(f).toEqual({ grossCents: 20, platformFeeCents: 1, processingFeeCents: 19, netCents: 0, applicationFeeCents: 20 });
    expect(feesFor(5, { platformBps: 0, platformCents: 100, processingBps: 0, processingCents: 30 })).toMatchObject({ platformFeeCents: 5, processingFeeCents: 0, netCents: 0 });
  });

  it("takes nothing of a zero charge, and refuses amounts that are not whole cents", () => {
    expect(feesFor(0, DEFAULT_FEE_RATES)).toEqual({ grossCents: 0, platformFeeCents: 0, processingFeeCents: 0, netCents: 0, applicationFeeCents: 0 });
    expect(() => feesFor(-100, DEFAULT_FEE_RATES)).toThrow(RangeError);
    expect(() => feesFor(12.5, DEFAULT_FEE_RATES)).toThrow(RangeError);
  });

  it("is taken on the amount charged, tax and coupon included", () => {
    const price = priceSelection({ planAmountCents: 3000, addonAmountsCents: [500], discountFor: () => 350, taxRateBps: 575 });
    const f = feesFor(price.totalCents, DEFAULT_FEE_RATES);
    expect(f.grossCents).toBe(price.totalCents);
    expect(f.platformFeeCents).toBe(Math.floor((price.totalCents * 500 + 5000) / 10000));
  });

  it("always balances: gross = platform fee + processing fee + net", () => {
    for (let gross = 0; gross <= 5000; gross += 7) {
      for (const rates of [DEFAULT_FEE_RATES, { platformBps: 10_000, platformCents: 0, processingBps: 290, processingCents: 30 }, { platformBps: 0, platformCents: 0, processingBps: 0, processingCents: 0 }]) {
        const f = feesFor(gross, rates);
        expect(balanced(f) && f.netCents >= 0 && f.applicationFeeCents === f.platformFeeCents + f.processingFeeCents, `${gross} ${JSON.stringify(rates)}`).toBe(true);
      }
    }
  });
});

describe("ratesFor", () => {
  const rates = (platformBps: number) => ({ platformBps, platformCents: 0, processingBps: 290, processingCents: 30 });
  const schedules: FeeSchedule[] = [
    { businessId: null, effectivePeriod: "2026-01", ...rates(400) },
    { businessId: null, effectivePeriod: "2026-05", ...rates(600) },
    { businessId: 7, effectivePeriod: "2026-03", ...rates(250) },
    { businessId: 7, effectivePeriod: "2026-08", ...rates(300) },
  ];

  it("follows the charge's period: a business's own schedule once it has begun, else the platform's", () => {
    expect(ratesFor(schedules, 7, "2026-02").platformBps).toBe(400);
    expect(ratesFor(schedules, 7, "2026-03").platformBps).toBe(250);
    expect(ratesFor(schedules, 7, "2026-07").platformBps).toBe(250);
    expect(ratesFor(schedules, 7, "2026-08").platformBps).toBe(300);
    expect(ratesFor(schedules, 8, "2026-04").platformBps).toBe(400);
    expect(ratesFor(schedules, 8, "2026-05").platformBps).toBe(600);
  });

  it("falls back to 5 % and 2.9 % + 30¢ before any schedule", () => {
    expect(ratesFor(schedules, 8, "2025-12")).toEqual(DEFAULT_FEE_RATES);
    expect(ratesFor([], 1, "2026-03")).toEqual(DEFAULT_FEE_RATES);
  });
});
