import { builder } from "../graphql/builder.ts";

// Skeleton; the subscriptions work adds fields, authorization, lists and mutations.
// The GraphQL name is Membership: "Subscription" is GraphQL's reserved root type name.
export const MembershipNode = builder.prismaNode("Subscription", {
  variant: "Membership",
  id: { field: "id" },
  fields: (t) => ({
    databaseId: t.exposeInt("id"),
  }),
});

export const OrderNode = builder.prismaNode("Order", {
  id: { field: "id" },
  fields: (t) => ({
    databaseId: t.exposeInt("id"),
  }),
});
