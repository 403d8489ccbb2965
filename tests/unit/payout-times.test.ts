import { describe, expect, it } from "vitest";
import { payoutTimes } from "../../api/payouts/payouts.ts";

const iso = (dates: Date[]) => dates.map((d) => d.toISOString());

describe("payoutTimes: the Mondays a pass owes payouts for", () => {
  it("today at the pass's time when today is a Monday with no payout yet", () => {
    const now = new Date("2026-03-09T16:00:00Z");
    expect(iso(payoutTimes(now, "America/New_York", new Date("2026-03-02T05:00:00Z")))).toEqual(["2026-03-09T16:00:00.000Z"]);
  });

  it("nothing more the Monday a payout was made, nor on the days after it", () => {
    const paid = new Date("2026-03-09T05:00:00Z");
    expect(payoutTimes(new Date("2026-03-09T20:00:00Z"), "America/New_York", paid)).toEqual([]);
    expect(payoutTimes(new Date("2026-03-15T20:00:00Z"), "America/New_York", paid)).toEqual([]);
  });

  it("each missed Monday at its first instant in the business's zone, oldest first", () => {
    // New York's clocks go forward on Sunday March 8th, 2026: midnight is 05:00 UTC before, 04:00 after.
    const times = payoutTimes(new Date("2026-03-18T12:00:00Z"), "America/New_York", new Date("2026-02-23T15:00:00Z"));
    expect(iso(times)).toEqual(["2026-03-02T05:00:00.000Z", "2026-03-09T04:00:00.000Z", "2026-03-16T04:00:00.000Z"]);
  });

  it("the Monday is the business's: Monday in Auckland is still Sunday in UTC", () => {
    const now = new Date("2026-03-08T23:30:00Z"); // Monday March 9th, 12:30 in Auckland
    expect(iso(payoutTimes(now, "Pacific/Auckland", new Date("2026-03-02T00:00:00Z")))).toEqual(["2026-03-08T23:30:00.000Z"]);
  });

  it("an account never paid looks back four weeks; a long pause catches up twelve at most", () => {
    const now = new Date("2026-06-03T12:00:00Z"); // a Wednesday
    expect(payoutTimes(now, "UTC", null)).toHaveLength(4);
    const afterPause = payoutTimes(now, "UTC", new Date("2025-12-01T00:00:00Z"));
    expect(afterPause).toHaveLength(12);
    expect(afterPause.at(-1)!.toISOString()).toBe("2026-06-01T00:00:00.000Z");
  });
});
