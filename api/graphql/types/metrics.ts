import { builder } from "../builder.ts";
import { MembershipNode } from "./memberships/membership.ts";
import * as metrics from "../../metrics/service.ts";

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

const BusinessMetrics = builder.objectRef<metrics.MetricsScope>("BusinessMetrics").implement({
  interfaces: [DashboardMetrics],
  isTypeOf: (s) => (s as metrics.MetricsScope).businessId != null,
  fields: (t) => ({
    business: t.prismaField({
      type: "Business",
      resolve: (query, scope, _a, ctx) => ctx.db.business.findUniqueOrThrow({ ...query, where: { id: scope.businessId! } }),
    }),
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
