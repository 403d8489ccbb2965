/**
 * The member portal's reads (spec §4, REST §7): a member's own memberships in the portal's order, the one shown
 * per business, order history, skipped months, a membership's current selection, and the change flow from
 * §3 refs. Each owns its authorization, filter, order and limit; GraphQL passes its Pothos `query` through,
 * REST shapes the answer. The portal screen loads in one statement per list (api/selection-sql, JSON rows) whenever the
 * query asks for what that statement returns, through Prisma with the same query otherwise.
 *
 * Whose rows: the signed-in member's (requireMember), or, given `userId` (GraphQL User fields), that user's
 * for the user themself or an administrator. Which business: REST sessions are scoped to the request's tenant
 * (spec §7: the portal of /b/{slug} shows that business only); GraphQL has one login for every membership
 * (memberSessionScope "account"), so no tenant applies there.
 */
import type { ServiceContext } from "../context.ts";
import type { Order, Prisma, Skip, Subscription } from "../generated/prisma/client.ts";
import { requireMember } from "../auth/policy.ts";
import { MEMBER_STATUSES } from "../rules/member.ts";
import { canReadUser } from "../auth/read-rules.ts";
import { ForbiddenError, NotFoundError, UnauthenticatedError, ValidationError } from "../shared/errors.ts";
import { asksRelations, covers, loadRows, type Shape } from "../selection-sql/index.ts";
import { statusesOf } from "./memberships-list.ts";
import { portalMembershipsWhere, portalOrder } from "./portal.ts";
import * as subscriptions from "./service.ts";

type Query = { select?: Record<string, unknown> | null; include?: Record<string, unknown> | null };

/** Order history: newest first. The one order of GET /my/orders and the GraphQL orders connections. */
const NEWEST_ORDERS_FIRST = [{ createdAt: "desc" }, { id: "desc" }] satisfies Prisma.OrderOrderByWithRelationInput[];
const NEWEST_ORDERS_SQL = "t0.created_at DESC, t0.id DESC";
/** GET /my/orders answers at most this many. */
const MY_ORDERS_LIMIT = 200;
/** Skipped months: oldest first. */
const SKIPS_ORDER = [{ yearMonth: "asc" }, { id: "asc" }] satisfies Prisma.SkipOrderByWithRelationInput[];

/** The statuses the portal lists: the memberships list's "any" (every membership but a checkout never paid), as portalMembershipsWhere. */
const LISTED_STATUSES = statusesOf("ANY");

/** What one portal statement loads with a membership (the screen's MembershipRoute query asks for no more). */
const MEMBERSHIP_SHAPE: Shape = {
  relations: {
    business: { relations: { page: {}, nextBox: {} } },
    plan: {},
    user: {},
    addons: { relations: { addon: {} }, orderBy: (c) => `${c}.addon_id` },
    skips: { orderBy: (c) => `${c}.year_month, ${c}.id`, accepts: { yearMonth: "asc" } },
    // The coupon and its redemptions: the card's coupon terms ("20 % off · 1 month left").
    coupon: {},
    couponRedemptions: { orderBy: (c) => `${c}.id` },
    pendingChange: {
      // The scheduled plan and add-ons, read by PendingMembershipChange.plan / .addons without a load of their own.
      extras: {
        changePlan: { model: "Plan", list: false, where: (p, c) => `${c}.id = ${p}.plan_id` },
        changeAddons: { model: "Addon", list: true, where: (p, c) => `${c}.id = ANY(${p}.addon_ids)`, orderBy: (c) => `${c}.position, ${c}.id` },
      },
    },
  },
};
const ORDER_SHAPE: Shape = { relations: { business: {}, user: {} } };

/** Whose rows, and the business filter of a REST (tenant-scoped) request. */
function owner(ctx: ServiceContext, userId?: number): { userId: number; tenant: string | null } {
  if (userId === undefined) {
    const actor = requireMember(ctx);
    return { userId: actor.user.id, tenant: ctx.memberSessionScope === "account" ? null : ctx.tenant };
  }
  if (!canReadUser(ctx, { id: userId })) throw ctx.actor.kind === "anonymous" ? new UnauthenticatedError() : new ForbiddenError();
  return { userId, tenant: null };
}

// ---------------------------------------------------------------------------------------------------------
// Memberships

export interface MembershipsFilter {
  /** A user's (GraphQL User.subscriptions); the signed-in member's when absent. */
  userId?: number;
  businessSlug?: string | null;
  /** Spec §4: one membership per business, the first in the portal's order. */
  onePerBusiness?: boolean;
  /** Only the current shipping and delivery ones: their boxes travel to an address (the Profile asks which of them a new address applies to). */
  boxAddress?: boolean;
}

const ADDRESSED_MODES = ["SHIPPING", "DELIVERY"] as const;

/** The memberships in the portal's order (portal.ts compareForPortal), every status but INCOMPLETE. */
type PortalRow = Pick<Subscription, "id" | "businessId" | "providerSubscriptionId" | "status" | "startedAt">;

export async function memberships<T extends PortalRow = Subscription>(ctx: ServiceContext, filter: MembershipsFilter, query: Query = {}): Promise<T[]> {
  const who = owner(ctx, filter.userId);
  const slug = filter.businessSlug ?? who.tenant;
  let rows: T[];
  const statuses = filter.boxAddress ? MEMBER_STATUSES : LISTED_STATUSES;
  if (asksRelations("Subscription", query) && covers("Subscription", query, MEMBERSHIP_SHAPE)) {
    const params: unknown[] = [who.userId, statuses];
    const business = slug ? ` AND t0.business_id = (SELECT id FROM businesses WHERE slug = $${params.push(slug.toLowerCase())})` : "";
    const modes = filter.boxAddress ? ` AND t0.mode::text = ANY($${params.push(ADDRESSED_MODES)}::text[])` : "";
    rows = await loadRows<T>(ctx, "Subscription", query, MEMBERSHIP_SHAPE, { where: `t0.user_id = $1 AND t0.status::text = ANY($2::text[])${business}${modes}`, params });
  } else {
    const where = portalMembershipsWhere(who.userId, slug);
    rows = (await ctx.db.subscription.findMany({
      ...query,
      where: filter.boxAddress ? { ...where, status: { in: [...MEMBER_STATUSES] }, mode: { in: [...ADDRESSED_MODES] } } : where,
    })) as unknown as T[];
  }
  return portalOrder(rows, filter.onePerBusiness ?? false);
}

/** Spec §4: the member's membership shown at a business (one per business), or NotFound. */
async function memberAt<T extends PortalRow = Subscription>(ctx: ServiceContext, slug: string, query: Query = {}): Promise<T> {
  requireMember(ctx, slug.toLowerCase());
  const [sub] = await memberships<T>(ctx, { businessSlug: slug, onePerBusiness: true }, query);
  if (!sub) throw new NotFoundError("Subscription");
  return sub;
}

/** A scheduled change's plan and add-ons as loaded with its membership, or null when they were not. */
export function preloadedChange(change: object): { plan: Prisma.PlanGetPayload<object> | null; addons: Prisma.AddonGetPayload<object>[] } | null {
  const c = change as { changePlan?: Prisma.PlanGetPayload<object> | null; changeAddons?: Prisma.AddonGetPayload<object>[] };
  return c.changeAddons === undefined ? null : { plan: c.changePlan ?? null, addons: c.changeAddons };
}

// ---------------------------------------------------------------------------------------------------------
// Orders and skips

export interface OrdersPage extends Query {
  take?: number;
  skip?: number;
  cursor?: Prisma.OrderWhereUniqueInput;
}

/**
 * Order history, newest first: a user's (GraphQL User.orders), or the signed-in member's (REST, at most
 * MY_ORDERS_LIMIT, the tenant's business only when one is named).
 */
export async function orders<T = Order>(ctx: ServiceContext, filter: { userId?: number }, page: OrdersPage = {}): Promise<T[]> {
  const who = owner(ctx, filter.userId);
  const { take = MY_ORDERS_LIMIT, skip, cursor, ...query } = page;
  if (take >= 0 && (!cursor || typeof cursor.id === "number") && asksRelations("Order", query) && covers("Order", query, ORDER_SHAPE)) {
    const params: unknown[] = [who.userId];
    let where = "t0.user_id = $1";
    if (who.tenant) where += ` AND t0.business_id = (SELECT id FROM businesses WHERE slug = $${params.push(who.tenant)})`;
    if (cursor) where += ` AND (t0.created_at, t0.id) <= (SELECT created_at, id FROM orders WHERE id = $${params.push(cursor.id)}::int)`;
    return loadRows<T>(ctx, "Order", query, ORDER_SHAPE, { where, params, orderBy: NEWEST_ORDERS_SQL, limit: take, offset: skip });
  }
  return (await ctx.db.order.findMany({
    ...query,
    take,
    skip,
    cursor,
    where: { userId: who.userId, ...(who.tenant ? { business: { slug: who.tenant } } : {}) },
    orderBy: NEWEST_ORDERS_FIRST,
  })) as unknown as T[];
}

/** Months skipped across the memberships, oldest first (the tenant's business only on REST). */
export async function skips<T = Skip>(ctx: ServiceContext, filter: { userId?: number }, query: Query = {}): Promise<T[]> {
  const who = owner(ctx, filter.userId);
  return (await ctx.db.skip.findMany({
    ...query,
    where: { subscription: { userId: who.userId, ...(who.tenant ? { business: { slug: who.tenant } } : {}) } },
    orderBy: SKIPS_ORDER,
  })) as unknown as T[];
}

// ---------------------------------------------------------------------------------------------------------
// The change flow

const selectionSelect = {
  mode: true,
  planAmountCents: true,
  business: { select: { slug: true } },
  plan: { select: { ref: true, name: true } },
  addons: { select: { amountCents: true, addon: { select: { ref: true, name: true } } } },
} as const satisfies Prisma.SubscriptionSelect;

/** The member's own membership's current selection (REST /my/subscriptions/{id}/config). */
export async function selectionOf(ctx: ServiceContext, id: number): Promise<Prisma.SubscriptionGetPayload<{ select: typeof selectionSelect }>> {
  const own = await subscriptions.ownSubscription(ctx, id);
  return ctx.db.subscription.findUniqueOrThrow({ where: { id: own.id }, select: selectionSelect });
}

export interface SelectionRefs {
  /** Plan ref (item_…). */
  planRef: string;
  mode: "PICKUP" | "SHIPPING" | "DELIVERY";
  /** Add-on refs (addon_…). */
  addonRefs: string[];
  /** The spec selection's pickupAddress (a pickup point) and fulfillmentDetails (a point or area when it names one). */
  fulfillmentPoint?: string;
  fulfillmentDetails?: string;
}

/** Schedules a change of the membership shown at `slug` from §3 refs: the catalogue's ids, then changeSubscription. */
export async function changeByRefs(ctx: ServiceContext, slug: string, refs: SelectionRefs) {
  const sub = await memberAt<PortalRow>(ctx, slug, { select: { id: true, businessId: true, providerSubscriptionId: true, status: true, startedAt: true } });
  const [plan, addons] = await Promise.all([
    ctx.db.plan.findUnique({ where: { businessId_ref: { businessId: sub.businessId, ref: refs.planRef } }, select: { id: true } }),
    ctx.db.addon.findMany({ where: { businessId: sub.businessId, ref: { in: refs.addonRefs } }, select: { id: true } }),
  ]);
  if (!plan) throw new ValidationError("This package is not available", [{ path: "selection.chosenItemId", message: "This package is not available" }]);
  if (addons.length !== new Set(refs.addonRefs).size) throw new ValidationError("An add-on is not available", [{ path: "selection.chosenAddons", message: "An add-on is not available" }]);
  return subscriptions.changeSubscription(ctx, {
    subscriptionId: sub.id,
    planId: plan.id,
    mode: refs.mode,
    addonIds: addons.map((a) => a.id),
    fulfillmentPoint: refs.fulfillmentPoint,
    fulfillmentDetails: refs.fulfillmentDetails,
  });
}
