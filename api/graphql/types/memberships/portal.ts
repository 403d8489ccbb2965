/** The signed-in member's own memberships, orders and skips (spec §4 portal), as fields of User: ./member-reads.ts. */
import { builder } from "../../builder.ts";
import * as reads from "../../../subscriptions/member-reads.ts";
import { MembershipNode, OrderNode, SkipObject } from "./membership.ts";

builder.prismaObjectFields("User", (t) => ({
  subscriptions: t.prismaField({
    type: [MembershipNode],
    description:
      "The user's memberships, in the portal's order (spec §4): one with a payment-provider subscription id first, then active, then latest start.",
    args: {
      businessSlug: t.arg.string({ description: "Only memberships of this business." }),
      onePerBusiness: t.arg.boolean({ defaultValue: false, description: "Keep only the first membership of each business." }),
    },
    resolve: (query, user, args, ctx) =>
      reads.memberships(ctx, { userId: user.id, businessSlug: args.businessSlug, onePerBusiness: args.onePerBusiness ?? false }, query),
  }),
  orders: t.prismaConnection({
    type: OrderNode,
    cursor: "id",
    defaultSize: 20,
    maxSize: 100,
    description: "Order history, newest first.",
    resolve: (query, user, _a, ctx) => reads.orders(ctx, { userId: user.id }, query),
  }),
  boxAddressMemberships: t.prismaField({
    type: [MembershipNode],
    description: "The current shipping and delivery memberships: a Profile address change offers to send their boxes there too.",
    resolve: (query, user, _a, ctx) => reads.memberships(ctx, { userId: user.id, boxAddress: true }, query),
  }),
  skips: t.prismaField({
    type: [SkipObject],
    description: "Months the user skipped, across their memberships.",
    resolve: (query, user, _a, ctx) => reads.skips(ctx, { userId: user.id }, query),
  }),
}));
