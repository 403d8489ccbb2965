import { describe, expect, it } from "vitest";
import { contrastRatio } from "@shared/contrast.ts";
import { footerButtonColors, pageSurface, primaryButtonColors } from "./color.ts";

describe("theme text colours", () => {
  it("shows black on the spec's default orange, keeps white on a dark primary", () => {
    expect(primaryButtonColors({ primary: "#f97316", primaryText: "#ffffff", buttonBorder: "transparent" }).color).toBe("#000000");
    expect(primaryButtonColors({ primary: "#1d4ed8", primaryText: "#ffffff", buttonBorder: "transparent" }).color).toBe("#ffffff");
    expect(primaryButtonColors(null)).toEqual({ bg: "#f97316", color: "#000000", borderColor: "transparent" });
  });

  it("replaces a footer button text that cannot be read on its button", () => {
    const colors = footerButtonColors({ pageBg: "#ffffff", footerButtonBg: "#1f2937", footerButtonText: "#4b5563", footerButtonBorder: "" });
    expect(colors).toEqual({ bg: "#1f2937", text: "#ffffff", border: "transparent" });
  });

  it("keeps white text on a dark page and dark text on a light one", () => {
    expect(pageSurface("#1a1a2e")).toMatchObject({ light: true, text: "#ffffff" });
    expect(pageSurface("#fffdf7")).toMatchObject({ light: false, text: "#171717", muted: "#52525b", card: "#ffffff" });
  });

  it("switches a mid grey, dark by spec §9 but only 4.3:1 with white, to black text on white cards", () => {
    expect(pageSurface("#7a7a7a")).toEqual({ light: false, text: "#000000", muted: "#000000", card: "#ffffff" });
  });

  it("gives text and muted text at least 4.5:1 on the page and its cards, whatever the background", () => {
    for (const bg of ["#000000", "#333333", "#606060", "#7a7a7a", "#959595", "#ff0000", "#2f855a", "#9c4221", "#2563eb", "#ffff00", "#ffffff"]) {
      const s = pageSurface(bg);
      for (const surface of [bg, s.card]) {
        expect(contrastRatio(s.text, surface), `${s.text} on ${surface}`).toBeGreaterThanOrEqual(4.5);
        expect(contrastRatio(s.muted, s.card), `${s.muted} on ${s.card}`).toBeGreaterThanOrEqual(4.5);
      }
      expect(contrastRatio(s.muted, bg), `${s.muted} on ${bg}`).toBeGreaterThanOrEqual(4.5);
    }
  });
});
