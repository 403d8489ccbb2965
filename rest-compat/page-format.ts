/**
 * The legacy page format of spec §3 (the JSON the page editor and /api/.../page routes speak), both ways: the
 * stored page and catalogue → §3 content, and §3 content as the editor sends it → the page service's input.
 * Pure: no database, no request; rules (ranges, "not set" days, sanitising) stay in api/pages.
 */
import { z } from "zod";
import type { Addon, Page, Plan, PlanVariation } from "../api/generated/prisma/client.ts";
import { AddonInputSchema, CATALOG_LIST_MAX, PlanInputSchema, planVariations, type AddonInput, type PlanInput } from "../api/catalog/service.ts";
import { bpsToPercent, FAQS_MAX, faqSchema, faqsOf, galleryOf, pageData, socialOf, taxPercentSchema, themeOf, PageContentSchema, type PageContentInput } from "../api/pages/content.ts";
import { formatCents } from "../api/shared/money.ts";

// ── Shapes ───────────────────────────────────────────────────────────────────────────────────────────

const Variation = z.object({
  id: z.string().describe("{itemId}_pickup, {itemId}_shipping or {itemId}_delivery"),
  name: z.enum(["Pickup", "Shipping", "Delivery"]),
  ordinal: z.number().int().describe("0 pickup, 1 shipping, 2 delivery"),
  amount: z.number().int().describe("cents"),
  currency: z.string(),
  priceFormatted: z.string(),
  priceMoney: z.object({ amount: z.number().int().describe("cents") }),
});

export const Item = z.object({
  id: z.string().describe("item_…"),
  name: z.string(),
  description: z.string(),
  descriptionHtml: z.string(),
  priceFormatted: z.string().describe("Headline price: the first offered variation"),
  currency: z.string(),
  variations: z.array(Variation),
});

export const AddonShape = z.object({
  id: z.string().describe("addon_…"),
  name: z.string(),
  description: z.string(),
  amount: z.number().int().describe("cents"),
  currency: z.string(),
  priceFormatted: z.string(),
});

const DayWindow = z.object({ startDay: z.number().int(), endDay: z.number().int() });

const PageContent = z.object({
  brand: z.object({ name: z.string(), logoUrl: z.string() }),
  description: z.string().describe("Sanitised HTML"),
  gallery: z.array(z.object({ url: z.string() })),
  itemIds: z.array(z.string()).describe("Items shown on the page"),
  itemsSnapshot: z.array(Item),
  planIds: z.array(z.string()).describe("Same as itemIds"),
  addonIds: z.array(z.string()).describe("Add-ons shown on the page"),
  addonsSnapshot: z.array(AddonShape),
  addonLimit: z.number().int().describe("0 = unlimited"),
  addonSectionTitle: z.string(),
  faqs: z.array(z.object({ q: z.string(), a: z.string().describe("Sanitised HTML") })),
  fulfillment: z.object({
    pickup: z.boolean(),
    shipping: z.boolean(),
    delivery: z.boolean(),
    pickupAddress: z.string().describe("The first pickup point"),
    shippingText: z.string(),
    deliveryArea: z.string().describe("The first delivery area"),
    pickupPoints: z.array(z.string()).describe("Not in the §3 shape: every pickup point, in order"),
    deliveryAreas: z.array(z.string()).describe("Not in the §3 shape: every delivery area, in order"),
  }),
  tax: z.object({ enabled: z.boolean(), rate: z.number().describe("percent, e.g. 5.75") }),
  billingDay: z.number().int(),
  subscriptionCutoffDay: z.number().int().nullable(),
  boxReadyDay: z.number().int().nullable(),
  skipWindow: DayWindow,
  changeWindow: DayWindow,
  social: z.object({ facebook: z.string(), instagram: z.string(), twitter: z.string(), youtube: z.string(), tiktok: z.string() }),
  theme: z.object({
    primary: z.string(),
    selection: z.string(),
    primaryText: z.string(),
    buttonBorder: z.string(),
    pageBg: z.string(),
    footerButtonBg: z.string(),
    footerButtonText: z.string(),
    footerButtonBorder: z.string(),
  }),
});
export type PageContentJson = z.infer<typeof PageContent>;

export const ContentResponse = z.object({ content: PageContent });

type PlanWithVariations = Plan & { variations: PlanVariation[] };

export function itemJson(plan: PlanWithVariations): z.infer<typeof Item> {
  const variations = planVariations(plan).map((v) => ({
    id: v.id,
    name: v.name as "Pickup" | "Shipping" | "Delivery",
    ordinal: v.ordinal,
    amount: v.amountCents,
    currency: v.currency,
    priceFormatted: formatCents(v.amountCents),
    priceMoney: { amount: v.amountCents },
  }));
  return {
    id: plan.ref,
    name: plan.name,
    description: plan.description,
    descriptionHtml: plan.descriptionHtml,
    priceFormatted: variations[0] ? variations[0].priceFormatted : "",
    currency: plan.currency,
    variations,
  };
}

export function addonJson(addon: Addon): z.infer<typeof AddonShape> {
  return {
    id: addon.ref,
    name: addon.name,
    description: addon.description,
    amount: addon.amountCents,
    currency: addon.currency,
    priceFormatted: formatCents(addon.amountCents),
  };
}

/** The §3 defaults, as a page that was never saved reads. */
const DEFAULT_PAGE = pageData(PageContentSchema.parse({}));

/**
 * A page with its catalogue in the §3 shape. `plans`/`addons` are what the caller may see: listed ones on
 * public pages, every non-archived one in the editor; itemIds/addonIds name the listed ones.
 */
export function pageContentJson(
  page: Page | null,
  catalogue: { plans: PlanWithVariations[]; addons: Addon[] } = { plans: [], addons: [] },
): PageContentJson {
  const p = page ?? DEFAULT_PAGE;
  const itemIds = catalogue.plans.filter((x) => x.listed).map((x) => x.ref);
  return {
    brand: { name: p.brandName, logoUrl: p.logoUrl ?? "" },
    description: p.descriptionHtml,
    gallery: galleryOf(p.gallery),
    itemIds,
    itemsSnapshot: catalogue.plans.map(itemJson),
    planIds: itemIds,
    addonIds: catalogue.addons.filter((a) => a.listed).map((a) => a.ref),
    addonsSnapshot: catalogue.addons.map(addonJson),
    addonLimit: p.addonLimit,
    addonSectionTitle: p.addonSectionTitle,
    faqs: faqsOf(p.faqs),
    fulfillment: {
      pickup: p.pickupEnabled,
      shipping: p.shippingEnabled,
      delivery: p.deliveryEnabled,
      pickupAddress: p.pickupPoints[0] ?? "",
      shippingText: p.shippingText,
      deliveryArea: p.deliveryAreas[0] ?? "",
      pickupPoints: p.pickupPoints,
      deliveryAreas: p.deliveryAreas,
    },
    tax: { enabled: p.taxEnabled, rate: bpsToPercent(p.taxRateBps) },
    billingDay: p.billingDay,
    subscriptionCutoffDay: p.cutoffDay,
    boxReadyDay: p.boxReadyDay,
    skipWindow: { startDay: p.skipWindowStart, endDay: p.skipWindowEnd },
    changeWindow: { startDay: p.changeWindowStart, endDay: p.changeWindowEnd },
    social: socialOf(p.social),
    theme: themeOf(p.theme),
  };
}

// ── Page saves: the §3 content as the editor sends it → the page service's input ─────────────────────
// Each field is checked by the schema the page and catalogue services validate with (api/pages/content.ts,
// api/catalog/service.ts), under its §3 name: REST refuses what GraphQL refuses, with the same message.

const S = PageContentSchema.shape;
const P = PlanInputSchema.shape;
const A = AddonInputSchema.shape;

/** An optional day: the editor sends "" for "not set"; 0 and null are the page service's "not set" (spec §5). */
const optionalDay = (day: typeof S.boxReadyDay) =>
  z
    .literal("")
    .transform(() => null)
    .or(day.unwrap())
    .optional();

/** A row's id: left out or "" for a new row; else the catalogue's id rule. */
const rowId = (ref: typeof P.ref) => z.literal("").or(ref.unwrap().unwrap()).optional();

const VariationIn = z
  .object({
    id: z.string().optional(),
    name: z.string().optional(),
    ordinal: z.number().int().optional(),
    amount: P.pickupCents.describe("cents"),
    priceMoney: z.object({ amount: P.pickupCents }).loose().nullish(),
  })
  .loose();

const ItemIn = z
  .object({
    id: rowId(P.ref).describe("item_…; leave out for a new item"),
    name: P.name,
    description: P.description,
    descriptionHtml: P.descriptionHtml,
    variations: z.array(VariationIn).max(3).default([]),
  })
  .loose();

const AddonIn = z
  .object({
    id: rowId(A.ref).describe("addon_…; leave out for a new add-on"),
    name: A.name,
    description: A.description,
    amount: A.amountCents.describe("cents"),
  })
  .loose();

const listedIds = z.array(z.string().trim()).nullish();

/** In the order of PageContentSchema, so a refusal names the same first field as through GraphQL. */
const PageContentIn = z
  .object({
    brand: S.brand,
    description: S.descriptionHtml.describe("HTML; sanitised on save"),
    gallery: S.gallery,
    theme: S.theme,
    social: S.social,
    faqs: z.array(faqSchema.omit({ answerDoc: true })).max(FAQS_MAX).nullish(),
    fulfillment: S.fulfillment,
    tax: z.object({ enabled: z.boolean().nullish(), rate: taxPercentSchema.nullish().describe("percent") }).nullish(),
    billingDay: S.billingDay,
    subscriptionCutoffDay: optionalDay(S.subscriptionCutoffDay),
    boxReadyDay: optionalDay(S.boxReadyDay),
    skipWindow: S.skipWindow,
    changeWindow: S.changeWindow,
    addonLimit: S.addonLimit,
    addonSectionTitle: S.addonSectionTitle,
    supportPhone: S.supportPhone.describe(
      "Not in the §3 shape (GET does not return it): the support phone of the portal note and footer; left out, the stored one is kept; empty clears it",
    ),
    afterCutoff: z
      .enum(["REFUSE", "NEXT_MONTH"])
      .nullish()
      .describe("Not in the §3 shape: sign-ups past the cutoff day (REFUSE or NEXT_MONTH); left out, the stored one is kept"),
    pauseMaxMonths: S.pauseMaxMonths.describe("Not in the §3 shape: the longest pause a member may take, 0 to 12 months (0: no pausing); left out, the stored one is kept"),
    cancellationPolicy: S.cancellationPolicy.describe("Not in the §3 shape: how members cancel, PHONE (the default) or SELF_SERVICE; left out, the stored one is kept"),
    retentionOffers: S.retentionOffers.describe("Not in the §3 shape: what the cancel flow offers (SKIP, PAUSE, SWITCH_PLAN, DISCOUNT); left out, the stored ones are kept"),
    retentionDiscountPercent: S.retentionDiscountPercent.describe("Not in the §3 shape: the DISCOUNT offer's percent off the next charge, 5 to 50; left out, the stored one is kept"),
    itemIds: listedIds.describe("Items shown on the page"),
    itemsSnapshot: z
      .array(ItemIn)
      .max(...CATALOG_LIST_MAX.plans)
      .nullish(),
    addonIds: listedIds.describe("Add-ons shown on the page"),
    addonsSnapshot: z
      .array(AddonIn)
      .max(...CATALOG_LIST_MAX.addons)
      .nullish(),
  })
  .loose();
type PageContentBody = z.output<typeof PageContentIn>;

export const SaveContentBody = z.object({ content: PageContentIn });

export function serviceContent(c: PageContentBody): PageContentInput {
  return {
    brand: c.brand,
    descriptionHtml: c.description,
    gallery: c.gallery,
    theme: c.theme,
    social: c.social,
    faqs: c.faqs,
    fulfillment: c.fulfillment,
    tax: c.tax ? { enabled: c.tax.enabled, ratePercent: c.tax.rate } : c.tax,
    billingDay: c.billingDay,
    subscriptionCutoffDay: c.subscriptionCutoffDay,
    boxReadyDay: c.boxReadyDay,
    skipWindow: c.skipWindow,
    changeWindow: c.changeWindow,
    addonLimit: c.addonLimit,
    addonSectionTitle: c.addonSectionTitle,
    supportPhone: c.supportPhone,
    afterCutoff: c.afterCutoff,
    pauseMaxMonths: c.pauseMaxMonths,
    cancellationPolicy: c.cancellationPolicy,
    retentionOffers: c.retentionOffers,
    retentionDiscountPercent: c.retentionDiscountPercent,
  };
}

const MODE_OF_VARIATION = ["pickup", "shipping", "delivery"] as const;

/** A variation's mode: by its name, else its id suffix, else its ordinal. */
function variationMode(v: z.output<typeof VariationIn>): (typeof MODE_OF_VARIATION)[number] | null {
  const byName = v.name?.toLowerCase();
  if (byName && (MODE_OF_VARIATION as readonly string[]).includes(byName)) return byName as (typeof MODE_OF_VARIATION)[number];
  const suffix = v.id?.split("_").pop()?.toLowerCase();
  if (suffix && (MODE_OF_VARIATION as readonly string[]).includes(suffix)) return suffix as (typeof MODE_OF_VARIATION)[number];
  return v.ordinal != null ? (MODE_OF_VARIATION[v.ordinal] ?? null) : null;
}

/** itemsSnapshot/addonsSnapshot → the catalogue lists of saveBusinessPage; itemIds/addonIds say which are listed. */
export function serviceCatalogue(c: PageContentBody): { plans: PlanInput[] | null; addons: AddonInput[] | null } {
  const listedItems = c.itemIds ? new Set(c.itemIds) : null;
  const listedAddons = c.addonIds ? new Set(c.addonIds) : null;
  const plans = c.itemsSnapshot?.map((item): PlanInput => {
    const cents: Record<string, number | null> = { pickup: null, shipping: null, delivery: null };
    for (const v of item.variations) {
      const mode = variationMode(v);
      if (mode) cents[mode] = v.amount ?? v.priceMoney?.amount ?? null;
    }
    return {
      ref: item.id || null,
      name: item.name,
      description: item.description,
      descriptionHtml: item.descriptionHtml,
      listed: listedItems && item.id ? listedItems.has(item.id) : true,
      pickupCents: cents.pickup,
      shippingCents: cents.shipping,
      deliveryCents: cents.delivery,
    };
  });
  const addons = c.addonsSnapshot?.map(
    (a): AddonInput => ({
      ref: a.id || null,
      name: a.name,
      description: a.description,
      amountCents: a.amount,
      listed: listedAddons && a.id ? listedAddons.has(a.id) : true,
    }),
  );
  return { plans: plans ?? null, addons: addons ?? null };
}
