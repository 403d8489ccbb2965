import { describe, expect, it } from "vitest";
import { fromModeCode, MODE_LABELS, MODE_NAMES, MODE_ORDER, toModeCode } from "../../api/shared/fulfillment.ts";
import { FULFILLMENT_MODES } from "../../api/catalog/service.ts";

// api/shared/fulfillment.ts is the one list of modes and their names for the server and the web app.
describe("fulfillment modes", () => {
  it("are pickup, shipping, delivery in that order, as the catalogue orders variations", () => {
    expect(MODE_ORDER).toEqual(["pickup", "shipping", "delivery"]);
    expect(MODE_ORDER.map(toModeCode)).toEqual([...FULFILLMENT_MODES]);
  });

  it("have one name, under either spelling", () => {
    expect(MODE_ORDER.map((m) => MODE_LABELS[m])).toEqual(["Pickup", "Shipping", "Delivery"]);
    expect(MODE_NAMES).toEqual({ PICKUP: "Pickup", SHIPPING: "Shipping", DELIVERY: "Delivery" });
    expect(fromModeCode("SHIPPING")).toBe("shipping");
    expect(toModeCode("delivery")).toBe("DELIVERY");
  });
});
