import { builder } from "../graphql/builder.ts";
import { FulfillmentMode } from "../generated/prisma/enums.ts";
import { canReadAddon, canReadPlan } from "../auth/read-rules.ts";
import { planPriceCents, planVariations, type VariationView } from "./service.ts";

export const FulfillmentModeEnum = builder.enumType(FulfillmentMode, {
  name: "FulfillmentMode",
  description: "How a member receives the box: pickup, shipping or delivery.",
});

const PlanVariationRef = builder.objectRef<VariationView>("PlanVariation").implement({
  description: "The price of a plan in one fulfillment mode.",
  fields: (t) => ({
    id: t.exposeString("id", { description: "{planRef}_pickup, {planRef}_shipping or {planRef}_delivery." }),
    mode: t.expose("mode", { type: FulfillmentModeEnum }),
    name: t.exposeString("name", { description: "Pickup, Shipping or Delivery." }),
    ordinal: t.exposeInt("ordinal", { description: "0 pickup, 1 shipping, 2 delivery." }),
    amountCents: t.exposeInt("amountCents"),
    currency: t.exposeString("currency"),
  }),
});

/** A plan (the spec's item / package) with one price per offered fulfillment mode. */
builder.prismaNode("Plan", {
  id: { field: "id" },
  // Public while listed and not archived; else its business's staff and partner tokens, and its members.
  authScopes: (plan, ctx) => canReadPlan(ctx, plan),
  fields: (t) => ({
    databaseId: t.exposeInt("id"),
    ref: t.exposeString("ref", { description: "Client-facing id (item_…); variation ids are {ref}_pickup etc." }),
    name: t.exposeString("name"),
    description: t.exposeString("description"),
    descriptionHtml: t.exposeString("descriptionHtml"),
    currency: t.exposeString("currency"),
    listed: t.exposeBoolean("listed", { description: "Shown on the business page." }),
    position: t.exposeInt("position"),
    archived: t.boolean({ resolve: (p) => p.archivedAt !== null }),
    variations: t.field({
      type: [PlanVariationRef],
      select: { variations: true },
      resolve: (plan) => planVariations(plan),
    }),
    priceCents: t.int({
      nullable: true,
      description: "Headline price: the first offered variation (pickup, then shipping, then delivery).",
      select: { variations: true },
      resolve: (plan) => planPriceCents(plan),
    }),
  }),
});

builder.prismaNode("Addon", {
  id: { field: "id" },
  authScopes: (addon, ctx) => canReadAddon(ctx, addon),
  fields: (t) => ({
    databaseId: t.exposeInt("id"),
    ref: t.exposeString("ref", { description: "Client-facing id (addon_…)." }),
    name: t.exposeString("name"),
    description: t.exposeString("description"),
    amountCents: t.exposeInt("amountCents"),
    currency: t.exposeString("currency"),
    listed: t.exposeBoolean("listed"),
    position: t.exposeInt("position"),
    archived: t.boolean({ resolve: (a) => a.archivedAt !== null }),
  }),
});

export const PlanInputRef = builder.inputType("PlanInput", {
  description: "A plan as the page editor saves it. Leave ref out for a new plan; leave a price out when the mode is not offered.",
  fields: (t) => ({
    ref: t.string(),
    name: t.string({ required: true }),
    description: t.string(),
    descriptionHtml: t.string(),
    listed: t.boolean(),
    pickupCents: t.int(),
    shippingCents: t.int(),
    deliveryCents: t.int(),
  }),
});

export const AddonInputRef = builder.inputType("AddonInput", {
  description: "An add-on as the page editor saves it. Leave ref out for a new add-on.",
  fields: (t) => ({
    ref: t.string(),
    name: t.string({ required: true }),
    description: t.string(),
    amountCents: t.int({ description: "Price in cents (required; a missing one is reported as a validation issue)." }),
    listed: t.boolean(),
  }),
});
