import { describe, expect, it } from "vitest";
import {
  cutoffMessage,
  endedBefore,
  isPastCutoff,
  nextBillingPeriod,
  nextBoxDate,
  pauseMonths,
  pauseOf,
  resumeDate,
  skipTargetMonth,
  windowState,
} from "../../api/rules/dates.ts";
import { isoDate, localDate, type LocalDate } from "../../api/shared/calendar.ts";

const d = (iso: string): LocalDate => {
  const [year, month, day] = iso.split("-").map(Number);
  return { year, month, day };
};

describe("cutoff", () => {
  it("is past only when the day is greater than a positive cutoff day", () => {
    expect(isPastCutoff(d("2026-03-15"), 15)).toBe(false);
    expect(isPastCutoff(d("2026-03-16"), 15)).toBe(true);
    expect(isPastCutoff(d("2026-03-01"), 1)).toBe(false);
    expect(isPastCutoff(d("2026-03-02"), 1)).toBe(true);
    expect(isPastCutoff(d("2026-02-28"), 31)).toBe(false);
    expect(isPastCutoff(d("2026-12-31"), 31)).toBe(false);
    expect(isPastCutoff(d("2026-12-31"), 30)).toBe(true);
  });
  it("ignores a missing or zero cutoff", () => {
    expect(isPastCutoff(d("2026-03-31"), null)).toBe(false);
    expect(isPastCutoff(d("2026-03-31"), undefined)).toBe(false);
    expect(isPastCutoff(d("2026-03-31"), 0)).toBe(false);
  });
  it("uses the spec §8 message with the ordinal", () => {
    expect(cutoffMessage(1)).toBe(
      "The last day to subscribe for this month has passed. The cutoff day is the 1st of each month. Please try again next month.",
    );
    expect(cutoffMessage(22)).toContain("the 22nd of each month");
    expect(cutoffMessage(13)).toContain("the 13th of each month");
  });
});

describe("windowState", () => {
  const w = { startDay: 1, endDay: 14 };
  it.each([
    // today, open, opensOn, closesOn
    ["2026-03-01", true, "2026-03-01", "2026-03-14"],
    ["2026-03-05", true, "2026-03-01", "2026-03-14"],
    ["2026-03-14", true, "2026-03-01", "2026-03-14"],
    ["2026-03-15", false, "2026-04-01", "2026-04-14"],
    ["2026-03-31", false, "2026-04-01", "2026-04-14"],
    ["2026-12-20", false, "2027-01-01", "2027-01-14"],
    ["2026-02-28", false, "2026-03-01", "2026-03-14"],
    ["2027-01-01", true, "2027-01-01", "2027-01-14"],
  ])("default window on %s", (today, open, opensOn, closesOn) => {
    const s = windowState(d(today), w);
    expect({ open: s.open, opensOn: isoDate(s.opensOn), closesOn: isoDate(s.closesOn) }).toEqual({ open, opensOn, closesOn });
  });

  it("handles a window that starts mid-month", () => {
    const w2 = { startDay: 10, endDay: 20 };
    expect(windowState(d("2026-03-09"), w2)).toMatchObject({ open: false, opensOn: d("2026-03-10"), closesOn: d("2026-03-20") });
    expect(windowState(d("2026-03-10"), w2).open).toBe(true);
    expect(windowState(d("2026-03-20"), w2).open).toBe(true);
    expect(windowState(d("2026-03-21"), w2)).toMatchObject({ open: false, opensOn: d("2026-04-10"), closesOn: d("2026-04-20") });
    expect(windowState(d("2026-12-21"), w2)).toMatchObject({ open: false, opensOn: d("2027-01-10"), closesOn: d("2027-01-20") });
  });

  it("handles the 28th in February and a leap year", () => {
    const w3 = { startDay: 20, endDay: 28 };
    expect(windowState(d("2026-02-28"), w3)).toMatchObject({ open: true, closesOn: d("2026-02-28") });
    expect(windowState(d("2028-02-29"), w3)).toMatchObject({ open: false, opensOn: d("2028-03-20"), closesOn: d("2028-03-28") });
    expect(windowState(d("2026-01-31"), w3)).toMatchObject({ open: false, opensOn: d("2026-02-20"), closesOn: d("2026-02-28") });
  });
});

describe("nextBoxDate", () => {
  const none = new Set<string>();
  const started = d("2025-06-10");
  const next = (today: string, o: Partial<Parameters<typeof nextBoxDate>[0]> = {}) =>
    isoDate(nextBoxDate({ today: d(today), active: true, skippedMonths: none, startedAt: started, ...o }));

  it("defaults: box ready on the 1st, cutoff the box-ready day", () => {
    expect(next("2026-03-01")).toBe("2026-03-01");
    expect(next("2026-03-02")).toBe("2026-04-01");
    expect(next("2026-03-31")).toBe("2026-04-01");
    expect(next("2026-12-15")).toBe("2027-01-01");
    expect(next("2026-02-28")).toBe("2026-03-01");
  });

  it("box-ready day with its own cutoff", () => {
    const o = { boxReadyDay: 15, cutoffDay: 10 };
    expect(next("2026-03-10", o)).toBe("2026-03-15");
    expect(next("2026-03-11", o)).toBe("2026-04-15");
    expect(next("2026-12-11", o)).toBe("2027-01-15");
    expect(next("2026-01-31", o)).toBe("2026-02-15");
    // cutoff defaults to the box-ready day
    expect(next("2026-03-15", { boxReadyDay: 15 })).toBe("2026-03-15");
    expect(next("2026-03-16", { boxReadyDay: 15 })).toBe("2026-04-15");
    // a cutoff of 0 means unset
    expect(next("2026-03-16", { boxReadyDay: 15, cutoffDay: 0 })).toBe("2026-04-15");
    // cutoff 31 keeps this month's box all month, even in February
    expect(next("2026-02-28", { boxReadyDay: 28, cutoffDay: 31 })).toBe("2026-02-28");
  });

  it("moves past skipped months, across December → January", () => {
    expect(next("2026-03-05", { skippedMonths: new Set(["2026-04"]) })).toBe("2026-05-01");
    expect(next("2026-12-05", { skippedMonths: new Set(["2027-01"]) })).toBe("2027-02-01");
    expect(next("2026-11-20", { skippedMonths: new Set(["2026-12", "2027-01"]) })).toBe("2027-02-01");
    // a skip of another month changes nothing
    expect(next("2026-03-05", { skippedMonths: new Set(["2026-03"]) })).toBe("2026-04-01");
  });

  it("is never before today when the cutoff is later than the box-ready day", () => {
    // Green Acres: box ready on the 6th, cutoff the 25th.
    const o = { boxReadyDay: 6, cutoffDay: 25 };
    expect(next("2026-11-23", o)).toBe("2026-12-06");
    expect(next("2026-11-05", o)).toBe("2026-11-06");
    expect(next("2026-11-06", o)).toBe("2026-11-06");
    expect(next("2026-11-07", o)).toBe("2026-12-06");
    expect(next("2026-11-26", o)).toBe("2026-12-06");
    expect(next("2026-12-23", o)).toBe("2027-01-06");
    // then past skipped months as before
    expect(next("2026-11-23", { ...o, skippedMonths: new Set(["2026-12"]) })).toBe("2027-01-06");
    // a box-ready day clamped in February (28) on the 28th is today
    expect(next("2026-02-28", { boxReadyDay: 28, cutoffDay: 31 })).toBe("2026-02-28");
  });

  it("without an active subscription: one month after the start", () => {
    expect(next("2026-03-05", { active: false, startedAt: d("2026-01-10") })).toBe("2026-02-10");
    expect(next("2026-03-05", { active: false, startedAt: d("2026-01-31") })).toBe("2026-02-28");
    expect(next("2026-03-05", { active: false, startedAt: d("2027-01-31") })).toBe("2027-02-28");
    expect(next("2026-03-05", { active: false, startedAt: d("2028-01-30") })).toBe("2028-02-29");
    expect(next("2026-03-05", { active: false, startedAt: d("2025-12-15") })).toBe("2026-01-15");
  });
});

describe("skip target and resume date", () => {
  it("targets the next box's month", () => {
    expect(skipTargetMonth({ today: d("2026-03-05") })).toBe("2026-04");
    expect(skipTargetMonth({ today: d("2026-03-01") })).toBe("2026-03");
    expect(skipTargetMonth({ today: d("2026-12-10") })).toBe("2027-01");
    expect(skipTargetMonth({ today: d("2026-03-05"), boxReadyDay: 20 })).toBe("2026-03");
  });
  it("on December 5th with December billed targets January, not the next box's December", () => {
    const o = { boxReadyDay: 6, cutoffDay: 25 };
    expect(skipTargetMonth({ today: d("2026-12-05"), paidThroughPeriod: "2026-12", ...o })).toBe("2027-01");
    // started November 23rd, November paid: December, the month of the next box (December 6th)
    expect(skipTargetMonth({ today: d("2026-11-23"), paidThroughPeriod: "2026-11", ...o })).toBe("2026-12");
  });
  it("never targets a month already paid for", () => {
    expect(skipTargetMonth({ today: d("2026-03-01"), paidThroughPeriod: "2026-03" })).toBe("2026-04");
    expect(skipTargetMonth({ today: d("2026-12-01"), paidThroughPeriod: "2026-12" })).toBe("2027-01");
    expect(skipTargetMonth({ today: d("2026-03-05"), paidThroughPeriod: "2026-03" })).toBe("2026-04");
  });
  it("resumes on the billing day of the following month", () => {
    expect(isoDate(resumeDate("2026-04", 1))).toBe("2026-05-01");
    expect(isoDate(resumeDate("2026-12", 15))).toBe("2027-01-15");
    expect(isoDate(resumeDate("2026-01", 28))).toBe("2026-02-28");
    expect(isoDate(resumeDate("2026-01", null))).toBe("2026-02-01");
  });
});

describe("endedBefore", () => {
  it("ends a membership after its last month, and never one that is not ending", () => {
    expect(endedBefore("2026-04", "2026-03")).toBe(true);
    expect(endedBefore("2026-03", "2026-03")).toBe(false);
    expect(endedBefore("2027-01", "2026-12")).toBe(true);
    expect(endedBefore("2026-04", null)).toBe(false);
    expect(endedBefore("2026-04", undefined)).toBe(false);
  });
});

describe("nextBillingPeriod", () => {
  it("is the period after the last paid one, never in the past", () => {
    expect(nextBillingPeriod(d("2026-03-05"), "2026-03")).toBe("2026-04");
    expect(nextBillingPeriod(d("2026-12-05"), "2026-12")).toBe("2027-01");
    expect(nextBillingPeriod(d("2026-03-05"), "2026-01")).toBe("2026-03");
    expect(nextBillingPeriod(d("2026-03-05"), null)).toBe("2026-04");
  });
});

describe("local date in the business time zone", () => {
  it("is the previous day in New York late in the UTC day", () => {
    expect(localDate(new Date("2026-03-01T03:00:00Z"), "America/New_York")).toEqual(d("2026-02-28"));
    expect(localDate(new Date("2027-01-01T04:59:00Z"), "America/New_York")).toEqual(d("2026-12-31"));
    expect(localDate(new Date("2026-12-31T23:00:00Z"), "Asia/Tokyo")).toEqual(d("2027-01-01"));
  });
});

describe("order selection snapshot", () => {
  it("reads the typed fields of billing's snapshot and tolerates missing ones", async () => {
    const { orderSelectionView } = await import("../../api/billing/orders.ts");
    expect(
      orderSelectionView({
        mode: "pickup",
        chosenItemName: "Veg Box",
        chosenVariationName: "Pickup",
        chosenAddons: [{ id: "addon_1", name: "Eggs", price: "$6.00", amountCents: 600 }, { name: "Legacy", amount: 250 }, { bogus: true }],
      }),
    ).toEqual({
      planName: "Veg Box",
      variationName: "Pickup",
      addons: [{ id: "addon_1", name: "Eggs", amountCents: 600 }, { id: null, name: "Legacy", amountCents: 250 }],
    });
    expect(orderSelectionView(null)).toEqual({ planName: null, variationName: null, addons: [] });
    expect(orderSelectionView("nonsense")).toEqual({ planName: null, variationName: null, addons: [] });
  });
});

describe("pause", () => {
  it("is months in a row from the first, across December → January", () => {
    expect(pauseMonths("2026-11", 3)).toEqual(["2026-11", "2026-12", "2027-01"]);
    expect(pauseMonths("2026-04", 1)).toEqual(["2026-04"]);
  });

  it("runs through the last consecutive skip from its first month; boxes come again on the box-ready day after it", () => {
    const skipped = new Set(["2026-04", "2026-05", "2026-06", "2026-08"]);
    const pause = pauseOf("2026-04", skipped, 6);
    expect(pause && { ...pause, resumeBoxDate: isoDate(pause.resumeBoxDate) }).toEqual({ months: ["2026-04", "2026-05", "2026-06"], through: "2026-06", resumeBoxDate: "2026-07-06" });
    // without a box-ready day: the 1st (spec §9), as the next box date
    expect(isoDate(pauseOf("2026-12", new Set(["2026-12"]), null)!.resumeBoxDate)).toBe("2027-01-01");
    // the first month not skipped: no pause, whatever later months are
    expect(pauseOf("2026-03", skipped, 6)).toBeNull();
  });
});
