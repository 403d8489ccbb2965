import { describe, expect, it } from "vitest";
import { monthSpan } from "./monthSpan.ts";

describe("monthSpan", () => {
  it("names one month, two, or the first and last of a longer run", () => {
    expect(monthSpan(["2026-04"])).toBe("April 2026");
    expect(monthSpan(["2026-04", "2026-05"])).toBe("April 2026 and May 2026");
    expect(monthSpan(["2026-11", "2026-12", "2027-01"])).toBe("November 2026 through January 2027");
    expect(monthSpan([])).toBe("");
  });
});
