import { describe, expect, it } from "vitest";
import { formatDay, formatInstant, formatMonth } from "./format.ts";
import { packingCsvPath } from "./packingCsv.ts";

describe("the Fulfilment screen's words", () => {
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
