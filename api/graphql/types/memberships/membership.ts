/**
 * GraphQL types of memberships and orders (spec §3 shapes, §4 states). Their lists are in ./portal-schema.ts
 * (the member's own) and ./memberships-schema.ts (a business's, the admin table); actions in ./mutations-schema.ts.
 */
import type { ServiceContext } from "../../../context.ts";
import { builder } from "../../builder.ts";
import { OrderKind, SubscriptionStatus } from "../../../generated/prisma/enums.ts";
import { addressSchema } from "../../../users/service.ts";
import { AddressRef } from "../users.ts";
import { FulfillmentModeEnum } from "../catalog.ts";
import { canReadMembership, canReadOrder } from "../../../auth/read-rules.ts";
import * as skips from "../../../subscriptions/skips.ts";
import * as timing from "../../../subscriptions/timing.ts";
import { orderSelectionView, orderStatus, type OrderStatus } from "../../../billing/orders.ts";
import { itemiseOrder } from "../../../billing/breakdown.ts";
import { scheduledChangeBreakdown } from "../../../billing/renewals/pricing.ts";
import { PriceBreakdownRef } from "../price-breakdown.ts";
import { preloadedChange } from "../../../subscriptions/member-reads.ts";
import { covers } from "../../../selection-sql/index.ts";
import { soldOutForChange, type SoldOut } from "../../../catalog/capacity.ts";
import type { ListStatusFilter } from "../../../subscriptions/memberships-list.ts";

// ---------------------------------------------------------------------------------------------------------
// Enums

const MembershipStatusEnum = builder.enumType(SubscriptionStatus, {
  name: "MembershipStatus",
  description: "ACTIVE and PAST_DUE are current members; INCOMPLETE is a checkout that was never paid.",
});

const OrderKindEnum = builder.enumType(OrderKind, { name: "OrderKind" });
const OrderStatusEnum = builder.enumType("OrderStatus", {
  values: {
    PAID: { description: "Paid in full." },
    PARTLY_REFUNDED: { description: "Part of the payment was given back." },
    REFUNDED: { description: "The whole payment was given back." },
  } as const satisfies Record<OrderStatus, { description: string }>,
});

export const MembershipStatusFilterEnum = builder.enumType("MembershipStatusFilter", {
  values: {
    ANY: { description: "Every membership (never-paid checkouts excluded)." },
    ACTIVE: { description: "Current members: ACTIVE and PAST_DUE." },
    PAST_DUE: { description: "Current members whose last renewal failed and is being retried." },
    CANCELED: {},
    PAUSED: { description: "ACTIVE memberships whose next box's month is skipped (pausedThrough is set: 'Paused until …')." },
    ENDING: { description: "Current members (ACTIVE and PAST_DUE) with a cancel scheduled (cancelAfterPeriod is set: 'Ends after …')." },
  } as const satisfies Record<ListStatusFilter, object>,
});

// ---------------------------------------------------------------------------------------------------------
// Membership (the Subscription model; "Subscription" is GraphQL's reserved root type name)

const businessTiming = { business: { select: { timeZone: true, page: { select: timing.timingSelect } } } } as const;
/** The months skipped, in the order of the skips field, so the two selections merge into one load. */
const skippedMonths = { skips: { select: { yearMonth: true }, orderBy: { yearMonth: "asc" } } } as const;

const WindowStateRef = builder.objectRef<timing.WindowView>("MembershipWindow").implement({
  description: "A monthly skip or change window as of today in the business's time zone (spec §4).",
  fields: (t) => ({
    open: t.exposeBoolean("open"),
    startDay: t.exposeInt("startDay"),
    endDay: t.exposeInt("endDay"),
    opensOn: t.exposeString("opensOn", { description: "ISO date the current (or next) window opens." }),
    closesOn: t.exposeString("closesOn", { description: "ISO date this month's window closes, or next month's once past the end day." }),
  }),
});

const SkipTargetRef = builder.objectRef<skips.SkipTarget>("MembershipSkipTarget").implement({
  description: "What 'Skip a month' does today: the same rule skipMonth applies (spec §4 skip).",
  fields: (t) => ({
    month: t.exposeString("month", { description: "YYYY-MM the skip pauses: the next box's month, never one already paid for." }),
    resumeDate: t.exposeString("resumeDate", { description: "ISO date payments resume after that month ('Payments paused until …')." }),
    skipped: t.exposeBoolean("skipped", { description: "That month is already skipped." }),
    allowed: t.exposeBoolean("allowed", { description: "A skip now is accepted: active, inside the skip window, month not yet skipped." }),
  }),
});

builder.prismaObject("SubscriptionAddon", {
  name: "MembershipAddon",
  fields: (t) => ({
    name: t.string({ select: { addon: { select: { name: true } } }, resolve: (a) => a.addon.name }),
    amountCents: t.exposeInt("amountCents", { description: "Price when chosen." }),
    addon: t.relation("addon"),
  }),
});

export const SkipObject = builder.prismaObject("Skip", {
  fields: (t) => ({
    yearMonth: t.exposeString("yearMonth", { description: "YYYY-MM" }),
    businessSlug: t.string({
      select: { subscription: { select: { business: { select: { slug: true } } } } },
      resolve: (s) => s.subscription.business.slug,
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

builder.prismaObject("SubscriptionChange", {
  name: "PendingMembershipChange",
  description: "A selection scheduled for the next billing cycle; nothing is charged until then.",
  fields: (t) => ({
    breakdown: t.field({
      type: PriceBreakdownRef,
      nullable: true,
      description:
        "What the change will cost a month, line by line, priced as the renewal that applies it will price it (today's prices, the coupon while " +
        "active, the business's tax); null when the plan no longer has a price for the mode (the renewal then keeps the current selection).",
      select: { subscriptionId: true, planId: true, mode: true, fulfillmentPoint: true, addonIds: true, effectivePeriod: true },
      resolve: (c, _a, ctx) => scheduledChangeBreakdown(ctx, c),
    }),
    plan: t.prismaField({
      type: "Plan",
      // Loaded with the membership by the portal's reads (member-reads.ts) when only the plan's own fields are asked.
      resolve: (query, c, _a, ctx) => {
        const loaded = preloadedChange(c)?.plan;
        return loaded && covers("Plan", query, {}) ? loaded : ctx.db.plan.findUniqueOrThrow({ ...query, where: { id: c.planId } });
      },
    }),
    mode: t.expose("mode", { type: FulfillmentModeEnum }),
    fulfillmentPoint: t.exposeString("fulfillmentPoint", { description: "The pickup point or delivery area from the change on (empty for shipping)." }),
    addons: t.prismaField({
      type: ["Addon"],
      // findUnique per id, not findMany: Prisma batches the findUniques of sibling changes into one statement (no N+1).
      resolve: async (query, c, _a, ctx) => {
        const loaded = preloadedChange(c)?.addons;
        if (loaded && covers("Addon", query, {})) return loaded.filter((a) => c.addonIds.includes(a.id));
        const rows = await Promise.all(c.addonIds.map((id) => ctx.db.addon.findUnique({ ...query, where: { id } })));
        return rows.filter((a) => a !== null).sort((a, b) => a.position - b.position || a.id - b.id);
      },
    }),
    effectivePeriod: t.exposeString("effectivePeriod", { description: "First billing period (YYYY-MM) with the new selection." }),
  }),
});

const PlanSoldOutRef = builder.objectRef<SoldOut & { planRef: string }>("PlanSoldOut").implement({
  description: "What one plan has no place left in, for one member (Membership.soldOutForChange).",
  fields: (t) => ({
    planRef: t.exposeString("planRef"),
    soldOut: t.boolean({ description: "The plan as a whole.", resolve: (p) => p.plan }),
    soldOutModes: t.field({ type: [FulfillmentModeEnum], description: "The offered modes with no place left.", resolve: (p) => p.modes }),
  }),
});

/**
 * Members' addresses (with their phones) and gift messages are fulfilment data: a partner token reads them
 * only with the fulfilment:read scope (refused, naming it, otherwise); everyone else by the row's own read rule.
 */
export const fulfilmentDataScopes = (row: { businessId: number }, ctx: ServiceContext) =>
  ctx.actor.kind === "partner" ? { business: { id: row.businessId, permission: "readFulfilment" as const } } : true;

export const MembershipNode = builder.prismaNode("Subscription", {
  variant: "Membership",
  id: { field: "id" },
  // Select mode: each field names the columns it reads, so a list's statement reads only what the query asks.
  // Always read: the read rule's userId and businessId, the portal's order (member-reads.ts PortalRow), and the
  // admin table's own columns. Fields of these columns read the row as it is (t.int/t.field, not expose: in
  // select mode every expose is a field with a selection, which Pothos checks against its loader for each row).
  select: { id: true, userId: true, businessId: true, status: true, startedAt: true, canceledAt: true, providerSubscriptionId: true },
  // The member, or readMemberships in its business (staff, administrators, its partner tokens). Run once per
  // row (as its isTypeOf), not once per field of every row.
  authScopes: (sub, ctx) => canReadMembership(ctx, sub),
  runScopesOnType: true,
  fields: (t) => ({
    databaseId: t.int({ resolve: (s) => s.id }),
    status: t.field({ type: MembershipStatusEnum, resolve: (s) => s.status }),
    business: t.relation("business"),
    plan: t.relation("plan"),
    planName: t.string({ select: { plan: { select: { name: true } } }, resolve: (s) => s.plan.name }),
    mode: t.expose("mode", { type: FulfillmentModeEnum }),
    fulfillmentPoint: t.exposeString("fulfillmentPoint", { description: "The chosen pickup point (PICKUP) or delivery area (DELIVERY); empty for shipping." }),
    addons: t.relation("addons"),
    planAmountCents: t.exposeInt("planAmountCents"),
    addonsAmountCents: t.exposeInt("addonsAmountCents"),
    discountCents: t.exposeInt("discountCents"),
    taxCents: t.exposeInt("taxCents"),
    totalCents: t.exposeInt("totalCents", { description: "Charged each period: plan + add-ons − discount + tax." }),
    billingDay: t.exposeInt("billingDay"),
    isGift: t.exposeBoolean("isGift"),
    giftMessage: t.exposeString("giftMessage", {
      description: "The message packed with a gift box (empty when none). Partner tokens: with fulfilment:read only.",
      authScopes: (s, _a, ctx) => fulfilmentDataScopes(s, ctx),
    }),
    deliveryAddress: t.field({
      type: AddressRef,
      nullable: true,
      authScopes: (s, _a, ctx) => fulfilmentDataScopes(s, ctx),
      description: "Where this membership's boxes go (shipping and delivery; null for pickup): changeMembershipAddress changes it. Partner tokens: with fulfilment:read only.",
      select: { mode: true, address: true },
      resolve: (s) => {
        if (s.mode === "PICKUP" || !s.address) return null;
        const parsed = addressSchema.safeParse(s.address);
        return parsed.success ? parsed.data : null;
      },
    }),
    providerSubscriptionId: t.string({ nullable: true, resolve: (s) => s.providerSubscriptionId }),
    paidThroughPeriod: t.exposeString("paidThroughPeriod", { nullable: true, description: "Last period (YYYY-MM) paid for." }),
    startedAt: t.field({ type: "DateTime", resolve: (s) => s.startedAt }),
    canceledAt: t.field({ type: "DateTime", nullable: true, resolve: (s) => s.canceledAt }),
    username: t.string({ select: { user: { select: { username: true } } }, resolve: (s) => s.user.username }),
    userPublicId: t.string({ select: { user: { select: { publicId: true } } }, resolve: (s) => s.user.publicId }),
    memberName: t.string({ nullable: true, select: { user: { select: { name: true } } }, resolve: (s) => s.user.name }),
    email: t.string({ nullable: true, select: { email: true, user: { select: { email: true } } }, resolve: (s) => s.email ?? s.user.email }),
    skips: t.relation("skips", { query: { orderBy: skippedMonths.skips.orderBy } }),
    pendingChange: t.relation("pendingChange", { nullable: true }),
    nextBoxDate: t.string({
      description: "ISO date of the next box (spec §4), in the business's time zone.",
      select: { ...businessTiming, ...skippedMonths, firstPeriod: true },
      resolve: (s, _a, ctx) => timing.nextBoxDateOf(ctx, s),
    }),
    skipTarget: t.field({
      type: SkipTargetRef,
      description: "The month 'Skip a month' pauses today, with the resume date, and whether it is skipped or may be.",
      select: { ...businessTiming, paidThroughPeriod: true, ...skippedMonths },
      resolve: (s, _a, ctx) => skips.skipTargetOf(ctx, s),
    }),
    pausedThrough: t.string({
      nullable: true,
      description:
        "YYYY-MM: the last month of the membership's pause, the run of consecutive skipped months from the month a skip now pauses " +
        "(skipTarget.month; a single skipped month is a pause of one); null when that month is not skipped or the membership is not current.",
      select: { ...businessTiming, paidThroughPeriod: true, ...skippedMonths },
      resolve: (s, _a, ctx) => skips.pauseViewOf(ctx, s)?.pausedThrough ?? null,
    }),
    resumeDate: t.string({
      nullable: true,
      description: "ISO date of the first box after the pause (the box-ready day of the month after pausedThrough: 'Paused until …'); null when not paused.",
      select: { ...businessTiming, paidThroughPeriod: true, ...skippedMonths },
      resolve: (s, _a, ctx) => skips.pauseViewOf(ctx, s)?.resumeDate ?? null,
    }),
    skipWindow: t.field({
      type: WindowStateRef,
      select: businessTiming,
      resolve: (s, _a, ctx) => timing.windowOf(ctx, s.business, "skipWindow"),
    }),
    changeWindow: t.field({
      type: WindowStateRef,
      select: businessTiming,
      resolve: (s, _a, ctx) => timing.windowOf(ctx, s.business, "changeWindow"),
    }),
    soldOutForChange: t.field({
      type: [PlanSoldOutRef],
      description:
        "For changing this membership's box: what each plan of its business has no place left in for this member, as Plan.soldOut and " +
        "Plan.soldOutModes say for a visitor, except that the places the membership holds (its plan and mode, its scheduled change) need none again.",
      select: { planId: true, mode: true, pendingChange: { select: { planId: true, mode: true } } },
      resolve: (s, _a, ctx) => soldOutForChange(ctx.db, s),
    }),
    orders: t.relatedConnection("orders", {
      cursor: "id",
      defaultSize: 20,
      maxSize: 100,
      query: () => ({ orderBy: [{ createdAt: "desc" }, { id: "desc" }] }),
    }),
  }),
});

// ---------------------------------------------------------------------------------------------------------
// Order

const OrderAddonRef = builder.objectRef<{ id: string | null; name: string; amountCents: number }>("OrderAddon").implement({
  fields: (t) => ({
    id: t.exposeString("id", { nullable: true, description: "Client-facing add-on id (addon_…)." }),
    name: t.exposeString("name"),
    amountCents: t.exposeInt("amountCents"),
  }),
});

export const OrderNode = builder.prismaNode("Order", {
  id: { field: "id" },
  authScopes: (order, ctx) => canReadOrder(ctx, order),
  runScopesOnType: true,
  fields: (t) => ({
    databaseId: t.exposeInt("id"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    kind: t.expose("kind", { type: OrderKindEnum }),
    period: t.exposeString("period", { description: "Billing period (YYYY-MM) paid for." }),
    business: t.relation("business"),
    membership: t.relation("subscription", { type: MembershipNode }),
    email: t.exposeString("email", { nullable: true }),
    address: t.field({
      type: AddressRef,
      nullable: true,
      description: "Where the order went (null for pickup). Partner tokens: with fulfilment:read only.",
      authScopes: (o, _a, ctx) => fulfilmentDataScopes(o, ctx),
      resolve: (o) => {
        const parsed = o.address ? addressSchema.safeParse(o.address) : null;
        return parsed?.success ? parsed.data : null;
      },
    }),
    selection: t.expose("selection", { type: "JSON", description: "Snapshot of what was ordered (spec §3 Order.selection)." }),
    planName: t.string({ nullable: true, resolve: (o) => orderSelectionView(o.selection).planName }),
    variationName: t.string({ nullable: true, resolve: (o) => orderSelectionView(o.selection).variationName }),
    mode: t.expose("mode", { type: FulfillmentModeEnum }),
    fulfillmentPoint: t.exposeString("fulfillmentPoint", { description: "The pickup point or delivery area this order goes to (empty for shipping)." }),
    addons: t.field({ type: [OrderAddonRef], resolve: (o) => orderSelectionView(o.selection).addons }),
    isGift: t.exposeBoolean("isGift"),
    subtotalCents: t.exposeInt("subtotalCents"),
    discountCents: t.exposeInt("discountCents"),
    taxCents: t.exposeInt("taxCents"),
    totalCents: t.exposeInt("totalCents"),
    refundedCents: t.exposeInt("refundedCents"),
    currency: t.exposeString("currency"),
    status: t.field({
      type: OrderStatusEnum,
      description: "Orders exist only for paid periods: PAID, or refunded in part or in full since.",
      resolve: (o) => orderStatus(o),
    }),
    breakdown: t.field({
      type: PriceBreakdownRef,
      description: "What was charged, line by line, from the order's own stored amounts and snapshot (never today's prices).",
      resolve: (o) => itemiseOrder(o),
    }),
  }),
});
