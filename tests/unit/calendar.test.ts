import { describe, expect, it } from "vitest";
import { monthName, ordinal } from "../../api/shared/calendar.ts";

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
