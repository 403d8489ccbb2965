import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../support/app.ts";
import { type Farm, type RestClient, startFarm } from "./helpers.ts";

let t: TestApp;
let s: Farm;
let call: RestClient;
beforeAll(async () => {
  ({ t, s, call } = await startFarm(async (s, t) => {
    await t.db.prisma.nextBox.create({ data: { businessId: s.farm.id, contentHtml: "<p>Carrots</p>" } });
  }));
});
afterAll(() => t.close());

describe("public content", () => {
  it("GET /api/page: home page content with §3 defaults", async () => {
    const res = await call("GET", "/api/page");
    expect(res.status).toBe(200);
    expect(res.body.content).toMatchObject({
      tax: { enabled: false, rate: 5.75 },
      billingDay: 1,
      skipWindow: { startDay: 1, endDay: 14 },
      theme: { primary: "#f97316", selection: "#2563eb", footerButtonBg: "" },
      fulfillment: { pickup: true, shipping: false, delivery: false, shippingText: "Nationwide Shipping" },
      addonSectionTitle: "Available Add-ons",
    });
  });

  it("GET /api/admin/page: the same content with a bearer; 401 without", async () => {
    expect((await call("GET", "/api/admin/page")).status).toBe(401);
    const res = await call("GET", "/api/admin/page", { token: s.memberToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual((await call("GET", "/api/page")).body);
  });

  it("GET /api/businesses/{slug}/page: page with listed items in the §3 item shape", async () => {
    const res = await call("GET", "/api/businesses/farm/page");
    expect(res.status).toBe(200);
    const c = res.body.content;
    expect(c.description).toBe("<p>Fresh <b>veg</b></p>");
    expect(c.itemIds).toEqual(["item_veg"]);
    expect(c.itemsSnapshot).toHaveLength(1);
    const item = c.itemsSnapshot[0];
    expect(item).toMatchObject({ id: "item_veg", name: "Veg Box", currency: "USD", priceFormatted: "$24.00" });
    expect(item.variations[1]).toEqual({
      id: "item_veg_shipping", name: "Shipping", ordinal: 1, amount: 2900, currency: "USD", priceFormatted: "$29.00", priceMoney: { amount: 2900 },
    });
    expect(c.addonsSnapshot).toEqual([{ id: "addon_eggs", name: "Eggs", description: "", amount: 500, currency: "USD", priceFormatted: "$5.00" }]);
    expect(c.addonIds).toEqual(["addon_eggs"]);
  });

  it("GET /api/businesses/{slug}/page: a business without a page shows the home page content; unknown slug 404", async () => {
    const res = await call("GET", "/api/businesses/bakery/page");
    expect(res.status).toBe(200);
    expect(res.body.content.itemsSnapshot).toEqual([]);
    const missing = await call("GET", "/api/businesses/nowhere/page");
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: "Business not found", reason: "not_found" });
  });

  it("GET /api/businesses/{slug}/next-box", async () => {
    const res = await call("GET", "/api/businesses/farm/next-box");
    expect(res.body).toEqual({ content: "<p>Carrots</p>" });
    expect((await call("GET", "/api/businesses/bakery/next-box")).body).toEqual({ content: "" });
    expect((await call("GET", "/api/businesses/nowhere/next-box")).status).toBe(404);
  });

  it("GET /api/businesses: cards with member count", async () => {
    const res = await call("GET", "/api/businesses");
    const farm = res.body.businesses.find((b: { slug: string }) => b.slug === "farm");
    expect(farm).toMatchObject({ name: "Farm", memberCount: 1, description: "Fresh veg" });
  });

  it("GET /api/square/plans and /api/square/items: the X-Tenant business's items", async () => {
    const plans = await call("GET", "/api/square/plans", { tenant: "farm" });
    expect(plans.body.plans.map((p: { id: string }) => p.id)).toEqual(["item_veg"]);
    expect(plans.body.itemsByPlanId.item_veg[0].name).toBe("Veg Box");
    const items = await call("GET", "/api/square/items", { tenant: "farm" });
    expect(items.body.items[0].variations.map((v: { id: string }) => v.id)).toEqual(["item_veg_pickup", "item_veg_shipping"]);
    expect((await call("GET", "/api/square/items")).status).toBe(400);
    expect((await call("GET", "/api/square/plans", { tenant: "nowhere" })).status).toBe(404);
  });
});
