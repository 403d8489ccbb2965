/** Memberships and orders of businesses (spec §2 admin memberships table; partners): Business fields and Query.memberships. */
import { builder } from "../graphql/builder.ts";
import * as membershipsList from "./memberships-list.ts";
import { MembershipNode, MembershipStatusFilterEnum } from "./schema.ts";

builder.prismaObjectFields("Business", (t) => ({
  memberships: t.relatedConnection("subscriptions", {
    type: MembershipNode,
    cursor: "id",
    defaultSize: 50,
    maxSize: 200,
    description: "Memberships of this business (readMemberships: staff, administrators, the business's partner tokens).",
    authScopes: (b) => ({ business: { id: b.id, permission: "readMemberships" } }),
    args: {
      search: t.arg.string(),
      status: t.arg({ type: MembershipStatusFilterEnum, defaultValue: "ANY" }),
    },
    query: (args) => ({
      where: { AND: [membershipsList.statusWhere(args.status), membershipsList.searchWhere(args.search)] },
      orderBy: membershipsList.membershipOrder,
    }),
  }),
  orders: t.relatedConnection("orders", {
    cursor: "id",
    defaultSize: 50,
    maxSize: 200,
    description: "Orders of this business, newest first (readMemberships).",
    authScopes: (b) => ({ business: { id: b.id, permission: "readMemberships" } }),
    query: () => ({ orderBy: [{ createdAt: "desc" }, { id: "desc" }] }),
  }),
}));

builder.queryFields((t) => ({
  memberships: t.prismaConnection({
    type: MembershipNode,
    cursor: "id",
    defaultSize: 50,
    maxSize: 200,
    description:
      "Memberships the viewer may read: every business for administrators, otherwise the businesses where they hold readMemberships (a partner token: its business).",
    authScopes: (_p, _a, ctx) => ctx.actor.kind !== "anonymous",
    args: {
      search: t.arg.string({ description: "Username, member name or email, business name or slug." }),
      status: t.arg({ type: MembershipStatusFilterEnum, defaultValue: "ANY" }),
      businessId: t.arg.int({ description: "Numeric business id (databaseId)." }),
    },
    // One keyset statement for the page's ids, then the rows with the fields the query selects.
    resolve: async (query, _p, args, ctx) => {
      const { take, skip, cursor, ...selection } = query as typeof query & { take: number; skip?: number; cursor?: { id: number } };
      const ids = await membershipsList.membershipPageIds(ctx, args, { take, skip, cursorId: cursor?.id });
      if (ids.length === 0) return [];
      return membershipsList.inIdOrder(ids, await ctx.db.subscription.findMany({ ...selection, where: { id: { in: ids } } }));
    },
  }),
}));
