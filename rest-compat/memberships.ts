/**
 * Spec §7 memberships lists (admin: one business or every readable one; /my/memberships for business staff)
 * and the business's immediate cancel.
 */
import { z } from "zod";
import * as businesses from "../api/businesses/service.ts";
import * as subscriptions from "../api/subscriptions/service.ts";
import * as membershipsList from "../api/subscriptions/memberships-list.ts";
import * as membershipsExport from "../api/subscriptions/memberships-export.ts";
import type { RequestContext } from "../api/context.ts";
import { sendCsv } from "../api/http/csv-stream.ts";
import { singleLine } from "../api/shared/validation.ts";
import { businessIdParams, idParam, Ok, type Router } from "./router.ts";
import { BusinessRef, MembershipRow, membershipRow, membershipRowSelect, StatusFilter } from "./rows.ts";

const membershipQuery = z.object({ q: singleLine("Search").max(200).optional(), status: StatusFilter });

/** /admin/memberships and its CSV: the list's filters plus a business. */
const membershipFilterQuery = membershipQuery.extend({ business: z.string().max(100).optional().describe("Business id or slug") });

async function filterBusinessId(ctx: RequestContext, business: string | undefined): Promise<number | null> {
  if (!business) return null;
  return /^\d+$/.test(business) ? Number(business) : (await businesses.businessBySlug(ctx, business)).id;
}

/** The lists answer their first rows (membershipsList.LIST_LIMIT), with the table's columns. */
const rows = { select: membershipRowSelect };

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
      const { rows: items } = await membershipsList.listOfBusiness(ctx, params.id, { search: query.q, status: query.status }, rows);
      return { business, items: items.map(membershipRow) };
    },
  });

  r.add({
    method: "GET",
    path: "/admin/memberships",
    tag: "admin",
    summary: "Memberships the user may read (administrators: all), filtered",
    access: "admin",
    query: membershipFilterQuery,
    response: z.object({ items: z.array(MembershipRow) }),
    handler: async (ctx, { query }) => {
      const filterId = await filterBusinessId(ctx, query.business);
      const { rows: items } = await membershipsList.list(ctx, { search: query.q, status: query.status, businessId: filterId }, rows);
      return { items: items.map(membershipRow) };
    },
  });

  r.add({
    method: "GET",
    path: "/admin/memberships.csv",
    tag: "admin",
    summary: "The filtered memberships list as a CSV download, streamed (the filters, readers and order of /admin/memberships)",
    access: "admin",
    query: membershipFilterQuery,
    produces: "text/csv",
    response: z.string().describe(`CSV (RFC 4180, CRLF), one header line: ${membershipsExport.MEMBERSHIP_CSV_HEADER.join(",")}`),
    handler: async (ctx, { query }, _req, reply) => {
      const businessId = await filterBusinessId(ctx, query.business);
      const day = ctx.clock.now().toISOString().slice(0, 10);
      const name = `memberships-${businessId == null ? "all" : (await businesses.businessById(ctx, businessId)).slug}-${day}.csv`;
      return sendCsv(reply, {
        filename: name,
        header: membershipsExport.MEMBERSHIP_CSV_HEADER,
        rows: (signal) => membershipsExport.membershipCsvRows(ctx, { search: query.q, status: query.status, businessId }, signal),
      });
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
      const { rows: items } = await membershipsList.listForUser(ctx, { search: query.q, status: query.status }, rows);
      return { items: items.map(membershipRow) };
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
      return { ok: true as const, subscription: membershipRow(await membershipsList.byId(ctx, subscriptionId, membershipRowSelect)) };
    },
  });
}
