import { describe, expect, it } from "vitest";
import { initials } from "./initials.ts";

describe("initials", () => {
  it("takes the first letters of the first two words", () => {
    expect(initials("Green Acres Farm")).toBe("GA");
    expect(initials("  green   acres ")).toBe("GA");
  });
  it("uses one letter for a one-word name", () => {
    expect(initials("Bakery")).toBe("B");
  });
  it("skips tokens that are not words", () => {
    expect(initials("Rise & Crumb")).toBe("RC");
    expect(initials("Ember & Oak Coffee Roasters")).toBe("EO");
  });
  it("starts a word at its first letter or digit", () => {
    expect(initials('"Sunny" (Side) Farm')).toBe("SS");
    expect(initials("7th Street Deli")).toBe("7S");
  });
  it("handles accents and empty names", () => {
    expect(initials("élan vital")).toBe("ÉV");
    expect(initials("   ")).toBe("");
  });
});
