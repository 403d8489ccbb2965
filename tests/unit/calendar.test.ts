import { describe, expect, it } from "vitest";
import { addDays, dayOfMonth, daysBetween, monthName, ordinal, startOfLocalDay } from "../../api/shared/calendar.ts";

// api/shared/calendar.ts is shared with the web app (web/src/lib/dates.ts builds its date wording on it): its tests
// live here, once.
describe("ordinal", () => {
  it.each([
    [1, "1st"], [2, "2nd"], [3, "3rd"], [4, "4th"], [10, "10th"], [11, "11th"], [12, "12th"], [13, "13th"],
    [14, "14th"], [21, "21st"], [22, "22nd"], [23, "23rd"], [24, "24th"], [28, "28th"], [30, "30th"], [31, "31st"],
    [101, "101st"], [111, "111th"], [112, "112th"],
  ])("%i → %s", (n, s) => expect(ordinal(n)).toBe(s));
});

describe("monthName", () => {
  it("names months 1..12 and refuses anything else", () => {
    expect([1, 2, 12].map(monthName)).toEqual(["January", "February", "December"]);
    expect(() => monthName(0)).toThrow(RangeError);
    expect(() => monthName(13)).toThrow(RangeError);
  });
});

describe("day arithmetic and local midnights", () => {
  it("adds days across month and year ends, and counts days between", () => {
    expect(addDays({ year: 2026, month: 2, day: 28 }, 1)).toEqual({ year: 2026, month: 3, day: 1 });
    expect(addDays({ year: 2026, month: 12, day: 31 }, 1)).toEqual({ year: 2027, month: 1, day: 1 });
    expect(addDays({ year: 2026, month: 3, day: 1 }, -1)).toEqual({ year: 2026, month: 2, day: 28 });
    expect(daysBetween({ year: 2026, month: 3, day: 30 }, { year: 2026, month: 4, day: 2 })).toBe(3);
  });

  it("clamps a day to its month", () => {
    expect(dayOfMonth({ year: 2026, month: 2 }, 31)).toEqual({ year: 2026, month: 2, day: 28 });
    expect(dayOfMonth({ year: 2028, month: 2 }, 30)).toEqual({ year: 2028, month: 2, day: 29 });
    expect(dayOfMonth({ year: 2026, month: 4 }, 0)).toEqual({ year: 2026, month: 4, day: 1 });
  });

  it("finds the first instant of a local day, on either side of a daylight-saving change", () => {
    // New York: UTC-5 in winter, UTC-4 from 8 March 2026.
    expect(startOfLocalDay({ year: 2026, month: 3, day: 8 }, "America/New_York").toISOString()).toBe("2026-03-08T05:00:00.000Z");
    expect(startOfLocalDay({ year: 2026, month: 3, day: 9 }, "America/New_York").toISOString()).toBe("2026-03-09T04:00:00.000Z");
    expect(startOfLocalDay({ year: 2026, month: 11, day: 2 }, "America/New_York").toISOString()).toBe("2026-11-02T05:00:00.000Z");
    expect(startOfLocalDay({ year: 2026, month: 7, day: 1 }, "Pacific/Auckland").toISOString()).toBe("2026-06-30T12:00:00.000Z");
    expect(startOfLocalDay({ year: 2026, month: 7, day: 1 }, "UTC").toISOString()).toBe("2026-07-01T00:00:00.000Z");
  });
});
