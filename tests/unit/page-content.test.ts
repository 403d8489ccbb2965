import { describe, expect, it } from "vitest";
import { PageContentSchema, pageData, themeOf } from "../../api/pages/content.ts";
import { DEFAULT_THEME } from "../../api/shared/theme.ts";

const issues = (input: unknown) => {
  const r = PageContentSchema.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
};

describe("page content validation", () => {
  it("uses the spec's day messages", () => {
    expect(issues({ billingDay: 0 })).toEqual(["billingDay: Billing day must be at least 1"]);
    expect(issues({ billingDay: 29 })).toEqual(["billingDay: Billing day cannot exceed 28 (to account for February)"]);
    expect(issues({ skipWindow: { startDay: 1, endDay: 29 } })).toEqual(["skipWindow.endDay: Skip window end day cannot exceed 28 (to account for February)"]);
    expect(issues({ subscriptionCutoffDay: 31, boxReadyDay: 28, billingDay: 28 })).toEqual([]);
    expect(issues({ changeWindow: { startDay: 15, endDay: 14 } })).toEqual(["changeWindow.endDay: Change window start day must not be after its end day"]);
  });

  it("takes a cutoff or box-ready day of 0 as not set (spec §5: 'when it is a non-zero number'), for every adapter", () => {
    const r = PageContentSchema.parse({ subscriptionCutoffDay: 0, boxReadyDay: 0 });
    expect([r.subscriptionCutoffDay, r.boxReadyDay]).toEqual([null, null]);
    expect(pageData(r)).toMatchObject({ cutoffDay: null, boxReadyDay: null });
    expect(issues({ subscriptionCutoffDay: -1 })).toEqual(["subscriptionCutoffDay: Subscription cutoff day must be at least 1"]);
    expect(issues({ subscriptionCutoffDay: 32 })).toEqual(["subscriptionCutoffDay: Subscription cutoff day cannot exceed 31"]);
    expect(issues({ boxReadyDay: 29 })).toEqual(["boxReadyDay: Box ready day cannot exceed 28 (to account for February)"]);
  });

  it("accepts tax rates from 0 to 100 with at most 2 decimals", () => {
    for (const ok of [0, 5.75, 7.1, 100, 0.01]) expect(issues({ tax: { ratePercent: ok } })).toEqual([]);
    for (const bad of [-0.01, 100.01, 5.755]) expect(issues({ tax: { ratePercent: bad } })).toHaveLength(1);
  });

  it("accepts hex colours, transparent or empty; http(s) social links; http(s) or site-relative images", () => {
    expect(issues({ theme: { primary: "#ABC", selection: "#aabbcc", primaryText: "#aabbccdd", buttonBorder: "Transparent", pageBg: "" } })).toEqual([]);
    expect(issues({ theme: { primary: "red" } })).toHaveLength(1);
    expect(issues({ theme: { primary: "#abcd" } })).toHaveLength(1);
    expect(issues({ social: { facebook: "https://fb.com/x", twitter: "" } })).toEqual([]);
    expect(issues({ social: { youtube: "ftp://x" } })).toHaveLength(1);
    expect(issues({ gallery: [{ url: "/uploads/a.png" }, { url: "https://x.example/a.jpg" }] })).toEqual([]);
    for (const url of ["//evil.example/a.png", "javascript:alert(1)", "data:image/png;base64,AA", "uploads/a.png", "/\\evil"]) {
      expect(issues({ gallery: [{ url }] })).toHaveLength(1);
    }
  });
});

describe("pageData", () => {
  it("stores the tax rate in basis points without float drift", () => {
    expect(pageData(PageContentSchema.parse({ tax: { ratePercent: 5.75 } })).taxRateBps).toBe(575);
    expect(pageData(PageContentSchema.parse({ tax: { ratePercent: 0.29 } })).taxRateBps).toBe(29);
    expect(pageData(PageContentSchema.parse({})).taxRateBps).toBe(575);
  });

  it("fills defaults for everything left out", () => {
    const d = pageData(PageContentSchema.parse({}));
    expect(d).toMatchObject({ billingDay: 1, cutoffDay: null, boxReadyDay: null, skipWindowStart: 1, skipWindowEnd: 14, addonLimit: 0, addonSectionTitle: "Available Add-ons", shippingText: "Nationwide Shipping", pickupEnabled: true, shippingEnabled: false });
    expect(d.theme).toEqual(DEFAULT_THEME);
  });
});

describe("themeOf", () => {
  it("fills every key, empty stored values falling back to the defaults", () => {
    expect(themeOf({ primary: "#000", pageBg: "" })).toEqual({ ...DEFAULT_THEME, primary: "#000" });
    expect(themeOf(null)).toEqual(DEFAULT_THEME);
  });
});
