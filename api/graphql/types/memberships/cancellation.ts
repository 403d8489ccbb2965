/**
 * The member's own cancel (issue 40; GraphQL only): a reason and the retention offers, an offer taken, the cancel
 * confirmed or taken back. Each calls one service function of api/subscriptions/cancellation.ts; the member's own
 * membership only, at a business whose page says SELF_SERVICE (else RuleViolationError cancel_by_phone).
 */
import { builder } from "../../builder.ts";
import { payloadQuery } from "../../payload-query.ts";
import { RULE_ERRORS } from "../../errors.ts";
import { numericId } from "../../ids.ts";
import { globalId } from "../../../shared/global-id.ts";
import * as cancellation from "../../../subscriptions/cancellation.ts";
import { RetentionOfferEnum } from "../pages.ts";
import { MembershipNode } from "./membership.ts";
import { CANCELLATION_NOTE_MAX } from "../../../shared/cancellation.ts";

const REQUEST = "CancellationRequest";
const SUBSCRIPTION_ID = "Membership global id or numeric databaseId.";
const REQUEST_ID = "The request's id (requestCancellation's requestId), or its numeric id.";

export const CancellationReasonEnum = builder.enumType("CancellationReason", {
  description: "Why a member asks to cancel (the cancel dialog's list; OTHER with a note).",
  values: {
    TOO_EXPENSIVE: { description: "Too expensive." },
    TOO_MUCH: { description: "Too much food (more than I use)." },
    MOVING: { description: "Moving away." },
    QUALITY: { description: "Not happy with the quality." },
    DELIVERY: { description: "Pickup or delivery does not work for me." },
    TAKING_A_BREAK: { description: "Taking a break." },
    OTHER: { description: "Something else (see the note)." },
  } as const,
});

const RequestCancellationInput = builder.inputType("RequestCancellationInput", {
  fields: (t) => ({
    subscriptionId: t.id({ required: true, description: SUBSCRIPTION_ID }),
    reason: t.field({ type: CancellationReasonEnum, required: true }),
    note: t.string({ description: `The member's words, at most ${CANCELLATION_NOTE_MAX} characters.` }),
  }),
});
const AcceptRetentionOfferInput = builder.inputType("AcceptRetentionOfferInput", {
  fields: (t) => ({
    requestId: t.id({ required: true, description: REQUEST_ID }),
    offer: t.field({ type: RetentionOfferEnum, required: true, description: "One of the request's offers." }),
    months: t.int({ description: "PAUSE: 1 to the offer's maxMonths." }),
  }),
});
const ConfirmCancellationInput = builder.inputType("ConfirmCancellationInput", {
  fields: (t) => ({ requestId: t.id({ required: true, description: REQUEST_ID }) }),
});
const WithdrawCancellationInput = builder.inputType("WithdrawCancellationInput", {
  fields: (t) => ({ subscriptionId: t.id({ required: true, description: SUBSCRIPTION_ID }) }),
});

const RetentionOfferOptionRef = builder.objectRef<cancellation.RetentionOfferView>("RetentionOfferOption").implement({
  description: "An offer the membership can take instead of canceling, with what the cancel dialog says of it.",
  fields: (t) => ({
    offer: t.field({ type: RetentionOfferEnum, resolve: (o) => o.offer }),
    month: t.exposeString("month", { nullable: true, description: "SKIP and PAUSE: the month (YYYY-MM) skipped, the pause's first. DISCOUNT: the month charged at the discount." }),
    resumeDate: t.exposeString("resumeDate", { nullable: true, description: "SKIP: ISO date payments resume after the skipped month." }),
    maxMonths: t.exposeInt("maxMonths", { nullable: true, description: "PAUSE: the longest pause, in months." }),
    percent: t.exposeInt("percent", { nullable: true, description: "DISCOUNT: percent off that month's charge (once)." }),
  }),
});

const requestId = (id: number) => globalId(REQUEST, id);
const requestIdOf = (input: { requestId: string | number }) => numericId(input.requestId, REQUEST, "requestId");
const subscriptionIdOf = (input: { subscriptionId: string | number }) => numericId(input.subscriptionId, "Membership", "subscriptionId");

const RequestCancellationPayload = builder.objectRef<cancellation.RequestResult>("RequestCancellationPayload").implement({
  fields: (t) => ({
    requestId: t.id({ description: "Pass to acceptRetentionOffer or confirmCancellation.", resolve: (r) => requestId(r.requestId) }),
    membership: t.prismaField({
      type: MembershipNode,
      resolve: (query, r, _a, ctx) => ctx.db.subscription.findUniqueOrThrow({ ...payloadQuery(query), where: { id: r.subscriptionId } }),
    }),
    offers: t.field({ type: [RetentionOfferOptionRef], description: "What the membership can take now instead (empty: go on to confirming).", resolve: (r) => r.offers }),
    afterPeriod: t.exposeString("afterPeriod", { description: "YYYY-MM: the last month with a box if the member confirms (the paid-through month)." }),
    endsOn: t.exposeString("endsOn", { description: "ISO date the membership would end: its billing day in the month after afterPeriod." }),
  }),
});

const AcceptRetentionOfferPayload = builder.objectRef<cancellation.AcceptResult>("AcceptRetentionOfferPayload").implement({
  fields: (t) => ({
    requestId: t.id({ resolve: (r) => requestId(r.requestId) }),
    offer: t.field({ type: RetentionOfferEnum, resolve: (r) => r.offer }),
    membership: t.prismaField({
      type: MembershipNode,
      description: "The membership as the offer left it (skipped or paused months; DISCOUNT: the discounted totalCents and breakdown).",
      resolve: (query, r, _a, ctx) => ctx.db.subscription.findUniqueOrThrow({ ...payloadQuery(query), where: { id: r.subscriptionId } }),
    }),
  }),
});

const ConfirmCancellationPayload = builder.objectRef<cancellation.ConfirmResult>("ConfirmCancellationPayload").implement({
  fields: (t) => ({
    requestId: t.id({ resolve: (r) => requestId(r.requestId) }),
    membership: t.prismaField({
      type: MembershipNode,
      resolve: (query, r, _a, ctx) => ctx.db.subscription.findUniqueOrThrow({ ...payloadQuery(query), where: { id: r.subscriptionId } }),
    }),
    afterPeriod: t.exposeString("afterPeriod", { description: "YYYY-MM: the last month with a box (Membership.cancelAfterPeriod)." }),
    endsOn: t.exposeString("endsOn", { description: "ISO date the membership ends (Membership.endsOn)." }),
  }),
});

const WithdrawCancellationPayload = builder.objectRef<{ subscriptionId: number }>("WithdrawCancellationPayload").implement({
  fields: (t) => ({
    membership: t.prismaField({
      type: MembershipNode,
      resolve: (query, r, _a, ctx) => ctx.db.subscription.findUniqueOrThrow({ ...payloadQuery(query), where: { id: r.subscriptionId } }),
    }),
  }),
});

builder.prismaObjectFields(MembershipNode, (t) => ({
  cancelAfterPeriod: t.string({
    nullable: true,
    description: "YYYY-MM: a cancel the member scheduled ends the membership after this month's box ('Ends after your {Month} box'); null when none is scheduled.",
    select: { cancelAfterPeriod: true },
    resolve: (s) => s.cancelAfterPeriod,
  }),
  endsOn: t.string({
    nullable: true,
    description: "ISO date a scheduled cancel takes effect: the billing day of the month after cancelAfterPeriod, when the renewal run cancels instead of charging; null when none is scheduled.",
    select: { cancelAfterPeriod: true, billingDay: true },
    resolve: (s) => (s.cancelAfterPeriod ? cancellation.cancelEndsOn(s.cancelAfterPeriod, s.billingDay) : null),
  }),
}));

builder.mutationFields((t) => ({
  requestCancellation: t.field({
    type: RequestCancellationPayload,
    errors: { types: RULE_ERRORS },
    description:
      "Member, at a SELF_SERVICE business (else cancel_by_phone): store why they want to cancel and answer the offers this membership can take now " +
      "(of the page's retentionOffers: SKIP and PAUSE inside the skip window, SWITCH_PLAN inside the change window when a listed plan costs less, DISCOUNT " +
      "without a coupon in force and at most once in 12 months). An ACTIVE membership (not_active) not already ending (cancel_scheduled).",
    args: { input: t.arg({ type: RequestCancellationInput, required: true }) },
    resolve: (_p, { input }, ctx) => cancellation.requestCancellation(ctx, { subscriptionId: subscriptionIdOf(input), reason: input.reason, note: input.note }),
  }),
  acceptRetentionOffer: t.field({
    type: AcceptRetentionOfferPayload,
    errors: { types: RULE_ERRORS },
    description:
      "Member: take one of the request's offers and keep the membership. SKIP and PAUSE (with months) run skipMonth and pauseMembership, with their " +
      "refusals; SWITCH_PLAN records the choice (the web opens the change flow, /b/{slug}?change=true); DISCOUNT puts the business's retention coupon " +
      "on the next charge, once. Refused: offer_not_available (not offered, or no longer), request_closed (already answered).",
    args: { input: t.arg({ type: AcceptRetentionOfferInput, required: true }) },
    resolve: (_p, { input }, ctx) => cancellation.acceptRetentionOffer(ctx, { requestId: requestIdOf(input), offer: input.offer, months: input.months }),
  }),
  confirmCancellation: t.field({
    type: ConfirmCancellationPayload,
    errors: { types: RULE_ERRORS },
    description:
      "Member: cancel after the paid-through month (its box still ships). The membership stays ACTIVE until its next billing day, when the renewal run " +
      "cancels it instead of charging (membership.canceled.v1, reason member). Refused: request_closed, cancel_scheduled.",
    args: { input: t.arg({ type: ConfirmCancellationInput, required: true }) },
    resolve: (_p, { input }, ctx) => cancellation.confirmCancellation(ctx, { requestId: requestIdOf(input) }),
  }),
  withdrawCancellation: t.field({
    type: WithdrawCancellationPayload,
    errors: { types: RULE_ERRORS },
    description: "Member: 'Keep my membership': take back a scheduled cancel while the membership is still active; it renews as before (not_ending when none is scheduled).",
    args: { input: t.arg({ type: WithdrawCancellationInput, required: true }) },
    resolve: (_p, { input }, ctx) => cancellation.withdrawCancellation(ctx, { subscriptionId: subscriptionIdOf(input) }),
  }),
}));
