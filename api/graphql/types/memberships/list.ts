/** Memberships and orders of businesses (spec §2 admin memberships table; partners): Business fields and Query.memberships. */
import { builder } from "../../builder.ts";
import * as membershipsList from "../../../subscriptions/memberships-list.ts";
import { MembershipNode, MembershipStatusFilterEnum } from "./membership.ts";

// Both memberships lists pass their `query` (page and selection) to the service: one keyset statement returns
// the page's rows with the fields the query selects.
builder.prismaObjectFields("Business", (t) => ({
  memberships: t.prismaConnection({
    type: MembershipNode,
    cursor: "id",
    defaultSize: membershipsList.PAGE_SIZE.default,
    maxSize: membershipsList.PAGE_SIZE.max,
    description: "Memberships of this business (readMemberships: staff, administrators, the business's partner tokens).",
    args: {
      search: t.arg.string(),
      status: t.arg({ type: MembershipStatusFilterEnum, defaultValue: "ANY" }),
    },
    resolve: (query, business, args, ctx) => membershipsList.listOfBusiness(ctx, business.id, args, query),
  }),
  orders: t.relatedConnection("orders", {
    cursor: "id",
    defaultSize: 50,
    maxSize: 200,
    description: "Orders of this business, newest first (readOrders: staff, administrators, partner tokens with orders:read).",
    authScopes: (b) => ({ business: { id: b.id, permission: "readOrders" } }),
    query: () => ({ orderBy: [{ createdAt: "desc" }, { id: "desc" }] }),
  }),
}));

builder.queryFields((t) => ({
  memberships: t.prismaConnection({
    type: MembershipNode,
    cursor: "id",
    defaultSize: membershipsList.PAGE_SIZE.default,
    maxSize: membershipsList.PAGE_SIZE.max,
    description:
      "Memberships the viewer may read: every business for administrators, otherwise the businesses where they hold readMemberships (a partner token: its business).",
    args: {
      search: t.arg.string({ description: "Username, member name or email, business name or slug." }),
      status: t.arg({ type: MembershipStatusFilterEnum, defaultValue: "ANY" }),
      businessId: t.arg.int({ description: "Numeric business id (databaseId)." }),
    },
    resolve: (query, _p, args, ctx) => membershipsList.list(ctx, args, query),
  }),
}));
