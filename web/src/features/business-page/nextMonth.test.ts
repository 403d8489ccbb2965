import { describe, expect, it } from "vitest";
import { monthDay, periodMonthName, signupNowTitle } from "./nextMonth.ts";

describe("next-month sign-up dates", () => {
  it("names the first box's month from a period or a date", () => {
    expect(periodMonthName("2026-12")).toBe("December");
    expect(periodMonthName("2027-01-06")).toBe("January");
    expect(periodMonthName("soon")).toBe("soon");
    expect(periodMonthName("2026-13")).toBe("2026-13");
  });
  it("writes a date as month and day, without ordinal or year", () => {
    expect(monthDay("2026-12-01")).toBe("December 1");
    expect(monthDay("2026-04-28T00:00:00Z")).toBe("April 28");
    expect(monthDay("2026-04")).toBe("2026-04");
    expect(monthDay("")).toBe("");
  });
  it("offers the sign-up for the first box's month", () => {
    expect(signupNowTitle("2026-12")).toBe("Sign up now for your December box");
    expect(signupNowTitle("2026-04")).toBe("Sign up now for your April box");
  });
});
