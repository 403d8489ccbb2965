import { describe, expect, it } from "vitest";
import { DEFAULT_THEME } from "@shared/theme.ts";
import { themeContrastWarnings } from "./themeContrast.ts";

const DEFAULTS = DEFAULT_THEME;

describe("themeContrastWarnings", () => {
  it("warns on the spec's default orange with white text, saying black is shown", () => {
    expect(themeContrastWarnings(DEFAULTS)).toEqual([
      { pair: "primary", message: "Low contrast: the primary text on the primary colour is 2.8:1 (4.5:1 is needed), so the page shows it in black to keep it readable." },
    ]);
  });

  it("says nothing when the chosen pairs reach 4.5:1", () => {
    expect(themeContrastWarnings({ ...DEFAULTS, primary: "#1d4ed8" })).toEqual([]);
    expect(themeContrastWarnings({ ...DEFAULTS, primary: "#2d1b12", footerButtonBg: "#fde68a", footerButtonText: "#1f2937" })).toEqual([]);
  });

  it("warns on a footer button pair that fails, saying white is shown on a dark button", () => {
    const warnings = themeContrastWarnings({ ...DEFAULTS, primary: "#1d4ed8", footerButtonBg: "#1f2937", footerButtonText: "#4b5563" });
    expect(warnings).toHaveLength(1);
    expect(warnings[0].pair).toBe("footerButton");
    expect(warnings[0].message).toMatch(/^Low contrast: the footer button text on the footer button background is 1\.\d:1 \(4\.5:1 is needed\), so the page shows it in white/);
  });
});
