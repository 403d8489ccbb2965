/** The signed-in member's own memberships, orders and skips (spec §4 portal), as fields of User. */
import { builder } from "../graphql/builder.ts";
import * as portal from "./portal.ts";
import { MembershipNode, SkipObject } from "./schema.ts";

builder.prismaObjectFields("User", (t) => ({
  subscriptions: t.prismaField({
    type: [MembershipNode],
    description:
      "The user's memberships, in the portal's order (spec §4): one with a payment-provider subscription id first, then active, then latest start.",
    args: {
      businessSlug: t.arg.string({ description: "Only memberships of this business." }),
      onePerBusiness: t.arg.boolean({ defaultValue: false, description: "Keep only the first membership of each business." }),
    },
    resolve: async (query, user, args, ctx) => {
      const rows = await ctx.db.subscription.findMany({
        ...query,
        where: portal.portalMembershipsWhere(user.id, args.businessSlug),
      });
      return portal.portalOrder(rows, args.onePerBusiness ?? false);
    },
  }),
  orders: t.relatedConnection("orders", {
    cursor: "id",
    defaultSize: 20,
    maxSize: 100,
    description: "Order history, newest first.",
    query: () => ({ orderBy: [{ createdAt: "desc" }, { id: "desc" }] }),
  }),
  skips: t.prismaField({
    type: [SkipObject],
    description: "Months the user skipped, across their memberships.",
    resolve: (query, user, _a, ctx) =>
      ctx.db.skip.findMany({ ...query, where: { subscription: { userId: user.id } }, orderBy: [{ yearMonth: "asc" }, { id: "asc" }] }),
  }),
}));
