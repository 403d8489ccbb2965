import { describe, expect, it } from "vitest";
import { scrollTarget } from "./scrollRestoration.ts";

const at = (pathname: string, hash = "") => ({ pathname, hash });

describe("scrollTarget", () => {
  it("starts another page at the top", () => {
    expect(scrollTarget("PUSH", at("/b/farm"), at("/b/farm/membership/checkout"), undefined)).toEqual({ kind: "top" });
    expect(scrollTarget("REPLACE", at("/admin"), at("/admin/my"), undefined)).toEqual({ kind: "top" });
  });

  it("returns to the saved position on Back and Forward", () => {
    expect(scrollTarget("POP", at("/b/farm/membership/checkout"), at("/b/farm"), 640)).toEqual({ kind: "position", y: 640 });
    // The entry of a reloaded page restores too.
    expect(scrollTarget("POP", null, at("/b/farm"), 300)).toEqual({ kind: "position", y: 300 });
  });

  it("starts at the top after Back to an entry it has no position for", () => {
    expect(scrollTarget("POP", at("/contact"), at("/b/farm"), undefined)).toEqual({ kind: "top" });
  });

  it("keeps the position when only the query string changes", () => {
    expect(scrollTarget("REPLACE", at("/membership"), at("/membership"), undefined)).toBeNull();
    expect(scrollTarget("PUSH", at("/admin/memberships"), at("/admin/memberships"), undefined)).toBeNull();
  });

  it("goes to the anchor of a hash link", () => {
    expect(scrollTarget("PUSH", at("/"), at("/membership", "#card-update"), undefined)).toEqual({ kind: "anchor", id: "card-update", fromTop: true });
    expect(scrollTarget("PUSH", at("/"), at("/", "#faq%20list"), undefined)).toEqual({ kind: "anchor", id: "faq list", fromTop: false });
    expect(scrollTarget("POP", null, at("/", "#faq"), undefined)).toEqual({ kind: "anchor", id: "faq", fromTop: false });
  });

  it("does nothing on a first load without a saved position", () => {
    expect(scrollTarget("POP", null, at("/b/farm"), undefined)).toBeNull();
  });
});
