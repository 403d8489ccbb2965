import { describe, expect, it } from "vitest";
import { BLACK, contrastRatio, isReadable, parseHexColor, readableText, relativeLuminance, WHITE } from "../../api/shared/contrast.ts";

// api/shared/contrast.ts decides the text colour on every theme colour of the web app (imported as
// @shared/contrast.ts) and the page editor's low-contrast warning: its tests stand here, once.
describe("contrastRatio", () => {
  it("matches the WCAG extremes and known pairs", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#fff", "#fff")).toBeCloseTo(1, 5);
    // The spec's default orange with its default white text: 2.8:1, the failure axe-core reported.
    expect(contrastRatio("#ffffff", "#f97316")).toBeCloseTo(2.8, 1);
    expect(contrastRatio("#ffffff", "#1d4ed8")).toBeCloseTo(6.7, 1);
    // Order does not matter.
    expect(contrastRatio("#f97316", "#ffffff")).toBe(contrastRatio("#ffffff", "#f97316"));
  });

  it("is null for colours it cannot parse", () => {
    expect(contrastRatio("transparent", "#ffffff")).toBeNull();
    expect(contrastRatio("#ffffff", "")).toBeNull();
    expect(relativeLuminance("#12345")).toBeNull();
  });

  it("reads #rgb, #rrggbb and #rrggbbaa", () => {
    expect(parseHexColor("#f80")).toEqual({ r: 255, g: 136, b: 0 });
    expect(parseHexColor(" #F97316 ")).toEqual({ r: 249, g: 115, b: 22 });
    expect(parseHexColor("#f9731680")).toEqual({ r: 249, g: 115, b: 22 });
  });
});

describe("readableText", () => {
  it("replaces white on the default orange (2.8:1) by black", () => {
    expect(readableText("#f97316", "#ffffff")).toBe(BLACK);
    expect(isReadable("#ffffff", "#f97316")).toBe(false);
  });

  it("keeps the stored text colour when it reaches 4.5:1", () => {
    expect(readableText("#1d4ed8", "#ffffff")).toBe("#ffffff");
    expect(readableText("#2f855a", "#ffffff")).toBe("#ffffff");
    expect(readableText("#fde68a", "#1f2937")).toBe("#1f2937");
  });

  it("picks white on a dark colour when the stored text is dark too", () => {
    expect(readableText("#1f2937", "#374151")).toBe(WHITE);
    expect(readableText("#2563eb", "#000000")).toBe(WHITE);
  });

  it("picks whichever of black and white contrasts more, so the result always reaches 4.5:1", () => {
    for (const bg of ["#f97316", "#ec6823", "#ea580c", "#777777", "#808080", "#2563eb", "#ffff00", "#ff0000", "#00ff00", "#0000ff"]) {
      const text = readableText(bg, "#888888");
      expect(contrastRatio(text, bg)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it("leaves an unknown background alone and fixes an unknown text colour", () => {
    expect(readableText("transparent", "#ffffff")).toBe("#ffffff");
    expect(readableText("#ffffff", "")).toBe(BLACK);
  });
});
