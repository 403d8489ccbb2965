import { describe, expect, it } from "vitest";
import { dollarsToCents, initialPreviewMode, makePrimary } from "./draft.ts";

describe("page editor draft rules", () => {
  it("stores prices as rounded cents; negative or non-numeric is empty", () => {
    expect(dollarsToCents("12.345")).toBe(1235);
    expect(dollarsToCents("0")).toBe(0);
    expect(dollarsToCents("-1")).toBeNull();
    expect(dollarsToCents("abc")).toBeNull();
    expect(dollarsToCents(" ")).toBeNull();
  });
  it("moves a primary image to the front", () => {
    expect(makePrimary(["a", "b", "c"], 2)).toEqual(["c", "a", "b"]);
    expect(makePrimary(["a", "b"], 0)).toEqual(["a", "b"]);
  });
  it("starts the preview on pickup, else shipping", () => {
    expect(initialPreviewMode({ pickup: true, shipping: true, delivery: false, pickupAddress: "", shippingText: "", deliveryArea: "" })).toBe("pickup");
    expect(initialPreviewMode({ pickup: false, shipping: true, delivery: true, pickupAddress: "", shippingText: "", deliveryArea: "" })).toBe("shipping");
  });
});
