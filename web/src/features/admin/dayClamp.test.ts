import { describe, expect, it } from "vitest";
import { clampDays, dayClampAlert } from "./dayClamp.ts";

const ok = { boxReadyDay: 3, billingDay: 1, skipWindow: { startDay: 1, endDay: 14 }, changeWindow: { startDay: 1, endDay: 14 } };

describe("clampDays (spec §5)", () => {
  it("leaves valid days alone", () => {
    expect(clampDays(ok)).toEqual({ days: ok, messages: [] });
  });
  it("clamps to 1..28 with the spec's messages", () => {
    const { days, messages } = clampDays({ ...ok, billingDay: 31, skipWindow: { startDay: 0, endDay: 30 } });
    expect(days.billingDay).toBe(28);
    expect(days.skipWindow).toEqual({ startDay: 1, endDay: 28 });
    expect(messages).toEqual([
      "Billing day cannot exceed 28 (to account for February)",
      "Skip window start day must be at least 1",
      "Skip window end day cannot exceed 28 (to account for February)",
    ]);
  });
  it("turns a missing value into 1 and keeps an unset box ready day unset", () => {
    const { days, messages } = clampDays({ ...ok, boxReadyDay: null, billingDay: null });
    expect(days.boxReadyDay).toBeNull();
    expect(days.billingDay).toBe(1);
    expect(messages).toEqual([]);
  });
  it("ends the alert with the February note", () => {
    expect(dayClampAlert(["Billing day must be at least 1"])).toBe(
      "Billing day must be at least 1\n\nAll day values must be between 1 and 28 to ensure they work in February.",
    );
  });
});
