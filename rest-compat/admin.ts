/**
 * Spec §7 admin routes (/api/admin/*, bearer, X-Tenant ignored): page and next-box editing, businesses and
 * their users, users, coupons, metrics and memberships. Roles are checked by the services and the policy.
 */
import { z } from "zod";
import type { ServiceContext } from "../api/context.ts";
import { assertCan, requireAdmin } from "../api/auth/policy.ts";
import * as businesses from "../api/businesses/service.ts";
import * as coupons from "../api/coupons/service.ts";
import * as metrics from "../api/metrics/service.ts";
import * as pages from "../api/pages/service.ts";
import type { PageContentInput } from "../api/pages/content.ts";
import type { AddonInput, PlanInput } from "../api/catalog/service.ts";
import * as subscriptions from "../api/subscriptions/service.ts";
import * as users from "../api/users/service.ts";
import { NotFoundError } from "../api/shared/errors.ts";
import { catalogueOf, ContentResponse, homePageJson, pageContentJson } from "./content.ts";
import { singleLine } from "../api/shared/validation.ts";
import { idParam, Ok, type Router } from "./router.ts";
import {
  BusinessRef,
  businessRefSelect,
  MembershipRow,
  membershipRow,
  membershipRowSelect,
  StatusFilter,
  statusWord,
  UserResult,
  userJson,
  UserShape,
} from "./rows.ts";

// ── Page saves: the §3 content as the editor sends it → the page service's input ─────────────────────

/** An optional day: the editor sends "" or 0 for "not set" (0 is the page service's rule, spec §5). */
const optionalDay = z.union([z.number(), z.literal(""), z.null()]).optional().transform((d) => (d === "" ? null : d));

const VariationIn = z
  .object({
    id: z.string().optional(),
    name: z.string().optional(),
    ordinal: z.number().int().optional(),
    amount: z.number().nullish().describe("cents"),
    priceMoney: z.object({ amount: z.number().nullish() }).loose().nullish(),
  })
  .loose();

const ItemIn = z
  .object({
    id: z.string().optional().describe("item_…; leave out for a new item"),
    name: z.string(),
    description: z.string().nullish(),
    descriptionHtml: z.string().nullish(),
    variations: z.array(VariationIn).max(3).default([]),
  })
  .loose();

const AddonIn = z
  .object({
    id: z.string().optional().describe("addon_…; leave out for a new add-on"),
    name: z.string(),
    description: z.string().nullish(),
    amount: z.number().nullish().describe("cents"),
  })
  .loose();

const PageContentIn = z
  .object({
    brand: z.object({ name: z.string().nullish(), logoUrl: z.string().nullish() }).nullish(),
    description: z.string().nullish().describe("HTML; sanitised on save"),
    gallery: z.array(z.object({ url: z.string() }).loose()).nullish(),
    itemIds: z.array(z.string()).nullish(),
    itemsSnapshot: z.array(ItemIn).max(200).nullish(),
    addonIds: z.array(z.string()).nullish(),
    addonsSnapshot: z.array(AddonIn).max(200).nullish(),
    addonLimit: z.number().nullish(),
    addonSectionTitle: z.string().nullish(),
    faqs: z.array(z.object({ q: z.string().default(""), a: z.string().default("") }).loose()).nullish(),
    fulfillment: z
      .object({
        pickup: z.boolean().nullish(),
        shipping: z.boolean().nullish(),
        delivery: z.boolean().nullish(),
        pickupAddress: z.string().nullish(),
        shippingText: z.string().nullish(),
        deliveryArea: z.string().nullish(),
      })
      .nullish(),
    tax: z.object({ enabled: z.boolean().nullish(), rate: z.number().nullish().describe("percent") }).nullish(),
    billingDay: z.number().nullish(),
    subscriptionCutoffDay: optionalDay,
    boxReadyDay: optionalDay,
    skipWindow: z.object({ startDay: z.number(), endDay: z.number() }).nullish(),
    changeWindow: z.object({ startDay: z.number(), endDay: z.number() }).nullish(),
    social: z.record(z.string(), z.string().nullish()).nullish(),
    theme: z.record(z.string(), z.string().nullish()).nullish(),
    supportPhone: z
      .string()
      .nullish()
      .describe("Not in the §3 shape (GET does not return it): the support phone of the portal note and footer; left out, the stored one is kept; empty clears it"),
  })
  .loose();
type PageContentBody = z.output<typeof PageContentIn>;

const SaveContentBody = z.object({ content: PageContentIn });

function serviceContent(c: PageContentBody): PageContentInput {
  return {
    brand: c.brand,
    descriptionHtml: c.description,
    gallery: c.gallery?.map((g) => ({ url: g.url })),
    theme: c.theme,
    social: c.social,
    faqs: c.faqs?.map((f) => ({ q: f.q, a: f.a })),
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
function serviceCatalogue(c: PageContentBody): { plans: PlanInput[] | null; addons: AddonInput[] | null } {
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

async function existingBusiness(ctx: ServiceContext, id: number) {
  const business = await ctx.db.business.findUnique({ where: { id }, select: businessRefSelect });
  if (!business) throw new NotFoundError("Business");
  return business;
}

/** The page editor's view of a business: every non-archived catalogue row, listed or not. */
async function editorPageJson(ctx: ServiceContext, businessId: number) {
  const page = await ctx.db.page.findUnique({ where: { businessId } });
  return pageContentJson(page, await catalogueOf(ctx, businessId, true));
}

// ── Shapes ───────────────────────────────────────────────────────────────────────────────────────────

const Role = z.enum(["owner", "editor", "viewer"]);
const BusinessUser = z.object({ id: z.number().int(), username: z.string(), role: Role });
const roleWord = (r: string) => r.toLowerCase() as z.infer<typeof Role>;

const Coupon = z.object({
  id: z.number().int(),
  code: z.string(),
  type: z.enum(["percent", "fixed"]),
  value: z.number().int().describe("percent: whole 0–100; fixed: cents"),
  active: z.boolean(),
});
const couponJson = (c: { id: number; code: string; type: string; value: number; active: boolean }): z.infer<typeof Coupon> => ({
  id: c.id,
  code: c.code,
  type: c.type.toLowerCase() as "percent" | "fixed",
  value: c.value,
  active: c.active,
});

const Totals = z.object({
  subscriptionsAll: z.number().int(),
  subscriptionsActive: z.number().int(),
  subscriptionsCanceled: z.number().int(),
  totalRevenue: z.number().int().describe("cents"),
});
const Averages = z.object({ subscriptionPrice: z.number().int().describe("cents") });
const RecentSubscription = z.object({
  public_id: z.string(),
  user_id: z.number().int(),
  business_slug: z.string(),
  status: z.string(),
  started_at: z.string(),
});

async function dashboard(ctx: ServiceContext, scope: metrics.MetricsScope) {
  const [t, a, recent] = await Promise.all([
    metrics.totals(ctx, scope),
    metrics.averages(ctx, scope),
    ctx.db.subscription.findMany({
      where: metrics.countedWhere(scope),
      orderBy: subscriptions.membershipOrder,
      take: metrics.RECENT_COUNT,
      select: { status: true, startedAt: true, userId: true, user: { select: { publicId: true } }, business: { select: { slug: true } } },
    }),
  ]);
  return {
    totals: {
      subscriptionsAll: t.subscriptionsAll,
      subscriptionsActive: t.subscriptionsActive,
      subscriptionsCanceled: t.subscriptionsCanceled,
      totalRevenue: t.totalRevenueCents,
    },
    averages: { subscriptionPrice: a.subscriptionPriceCents },
    recentSubscriptions: recent.map((s) => ({
      public_id: s.user.publicId,
      user_id: s.userId,
      business_slug: s.business.slug,
      status: statusWord(s.status),
      started_at: s.startedAt.toISOString(),
    })),
  };
}

const businessId = z.object({ id: idParam("Invalid business id") });
const searchQuery = z.object({ q: singleLine("Search").max(200).default("") });
const membershipQuery = z.object({ q: singleLine("Search").max(200).optional(), status: StatusFilter });

async function membershipItems(ctx: ServiceContext, filter: subscriptions.MembershipFilter) {
  return (await subscriptions.membershipListRows(ctx, filter, { take: 500 })).map(membershipRow);
}

// ── Routes ───────────────────────────────────────────────────────────────────────────────────────────

export function adminRoutes(r: Router) {
  r.add({
    method: "GET",
    path: "/admin/page",
    tag: "admin",
    summary: "Home page content (the page editor's default load address)",
    access: "admin",
    response: ContentResponse,
    handler: async (ctx) => ({ content: await homePageJson(ctx) }),
  });

  r.add({
    method: "POST",
    path: "/admin/page",
    tag: "admin",
    summary: "Saves the home page content (administrators); rich text is sanitised",
    access: "admin",
    body: SaveContentBody,
    response: ContentResponse,
    handler: async (ctx, { body }) => {
      await pages.saveHomePage(ctx, { content: serviceContent(body.content) });
      return { content: await homePageJson(ctx) };
    },
  });

  r.add({
    method: "GET",
    path: "/admin/businesses/{id}/page",
    tag: "admin",
    summary: "A business page with its whole catalogue, for the page editor (editors, owners, administrators)",
    access: "admin",
    params: businessId,
    response: ContentResponse,
    handler: async (ctx, { params }) => {
      await existingBusiness(ctx, params.id);
      await assertCan(ctx, params.id, "editContent");
      return { content: await editorPageJson(ctx, params.id) };
    },
  });

  r.add({
    method: "POST",
    path: "/admin/businesses/{id}/page",
    tag: "admin",
    summary: "Saves a business page with its items and add-ons in one transaction; rich text is sanitised",
    access: "admin",
    params: businessId,
    body: SaveContentBody,
    response: ContentResponse,
    handler: async (ctx, { params, body }) => {
      await pages.saveBusinessPage(ctx, { businessId: params.id, content: serviceContent(body.content), ...serviceCatalogue(body.content) });
      return { content: await editorPageJson(ctx, params.id) };
    },
  });

  r.add({
    method: "GET",
    path: "/admin/businesses",
    tag: "admin",
    summary: "Businesses the user may open (administrators: all)",
    access: "admin",
    response: z.array(BusinessRef.extend({ user_count: z.number().int() })),
    handler: async (ctx) => {
      requireAdmin(ctx);
      const rows = await ctx.db.business.findMany({
        select: { ...businessRefSelect, _count: { select: { users: true } } },
        orderBy: [{ name: "asc" }, { id: "asc" }],
      });
      return rows.map((b) => ({ id: b.id, name: b.name, slug: b.slug, user_count: b._count.users }));
    },
  });

  r.add({
    method: "POST",
    path: "/admin/businesses",
    tag: "admin",
    summary: "Creates a business with its page (administrators)",
    access: "admin",
    body: z.object({
      name: z.string().max(500).default(""),
      slug: z.string().max(200).nullish(),
      attachments: z.array(z.object({ user_id: z.number().int(), role: z.string().transform((r) => r.toUpperCase()) })).max(50).nullish(),
    }),
    response: BusinessRef,
    errors: [409],
    handler: async (ctx, { body }) => {
      const b = await businesses.createBusiness(ctx, {
        name: body.name,
        slug: body.slug,
        attachments: body.attachments?.map((a) => ({ userId: a.user_id, role: a.role as "OWNER" | "EDITOR" | "VIEWER" })),
      });
      return { id: b.id, name: b.name, slug: b.slug };
    },
  });

  r.add({
    method: "DELETE",
    path: "/admin/businesses/{id}",
    tag: "admin",
    summary: "Deletes a business with its page and attachments (refused while it has members or order history)",
    access: "admin",
    params: businessId,
    response: Ok,
    errors: [409],
    handler: async (ctx, { params }) => {
      await businesses.deleteBusiness(ctx, params.id);
      return { ok: true as const };
    },
  });

  r.add({
    method: "GET",
    path: "/admin/businesses/{id}/users",
    tag: "admin",
    summary: "Users attached to a business (owners and administrators)",
    access: "admin",
    params: businessId,
    response: z.array(BusinessUser),
    handler: async (ctx, { params }) => {
      await existingBusiness(ctx, params.id);
      await assertCan(ctx, params.id, "manageUsers");
      const links = await ctx.db.businessUser.findMany({
        where: { businessId: params.id },
        select: { role: true, user: { select: { id: true, username: true } } },
        orderBy: { id: "asc" },
      });
      return links.map((l) => ({ id: l.user.id, username: l.user.username, role: roleWord(l.role) }));
    },
  });

  r.add({
    method: "POST",
    path: "/admin/businesses/{id}/users",
    tag: "admin",
    summary: "Attaches a user with a role, or changes their role",
    access: "admin",
    params: businessId,
    body: z.object({ user_id: z.number({ error: "Choose a user" }).int(), role: z.string().transform((r) => r.toUpperCase()) }),
    response: BusinessUser,
    errors: [409],
    handler: async (ctx, { params, body }) => {
      const link = await businesses.attachBusinessUser(ctx, { businessId: params.id, userId: body.user_id, role: body.role as "OWNER" | "EDITOR" | "VIEWER" });
      const user = await users.userById(ctx, link.userId);
      return { id: user.id, username: user.username, role: roleWord(link.role) };
    },
  });

  r.add({
    method: "DELETE",
    path: "/admin/businesses/{id}/users/{userId}",
    tag: "admin",
    summary: "Removes a user from a business",
    access: "admin",
    params: z.object({ id: idParam("Invalid business id"), userId: idParam("Invalid user id") }),
    response: Ok,
    handler: async (ctx, { params }) => {
      await businesses.detachBusinessUser(ctx, { businessId: params.id, userId: params.userId });
      return { ok: true as const };
    },
  });

  r.add({
    method: "GET",
    path: "/admin/businesses/{id}/user-search",
    tag: "admin",
    summary: "Users to attach to a business (owners of it, administrators)",
    access: "admin",
    params: businessId,
    query: searchQuery,
    response: z.object({ results: z.array(UserResult) }),
    handler: async (ctx, { params, query }) => {
      await existingBusiness(ctx, params.id);
      return { results: await users.searchForAttach(ctx, { query: query.q, businessId: params.id }) };
    },
  });

  r.add({
    method: "GET",
    path: "/admin/users/search",
    tag: "admin",
    summary: "User search (administrators)",
    access: "admin",
    query: searchQuery,
    response: z.object({ results: z.array(UserResult) }),
    handler: async (ctx, { query }) => {
      return { results: await users.searchForAttach(ctx, { query: query.q }) };
    },
  });

  r.add({
    method: "GET",
    path: "/admin/businesses/{id}/metrics",
    tag: "admin",
    summary: "Business dashboard (anyone attached, administrators)",
    access: "admin",
    params: businessId,
    response: z.object({ business: BusinessRef, totals: Totals, averages: Averages, recentSubscriptions: z.array(RecentSubscription) }),
    handler: async (ctx, { params }) => {
      const business = await existingBusiness(ctx, params.id);
      const scope = await metrics.businessScope(ctx, params.id);
      return { business, ...(await dashboard(ctx, scope)) };
    },
  });

  r.add({
    method: "GET",
    path: "/admin/metrics",
    tag: "admin",
    summary: "Platform dashboard (administrators)",
    access: "admin",
    response: z.object({
      totals: Totals,
      averages: Averages,
      breakdowns: z.object({ subscriptionsByBusiness: z.array(z.object({ business_slug: z.string(), count: z.number().int() })) }),
      recentSubscriptions: z.array(RecentSubscription),
    }),
    handler: async (ctx) => {
      const scope = await metrics.adminScope(ctx);
      const [board, byBusiness] = await Promise.all([dashboard(ctx, scope), metrics.subscriptionsByBusiness(ctx, scope)]);
      return {
        totals: board.totals,
        averages: board.averages,
        breakdowns: { subscriptionsByBusiness: byBusiness.map((b) => ({ business_slug: b.businessSlug, count: b.count })) },
        recentSubscriptions: board.recentSubscriptions,
      };
    },
  });

  r.add({
    method: "GET",
    path: "/admin/businesses/{id}/memberships",
    tag: "admin",
    summary: "Memberships of a business (anyone attached, administrators)",
    access: "admin",
    params: businessId,
    query: membershipQuery,
    response: z.object({ business: BusinessRef, items: z.array(MembershipRow) }),
    handler: async (ctx, { params, query }) => {
      const business = await existingBusiness(ctx, params.id);
      await assertCan(ctx, params.id, "readMemberships");
      return { business, items: await membershipItems(ctx, { search: query.q, status: query.status, businessId: params.id }) };
    },
  });

  r.add({
    method: "GET",
    path: "/admin/memberships",
    tag: "admin",
    summary: "Memberships the user may read (administrators: all), filtered",
    access: "admin",
    query: membershipQuery.extend({ business: z.string().max(100).optional().describe("Business id or slug") }),
    response: z.object({ items: z.array(MembershipRow) }),
    handler: async (ctx, { query }) => {
      let filterId: number | null = null;
      if (query.business) {
        filterId = /^\d+$/.test(query.business) ? Number(query.business) : (await businesses.businessBySlug(ctx, query.business)).id;
      }
      return { items: await membershipItems(ctx, { search: query.q, status: query.status, businessId: filterId }) };
    },
  });

  r.add({
    method: "GET",
    path: "/admin/businesses/{id}/next-box",
    tag: "admin",
    summary: "The business's Next Box note, for the editor",
    access: "admin",
    params: businessId,
    response: z.object({ content: z.string().describe("Sanitised HTML") }),
    handler: async (ctx, { params }) => {
      await existingBusiness(ctx, params.id);
      await assertCan(ctx, params.id, "viewDashboard");
      const box = await ctx.db.nextBox.findUnique({ where: { businessId: params.id }, select: { contentHtml: true } });
      return { content: box?.contentHtml ?? "" };
    },
  });

  r.add({
    method: "POST",
    path: "/admin/businesses/{id}/next-box",
    tag: "admin",
    summary: "Saves the Next Box note (editors, owners, administrators); rich text is sanitised",
    access: "admin",
    params: businessId,
    body: z.object({ content: z.string({ error: "Missing content" }) }),
    response: z.object({ content: z.string() }),
    handler: async (ctx, { params, body }) => {
      const box = await pages.saveNextBox(ctx, { businessId: params.id, contentHtml: body.content });
      return { content: box.contentHtml };
    },
  });

  r.add({
    method: "POST",
    path: "/admin/subscriptions/{subscriptionId}/cancel",
    tag: "admin",
    summary: "Cancels a membership immediately, no automatic refund (owners, administrators)",
    access: "admin",
    params: z.object({ subscriptionId: idParam("Missing subscription id") }),
    body: z.object({ mode: z.literal("now").default("now") }),
    response: Ok.extend({ subscription: MembershipRow }),
    errors: [409],
    handler: async (ctx, { params }) => {
      const { subscriptionId } = await subscriptions.cancelSubscription(ctx, { subscriptionId: params.subscriptionId, mode: "NOW" });
      const row = await ctx.db.subscription.findUniqueOrThrow({ where: { id: subscriptionId }, select: membershipRowSelect });
      return { ok: true as const, subscription: membershipRow(row) };
    },
  });

  r.add({
    method: "GET",
    path: "/admin/users",
    tag: "admin",
    summary: "Every user, newest first, the first 1,000 (administrators)",
    access: "admin",
    response: z.array(UserShape),
    handler: async (ctx) => {
      return (await users.list(ctx, {})).map(userJson);
    },
  });

  r.add({
    method: "POST",
    path: "/admin/users",
    tag: "admin",
    summary: "Creates a user (administrators)",
    access: "admin",
    body: z.object({ username: z.string().max(200).default(""), password: z.string().max(500).default(""), is_admin: z.boolean().default(false) }),
    response: UserShape,
    errors: [409],
    handler: async (ctx, { body }) => userJson(await users.createUser(ctx, { username: body.username, password: body.password, isAdmin: body.is_admin })),
  });

  r.add({
    method: "GET",
    path: "/admin/coupons",
    tag: "admin",
    summary: "Every coupon, newest first (administrators)",
    access: "admin",
    response: z.array(Coupon),
    handler: async (ctx) => {
      requireAdmin(ctx);
      return (await ctx.db.coupon.findMany({ orderBy: [{ createdAt: "desc" }, { id: "desc" }] })).map(couponJson);
    },
  });

  r.add({
    method: "POST",
    path: "/admin/coupons",
    tag: "admin",
    summary: "Creates a coupon (administrators)",
    access: "admin",
    body: z.object({
      code: z.string().max(200).default(""),
      type: z.enum(["percent", "fixed", "PERCENT", "FIXED"]).transform((t) => t.toUpperCase() as "PERCENT" | "FIXED"),
      value: z.number({ error: "Please enter a value" }),
      active: z.boolean().default(true),
    }),
    response: Coupon,
    errors: [409],
    handler: async (ctx, { body }) => couponJson(await coupons.createCoupon(ctx, body)),
  });

  const couponId = z.object({ id: idParam("Invalid coupon id") });

  r.add({
    method: "POST",
    path: "/admin/coupons/{id}/toggle",
    tag: "admin",
    summary: "Activates or deactivates a coupon",
    access: "admin",
    params: couponId,
    response: Coupon,
    handler: async (ctx, { params }) => couponJson(await coupons.toggleCoupon(ctx, params.id)),
  });

  r.add({
    method: "DELETE",
    path: "/admin/coupons/{id}",
    tag: "admin",
    summary: "Deletes a coupon",
    access: "admin",
    params: couponId,
    response: Ok,
    handler: async (ctx, { params }) => {
      await coupons.deleteCoupon(ctx, params.id);
      return { ok: true as const };
    },
  });
}
