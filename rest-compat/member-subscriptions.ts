/**
 * Spec §7 member portal routes for memberships (/api/my/subscriptions…): the portal's list with next box and
 * windows, and the skip / restart / change actions. Each calls the same service as the GraphQL mutation.
 */
import { z } from "zod";
import type { ServiceContext } from "../api/context.ts";
import type { Prisma } from "../api/generated/prisma/client.ts";
import { variationId } from "../api/catalog/service.ts";
import { MODE_NAMES } from "../api/shared/fulfillment.ts";
import * as skips from "../api/subscriptions/skips.ts";
import * as restart from "../api/subscriptions/restart.ts";
import * as timing from "../api/subscriptions/timing.ts";
import * as reads from "../api/subscriptions/member-reads.ts";
import { ValidationError } from "../api/shared/errors.ts";
import { dollarsToCents, formatCents } from "../api/shared/money.ts";
import { idParam, Ok, type Router } from "./router.ts";
import { MembershipRow, membershipRow, membershipRowSelect, selectionPoint } from "./rows.ts";

const Window = z.object({ startDay: z.number().int(), endDay: z.number().int(), open: z.boolean(), opensOn: z.string(), closesOn: z.string() });
const Mode = z.enum(["pickup", "shipping", "delivery"]);

const SubscriptionShape = MembershipRow.extend({
  id: z.number().int(),
  business_id: z.number().int(),
  item_id: z.string().describe("Plan ref (item_…)"),
  item_name: z.string(),
  mode: Mode,
  variation_id: z.string(),
  variation_name: z.string(),
  addons: z.array(z.object({ id: z.string(), name: z.string(), amount: z.number().int().describe("cents") })),
  amount: z.number().int().describe("Plan price, cents"),
  total: z.number().int().describe("Charged each period (plan + add-ons − discount + tax), cents"),
  price: z.string().describe("total, formatted"),
  billing_day: z.number().int(),
  is_gift: z.boolean(),
  fulfillment_point: z.string().describe("Pickup point or delivery area (empty for shipping)"),
  next_box_date: z.string().describe("ISO date"),
  skip_window: Window,
  change_window: Window,
  skips: z.array(z.string().describe("YYYY-MM")),
  pending_change: z
    .object({ item_id: z.string(), mode: Mode, addon_ids: z.array(z.string()), effective_period: z.string() })
    .nullable(),
});

const subscriptionSelect = {
  ...membershipRowSelect,
  businessId: true,
  mode: true,
  planAmountCents: true,
  totalCents: true,
  billingDay: true,
  isGift: true,
  fulfillmentPoint: true,
  firstPeriod: true,
  business: { select: { ...membershipRowSelect.business.select, timeZone: true, page: { select: timing.timingSelect } } },
  plan: { select: { ref: true, name: true } },
  addons: { select: { amountCents: true, addon: { select: { ref: true, name: true } } } },
  skips: { select: { yearMonth: true }, orderBy: { yearMonth: "asc" } },
  pendingChange: { select: { planId: true, mode: true, addonIds: true, effectivePeriod: true } },
} as const satisfies Prisma.SubscriptionSelect;

/** A pending change's plan and add-on refs, as loaded with its membership. */
function changeRefs(change: object, addonIds: number[]) {
  const loaded = reads.preloadedChange(change);
  const addonRef = new Map(loaded?.addons.map((a) => [a.id, a.ref]));
  return { planRef: loaded?.plan?.ref ?? "", addonRefs: addonIds.flatMap((id) => addonRef.get(id) ?? []) };
}

const NewSelection = z.object({
  businessSlug: z.string().optional(),
  chosenItemId: z.string({ error: "Please choose a package" }).min(1, "Please choose a package"),
  chosenItemName: z.string().optional(),
  chosenItemAmountCents: z.number().optional(),
  chosenItemPrice: z.string().optional(),
  chosenAddons: z.array(z.object({ id: z.string() }).loose()).max(100).default([]),
  chosenAddonIds: z.array(z.string()).max(100).optional(),
  mode: Mode.optional(),
  fulfillmentMode: Mode.optional(),
  pickupAddress: z.string().max(500).nullish(),
  fulfillmentDetails: z.string().max(2000).nullish(),
  ts: z.number().optional(),
}).loose();

/** Schedules a change from a §3 selection: the services map its refs to the catalogue's ids. */
function applySelection(ctx: ServiceContext, slug: string, selection: z.output<typeof NewSelection>) {
  const mode = selection.mode ?? selection.fulfillmentMode;
  if (!mode) throw new ValidationError("Please choose a fulfillment mode", [{ path: "selection.mode", message: "Required" }]);
  const addonRefs = selection.chosenAddonIds ?? selection.chosenAddons.map((a) => a.id);
  return reads.changeByRefs(ctx, slug, {
    planRef: selection.chosenItemId,
    mode: mode.toUpperCase() as "PICKUP" | "SHIPPING" | "DELIVERY",
    addonRefs,
    ...selectionPoint(selection, mode),
  });
}

const ChosenAddon = z.object({ id: z.string(), name: z.string(), price: z.string(), amount: z.number().int(), amountCents: z.number().int() });

const subscriptionId = z.object({ id: idParam("Missing subscription id") });

export function memberSubscriptionRoutes(r: Router) {
  r.add({
    method: "GET",
    path: "/my/subscriptions",
    tag: "member",
    summary: "The member's memberships in the portal's order (spec §4), with next box and windows",
    access: "member",
    response: z.object({ subscriptions: z.array(SubscriptionShape) }),
    handler: async (ctx) => {
      const rows = await reads.memberships<Prisma.SubscriptionGetPayload<{ select: typeof subscriptionSelect }>>(ctx, {}, { select: subscriptionSelect });
      return {
        subscriptions: rows.map((s) => {
          const mode = s.mode.toLowerCase() as z.infer<typeof Mode>;
          return {
            ...membershipRow(s),
            id: s.id,
            business_id: s.businessId,
            item_id: s.plan.ref,
            item_name: s.plan.name,
            mode,
            variation_id: variationId(s.plan.ref, s.mode),
            variation_name: MODE_NAMES[s.mode],
            addons: s.addons.map((a) => ({ id: a.addon.ref, name: a.addon.name, amount: a.amountCents })),
            amount: s.planAmountCents,
            total: s.totalCents,
            price: formatCents(s.totalCents),
            billing_day: s.billingDay,
            is_gift: s.isGift,
            fulfillment_point: s.fulfillmentPoint,
            next_box_date: timing.nextBoxDateOf(ctx, { ...s, status: s.status }),
            skip_window: timing.windowOf(ctx, s.business, "skipWindow"),
            change_window: timing.windowOf(ctx, s.business, "changeWindow"),
            skips: s.skips.map((k) => k.yearMonth),
            pending_change: s.pendingChange
              ? {
                  item_id: changeRefs(s.pendingChange, s.pendingChange.addonIds).planRef,
                  mode: s.pendingChange.mode.toLowerCase() as z.infer<typeof Mode>,
                  addon_ids: changeRefs(s.pendingChange, s.pendingChange.addonIds).addonRefs,
                  effective_period: s.pendingChange.effectivePeriod,
                }
              : null,
          };
        }),
      };
    },
  });

  r.add({
    method: "POST",
    path: "/my/subscriptions/{id}/restart",
    tag: "member",
    summary: "Restarts a canceled membership, charging the current period now",
    access: "member",
    params: subscriptionId,
    body: z.object({
      fulfillment_point: z.string().max(500).optional().describe("Only when the stored pickup point or delivery area is no longer offered"),
    }),
    response: z.object({
      ok: z.literal(true),
      outcome: z.enum(["paid", "reactivated", "requires_action"]),
      client_secret: z.string().nullable().describe("Confirm with the card form when outcome is requires_action"),
      order_id: z.number().int().nullable(),
    }),
    errors: [409, 422],
    handler: async (ctx, { params, body }) => {
      const r = await restart.restartSubscription(ctx, { subscriptionId: params.id, fulfillmentPoint: body.fulfillment_point });
      return {
        ok: true as const,
        outcome: r.outcome.toLowerCase() as "paid" | "reactivated" | "requires_action",
        client_secret: r.outcome === "REQUIRES_ACTION" ? r.clientSecret : null,
        order_id: r.outcome === "PAID" ? r.orderId : null,
      };
    },
  });

  r.add({
    method: "POST",
    path: "/my/subscriptions/{id}/skip",
    tag: "member",
    summary: "Skips the month of the next box (inside the skip window)",
    access: "member",
    params: subscriptionId,
    response: z.object({ ok: z.literal(true), resumeDate: z.string().describe("ISO date payments resume"), skippedMonth: z.string().describe("YYYY-MM") }),
    errors: [409, 422],
    handler: async (ctx, { params }) => {
      const r = await skips.skipMonth(ctx, { subscriptionId: params.id });
      return { ok: true as const, resumeDate: r.resumeDate, skippedMonth: r.skippedMonth };
    },
  });

  r.add({
    method: "GET",
    path: "/my/subscriptions/{id}/config",
    tag: "member",
    summary: "The membership's current selection (for the change flow)",
    access: "member",
    params: subscriptionId,
    response: z.object({
      ok: z.literal(true),
      normalized: z.object({
        baseId: z.string().describe("Plan ref"),
        basePrice: z.number().int().describe("Plan price, cents"),
        addons: z.array(ChosenAddon),
        upgrades: z.array(z.object({ amount: z.number().int() })),
      }),
      selection: z.object({
        businessSlug: z.string(),
        mode: Mode,
        fulfillmentMode: Mode,
        chosenItemId: z.string(),
        chosenItemName: z.string(),
        chosenItemAmountCents: z.number().int(),
        chosenItemPrice: z.string(),
        chosenVariationId: z.string(),
        chosenVariationName: z.string(),
        chosenAddonIds: z.array(z.string()),
        chosenAddons: z.array(ChosenAddon),
        chosenUpgrades: z.array(z.object({ amount: z.number().int() })),
        isChange: z.literal(true),
      }),
    }),
    handler: async (ctx, { params }) => {
      const sub = await reads.selectionOf(ctx, params.id);
      const mode = sub.mode.toLowerCase() as z.infer<typeof Mode>;
      const addons = sub.addons.map((a) => ({ id: a.addon.ref, name: a.addon.name, price: formatCents(a.amountCents), amount: a.amountCents, amountCents: a.amountCents }));
      return {
        ok: true as const,
        normalized: { baseId: sub.plan.ref, basePrice: sub.planAmountCents, addons, upgrades: [] },
        selection: {
          businessSlug: sub.business.slug,
          mode,
          fulfillmentMode: mode,
          chosenItemId: sub.plan.ref,
          chosenItemName: sub.plan.name,
          chosenItemAmountCents: sub.planAmountCents,
          chosenItemPrice: formatCents(sub.planAmountCents),
          chosenVariationId: variationId(sub.plan.ref, sub.mode),
          chosenVariationName: MODE_NAMES[sub.mode],
          chosenAddonIds: addons.map((a) => a.id),
          chosenAddons: addons,
          chosenUpgrades: [],
          isChange: true as const,
        },
      };
    },
  });

  r.add({
    method: "POST",
    path: "/my/subscriptions/{slug}/apply-change",
    tag: "member",
    summary: "Schedules a new selection from the next billing cycle (no charge today)",
    access: "member",
    params: z.object({ slug: z.string().min(1).max(100) }),
    body: z.object({ selection: NewSelection }),
    response: Ok.extend({ effective_period: z.string().nullable().describe("YYYY-MM; null when a pending change was withdrawn") }),
    errors: [409, 422],
    handler: async (ctx, { params, body }) => {
      const r = await applySelection(ctx, params.slug, body.selection);
      return { ok: true as const, effective_period: r.effectivePeriod };
    },
  });

  r.add({
    method: "POST",
    path: "/my/subscriptions/{tenant}/change",
    tag: "member",
    summary: "The checkout's change flow: schedules the new selection from the next billing cycle; nothing is charged today",
    access: "member",
    params: z.object({ tenant: z.string().min(1).max(100) }),
    body: z.object({ new_selection: NewSelection, amount: z.union([z.number(), z.string()]).optional().describe("dollars (informational)") }),
    response: z.object({ message: z.string(), charged_amount: z.number().describe("dollars charged now (0)") }),
    errors: [409, 422],
    handler: async (ctx, { params, body }) => {
      if (body.amount !== undefined && dollarsToCents(body.amount) === null) {
        throw new ValidationError("Invalid amount", [{ path: "amount", message: "Invalid amount" }]);
      }
      const r = await applySelection(ctx, params.tenant, body.new_selection);
      const message = r.effectivePeriod
        ? `Subscription updated. Your new selection starts with the ${r.effectivePeriod} billing period; nothing is charged today.`
        : r.pointChanged
          ? "Subscription updated. Your new pickup point or delivery area applies from your next box; nothing is charged today."
          : "Subscription updated. Your pending change was withdrawn.";
      return { message, charged_amount: 0 };
    },
  });
}
