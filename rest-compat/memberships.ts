/**
 * Spec §7 memberships lists (admin: one business or every readable one; /my/memberships for business staff)
 * and the business's immediate cancel.
 */
import { z } from "zod";
import type { ServiceContext } from "../api/context.ts";
import { assertCan, requireUser } from "../api/auth/policy.ts";
import * as businesses from "../api/businesses/service.ts";
import * as subscriptions from "../api/subscriptions/service.ts";
import * as membershipsList from "../api/subscriptions/memberships-list.ts";
import { singleLine } from "../api/shared/validation.ts";
import { businessIdParams, idParam, Ok, type Router } from "./router.ts";
import { BusinessRef, MembershipRow, membershipRow, membershipRowSelect, StatusFilter } from "./rows.ts";

const membershipQuery = z.object({ q: singleLine("Search").max(200).optional(), status: StatusFilter });

async function membershipItems(ctx: ServiceContext, filter: membershipsList.MembershipFilter) {
  return (await membershipsList.membershipListRows(ctx, filter, { take: 500 })).map(membershipRow);
}

export function membershipRoutes(r: Router) {
  r.add({
    method: "GET",
    path: "/admin/businesses/{id}/memberships",
    tag: "admin",
    summary: "Memberships of a business (anyone attached, administrators)",
    access: "admin",
    params: businessIdParams,
    query: membershipQuery,
    response: z.object({ business: BusinessRef, items: z.array(MembershipRow) }),
    handler: async (ctx, { params, query }) => {
      const business = await businesses.businessById(ctx, params.id);
      await assertCan(ctx, params.id, "readMemberships");
      return { business, items: await membershipItems(ctx, { search: query.q, status: query.status, businessId: params.id }) };
    },
  });

  r.add({
    method: "GET",
    path: "/admin/memberships",
    tag: "admin",
    summary: "Memberships the user may read (administrators: all), filtered",
    access: "admin",
    query: membershipQuery.extend({ business: z.string().max(100).optional().describe("Business id or slug") }),
    response: z.object({ items: z.array(MembershipRow) }),
    handler: async (ctx, { query }) => {
      let filterId: number | null = null;
      if (query.business) {
        filterId = /^\d+$/.test(query.business) ? Number(query.business) : (await businesses.businessBySlug(ctx, query.business)).id;
      }
      return { items: await membershipItems(ctx, { search: query.q, status: query.status, businessId: filterId }) };
    },
  });

  r.add({
    method: "GET",
    path: "/my/memberships",
    tag: "member",
    summary: "Memberships of the businesses the user may read (business owners and staff; administrators: all)",
    access: "member",
    query: z.object({ q: z.string().max(200).optional(), status: StatusFilter }),
    response: z.object({ items: z.array(MembershipRow) }),
    handler: async (ctx, { query }) => {
      requireUser(ctx);
      const rows = await ctx.db.subscription.findMany({
        where: membershipsList.membershipsWhere(ctx, { search: query.q, status: query.status }),
        select: membershipRowSelect,
        orderBy: membershipsList.membershipOrder,
        take: 500,
      });
      return { items: rows.map(membershipRow) };
    },
  });

  r.add({
    method: "POST",
    path: "/admin/subscriptions/{subscriptionId}/cancel",
    tag: "admin",
    summary: "Cancels a membership immediately, no automatic refund (owners, administrators)",
    access: "admin",
    params: z.object({ subscriptionId: idParam("Missing subscription id") }),
    body: z.object({ mode: z.literal("now").default("now") }),
    response: Ok.extend({ subscription: MembershipRow }),
    errors: [409],
    handler: async (ctx, { params }) => {
      const { subscriptionId } = await subscriptions.cancelSubscription(ctx, { subscriptionId: params.subscriptionId, mode: "NOW" });
      const row = await ctx.db.subscription.findUniqueOrThrow({ where: { id: subscriptionId }, select: membershipRowSelect });
      return { ok: true as const, subscription: membershipRow(row) };
    },
  });
}
