import { builder } from "../graphql/builder.ts";
import { payloadQuery } from "../graphql/payload-query.ts";
import { RULE_ERRORS } from "../graphql/errors.ts";
import { numericId } from "../graphql/ids.ts";
import { OrderKind, SubscriptionStatus } from "../generated/prisma/enums.ts";
import { addressSchema } from "../users/service.ts";
import { AddressRef } from "../users/schema.ts";
import { FulfillmentModeEnum } from "../catalog/schema.ts";
import { canReadMembership, canReadOrder } from "../auth/read-rules.ts";
import * as subscriptions from "./service.ts";
import { orderSelectionView } from "./orders.ts";

// ---------------------------------------------------------------------------------------------------------
// Enums

export const MembershipStatusEnum = builder.enumType(SubscriptionStatus, {
  name: "MembershipStatus",
  description: "ACTIVE and PAST_DUE are current members; INCOMPLETE is a checkout that was never paid.",
});

export const OrderKindEnum = builder.enumType(OrderKind, { name: "OrderKind" });

export const MembershipStatusFilterEnum = builder.enumType("MembershipStatusFilter", {
  values: {
    ANY: { description: "Every membership (never-paid checkouts excluded)." },
    ACTIVE: { description: "Current members: ACTIVE and PAST_DUE." },
    PAST_DUE: { description: "Current members whose last renewal failed and is being retried." },
    CANCELED: {},
  } as const,
});

// ---------------------------------------------------------------------------------------------------------
// Membership (the Subscription model; "Subscription" is GraphQL's reserved root type name)

const businessTiming = { business: { select: { timeZone: true, page: { select: subscriptions.timingSelect } } } } as const;

const WindowStateRef = builder.objectRef<subscriptions.WindowView>("MembershipWindow").implement({
  description: "A monthly skip or change window as of today in the business's time zone (spec §4).",
  fields: (t) => ({
    open: t.exposeBoolean("open"),
    startDay: t.exposeInt("startDay"),
    endDay: t.exposeInt("endDay"),
    opensOn: t.exposeString("opensOn", { description: "ISO date the current (or next) window opens." }),
    closesOn: t.exposeString("closesOn", { description: "ISO date this month's window closes, or next month's once past the end day." }),
  }),
});

const SkipTargetRef = builder.objectRef<subscriptions.SkipTarget>("MembershipSkipTarget").implement({
  description: "What 'Skip a month' does today: the same rule skipMonth applies (spec §4 skip).",
  fields: (t) => ({
    month: t.exposeString("month", { description: "YYYY-MM the skip pauses: the next box's month, never one already paid for." }),
    resumeDate: t.exposeString("resumeDate", { description: "ISO date payments resume after that month ('Payments paused until …')." }),
    skipped: t.exposeBoolean("skipped", { description: "That month is already skipped." }),
    allowed: t.exposeBoolean("allowed", { description: "A skip now is accepted: active, inside the skip window, month not yet skipped." }),
  }),
});

export const MembershipAddon = builder.prismaObject("SubscriptionAddon", {
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

export const PendingChange = builder.prismaObject("SubscriptionChange", {
  name: "PendingMembershipChange",
  description: "A selection scheduled for the next billing cycle; nothing is charged until then.",
  fields: (t) => ({
    plan: t.prismaField({
      type: "Plan",
      resolve: (query, c, _a, ctx) => ctx.db.plan.findUniqueOrThrow({ ...query, where: { id: c.planId } }),
    }),
    mode: t.expose("mode", { type: FulfillmentModeEnum }),
    addons: t.prismaField({
      type: ["Addon"],
      // findUnique per id, not findMany: Prisma batches the findUniques of sibling changes into one statement (no N+1).
      resolve: async (query, c, _a, ctx) => {
        const rows = await Promise.all(c.addonIds.map((id) => ctx.db.addon.findUnique({ ...query, where: { id } })));
        return rows.filter((a) => a !== null).sort((a, b) => a.position - b.position || a.id - b.id);
      },
    }),
    effectivePeriod: t.exposeString("effectivePeriod", { description: "First billing period (YYYY-MM) with the new selection." }),
  }),
});

export const MembershipNode = builder.prismaNode("Subscription", {
  variant: "Membership",
  id: { field: "id" },
  // The member, or readMemberships in its business (staff, administrators, its partner tokens).
  authScopes: (sub, ctx) => canReadMembership(ctx, sub),
  fields: (t) => ({
    databaseId: t.exposeInt("id"),
    status: t.expose("status", { type: MembershipStatusEnum }),
    business: t.relation("business"),
    plan: t.relation("plan"),
    planName: t.string({ select: { plan: { select: { name: true } } }, resolve: (s) => s.plan.name }),
    mode: t.expose("mode", { type: FulfillmentModeEnum }),
    addons: t.relation("addons"),
    planAmountCents: t.exposeInt("planAmountCents"),
    addonsAmountCents: t.exposeInt("addonsAmountCents"),
    discountCents: t.exposeInt("discountCents"),
    taxCents: t.exposeInt("taxCents"),
    totalCents: t.exposeInt("totalCents", { description: "Charged each period: plan + add-ons − discount + tax." }),
    billingDay: t.exposeInt("billingDay"),
    isGift: t.exposeBoolean("isGift"),
    providerSubscriptionId: t.exposeString("providerSubscriptionId", { nullable: true }),
    paidThroughPeriod: t.exposeString("paidThroughPeriod", { nullable: true, description: "Last period (YYYY-MM) paid for." }),
    startedAt: t.expose("startedAt", { type: "DateTime" }),
    canceledAt: t.expose("canceledAt", { type: "DateTime", nullable: true }),
    username: t.string({ select: { user: { select: { username: true } } }, resolve: (s) => s.user.username }),
    userPublicId: t.string({ select: { user: { select: { publicId: true } } }, resolve: (s) => s.user.publicId }),
    memberName: t.string({ nullable: true, select: { user: { select: { name: true } } }, resolve: (s) => s.user.name }),
    email: t.string({ nullable: true, select: { user: { select: { email: true } } }, resolve: (s) => s.email ?? s.user.email }),
    skips: t.relation("skips", { query: { orderBy: { yearMonth: "asc" } } }),
    pendingChange: t.relation("pendingChange", { nullable: true }),
    nextBoxDate: t.string({
      description: "ISO date of the next box (spec §4), in the business's time zone.",
      select: { ...businessTiming, skips: { select: { yearMonth: true } } },
      resolve: (s, _a, ctx) => subscriptions.nextBoxDateOf(ctx, s),
    }),
    skipTarget: t.field({
      type: SkipTargetRef,
      description: "The month 'Skip a month' pauses today, with the resume date, and whether it is skipped or may be.",
      select: { ...businessTiming, paidThroughPeriod: true, skips: { select: { yearMonth: true } } },
      resolve: (s, _a, ctx) => subscriptions.skipTargetOf(ctx, s),
    }),
    skipWindow: t.field({
      type: WindowStateRef,
      select: businessTiming,
      resolve: (s, _a, ctx) => subscriptions.windowOf(ctx, s.business, "skipWindow"),
    }),
    changeWindow: t.field({
      type: WindowStateRef,
      select: businessTiming,
      resolve: (s, _a, ctx) => subscriptions.windowOf(ctx, s.business, "changeWindow"),
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
      resolve: (o) => {
        const parsed = o.address ? addressSchema.safeParse(o.address) : null;
        return parsed?.success ? parsed.data : null;
      },
    }),
    selection: t.expose("selection", { type: "JSON", description: "Snapshot of what was ordered (spec §3 Order.selection)." }),
    planName: t.string({ nullable: true, resolve: (o) => orderSelectionView(o.selection).planName }),
    variationName: t.string({ nullable: true, resolve: (o) => orderSelectionView(o.selection).variationName }),
    mode: t.expose("mode", { type: FulfillmentModeEnum }),
    addons: t.field({ type: [OrderAddonRef], resolve: (o) => orderSelectionView(o.selection).addons }),
    isGift: t.exposeBoolean("isGift"),
    subtotalCents: t.exposeInt("subtotalCents"),
    discountCents: t.exposeInt("discountCents"),
    taxCents: t.exposeInt("taxCents"),
    totalCents: t.exposeInt("totalCents"),
    refundedCents: t.exposeInt("refundedCents"),
    currency: t.exposeString("currency"),
  }),
});

// ---------------------------------------------------------------------------------------------------------
// Lists

builder.prismaObjectFields("User", (t) => ({
  subscriptions: t.prismaField({
    type: [MembershipNode],
    description:
      "The user's memberships, in the portal's order (spec §4): one with a payment-provider subscription id first, then active, then latest start.",
    args: {
      businessSlug: t.arg.string({ description: "Only memberships of this business." }),
      onePerBusiness: t.arg.boolean({ defaultValue: false, description: "Keep only the first membership of each business." }),
    },
    resolve: async (query, user, args, ctx) => {
      const rows = await ctx.db.subscription.findMany({
        ...query,
        where: subscriptions.portalMembershipsWhere(user.id, args.businessSlug),
      });
      return subscriptions.portalOrder(rows, args.onePerBusiness ?? false);
    },
  }),
  orders: t.relatedConnection("orders", {
    cursor: "id",
    defaultSize: 20,
    maxSize: 100,
    description: "Order history, newest first.",
    query: () => ({ orderBy: [{ createdAt: "desc" }, { id: "desc" }] }),
  }),
  skips: t.prismaField({
    type: [SkipObject],
    description: "Months the user skipped, across their memberships.",
    resolve: (query, user, _a, ctx) =>
      ctx.db.skip.findMany({ ...query, where: { subscription: { userId: user.id } }, orderBy: [{ yearMonth: "asc" }, { id: "asc" }] }),
  }),
}));

builder.prismaObjectFields("Business", (t) => ({
  memberships: t.relatedConnection("subscriptions", {
    type: MembershipNode,
    cursor: "id",
    defaultSize: 50,
    maxSize: 200,
    description: "Memberships of this business (readMemberships: staff, administrators, the business's partner tokens).",
    authScopes: (b) => ({ business: { id: b.id, permission: "readMemberships" } }),
    args: {
      search: t.arg.string(),
      status: t.arg({ type: MembershipStatusFilterEnum, defaultValue: "ANY" }),
    },
    query: (args) => ({
      where: { AND: [subscriptions.statusWhere(args.status), subscriptions.searchWhere(args.search)] },
      orderBy: subscriptions.membershipOrder,
    }),
  }),
  orders: t.relatedConnection("orders", {
    cursor: "id",
    defaultSize: 50,
    maxSize: 200,
    description: "Orders of this business, newest first (readMemberships).",
    authScopes: (b) => ({ business: { id: b.id, permission: "readMemberships" } }),
    query: () => ({ orderBy: [{ createdAt: "desc" }, { id: "desc" }] }),
  }),
}));

builder.queryFields((t) => ({
  memberships: t.prismaConnection({
    type: MembershipNode,
    cursor: "id",
    defaultSize: 50,
    maxSize: 200,
    description:
      "Memberships the viewer may read: every business for administrators, otherwise the businesses where they hold readMemberships (a partner token: its business).",
    authScopes: (_p, _a, ctx) => ctx.actor.kind !== "anonymous",
    args: {
      search: t.arg.string({ description: "Username, member name or email, business name or slug." }),
      status: t.arg({ type: MembershipStatusFilterEnum, defaultValue: "ANY" }),
      businessId: t.arg.int({ description: "Numeric business id (databaseId)." }),
    },
    // One keyset statement for the page's ids, then the rows with the fields the query selects.
    resolve: async (query, _p, args, ctx) => {
      const { take, skip, cursor, ...selection } = query as typeof query & { take: number; skip?: number; cursor?: { id: number } };
      const ids = await subscriptions.membershipPageIds(ctx, args, { take, skip, cursorId: cursor?.id });
      if (ids.length === 0) return [];
      return subscriptions.inIdOrder(ids, await ctx.db.subscription.findMany({ ...selection, where: { id: { in: ids } } }));
    },
  }),
}));

// ---------------------------------------------------------------------------------------------------------
// Mutations

const MembershipIdInput = (name: string) =>
  builder.inputType(name, {
    fields: (t) => ({ subscriptionId: t.id({ required: true, description: "Membership global id or numeric databaseId." }) }),
  });

const SkipMonthInput = MembershipIdInput("SkipMonthInput");
const RestartSubscriptionInput = MembershipIdInput("RestartSubscriptionInput");

const CancelModeEnum = builder.enumType("CancelMode", {
  values: { NOW: { description: "Ends access at once; no automatic refund." } } as const,
});

const CancelSubscriptionInput = builder.inputType("CancelSubscriptionInput", {
  fields: (t) => ({
    subscriptionId: t.id({ required: true, description: "Membership global id or numeric databaseId." }),
    mode: t.field({ type: CancelModeEnum, defaultValue: "NOW" }),
  }),
});

const ChangeSubscriptionInput = builder.inputType("ChangeSubscriptionInput", {
  fields: (t) => ({
    subscriptionId: t.id({ required: true, description: "Membership global id or numeric databaseId." }),
    planId: t.id({ required: true, description: "Plan global id or numeric databaseId." }),
    mode: t.field({ type: FulfillmentModeEnum, required: true }),
    addonIds: t.idList({ required: true, description: "Add-on global ids or numeric ids." }),
  }),
});

const SkipMonthPayload = builder.objectRef<subscriptions.SkipResult>("SkipMonthPayload").implement({
  fields: (t) => ({
    membership: t.prismaField({
      type: MembershipNode,
      resolve: (query, r, _a, ctx) => ctx.db.subscription.findUniqueOrThrow({ ...query, where: { id: r.subscriptionId } }),
    }),
    skippedMonth: t.exposeString("skippedMonth", { description: "YYYY-MM" }),
    resumeDate: t.exposeString("resumeDate", { description: "ISO date payments resume ('Payments paused until …')." }),
  }),
});

const RestartOutcomeEnum = builder.enumType("RestartOutcome", {
  values: {
    PAID: { description: "The current period was charged; the membership is active." },
    REACTIVATED: { description: "The current period was already paid; reactivated without a charge." },
    REQUIRES_ACTION: { description: "Confirm the payment with clientSecret in the card form; it activates once paid." },
  } as const,
});

const RestartSubscriptionPayload = builder.objectRef<subscriptions.RestartResult>("RestartSubscriptionPayload").implement({
  fields: (t) => ({
    outcome: t.field({ type: RestartOutcomeEnum, resolve: (r) => r.outcome }),
    membership: t.prismaField({
      type: MembershipNode,
      resolve: (query, r, _a, ctx) => ctx.db.subscription.findUniqueOrThrow({ ...query, where: { id: r.subscriptionId } }),
    }),
    orderId: t.int({ nullable: true, resolve: (r) => (r.outcome === "PAID" ? r.orderId : null) }),
    chargedCents: t.int({
      nullable: true,
      description: "Charged now (PAID), 0 when reactivated without a charge; null until a payment needing the card is confirmed.",
      resolve: (r) => (r.outcome === "REQUIRES_ACTION" ? null : r.chargedCents),
    }),
    period: t.string({ nullable: true, description: "YYYY-MM paid through (PAID, REACTIVATED).", resolve: (r) => (r.outcome === "REQUIRES_ACTION" ? null : r.period) }),
    nextBillingDate: t.string({
      nullable: true,
      description: "ISO date of the next charge (PAID, REACTIVATED).",
      resolve: (r) => (r.outcome === "REQUIRES_ACTION" ? null : r.nextBillingDate),
    }),
    clientSecret: t.string({ nullable: true, resolve: (r) => (r.outcome === "REQUIRES_ACTION" ? r.clientSecret : null) }),
    paymentIntentId: t.string({ nullable: true, resolve: (r) => (r.outcome === "REQUIRES_ACTION" ? r.paymentIntentId : null) }),
  }),
});

const ChangeQuoteRef = builder.objectRef<subscriptions.ChangeQuote>("MembershipChangeQuote").implement({
  description: "The monthly price a change renews at, tax included (the change dialog's quote; nothing is charged today).",
  fields: (t) => ({
    subtotalCents: t.int({ resolve: (q) => q.price.subtotalCents }),
    discountCents: t.int({ description: "The membership's coupon, while still active.", resolve: (q) => q.price.discountCents }),
    taxCents: t.int({ resolve: (q) => q.price.taxCents }),
    taxRatePercent: t.float({ description: "0 when the business charges no tax.", resolve: (q) => q.price.taxRateBps / 100 }),
    totalCents: t.int({ description: "Charged each period from effectivePeriod.", resolve: (q) => q.price.totalCents }),
    effectivePeriod: t.exposeString("effectivePeriod", { description: "First billing period (YYYY-MM) at this price." }),
  }),
});

builder.queryFields((t) => ({
  changeQuote: t.field({
    type: ChangeQuoteRef,
    errors: { types: RULE_ERRORS },
    description: "Member: price a new selection for their membership as the renewal will (tax and coupon included), without scheduling it.",
    args: { input: t.arg({ type: ChangeSubscriptionInput, required: true }) },
    resolve: (_p, { input }, ctx) =>
      subscriptions.quoteChange(ctx, {
        subscriptionId: numericId(input.subscriptionId, "Membership", "subscriptionId"),
        planId: numericId(input.planId, "Plan", "planId"),
        mode: input.mode,
        addonIds: input.addonIds.map((id) => numericId(id, "Addon", "addonIds")),
      }),
  }),
}));

builder.mutationFields((t) => ({
  skipMonth: t.field({
    type: SkipMonthPayload,
    errors: { types: RULE_ERRORS },
    description: "Member: pause the month of the next box (inside the business's skip window).",
    args: { input: t.arg({ type: SkipMonthInput, required: true }) },
    resolve: (_p, { input }, ctx) =>
      subscriptions.skipMonth(ctx, { subscriptionId: numericId(input.subscriptionId, "Membership", "subscriptionId") }),
  }),
  changeSubscription: t.prismaField({
    type: MembershipNode,
    errors: { types: RULE_ERRORS },
    description: "Member: schedule a new plan, fulfillment mode and add-ons from the next billing period (no charge now).",
    args: { input: t.arg({ type: ChangeSubscriptionInput, required: true }) },
    resolve: async (query, _p, { input }, ctx) => {
      const r = await subscriptions.changeSubscription(ctx, {
        subscriptionId: numericId(input.subscriptionId, "Membership", "subscriptionId"),
        planId: numericId(input.planId, "Plan", "planId"),
        mode: input.mode,
        addonIds: input.addonIds.map((id) => numericId(id, "Addon", "addonIds")),
      });
      return ctx.db.subscription.findUniqueOrThrow({ ...payloadQuery(query), where: { id: r.subscriptionId } });
    },
  }),
  cancelSubscription: t.prismaField({
    type: MembershipNode,
    errors: { types: RULE_ERRORS },
    description: "Business owner or administrator: cancel immediately (no automatic refund).",
    args: { input: t.arg({ type: CancelSubscriptionInput, required: true }) },
    resolve: async (query, _p, { input }, ctx) => {
      const r = await subscriptions.cancelSubscription(ctx, {
        subscriptionId: numericId(input.subscriptionId, "Membership", "subscriptionId"),
        mode: input.mode ?? "NOW",
      });
      return ctx.db.subscription.findUniqueOrThrow({ ...payloadQuery(query), where: { id: r.subscriptionId } });
    },
  }),
  restartSubscription: t.field({
    type: RestartSubscriptionPayload,
    errors: { types: RULE_ERRORS },
    description: "Member: restart a canceled membership, charging the current period now.",
    args: { input: t.arg({ type: RestartSubscriptionInput, required: true }) },
    resolve: (_p, { input }, ctx) =>
      subscriptions.restartSubscription(ctx, { subscriptionId: numericId(input.subscriptionId, "Membership", "subscriptionId") }),
  }),
}));
