import { describe, expect, it } from "vitest";
import { nextMonthNotice, saveCardButtonLabel, signedUpNotice } from "./nextMonth.ts";

const terms = { totalCents: 3173, period: "2026-12", firstChargeDate: "2026-12-01" };

describe("a next-month sign-up's words at checkout", () => {
  it("says nothing is charged today, and what is charged on which day", () => {
    expect(nextMonthNotice(terms)).toBe("Your first box will be December's. Nothing is charged today; $31.73 will be charged on December 1.");
    expect(nextMonthNotice({ totalCents: 2100, period: "2026-04", firstChargeDate: "2026-04-06" })).toBe("Your first box will be April's. Nothing is charged today; $21.00 will be charged on April 6.");
  });
  it("names the button after the saved card and the first charge", () => {
    expect(saveCardButtonLabel(3173, "2026-12-01")).toBe("Save card · first charge $31.73 on December 1");
    expect(saveCardButtonLabel(123456, "2027-01-28")).toBe("Save card · first charge $1,234.56 on January 28");
  });
  it("tells the success panel's first charge without claiming one today", () => {
    expect(signedUpNotice(terms)).toBe("Your first box will be December's. $31.73 will be charged on December 1.");
  });
});
