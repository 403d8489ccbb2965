/** Spec §7 catalogue routes of the tenant business (X-Tenant or subdomain): its plans (items) on sale. */
import { z } from "zod";
import type { ServiceContext } from "../api/context.ts";
import { businessBySlug } from "../api/businesses/service.ts";
import { ValidationError } from "../api/shared/errors.ts";
import { Item, itemJson } from "./page-format.ts";
import { catalogueOf } from "./pages.ts";
import type { Router } from "./router.ts";

/** The business the request's tenant names (X-Tenant or subdomain). */
async function tenantBusiness(ctx: ServiceContext) {
  if (!ctx.tenant) throw new ValidationError("Name the business with the X-Tenant header", [{ path: "X-Tenant", message: "Required" }]);
  return businessBySlug(ctx, ctx.tenant);
}

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
}
