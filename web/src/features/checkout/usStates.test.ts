import { describe, expect, it } from "vitest";
import { US_STATE_CODES } from "@shared/us-states.ts";
import { stateLabel, US_STATES } from "./usStates.ts";

describe("the address select's states", () => {
  it("are the 50 states and DC, the codes the server accepts", () => {
    expect(US_STATES).toHaveLength(51);
    expect(US_STATES.map(([code]) => code).sort()).toEqual([...US_STATE_CODES].sort());
  });

  it("read 'OH — Ohio'", () => {
    expect(stateLabel(["OH", "Ohio"])).toBe("OH — Ohio");
    expect(US_STATES.map(stateLabel)).toContain("DC — District of Columbia");
  });
});
