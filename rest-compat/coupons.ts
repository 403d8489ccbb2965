/**
 * Spec §7 coupon routes (administrators): platform coupons only, in the spec's shapes. Businesses' own coupons and
 * the terms the spec does not know (duration, expiry, limit, plans) are GraphQL's; a coupon created here is a
 * platform coupon that discounts every charge.
 */
import { z } from "zod";
import * as coupons from "../api/coupons/service.ts";
import * as couponReads from "../api/coupons/reads.ts";
import { idParam, Ok, type Router } from "./router.ts";

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

const couponId = z.object({ id: idParam("Invalid coupon id") });

export function couponRoutes(r: Router) {
  r.add({
    method: "GET",
    path: "/admin/coupons",
    tag: "admin",
    summary: "Every platform coupon, newest first (administrators)",
    access: "admin",
    response: z.array(Coupon),
    handler: async (ctx) => (await couponReads.list(ctx)).map(couponJson),
  });

  r.add({
    method: "POST",
    path: "/admin/coupons",
    tag: "admin",
    summary: "Creates a platform coupon (administrators)",
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

  r.add({
    method: "POST",
    path: "/admin/coupons/{id}/toggle",
    tag: "admin",
    summary: "Activates or deactivates a coupon",
    access: "admin",
    params: couponId,
    response: Coupon,
    handler: async (ctx, { params }) => couponJson(await coupons.toggleCoupon(ctx, params.id, { platformOnly: true })),
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
      await coupons.deleteCoupon(ctx, params.id, { platformOnly: true });
      return { ok: true as const };
    },
  });
}
