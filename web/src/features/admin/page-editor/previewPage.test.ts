import { describe, expect, it } from "vitest";
import type { previewPage_business$key } from "./__generated__/previewPage_business.graphql.ts";
import { pageDraftFrom, type PageDraft } from "./draft.ts";
import { previewResponse } from "./previewPage.ts";

const NOW = new Date("2026-03-05T15:00:00Z");

function draft(): PageDraft {
  return {
    ...pageDraftFrom(null),
    brand: { name: " Green Acres ", logoUrl: "" },
    descriptionHtml: "<p>Unsaved words</p>",
    gallery: ["/uploads/a.jpg"],
    addonLimit: 1.6,
    addonSectionTitle: " ",
    fulfillment: { pickup: true, shipping: true, delivery: false, pickupPoints: ["Barn"], shippingText: "", deliveryAreas: [] },
    items: [
      { ref: "item_1", key: "item_1", name: "Veg Box", description: "Weekly", pickupCents: 2000, shippingCents: null, deliveryCents: 2600, listed: true, capacity: null, modeCapacity: { pickup: null, shipping: null, delivery: null } },
      { ref: "item_2", key: "item_2", name: "Hidden", description: "", pickupCents: 100, shippingCents: null, deliveryCents: null, listed: false, capacity: null, modeCapacity: { pickup: null, shipping: null, delivery: null } },
      { ref: null, key: "item_9", name: "New Box", description: "", pickupCents: null, shippingCents: 3100, deliveryCents: null, listed: true, capacity: null, modeCapacity: { pickup: null, shipping: null, delivery: null } },
    ],
    addons: [
      { ref: null, key: "addon_5", name: "Eggs", description: "", amountCents: 400, listed: true },
      { ref: "addon_1", key: "addon_1", name: "Off", description: "", amountCents: 100, listed: false },
    ],
    faqs: [
      { key: "faq_0", q: " When? ", a: "<p>Saturdays</p>", aDoc: null },
      { key: "faq_1", q: " ", a: "<p>dropped</p>", aDoc: null },
    ],
  };
}

/** An @inline fragment's key as Relay hands it over (readInlineData reads it from __fragments). */
function factsKey(data: object): previewPage_business$key {
  return { __fragments: { previewPage_business: data } } as unknown as previewPage_business$key;
}

describe("previewResponse: the live page's query response for an unsaved draft", () => {
  it("lists the listed plans and add-ons in editor order, with prices per mode as the server sends them", () => {
    const { business } = previewResponse("green", draft(), null, NOW);
    expect(business?.plans.edges.map((e) => e.node)).toEqual([
      {
        id: "preview-plan:item_1",
        ref: "item_1",
        name: "Veg Box",
        description: "Weekly",
        priceCents: 2000,
        soldOut: false,
        soldOutModes: [],
        variations: [
          { id: "item_1_pickup", mode: "PICKUP", name: "Pickup", amountCents: 2000 },
          { id: "item_1_delivery", mode: "DELIVERY", name: "Delivery", amountCents: 2600 },
        ],
      },
      { id: "preview-plan:item_9", ref: "item_9", name: "New Box", description: "", priceCents: 3100, soldOut: false, soldOutModes: [], variations: [{ id: "item_9_shipping", mode: "SHIPPING", name: "Shipping", amountCents: 3100 }] },
    ]);
    expect(business?.addons.edges.map((e) => e.node)).toEqual([{ id: "preview-addon:addon_5", ref: "addon_5", name: "Eggs", description: "", amountCents: 400 }]);
  });

  it("takes the page as a save would store it: trimmed, defaults filled, questions without text left out", () => {
    const { business, viewer } = previewResponse("green", draft(), null, NOW);
    expect(viewer).toBeNull();
    expect(business?.page).toMatchObject({
      brandName: "Green Acres",
      brand: { name: "Green Acres", logoUrl: null },
      descriptionHtml: "<p>Unsaved words</p>",
      gallery: [{ __typename: "GalleryImage", url: "/uploads/a.jpg" }],
      addonLimit: 2,
      addonSectionTitle: "Available Add-ons",
      faqs: [{ q: "When?", a: "<p>Saturdays</p>" }],
    });
  });

  it("keeps the server's facts of the saved business: its name, members, sign-ups, cutoff notice and sold-out plans", () => {
    const facts = factsKey({
      id: "QnVzaW5lc3M6MQ==",
      name: "Green Acres Farm",
      memberCount: 12,
      acceptingMembers: false,
      checkoutClosedMessage: "The last day to subscribe for this month has passed.",
      signupStartsNextMonth: false,
      signupFirstPeriod: "2026-03",
      signupFirstChargeDate: "2026-03-05",
      plans: { edges: [{ node: { ref: "item_1", soldOut: false, soldOutModes: ["DELIVERY"] } }] },
    });
    const { business } = previewResponse("green", draft(), facts, NOW);
    expect(business).toMatchObject({ id: "QnVzaW5lc3M6MQ==", slug: "green", name: "Green Acres Farm", memberCount: 12, acceptingMembers: false, checkoutClosedMessage: "The last day to subscribe for this month has passed." });
    expect(business?.plans.edges[0].node.soldOutModes).toEqual(["DELIVERY"]);
  });

  it("stands in for a business the server does not have (the home page's preview tenant)", () => {
    expect(previewResponse("preview", draft(), null, NOW).business).toMatchObject({ name: "Green Acres", memberCount: 0, acceptingMembers: true, checkoutClosedMessage: null, signupStartsNextMonth: false, signupFirstPeriod: "2026-03", signupFirstChargeDate: "2026-03-05" });
  });
});
