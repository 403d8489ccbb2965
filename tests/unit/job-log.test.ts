import { describe, expect, it } from "vitest";
import { didNothing } from "../../api/queue/job-queue.ts";

describe("a job run that did nothing (its job done line at debug)", () => {
  it("is one whose result has counts, all of them 0, nested ones included", () => {
    expect(didNothing({ events: 0, messages: 0 })).toBe(true);
    expect(didNothing({ charged: 0, failed: 0, byBusiness: [{ charged: 0 }], period: "2026-04" })).toBe(true);
  });

  it("is not one that did something, or whose result has no count to tell", () => {
    expect(didNothing({ events: 3, messages: 0 })).toBe(false);
    expect(didNothing({ charged: 0, byBusiness: [{ charged: 2 }] })).toBe(false);
    expect(didNothing({ sent: true })).toBe(false);
    expect(didNothing({})).toBe(false);
  });
});
