/** Membership actions (spec §2, §4): change (and its quote), cancel, restart; skips and pauses are ./skips.ts. Each calls one service function. */
import { builder } from "../../builder.ts";
import { payloadQuery } from "../../payload-query.ts";
import { RULE_ERRORS } from "../../errors.ts";
import { numericId } from "../../ids.ts";
import { FulfillmentModeEnum } from "../catalog.ts";
import * as subscriptions from "../../../subscriptions/service.ts";
import * as restart from "../../../subscriptions/restart.ts";
import { MembershipNode } from "./membership.ts";
import { PriceBreakdownRef } from "../price-breakdown.ts";
import { AddressInput } from "../users.ts";
import * as address from "../../../subscriptions/address.ts";

const RestartSubscriptionInput = builder.inputType("RestartSubscriptionInput", {
  fields: (t) => ({
    subscriptionId: t.id({ required: true, description: "Membership global id or numeric databaseId." }),
    fulfillmentPoint: t.string({ description: "Needed only when the stored pickup point or delivery area is no longer offered." }),
    expectedTotalCents: t.int({ description: "Today's charge the member was shown (restartQuote.todayCents); a different amount now refuses (price_mismatch)." }),
  }),
});

const CancelModeEnum = builder.enumType("CancelMode", {
  values: { NOW: { description: "Ends access at once; no automatic refund." } } as const,
});

const CancelSubscriptionInput = builder.inputType("CancelSubscriptionInput", {
  fields: (t) => ({
    subscriptionId: t.id({ required: true, description: "Membership global id or numeric databaseId." }),
    mode: t.field({ type: CancelModeEnum, defaultValue: "NOW" }),
  }),
});

const ChangeSubscriptionInput = builder.inputType("ChangeSubscriptionInput", {
  fields: (t) => ({
    subscriptionId: t.id({ required: true, description: "Membership global id or numeric databaseId." }),
    planId: t.id({ required: true, description: "Plan global id or numeric databaseId." }),
    mode: t.field({ type: FulfillmentModeEnum, required: true }),
    addonIds: t.idList({ required: true, description: "Add-on global ids or numeric ids." }),
    fulfillmentPoint: t.string({
      description: "Pickup point or delivery area; omitted keeps the current one while offered. Only a new point (same plan, mode, add-ons) takes effect at once.",
    }),
  }),
});

const RestartOutcomeEnum = builder.enumType("RestartOutcome", {
  values: {
    PAID: { description: "The current period was charged; the membership is active." },
    REACTIVATED: { description: "The current period was already paid; reactivated without a charge." },
    REQUIRES_ACTION: { description: "Confirm the payment with clientSecret in the card form; it activates once paid." },
  } as const,
});

const RestartSubscriptionPayload = builder.objectRef<restart.RestartResult>("RestartSubscriptionPayload").implement({
  fields: (t) => ({
    outcome: t.field({ type: RestartOutcomeEnum, resolve: (r) => r.outcome }),
    membership: t.prismaField({
      type: MembershipNode,
      resolve: (query, r, _a, ctx) => ctx.db.subscription.findUniqueOrThrow({ ...query, where: { id: r.subscriptionId } }),
    }),
    orderId: t.int({ nullable: true, resolve: (r) => (r.outcome === "PAID" ? r.orderId : null) }),
    chargedCents: t.int({
      nullable: true,
      description: "Charged now (PAID), 0 when reactivated without a charge; null until a payment needing the card is confirmed.",
      resolve: (r) => (r.outcome === "REQUIRES_ACTION" ? null : r.chargedCents),
    }),
    period: t.string({ nullable: true, description: "YYYY-MM paid through (PAID, REACTIVATED).", resolve: (r) => (r.outcome === "REQUIRES_ACTION" ? null : r.period) }),
    nextBillingDate: t.string({
      nullable: true,
      description: "ISO date of the next charge (PAID, REACTIVATED).",
      resolve: (r) => (r.outcome === "REQUIRES_ACTION" ? null : r.nextBillingDate),
    }),
    clientSecret: t.string({ nullable: true, resolve: (r) => (r.outcome === "REQUIRES_ACTION" ? r.clientSecret : null) }),
    paymentIntentId: t.string({ nullable: true, resolve: (r) => (r.outcome === "REQUIRES_ACTION" ? r.paymentIntentId : null) }),
  }),
});

const ChangeQuoteRef = builder.objectRef<subscriptions.ChangeQuote>("MembershipChangeQuote").implement({
  description: "The monthly price a change renews at, tax included (the change dialog's quote; nothing is charged today).",
  fields: (t) => ({
    subtotalCents: t.int({ resolve: (q) => q.price.subtotalCents }),
    discountCents: t.int({ description: "The membership's coupon, while still active.", resolve: (q) => q.price.discountCents }),
    taxCents: t.int({ resolve: (q) => q.price.taxCents }),
    taxRatePercent: t.float({ description: "0 when the business charges no tax.", resolve: (q) => q.price.taxRateBps / 100 }),
    totalCents: t.int({ description: "Charged each period from effectivePeriod.", resolve: (q) => q.price.totalCents }),
    breakdown: t.field({ type: PriceBreakdownRef, description: "The monthly price line by line.", resolve: (q) => q.breakdown }),
    effectivePeriod: t.exposeString("effectivePeriod", { description: "First billing period (YYYY-MM) at this price: the next one charged (skipped months passed over)." }),
    fulfillmentPoint: t.exposeString("fulfillmentPoint", { description: "The pickup point or delivery area the change takes." }),
  }),
});

const RestartQuoteRef = builder.objectRef<restart.RestartQuote>("RestartQuote").implement({
  description: "What restarting a canceled membership charges today and next (the restart dialog's amounts).",
  fields: (t) => ({
    todayCents: t.exposeInt("todayCents", { description: "Charged now; 0 when the current period is already paid." }),
    period: t.exposeString("period", { description: "The period (YYYY-MM) the restart pays for, or is already paid through." }),
    breakdown: t.field({ type: PriceBreakdownRef, description: "What a period costs, line by line (the membership's stored prices).", resolve: (q) => q.breakdown }),
    nextChargeDate: t.exposeString("nextChargeDate", { description: "ISO date of the first renewal after the restart." }),
    nextChargeCents: t.exposeInt("nextChargeCents"),
  }),
});

builder.queryFields((t) => ({
  restartQuote: t.field({
    type: RestartQuoteRef,
    errors: { types: RULE_ERRORS },
    description: "Member: what restarting their canceled membership charges today and next, before confirming it.",
    args: { subscriptionId: t.arg.id({ required: true }) },
    resolve: (_p, args, ctx) => restart.quoteRestart(ctx, { subscriptionId: numericId(args.subscriptionId, "Membership", "subscriptionId") }),
  }),
  changeQuote: t.field({
    type: ChangeQuoteRef,
    errors: { types: RULE_ERRORS },
    description: "Member: price a new selection for their membership as the renewal will (tax and coupon included), without scheduling it.",
    args: { input: t.arg({ type: ChangeSubscriptionInput, required: true }) },
    resolve: (_p, { input }, ctx) =>
      subscriptions.quoteChange(ctx, {
        subscriptionId: numericId(input.subscriptionId, "Membership", "subscriptionId"),
        planId: numericId(input.planId, "Plan", "planId"),
        mode: input.mode,
        addonIds: input.addonIds.map((id) => numericId(id, "Addon", "addonIds")),
        fulfillmentPoint: input.fulfillmentPoint ?? undefined,
      }),
  }),
}));

builder.mutationFields((t) => ({
  changeSubscription: t.prismaField({
    type: MembershipNode,
    errors: { types: RULE_ERRORS },
    description: "Member: schedule a new plan, fulfillment mode and add-ons from the next billing period (no charge now).",
    args: { input: t.arg({ type: ChangeSubscriptionInput, required: true }) },
    resolve: async (query, _p, { input }, ctx) => {
      const r = await subscriptions.changeSubscription(ctx, {
        subscriptionId: numericId(input.subscriptionId, "Membership", "subscriptionId"),
        planId: numericId(input.planId, "Plan", "planId"),
        mode: input.mode,
        addonIds: input.addonIds.map((id) => numericId(id, "Addon", "addonIds")),
        fulfillmentPoint: input.fulfillmentPoint ?? undefined,
      });
      return ctx.db.subscription.findUniqueOrThrow({ ...payloadQuery(query), where: { id: r.subscriptionId } });
    },
  }),
  cancelSubscription: t.prismaField({
    type: MembershipNode,
    errors: { types: RULE_ERRORS },
    description: "Business owner or administrator: cancel immediately (no automatic refund).",
    args: { input: t.arg({ type: CancelSubscriptionInput, required: true }) },
    resolve: async (query, _p, { input }, ctx) => {
      const r = await subscriptions.cancelSubscription(ctx, {
        subscriptionId: numericId(input.subscriptionId, "Membership", "subscriptionId"),
        mode: input.mode ?? "NOW",
      });
      return ctx.db.subscription.findUniqueOrThrow({ ...payloadQuery(query), where: { id: r.subscriptionId } });
    },
  }),
  restartSubscription: t.field({
    type: RestartSubscriptionPayload,
    errors: { types: RULE_ERRORS },
    description: "Member: restart a canceled membership, charging the current period now.",
    args: { input: t.arg({ type: RestartSubscriptionInput, required: true }) },
    resolve: (_p, { input }, ctx) =>
      restart.restartSubscription(ctx, {
        subscriptionId: numericId(input.subscriptionId, "Membership", "subscriptionId"),
        fulfillmentPoint: input.fulfillmentPoint ?? undefined,
        expectedTotalCents: input.expectedTotalCents ?? undefined,
      }),
  }),
}));

const ChangeMembershipAddressInput = builder.inputType("ChangeMembershipAddressInput", {
  fields: (t) => ({
    subscriptionId: t.id({ required: true, description: "Membership global id or numeric databaseId." }),
    address: t.field({ type: AddressInput, required: true, description: "The whole new address (street, city and zip code required)." }),
    fulfillmentPoint: t.string({ description: "Delivery: the area chosen with the new address; omitted keeps the current one while it is offered." }),
  }),
});

const ChangeMembershipAddressPayload = builder.objectRef<address.AddressChange>("ChangeMembershipAddressPayload").implement({
  fields: (t) => ({
    membership: t.prismaField({
      type: MembershipNode,
      resolve: (query, r, _a, ctx) => ctx.db.subscription.findUniqueOrThrow({ ...payloadQuery(query), where: { id: r.subscriptionId } }),
    }),
    appliesFrom: t.exposeString("appliesFrom", { description: "The first month (YYYY-MM) whose box goes to the new address (a frozen month keeps its packing list)." }),
  }),
});

builder.mutationFields((t) => ({
  changeMembershipAddress: t.field({
    type: ChangeMembershipAddressPayload,
    errors: { types: RULE_ERRORS },
    description: "Member: send their shipping or delivery membership's boxes to a new address (and, for delivery, area).",
    args: { input: t.arg({ type: ChangeMembershipAddressInput, required: true }) },
    resolve: (_p, { input }, ctx) =>
      address.changeMembershipAddress(ctx, {
        subscriptionId: numericId(input.subscriptionId, "Membership", "subscriptionId"),
        address: Object.fromEntries(Object.entries(input.address).filter(([, v]) => v != null)),
        fulfillmentPoint: input.fulfillmentPoint ?? undefined,
      }),
  }),
}));
