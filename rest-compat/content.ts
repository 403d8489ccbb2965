/**
 * Page content in the spec §3 JSON shape, and the public content routes of spec §7 (home page, business
 * pages, plans and items, businesses, next box). Reading only: saves go through admin.ts to api/pages.
 */
import { z } from "zod";
import type { Addon, Page, Plan, PlanVariation } from "../api/generated/prisma/client.ts";
import type { ServiceContext } from "../api/context.ts";
import { businessBySlug, MEMBER_STATUSES, publicBusinessesWhere } from "../api/businesses/service.ts";
import { planVariations, publicCatalogWhere } from "../api/catalog/service.ts";
import { bpsToPercent, faqsOf, galleryOf, pageData, socialOf, themeOf, PageContentSchema } from "../api/pages/content.ts";
import { ensureHomePage } from "../api/pages/service.ts";
import { cachedPublicPage } from "../api/pages/public-cache.ts";
import { richTextToPlain } from "../api/pages/richtext.ts";
import { ValidationError } from "../api/shared/errors.ts";
import { formatCents } from "../api/shared/money.ts";
import type { Router } from "./router.ts";

// ── Shapes ───────────────────────────────────────────────────────────────────────────────────────────

export const Variation = z.object({
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

export const PageContent = z.object({
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
    pickupAddress: z.string(),
    shippingText: z.string(),
    deliveryArea: z.string(),
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
      pickupAddress: p.pickupAddress,
      shippingText: p.shippingText,
      deliveryArea: p.deliveryArea,
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

const catalogueOrder = [{ position: "asc" as const }, { id: "asc" as const }];

/** A business's catalogue: listed rows for the public, every non-archived row for editors. */
export async function catalogueOf(ctx: Pick<ServiceContext, "db">, businessId: number, includeUnlisted: boolean) {
  const where = { businessId, ...publicCatalogWhere(includeUnlisted) };
  const [plans, addons] = await Promise.all([
    ctx.db.plan.findMany({ where, include: { variations: true }, orderBy: catalogueOrder }),
    ctx.db.addon.findMany({ where, orderBy: catalogueOrder }),
  ]);
  return { plans, addons };
}

export async function homePageJson(ctx: Pick<ServiceContext, "db">): Promise<PageContentJson> {
  const { id } = await ensureHomePage(ctx);
  return pageContentJson(await ctx.db.page.findUniqueOrThrow({ where: { id } }));
}

/** A business page; a business without a page of its own shows the home page content (spec §7 fallback). */
export async function businessPageJson(ctx: Pick<ServiceContext, "db">, businessId: number, includeUnlisted: boolean) {
  const page = await ctx.db.page.findUnique({ where: { businessId } });
  if (!page) return homePageJson(ctx);
  return pageContentJson(page, await catalogueOf(ctx, businessId, includeUnlisted));
}

/** The business the request's tenant names (X-Tenant or subdomain). */
async function tenantBusiness(ctx: ServiceContext) {
  if (!ctx.tenant) throw new ValidationError("Name the business with the X-Tenant header", [{ path: "X-Tenant", message: "Required" }]);
  return businessBySlug(ctx, ctx.tenant);
}

const slugParams = z.object({ slug: z.string().min(1).max(100) });

/** If-None-Match names this ETag (or `*`); weak validators compare equal to the strong one (RFC 9110 §13.1.2). */
function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((t) => {
    const tag = t.trim().replace(/^W\//, "");
    return tag === "*" || tag === etag;
  });
}

export const BusinessCard = z.object({
  id: z.number().int(),
  slug: z.string(),
  name: z.string(),
  logoUrl: z.string().nullable(),
  description: z.string().nullable().describe("Plain text"),
  memberCount: z.number().int(),
});

// ── Routes ───────────────────────────────────────────────────────────────────────────────────────────

export function contentRoutes(r: Router) {
  r.add({
    method: "GET",
    path: "/page",
    tag: "content",
    summary: "Home page content",
    access: "public",
    response: ContentResponse,
    handler: async (ctx) => ({ content: await homePageJson(ctx) }),
  });

  r.add({
    method: "GET",
    path: "/square/plans",
    tag: "content",
    summary: "The tenant business's plans (items), and the items of each plan",
    access: "public",
    response: z.object({ plans: z.array(Item), itemsByPlanId: z.record(z.string(), z.array(Item)) }),
    handler: async (ctx) => {
      const business = await tenantBusiness(ctx);
      const plans = (await catalogueOf(ctx, business.id, false)).plans.map(itemJson);
      return { plans, itemsByPlanId: Object.fromEntries(plans.map((p) => [p.id, [p]])) };
    },
  });

  r.add({
    method: "GET",
    path: "/square/items",
    tag: "content",
    summary: "The tenant business's items (plans) on sale",
    access: "public",
    response: z.object({ items: z.array(Item) }),
    handler: async (ctx) => {
      const business = await tenantBusiness(ctx);
      return { items: (await catalogueOf(ctx, business.id, false)).plans.map(itemJson) };
    },
  });

  r.add({
    method: "GET",
    path: "/businesses",
    tag: "content",
    summary: "Every partner business (business cards)",
    access: "public",
    response: z.object({ businesses: z.array(BusinessCard) }),
    handler: async (ctx) => {
      const rows = await ctx.db.business.findMany({
        where: publicBusinessesWhere(),
        orderBy: { name: "asc" },
        select: {
          id: true,
          slug: true,
          name: true,
          page: { select: { logoUrl: true, descriptionHtml: true } },
          _count: { select: { subscriptions: { where: { status: { in: [...MEMBER_STATUSES] } } } } },
        },
      });
      return {
        businesses: rows.map((b) => ({
          id: b.id,
          slug: b.slug,
          name: b.name,
          logoUrl: b.page?.logoUrl || null,
          description: richTextToPlain(b.page?.descriptionHtml) || null,
          memberCount: b._count.subscriptions,
        })),
      };
    },
  });

  r.add({
    method: "GET",
    path: "/businesses/{slug}/page",
    tag: "content",
    summary: "A business page with its catalogue (the home page content when the business has no page)",
    access: "public",
    params: slugParams,
    response: ContentResponse,
    handler: async (ctx, { params }, req, reply) => {
      // The same for every visitor: served from the public page cache, which page edits invalidate.
      const page = await cachedPublicPage(ctx, `business-page:${params.slug.toLowerCase()}`, async () => {
        const business = await businessBySlug(ctx, params.slug);
        return { businessId: business.id, value: { content: await businessPageJson(ctx, business.id, false) } };
      });
      // Browsers and CDNs may keep it but must revalidate: a 304 when it has not changed since.
      reply.header("cache-control", "public, no-cache").header("etag", page.etag);
      if (etagMatches(req.headers["if-none-match"], page.etag)) reply.status(304).send();
      else reply.type("application/json; charset=utf-8").send(page.body);
      return undefined as never; // sent above, as the cached serialised body
    },
  });

  r.add({
    method: "GET",
    path: "/businesses/{slug}/next-box",
    tag: "content",
    summary: "The business's Next Box note",
    access: "public",
    params: slugParams,
    response: z.object({ content: z.string().describe("Sanitised HTML") }),
    handler: async (ctx, { params }) => {
      const business = await businessBySlug(ctx, params.slug);
      const box = await ctx.db.nextBox.findUnique({ where: { businessId: business.id }, select: { contentHtml: true } });
      return { content: box?.contentHtml ?? "" };
    },
  });
}
