/** Spec §7 dashboards: a business's (anyone attached, administrators) and the platform's (administrators). */
import { z } from "zod";
import type { ServiceContext } from "../api/context.ts";
import * as businesses from "../api/businesses/service.ts";
import * as metrics from "../api/metrics/service.ts";
import { businessIdParams, type Router } from "./router.ts";
import { BusinessRef, statusWord } from "./rows.ts";

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
    metrics.recentSubscriptions(ctx, scope),
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

export function metricsRoutes(r: Router) {
  r.add({
    method: "GET",
    path: "/admin/businesses/{id}/metrics",
    tag: "admin",
    summary: "Business dashboard (anyone attached, administrators)",
    access: "admin",
    params: businessIdParams,
    response: z.object({ business: BusinessRef, totals: Totals, averages: Averages, recentSubscriptions: z.array(RecentSubscription) }),
    handler: async (ctx, { params }) => {
      const business = await businesses.businessById(ctx, params.id);
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
}
