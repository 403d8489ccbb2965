import { builder } from "../builder.ts";
import { MembershipNode } from "./memberships/membership.ts";
import { CancellationReasonEnum } from "./memberships/cancellation.ts";
import type { CancellationReason } from "../../generated/prisma/enums.ts";
import * as metrics from "../../metrics/service.ts";
import * as outlook from "../../metrics/outlook.ts";

const Totals = builder.objectRef<metrics.Totals>("MetricsTotals").implement({
  fields: (t) => ({
    subscriptionsAll: t.exposeInt("subscriptionsAll", { description: "Every membership that was ever paid (active, past due, canceled)." }),
    subscriptionsActive: t.exposeInt("subscriptionsActive", { description: "ACTIVE and PAST_DUE." }),
    subscriptionsCanceled: t.exposeInt("subscriptionsCanceled"),
    totalRevenueCents: t.exposeInt("totalRevenueCents", { description: "Paid orders' totals minus refunds." }),
  }),
});

const Averages = builder.objectRef<{ subscriptionPriceCents: number }>("MetricsAverages").implement({
  fields: (t) => ({
    subscriptionPriceCents: t.exposeInt("subscriptionPriceCents", { description: "Average monthly total of active memberships." }),
  }),
});

const BusinessCount = builder.objectRef<metrics.BusinessCount>("BusinessMembershipCount").implement({
  fields: (t) => ({
    businessId: t.exposeInt("businessId"),
    businessSlug: t.exposeString("businessSlug"),
    businessName: t.exposeString("businessName"),
    count: t.exposeInt("count"),
  }),
});

const MonthlyPoint = builder.objectRef<metrics.MonthlyPoint>("MonthlyMetric").implement({
  fields: (t) => ({
    yearMonth: t.exposeString("yearMonth", { description: "YYYY-MM" }),
    activeMembers: t.exposeInt("activeMembers", { description: "Memberships active at some point in the month." }),
    revenueCents: t.exposeInt("revenueCents", { description: "Orders for this billing period, minus refunds." }),
  }),
});

const MonthFigures = builder.objectRef<metrics.MonthFigures>("MonthMetrics").implement({
  description: "Recurring revenue and churn for the current month (the scope's time zone).",
  fields: (t) => ({
    yearMonth: t.exposeString("yearMonth"),
    mrrCents: t.exposeInt("mrrCents", { description: "What active memberships charge per period." }),
    activeAtStart: t.exposeInt("activeAtStart"),
    canceledThisMonth: t.exposeInt("canceledThisMonth"),
    churnRate: t.exposeFloat("churnRate", { description: "canceledThisMonth / activeAtStart (0 to 1)." }),
  }),
});

/**
 * What both dashboards show. Each field reads only what it needs, so a query pays only for what it asks; fields
 * whose figures come from the same rows share one statement (api/metrics/service.ts).
 */
const DashboardMetrics = builder.interfaceRef<metrics.MetricsScope>("DashboardMetrics").implement({
  fields: (t) => ({
    totals: t.field({ type: Totals, resolve: (scope, _a, ctx) => metrics.totals(ctx, scope) }),
    averages: t.field({ type: Averages, resolve: (scope, _a, ctx) => metrics.averages(ctx, scope) }),
    thisMonth: t.field({ type: MonthFigures, resolve: (scope, _a, ctx) => metrics.thisMonth(ctx, scope) }),
    recentSubscriptions: t.prismaField({
      type: [MembershipNode],
      description: `The ${metrics.RECENT_COUNT} newest memberships.`,
      resolve: (query, scope, _a, ctx) => metrics.recentSubscriptions(ctx, scope, query),
    }),
    monthly: t.field({
      type: [MonthlyPoint],
      description: `The last ${metrics.MONTHS_IN_SERIES} months, oldest first (chart series).`,
      resolve: (scope, _a, ctx) => metrics.monthly(ctx, scope),
    }),
  }),
});

const AdminMetrics = builder.objectRef<metrics.MetricsScope>("AdminMetrics").implement({
  interfaces: [DashboardMetrics],
  isTypeOf: (s) => (s as metrics.MetricsScope).businessId == null,
  fields: (t) => ({
    subscriptionsByBusiness: t.field({ type: [BusinessCount], resolve: (scope, _a, ctx) => metrics.subscriptionsByBusiness(ctx, scope) }),
  }),
});

const NextBillingRun = builder.objectRef<outlook.NextBillingRun>("NextBillingRun").implement({
  description: "The next renewal pass that charges memberships of the business for the first time in a period (past-due retries aside).",
  fields: (t) => ({
    date: t.exposeString("date", { description: "ISO date, in the business's time zone." }),
    period: t.exposeString("period", { description: "YYYY-MM: the period it charges." }),
    memberships: t.exposeInt("memberships", { description: "Memberships it charges (skipped months excluded)." }),
    amountCents: t.exposeInt("amountCents", { description: "Expected charges: the renewal's pricing, scheduled changes taking effect and coupons included." }),
    changes: t.exposeInt("changes", { description: "Of those memberships, the ones whose scheduled change takes effect with it." }),
  }),
});

const MonthBoxes = builder.objectRef<outlook.MonthBoxes>("MonthBoxes").implement({
  description: "This month's boxes to pack, as the Fulfilment screen counts them.",
  fields: (t) => ({
    month: t.exposeString("month", { description: "YYYY-MM, in the business's time zone (the Fulfilment screen's month)." }),
    boxes: t.exposeInt("boxes", { description: "Boxes to pack (without a hold)." }),
    held: t.exposeInt("held", { description: "Boxes held: the month's charge failed." }),
    frozen: t.exposeBoolean("frozen", { description: "The month's packing snapshot is frozen." }),
    addedSinceFreeze: t.exposeInt("addedSinceFreeze", {
      description: "Frozen: boxes paid for after the freeze (the Fulfilment screen's differences), not counted in boxes; 0 while open.",
    }),
  }),
});

const PastDueMembership = builder.objectRef<outlook.PastDueMembership>("PastDueMembership").implement({
  fields: (t) => ({
    membershipId: t.exposeInt("membershipId", { description: "The membership's numeric id (admin URLs)." }),
    fullName: t.exposeString("fullName", { nullable: true, description: "The member's full name; null when they have given none." }),
    username: t.exposeString("username"),
    owedPeriod: t.exposeString("owedPeriod", { description: "YYYY-MM: the period it owes, which its retries charge." }),
    attempts: t.exposeInt("attempts", { description: "Attempts at that period so far." }),
    nextRetryAt: t.expose("nextRetryAt", { type: "DateTime", nullable: true, description: "When the renewal run tries it again; null: no retry scheduled." }),
    nextRetryDate: t.exposeString("nextRetryDate", { nullable: true, description: "nextRetryAt's ISO date in the business's time zone." }),
  }),
});

const PastDueList = builder.objectRef<outlook.PastDueList>("PastDueMemberships").implement({
  fields: (t) => ({
    total: t.exposeInt("total"),
    memberships: t.field({
      type: [PastDueMembership],
      description: `The first ${outlook.PAST_DUE_SHOWN}, the soonest retry first.`,
      resolve: (l) => l.memberships,
    }),
  }),
});

const ReasonCount = builder.objectRef<{ reason: string; count: number }>("CancellationReasonCount").implement({
  fields: (t) => ({
    reason: t.field({ type: CancellationReasonEnum, resolve: (r) => r.reason as CancellationReason }),
    count: t.exposeInt("count"),
  }),
});

const CancellationRequestCounts = builder.objectRef<metrics.CancellationRequestCounts>("CancellationRequestCounts").implement({
  description: "Members' own requests to cancel this month (self-service pages): why, and what the retention offers did.",
  fields: (t) => ({
    requests: t.exposeInt("requests"),
    offersShown: t.exposeInt("offersShown", { description: "Requests answered with at least one retention offer." }),
    offersAccepted: t.exposeInt("offersAccepted", { description: "Requests where the member took an offer and stayed." }),
    cancelsScheduled: t.exposeInt("cancelsScheduled", { description: "Requests that went on to a cancel (scheduled, or carried out)." }),
    byReason: t.field({ type: [ReasonCount], description: "The most given reason first.", resolve: (c) => c.byReason }),
  }),
});

const MonthMovements = builder.objectRef<metrics.MonthMovements>("MonthMovements").implement({
  description: "New memberships and cancellations of this month (the business's time zone).",
  fields: (t) => ({
    yearMonth: t.exposeString("yearMonth"),
    newMembers: t.exposeInt("newMembers", { description: "Memberships started this month (canceled since or not)." }),
    canceled: t.exposeInt("canceled", { description: "Memberships canceled this month (and still canceled)." }),
    cancellationRequests: t.field({ type: CancellationRequestCounts, resolve: (m) => m.cancellationRequests }),
  }),
});

const RecurringRevenue = builder.objectRef<metrics.RecurringRevenue>("RecurringRevenue").implement({
  description: "Monthly recurring revenue and its change since the end of last month (docs/admin.md, Business dashboard).",
  fields: (t) => ({
    mrrCents: t.exposeInt("mrrCents", { description: "The monthly totals of the memberships active now (active and past due)." }),
    previousMonth: t.exposeString("previousMonth", { description: "YYYY-MM: last month, in the business's time zone." }),
    previousMonthEndCents: t.exposeInt("previousMonthEndCents", {
      description: "MRR at the end of last month: what the memberships active then charged for it (their monthly total without a charge for it).",
    }),
    changeCents: t.exposeInt("changeCents", { description: "mrrCents - previousMonthEndCents." }),
  }),
});

const BusinessMetrics = builder.objectRef<metrics.MetricsScope>("BusinessMetrics").implement({
  interfaces: [DashboardMetrics],
  isTypeOf: (s) => (s as metrics.MetricsScope).businessId != null,
  fields: (t) => ({
    business: t.prismaField({
      type: "Business",
      resolve: (query, scope, _a, ctx) => ctx.db.business.findUniqueOrThrow({ ...query, where: { id: scope.businessId! } }),
    }),
    nextBillingRun: t.field({
      type: NextBillingRun,
      nullable: true,
      description: "The next renewal pass that charges memberships (null: no ACTIVE membership to renew).",
      resolve: (scope, _a, ctx) => outlook.nextBillingRun(ctx, scope),
    }),
    boxesThisMonth: t.field({ type: MonthBoxes, resolve: (scope, _a, ctx) => outlook.boxesThisMonth(ctx, scope) }),
    pastDue: t.field({ type: PastDueList, resolve: (scope, _a, ctx) => outlook.pastDueMemberships(ctx, scope) }),
    membersThisMonth: t.field({ type: MonthMovements, resolve: (scope, _a, ctx) => metrics.membersThisMonth(ctx, scope) }),
    recurringRevenue: t.field({ type: RecurringRevenue, resolve: (scope, _a, ctx) => metrics.recurringRevenue(ctx, scope) }),
  }),
});

builder.queryFields((t) => ({
  adminMetrics: t.field({
    type: AdminMetrics,
    authScopes: { admin: true },
    description: "Platform dashboard (admins).",
    resolve: (_p, _a, ctx) => metrics.adminScope(ctx),
  }),
}));

builder.prismaObjectFields("Business", (t) => ({
  metrics: t.field({
    type: BusinessMetrics,
    description: "Business dashboard (viewDashboard: staff of the business, administrators).",
    authScopes: (b) => ({ business: { id: b.id, permission: "viewDashboard" } }),
    // The scope's time zone from the business row already read, not a second read of it.
    select: { timeZone: true },
    resolve: (b, _a, ctx) => metrics.businessScopeOf(ctx, b),
  }),
}));
