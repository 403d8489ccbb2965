import { builder } from "../graphql/builder.ts";

// Skeleton; the catalog work extends these types (variations, prices, editor fields).
export const PlanNode = builder.prismaNode("Plan", {
  id: { field: "id" },
  fields: (t) => ({
    ref: t.exposeString("ref", { description: "Client-facing id (item_…); variation ids are {ref}_pickup etc." }),
    name: t.exposeString("name"),
  }),
});

export const AddonNode = builder.prismaNode("Addon", {
  id: { field: "id" },
  fields: (t) => ({
    ref: t.exposeString("ref", { description: "Client-facing id (addon_…)." }),
    name: t.exposeString("name"),
    amountCents: t.exposeInt("amountCents"),
  }),
});
