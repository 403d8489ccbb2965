import { describe, expect, it } from "vitest";
import type { Addon, Page, Plan, PlanVariation } from "../../api/generated/prisma/client.ts";
import { PageContentSchema, pageData } from "../../api/pages/content.ts";
import { DEFAULT_THEME } from "../../api/shared/theme.ts";
import { addonJson, itemJson, pageContentJson, SaveContentBody, serviceCatalogue, serviceContent } from "../../rest-compat/page-format.ts";

/**
 * The legacy page format of spec §3, both ways: stored page and catalogue → §3 JSON, and §3 JSON as the
 * editor sends it → the page service's input. Pure: no database.
 */

type PlanRow = Plan & { variations: PlanVariation[] };

const variation = (mode: PlanVariation["mode"], amountCents: number) => ({ mode, amountCents, currency: "USD" }) as PlanVariation;
const plan = (ref: string, listed: boolean, variations: PlanVariation[]) =>
  ({ id: 1, ref, name: `Plan ${ref}`, description: "Greens", descriptionHtml: "<p>Greens</p>", currency: "USD", listed, variations }) as unknown as PlanRow;
const addon = (ref: string, listed: boolean, amountCents: number) =>
  ({ id: 2, ref, name: `Addon ${ref}`, description: "Eggs", amountCents, currency: "USD", listed }) as unknown as Addon;

const SAVED = {
  brand: { name: "Green Farm", logoUrl: "/uploads/logo.png" },
  descriptionHtml: "<p>Fresh</p>",
  gallery: [{ url: "https://x.example/a.jpg" }],
  theme: { primary: "#112233", pageBg: "#ffffff" },
  social: { instagram: "https://instagram.com/farm" },
  faqs: [{ q: "When?", a: "<p>Tuesdays</p>" }],
  fulfillment: { pickup: true, shipping: true, delivery: false, pickupAddress: "1 Main St", shippingText: "Ships Monday", deliveryArea: "" },
  tax: { enabled: true, ratePercent: 7.25 },
  billingDay: 3,
  subscriptionCutoffDay: 20,
  boxReadyDay: 10,
  skipWindow: { startDay: 2, endDay: 12 },
  changeWindow: { startDay: 1, endDay: 9 },
  addonLimit: 2,
  addonSectionTitle: "Extras",
};
const storedPage = (content: unknown) => ({ id: 7, businessId: 1, isHome: false, ...pageData(PageContentSchema.parse(content)) }) as unknown as Page;

const veg = plan("item_veg", true, [variation("DELIVERY", 3000), variation("PICKUP", 2400)]);
const fruit = plan("item_fruit", false, [variation("SHIPPING", 2800)]);
const eggs = addon("addon_eggs", true, 500);
const honey = addon("addon_honey", false, 900);

describe("out: the stored page and catalogue in the §3 shape", () => {
  it("gives every field", () => {
    const json = pageContentJson(storedPage(SAVED), { plans: [veg, fruit], addons: [eggs, honey] });
    // Renamed in §3: description (descriptionHtml), tax.rate (ratePercent); every theme and social key filled in.
    const { descriptionHtml, tax, theme, social, ...same } = SAVED;
    expect(json).toEqual({
      ...same,
      description: descriptionHtml,
      tax: { enabled: tax.enabled, rate: tax.ratePercent },
      itemIds: ["item_veg"],
      itemsSnapshot: [itemJson(veg), itemJson(fruit)],
      planIds: ["item_veg"],
      addonIds: ["addon_eggs"],
      addonsSnapshot: [addonJson(eggs), addonJson(honey)],
      social: { facebook: "", twitter: "", youtube: "", tiktok: "", ...social },
      theme: { ...DEFAULT_THEME, ...theme },
      // Beyond §3: the whole lists whose first entries the single values are.
      fulfillment: { ...same.fulfillment, pickupPoints: ["1 Main St"], deliveryAreas: [] },
    });
  });

  it("an item's variations in display order (pickup, shipping, delivery) with ids and ordinals; the headline price is the first", () => {
    expect(itemJson(veg)).toEqual({
      id: "item_veg",
      name: "Plan item_veg",
      description: "Greens",
      descriptionHtml: "<p>Greens</p>",
      priceFormatted: "$24.00",
      currency: "USD",
      variations: [
        { id: "item_veg_pickup", name: "Pickup", ordinal: 0, amount: 2400, currency: "USD", priceFormatted: "$24.00", priceMoney: { amount: 2400 } },
        { id: "item_veg_delivery", name: "Delivery", ordinal: 2, amount: 3000, currency: "USD", priceFormatted: "$30.00", priceMoney: { amount: 3000 } },
      ],
    });
    expect(itemJson(plan("item_none", true, [])).priceFormatted).toBe("");
    expect(addonJson(eggs)).toEqual({ id: "addon_eggs", name: "Addon addon_eggs", description: "Eggs", amount: 500, currency: "USD", priceFormatted: "$5.00" });
  });

  it("a page never saved reads as the §3 defaults, with no catalogue", () => {
    const json = pageContentJson(null);
    expect(json).toMatchObject({
      brand: { name: "", logoUrl: "" },
      itemIds: [],
      itemsSnapshot: [],
      addonIds: [],
      addonLimit: 0,
      addonSectionTitle: "Available Add-ons",
      fulfillment: { pickup: true, shipping: false, delivery: false, shippingText: "Nationwide Shipping" },
      tax: { enabled: false, rate: 5.75 },
      billingDay: 1,
      subscriptionCutoffDay: null,
      boxReadyDay: null,
      skipWindow: { startDay: 1, endDay: 14 },
      changeWindow: { startDay: 1, endDay: 14 },
    });
  });
});

/** The editor's body through the route's schema, then to the service's input. */
const save = (content: unknown) => SaveContentBody.parse({ content }).content;
const refusal = (content: unknown) => {
  const r = SaveContentBody.safeParse({ content });
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
};

describe("in: §3 content → the page service's input", () => {
  it("maps every field, renaming description and tax.rate", () => {
    const out = pageContentJson(storedPage(SAVED));
    const { brand, descriptionHtml, gallery, faqs, tax, ...days } = SAVED;
    expect(serviceContent(save({ ...out, supportPhone: "(555) 123-4567" }))).toEqual({
      ...days,
      brand,
      descriptionHtml,
      gallery,
      faqs,
      tax,
      theme: out.theme,
      social: out.social,
      fulfillment: out.fulfillment,
      supportPhone: "(555) 123-4567",
    });
  });

  it("round trip: what a page reads as, saved back, stores the same columns", () => {
    const before = storedPage(SAVED);
    const again = pageData(PageContentSchema.parse(serviceContent(save(pageContentJson(before)))));
    const { id: _id, businessId: _b, isHome: _h, ...columns } = before as unknown as Record<string, unknown>;
    expect(again).toEqual(columns);
  });

  it("takes an optional day of \"\", 0 or null as not set; left out stays left out", () => {
    for (const empty of ["", 0, null]) {
      const c = serviceContent(save({ subscriptionCutoffDay: empty, boxReadyDay: empty }));
      expect([c.subscriptionCutoffDay, c.boxReadyDay]).toEqual([null, null]);
    }
    const c = serviceContent(save({}));
    expect([c.subscriptionCutoffDay, c.boxReadyDay, c.supportPhone, c.tax]).toEqual([undefined, undefined, undefined, undefined]);
    expect(serviceContent(save({ subscriptionCutoffDay: 31, boxReadyDay: 28 }))).toMatchObject({ subscriptionCutoffDay: 31, boxReadyDay: 28 });
  });

  it("an FAQ keeps its question and HTML answer only (REST has no editor document)", () => {
    expect(serviceContent(save({ faqs: [{ q: "Why?", a: "<p>So</p>", answerDoc: { blocks: [] }, extra: 1 }] })).faqs).toEqual([{ q: "Why?", a: "<p>So</p>" }]);
    expect(serviceContent(save({ faqs: [{ q: "Only a question" }] })).faqs).toEqual([{ q: "Only a question", a: "" }]);
  });
});

describe("in: itemsSnapshot / addonsSnapshot → the catalogue lists", () => {
  it("finds each variation's mode by its name, else its id suffix, else its ordinal; amount, else priceMoney.amount", () => {
    const { plans } = serviceCatalogue(
      save({
        itemsSnapshot: [
          {
            id: "item_a",
            name: "A",
            variations: [
              { name: "pickup", amount: 100 },
              { id: "item_a_shipping", priceMoney: { amount: 200 } },
              { ordinal: 2, amount: 300 },
            ],
          },
          { name: "B", variations: [{ name: "Delivery", id: "item_b_pickup", ordinal: 0, amount: 400 }, { name: "Courier", amount: 999 }, { ordinal: 7, amount: 5 }] },
          { id: "item_c", name: "C", variations: [{ name: "Shipping", amount: 100 }, { name: "SHIPPING", amount: 150 }] },
        ],
      }),
    );
    expect(plans).toEqual([
      { ref: "item_a", name: "A", description: undefined, descriptionHtml: undefined, listed: true, pickupCents: 100, shippingCents: 200, deliveryCents: 300 },
      { ref: null, name: "B", description: undefined, descriptionHtml: undefined, listed: true, pickupCents: null, shippingCents: null, deliveryCents: 400 },
      // Two variations of one mode: the later one wins.
      { ref: "item_c", name: "C", description: undefined, descriptionHtml: undefined, listed: true, pickupCents: null, shippingCents: 150, deliveryCents: null },
    ]);
  });

  it("lists the rows itemIds / addonIds name; without the list, or for a new row, listed", () => {
    const body = {
      itemsSnapshot: [
        { id: "item_a", name: "A", variations: [{ name: "Pickup", amount: 1 }] },
        { id: "item_b", name: "B", variations: [{ name: "Pickup", amount: 1 }] },
        { id: "", name: "New", variations: [{ name: "Pickup", amount: 1 }] },
      ],
      addonsSnapshot: [
        { id: "addon_a", name: "A", amount: 100 },
        { id: "addon_b", name: "B", amount: 200, description: "Jar" },
        { name: "New", amount: 300 },
      ],
    };
    const listed = serviceCatalogue(save({ ...body, itemIds: ["item_b"], addonIds: ["addon_a"] }));
    expect(listed.plans!.map((p) => [p.ref, p.listed])).toEqual([["item_a", false], ["item_b", true], [null, true]]);
    expect(listed.addons).toEqual([
      { ref: "addon_a", name: "A", description: undefined, amountCents: 100, listed: true },
      { ref: "addon_b", name: "B", description: "Jar", amountCents: 200, listed: false },
      { ref: null, name: "New", description: undefined, amountCents: 300, listed: true },
    ]);
    const all = serviceCatalogue(save(body));
    expect([...all.plans!, ...all.addons!].every((r) => r.listed)).toBe(true);
    // No snapshot: the catalogue is left as it is.
    expect(serviceCatalogue(save({ itemIds: ["item_a"] }))).toEqual({ plans: null, addons: null });
  });
});

describe("in: values the services refuse are refused by the route's schema, with the services' messages", () => {
  it("days, tax, windows and limits", () => {
    expect(refusal({ billingDay: 40 })).toEqual(["content.billingDay: Billing day cannot exceed 28 (to account for February)"]);
    expect(refusal({ billingDay: 0 })).toEqual(["content.billingDay: Billing day must be at least 1"]);
    expect(refusal({ billingDay: 2.5 })).toEqual(["content.billingDay: Billing day must be a whole number"]);
    expect(refusal({ tax: { rate: 200 } })).toEqual(["content.tax.rate: Tax rate must be between 0 and 100"]);
    expect(refusal({ tax: { rate: 5.755 } })).toEqual(["content.tax.rate: Tax rate may have at most 2 decimals"]);
    expect(refusal({ subscriptionCutoffDay: 32 })).toEqual(["content.subscriptionCutoffDay: Subscription cutoff day cannot exceed 31"]);
    expect(refusal({ boxReadyDay: -1 })).toEqual(["content.boxReadyDay: Box ready day must be at least 1"]);
    expect(refusal({ boxReadyDay: "5" })).toHaveLength(1);
    expect(refusal({ skipWindow: { startDay: 10, endDay: 2 } })).toEqual(["content.skipWindow.endDay: Skip window start day must not be after its end day"]);
    expect(refusal({ addonLimit: -1 })).toEqual(["content.addonLimit: Add-on limit cannot be negative"]);
  });

  it("text, colours, links and images", () => {
    expect(refusal({ brand: { name: "Two\nlines" } })).toEqual(["content.brand.name: Brand name must be a single line (no tabs or line breaks)"]);
    expect(refusal({ theme: { primary: "red" } })).toEqual(["content.theme.primary: Colours must be #rgb, #rrggbb, #rrggbbaa or transparent"]);
    expect(refusal({ social: { youtube: "ftp://x" } })).toEqual(["content.social.youtube: Social links must start with http:// or https://"]);
    expect(refusal({ gallery: [{ url: "javascript:alert(1)" }] })).toEqual(["content.gallery.0.url: Images must be http(s) addresses or uploaded files (/uploads/…)"]);
    expect(refusal({ supportPhone: "call us" })).toEqual(["content.supportPhone: Support phone must be a phone number such as (555) 123-4567"]);
  });

  it("items and add-ons", () => {
    expect(refusal({ itemsSnapshot: [{ name: " ", variations: [] }] })).toEqual(["content.itemsSnapshot.0.name: Please enter a package name."]);
    expect(refusal({ itemsSnapshot: [{ name: "A", variations: [{ name: "Pickup", amount: -1 }] }] })).toEqual([
      "content.itemsSnapshot.0.variations.0.amount: Prices must be whole, non-negative amounts in cents.",
    ]);
    expect(refusal({ itemsSnapshot: [{ id: "item a!", name: "A" }] })).toEqual(["content.itemsSnapshot.0.id: Invalid id"]);
    expect(refusal({ itemsSnapshot: [{ name: "A", variations: [{}, {}, {}, {}] }] })).toHaveLength(1);
    expect(refusal({ addonsSnapshot: [{ name: "Eggs" }] })).toEqual(["content.addonsSnapshot.0.amount: Please enter a valid price."]);
    expect(refusal({ addonsSnapshot: [{ name: "", amount: 1 }] })).toEqual(["content.addonsSnapshot.0.name: Please enter an add-on name."]);
    expect(refusal({ addonsSnapshot: Array.from({ length: 201 }, () => ({ name: "A", amount: 1 })) })).toEqual(["content.addonsSnapshot: At most 200 add-ons"]);
  });
});
