/** Spec §7 member history: the order history and the skipped months (the X-Tenant business only when one is named). */
import { z } from "zod";
import type { ServiceContext } from "../api/context.ts";
import { requireMember, requireUser } from "../api/auth/policy.ts";
import type { Router } from "./router.ts";
import { orderJson, orderSelect, OrderShape } from "./rows.ts";

/** The tenant's business filter of member lists: the portal of /b/{slug} shows that business only. */
function tenantFilter(ctx: ServiceContext) {
  requireMember(ctx);
  return ctx.tenant ? { business: { slug: ctx.tenant } } : {};
}

export function memberHistoryRoutes(r: Router) {
  r.add({
    method: "GET",
    path: "/my/orders",
    tag: "member",
    summary: "The member's order history, newest first (the X-Tenant business only when one is named)",
    access: "member",
    response: z.object({ orders: z.array(OrderShape) }),
    handler: async (ctx) => {
      const where = tenantFilter(ctx);
      const rows = await ctx.db.order.findMany({
        where: { userId: requireUser(ctx).user.id, ...where },
        select: orderSelect,
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take: 200,
      });
      return { orders: rows.map(orderJson) };
    },
  });

  r.add({
    method: "GET",
    path: "/my/skips",
    tag: "member",
    summary: "Months the member skipped",
    access: "member",
    response: z.object({ items: z.array(z.object({ business_slug: z.string(), year_month: z.string().describe("YYYY-MM") })) }),
    handler: async (ctx) => {
      const where = tenantFilter(ctx);
      const rows = await ctx.db.skip.findMany({
        where: { subscription: { userId: requireUser(ctx).user.id, ...where } },
        select: { yearMonth: true, subscription: { select: { business: { select: { slug: true } } } } },
        orderBy: [{ yearMonth: "asc" }, { id: "asc" }],
      });
      return { items: rows.map((s) => ({ business_slug: s.subscription.business.slug, year_month: s.yearMonth })) };
    },
  });
}
