import { describe, expect, it } from "vitest";
import { AddonInputSchema, newRef, planPriceCents, planVariations, PlanInputSchema, variationFor, variationId } from "../../api/catalog/service.ts";

const plan = {
  ref: "item_1",
  variations: [
    { mode: "DELIVERY" as const, amountCents: 4000, currency: "USD" },
    { mode: "SHIPPING" as const, amountCents: 3000, currency: "USD" },
  ],
};

describe("plan variations", () => {
  it("names variations {ref}_{mode}", () => {
    expect(variationId("item_1", "PICKUP")).toBe("item_1_pickup");
    expect(variationId("item_1", "DELIVERY")).toBe("item_1_delivery");
  });

  it("finds the variation of a mode, or null when the plan is not offered that way", () => {
    expect(variationFor(plan, "SHIPPING")?.amountCents).toBe(3000);
    expect(variationFor(plan, "PICKUP")).toBeNull();
  });

  it("lists variations in pickup, shipping, delivery order with their ordinals and names", () => {
    expect(planVariations(plan)).toEqual([
      { id: "item_1_shipping", mode: "SHIPPING", name: "Shipping", ordinal: 1, amountCents: 3000, currency: "USD" },
      { id: "item_1_delivery", mode: "DELIVERY", name: "Delivery", ordinal: 2, amountCents: 4000, currency: "USD" },
    ]);
    expect(planPriceCents(plan)).toBe(3000);
    expect(planPriceCents({ ref: "x", variations: [] })).toBeNull();
  });

  it("makes distinct refs even within one millisecond", () => {
    const now = new Date("2026-03-05T15:00:00Z");
    const a = newRef("item", now);
    expect(a).toMatch(/^item_1772722800000[0-9a-f]{6}$/);
    expect(newRef("item", now)).not.toBe(a);
    expect(newRef("addon", now)).toMatch(/^addon_/);
  });
});

describe("catalogue input", () => {
  const issues = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
    r.error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`) ?? [];

  it("needs a package name and at least one price in whole non-negative cents", () => {
    expect(issues(PlanInputSchema.safeParse({ name: " ", pickupCents: 1 }))).toEqual(["name: Please enter a package name."]);
    expect(issues(PlanInputSchema.safeParse({ name: "Box" }))).toEqual(["pickupCents: Enter at least one price (pickup, shipping, and/or delivery)."]);
    expect(PlanInputSchema.safeParse({ name: "Box", shippingCents: 1.5 }).success).toBe(false);
    expect(PlanInputSchema.safeParse({ name: "Box", deliveryCents: -1 }).success).toBe(false);
    expect(PlanInputSchema.parse({ name: " Box ", pickupCents: 0 })).toMatchObject({ name: "Box", pickupCents: 0 });
  });

  it("needs an add-on name and a valid price", () => {
    expect(issues(AddonInputSchema.safeParse({ name: "", amountCents: 1 }))).toEqual(["name: Please enter an add-on name."]);
    for (const amountCents of [undefined, null, -1, 2.5]) {
      expect(issues(AddonInputSchema.safeParse({ name: "Egg", amountCents }))).toEqual(["amountCents: Please enter a valid price."]);
    }
    expect(AddonInputSchema.parse({ name: "Egg", amountCents: 0 }).amountCents).toBe(0);
  });
});
