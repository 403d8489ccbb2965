import { describe, expect, it } from "vitest";
import { loadConfig } from "../../api/config.ts";
import { ShiftedClock } from "../../api/shared/clock.ts";

describe("ShiftedClock", () => {
  it("starts at the chosen instant and then runs in real time", async () => {
    const clock = new ShiftedClock("2026-03-05T15:00:00Z");
    const first = clock.now().getTime();
    expect(Math.abs(first - Date.parse("2026-03-05T15:00:00Z"))).toBeLessThan(1000);
    await new Promise((r) => setTimeout(r, 20));
    expect(clock.now().getTime()).toBeGreaterThan(first);
  });

  it("is honoured outside production only, and rejects a malformed instant", () => {
    expect(loadConfig({ CLOCK_START: "2026-03-05T15:00:00Z" }).clockStart).toBe("2026-03-05T15:00:00Z");
    expect(loadConfig({ NODE_ENV: "production", CLOCK_START: "2026-03-05T15:00:00Z" }).clockStart).toBeUndefined();
    expect(() => loadConfig({ CLOCK_START: "next tuesday" })).toThrow(/CLOCK_START/);
  });
});
