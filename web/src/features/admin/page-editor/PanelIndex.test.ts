import { describe, expect, it } from "vitest";
import { panelInView } from "./PanelIndex.tsx";

describe("panelInView", () => {
  const order = ["brand", "gallery", "items", "faqs"];
  it("marks the first panel in page order crossing the band", () => {
    expect(panelInView(order, new Set(["items", "gallery"]), "brand")).toBe("gallery");
  });
  it("keeps the last mark while no panel crosses it (a gap between panels)", () => {
    expect(panelInView(order, new Set(), "items")).toBe("items");
  });
});
