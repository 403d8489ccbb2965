/** Memberships and orders of businesses (spec §2 admin memberships table; partners): Business fields and Query.memberships. */
import { builder } from "../../builder.ts";
import * as membershipsList from "../../../subscriptions/memberships-list.ts";
import { MembershipNode, MembershipStatusFilterEnum } from "./membership.ts";

const MembershipSortEnum = builder.enumType("MembershipSort", {
  description: "The memberships list's order; ties by id. Memberships without a next charge (canceled) come last in either NEXT_CHARGE order.",
  values: {
    STARTED_DESC: { description: "Newest first (the default)." },
    STARTED_ASC: { description: "Oldest first." },
    NAME_ASC: { description: "By the member's full name (else username), A to Z, case-insensitive." },
    NAME_DESC: { description: "By the member's full name (else username), Z to A." },
    NEXT_CHARGE_ASC: { description: "Soonest next charge first." },
    NEXT_CHARGE_DESC: { description: "Latest next charge first." },
  } as const satisfies Record<membershipsList.MembershipSort, { description: string }>,
});

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
      sort: t.arg({ type: MembershipSortEnum, defaultValue: "STARTED_DESC" }),
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
      sort: t.arg({ type: MembershipSortEnum, defaultValue: "STARTED_DESC" }),
    },
    resolve: (query, _p, args, ctx) => membershipsList.list(ctx, args, query),
  }),
}));
