import { describe, expect, it } from "vitest";
import { responsiveImage } from "./responsiveImage.ts";

describe("responsiveImage", () => {
  it("lists the WebP widths of an upload, keeping the original as src", () => {
    const img = responsiveImage("/uploads/0123456789abcdef0123456789abcdef.png", "64px");
    expect(img.src).toBe("/uploads/0123456789abcdef0123456789abcdef.png");
    expect(img.sizes).toBe("64px");
    expect(img.srcSet).toBe(
      "/uploads/0123456789abcdef0123456789abcdef-160w.webp 160w, /uploads/0123456789abcdef0123456789abcdef-320w.webp 320w, " +
        "/uploads/0123456789abcdef0123456789abcdef-640w.webp 640w, /uploads/0123456789abcdef0123456789abcdef-960w.webp 960w, " +
        "/uploads/0123456789abcdef0123456789abcdef-1280w.webp 1280w",
    );
  });

  it("leaves demo SVGs, other hosts, GIFs and unknown names with their URL alone", () => {
    for (const url of ["/demo/green-acres-farm-1.svg", "https://cdn.example/box.jpg", "/uploads/0123456789abcdef0123456789abcdef.gif", "/uploads/logo.png"]) {
      expect(responsiveImage(url, "100vw")).toEqual({ src: url });
    }
  });
});
