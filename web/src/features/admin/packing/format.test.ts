import { describe, expect, it } from "vitest";
import { formatDay, formatInstant, formatMonth, shiftMonth } from "./format.ts";
import { packingCsvPath } from "./packingCsv.ts";

describe("the Fulfilment screen's words", () => {
  it("steps months across years", () => {
    expect(shiftMonth("2026-04", 1)).toBe("2026-05");
    expect(shiftMonth("2026-12", 1)).toBe("2027-01");
    expect(shiftMonth("2026-01", -1)).toBe("2025-12");
    expect(shiftMonth("2026-03", -15)).toBe("2024-12");
  });

  it("names days as the business's (no time zone shift) and instants in its zone", () => {
    expect(formatDay("2026-04-01")).toBe("Apr 1, 2026");
    expect(formatDay(null)).toBe("");
    expect(formatMonth("2026-04")).toBe("April 2026");
    // Midnight in New York is 04:00 UTC in April (EDT).
    expect(formatInstant("2026-04-26T04:00:00.000Z", "America/New_York")).toBe("Apr 26, 2026, 12:00 AM");
  });

  it("downloads one list or all of them from the server's CSV route", () => {
    expect(packingCsvPath(7, "2026-04", null)).toBe("/api/admin/businesses/7/fulfilment/2026-04/packing.csv");
    expect(packingCsvPath(7, "2026-04", "pickup")).toBe("/api/admin/businesses/7/fulfilment/2026-04/packing.csv?mode=pickup");
  });
});
