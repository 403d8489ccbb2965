/** Spec §7 catalogue routes of the tenant business (X-Tenant or subdomain): its plans (items) on sale. */
import { z } from "zod";
import { tenantBusiness } from "../api/businesses/service.ts";
import { catalogue } from "../api/catalog/service.ts";
import { Item, itemJson } from "./page-format.ts";
import type { Router } from "./router.ts";

export function catalogRoutes(r: Router) {
  r.add({
    method: "GET",
    path: "/square/plans",
    tag: "content",
    summary: "The tenant business's plans (items), and the items of each plan",
    access: "public",
    response: z.object({ plans: z.array(Item), itemsByPlanId: z.record(z.string(), z.array(Item)) }),
    handler: async (ctx) => {
      const business = await tenantBusiness(ctx);
      const plans = (await catalogue(ctx, business.id)).plans.map(itemJson);
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
      return { items: (await catalogue(ctx, business.id)).plans.map(itemJson) };
    },
  });
}
