import { builder } from "../builder.ts";
import { FulfillmentMode } from "../../generated/prisma/enums.ts";
import { canReadAddon, canReadPlan } from "../../auth/read-rules.ts";
import type { GraphQLContext } from "../builder.ts";
import type { FulfillmentMode as Mode } from "../../generated/prisma/client.ts";
import { hasCapacity, placesTaken, soldOutOf, type PlacesTaken } from "../../catalog/capacity.ts";
import { planPriceCents, planVariations, variationFor, type VariationView } from "../../catalog/service.ts";

export const FulfillmentModeEnum = builder.enumType(FulfillmentMode, {
  name: "FulfillmentMode",
  description: "How a member receives the box: pickup, shipping or delivery.",
});

/** A plan's capacity fields: read by those who edit the catalogue, never publicly (counts stay private). */
const capacityReaders = (row: { businessId: number }) => ({ business: { id: row.businessId, permission: "editContent" as const } });

/** One count of a business's places per request, shared by all its plans and modes on the page. */
const placesByRequest = new WeakMap<GraphQLContext, Map<number, Promise<PlacesTaken>>>();
function placesOf(ctx: GraphQLContext, businessId: number): Promise<PlacesTaken> {
  let byBusiness = placesByRequest.get(ctx);
  if (!byBusiness) placesByRequest.set(ctx, (byBusiness = new Map()));
  let places = byBusiness.get(businessId);
  if (!places) byBusiness.set(businessId, (places = placesTaken(ctx.db, businessId)));
  return places;
}

type CapacityPlan = { id: number; businessId: number; capacity: number | null; variations: { mode: Mode; capacity: number | null }[] };

/** Whether the plan (mode null) or the plan in `mode` has no place left (soldOutOf); no query when it has no capacity. */
async function soldOut(ctx: GraphQLContext, plan: CapacityPlan, mode: Mode | null): Promise<boolean> {
  if (!hasCapacity(plan)) return false;
  const answer = soldOutOf(plan, await placesOf(ctx, plan.businessId));
  return mode ? answer.modes.includes(mode) : answer.plan;
}

type VariationNode = VariationView & { plan: CapacityPlan };

const PlanVariationRef = builder.objectRef<VariationNode>("PlanVariation").implement({
  description: "The price of a plan in one fulfillment mode.",
  fields: (t) => ({
    id: t.exposeString("id", { description: "{planRef}_pickup, {planRef}_shipping or {planRef}_delivery." }),
    mode: t.expose("mode", { type: FulfillmentModeEnum }),
    name: t.exposeString("name", { description: "Pickup, Shipping or Delivery." }),
    ordinal: t.exposeInt("ordinal", { description: "0 pickup, 1 shipping, 2 delivery." }),
    amountCents: t.exposeInt("amountCents"),
    currency: t.exposeString("currency"),
    capacity: t.int({
      nullable: true,
      description: "Most memberships of the plan in this mode (null = no limit). Editors, owners and admins only.",
      authScopes: (v) => capacityReaders(v.plan),
      resolve: (v) => variationFor(v.plan, v.mode)?.capacity ?? null,
    }),
    soldOut: t.boolean({
      description: "No place is left in this mode (its own capacity, or the plan's, is reached).",
      resolve: (v, _args, ctx) => soldOut(ctx, v.plan, v.mode),
    }),
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
      resolve: (plan) => planVariations(plan).map((v) => ({ ...v, plan })),
    }),
    capacity: t.int({
      nullable: true,
      description: "Most memberships of this plan across its modes (null = no limit). Editors, owners and admins only.",
      authScopes: (plan) => capacityReaders(plan),
      resolve: (plan) => plan.capacity,
    }),
    soldOut: t.boolean({
      description: "No place is left in this plan (its capacity is reached). Counts are never public.",
      select: { variations: true },
      resolve: (plan, _args, ctx) => soldOut(ctx, plan, null),
    }),
    soldOutModes: t.field({
      type: [FulfillmentModeEnum],
      description:
        "The offered modes with no place left (all of them when the plan is sold out): the business page's one field for " +
        "what soldOut says per variation, a scalar list instead of a field per variation (cheaper for the query cost limit).",
      select: { variations: true },
      resolve: async (plan, _args, ctx) => (hasCapacity(plan) ? soldOutOf(plan, await placesOf(ctx, plan.businessId)).modes : []),
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
    capacity: t.int({ description: "Most memberships across all modes, 0 to 100000; null = no limit; left out = unchanged." }),
    pickupCapacity: t.int({ description: "Most memberships in pickup (as capacity)." }),
    shippingCapacity: t.int({ description: "Most memberships in shipping (as capacity)." }),
    deliveryCapacity: t.int({ description: "Most memberships in delivery (as capacity)." }),
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
