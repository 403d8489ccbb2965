import { describe, expect, it } from "vitest";
import { shiftMonth } from "./dates.ts";

describe("shiftMonth", () => {
  it("steps months across years", () => {
    expect(shiftMonth("2026-04", 1)).toBe("2026-05");
    expect(shiftMonth("2026-12", 1)).toBe("2027-01");
    expect(shiftMonth("2026-01", -1)).toBe("2025-12");
    expect(shiftMonth("2026-03", -15)).toBe("2024-12");
  });
});
