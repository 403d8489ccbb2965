/**
 * The member's skips (spec §4): skip the next box's month, pause for several months, take one skip back, end a pause
 * early. Each calls one service function of api/subscriptions/skips.ts; the member's own membership only.
 */
import { builder } from "../../builder.ts";
import { payloadQuery } from "../../payload-query.ts";
import { RULE_ERRORS } from "../../errors.ts";
import { numericId } from "../../ids.ts";
import * as skips from "../../../subscriptions/skips.ts";
import { MembershipNode } from "./membership.ts";

const SUBSCRIPTION_ID = "Membership global id or numeric databaseId.";

const SkipMonthInput = builder.inputType("SkipMonthInput", {
  fields: (t) => ({ subscriptionId: t.id({ required: true, description: SUBSCRIPTION_ID }) }),
});
const PauseMembershipInput = builder.inputType("PauseMembershipInput", {
  fields: (t) => ({
    subscriptionId: t.id({ required: true, description: SUBSCRIPTION_ID }),
    months: t.int({ required: true, description: "1 to the business page's pauseMaxMonths." }),
  }),
});
const ResumeMembershipInput = builder.inputType("ResumeMembershipInput", {
  fields: (t) => ({ subscriptionId: t.id({ required: true, description: SUBSCRIPTION_ID }) }),
});
const UnskipMonthInput = builder.inputType("UnskipMonthInput", {
  fields: (t) => ({
    subscriptionId: t.id({ required: true, description: SUBSCRIPTION_ID }),
    month: t.string({ required: true, description: "The skipped month to take back (YYYY-MM)." }),
  }),
});

const SkipMonthPayload = builder.objectRef<skips.SkipResult>("SkipMonthPayload").implement({
  fields: (t) => ({
    membership: t.prismaField({
      type: MembershipNode,
      resolve: (query, r, _a, ctx) => ctx.db.subscription.findUniqueOrThrow({ ...payloadQuery(query), where: { id: r.subscriptionId } }),
    }),
    skippedMonth: t.exposeString("skippedMonth", { description: "YYYY-MM" }),
    resumeDate: t.exposeString("resumeDate", { description: "ISO date payments resume ('Payments paused until …')." }),
  }),
});

const PauseMembershipPayload = builder.objectRef<skips.PauseResult>("PauseMembershipPayload").implement({
  fields: (t) => ({
    membership: t.prismaField({
      type: MembershipNode,
      resolve: (query, r, _a, ctx) => ctx.db.subscription.findUniqueOrThrow({ ...payloadQuery(query), where: { id: r.subscriptionId } }),
    }),
    fromMonth: t.exposeString("fromMonth", { description: "YYYY-MM: the first month paused (the month of the next box)." }),
    throughMonth: t.exposeString("throughMonth", { description: "YYYY-MM: the last month paused (Membership.pausedThrough)." }),
    resumeDate: t.exposeString("resumeDate", { description: "ISO date of the first box after the pause (Membership.resumeDate)." }),
  }),
});

const unskipPayload = (name: string) =>
  builder.objectRef<skips.UnskipResult>(name).implement({
    fields: (t) => ({
      membership: t.prismaField({
        type: MembershipNode,
        resolve: (query, r, _a, ctx) => ctx.db.subscription.findUniqueOrThrow({ ...payloadQuery(query), where: { id: r.subscriptionId } }),
      }),
      months: t.exposeStringList("months", { description: "YYYY-MM: the months whose skips were taken back (each gets its box and its charge again)." }),
    }),
  });
const ResumeMembershipPayload = unskipPayload("ResumeMembershipPayload");
const UnskipMonthPayload = unskipPayload("UnskipMonthPayload");

const subscriptionIdOf = (input: { subscriptionId: string | number }) => numericId(input.subscriptionId, "Membership", "subscriptionId");

builder.mutationFields((t) => ({
  skipMonth: t.field({
    type: SkipMonthPayload,
    errors: { types: RULE_ERRORS },
    description: "Member: pause the month of the next box (inside the business's skip window).",
    args: { input: t.arg({ type: SkipMonthInput, required: true }) },
    resolve: (_p, { input }, ctx) => skips.skipMonth(ctx, { subscriptionId: subscriptionIdOf(input) }),
  }),
  pauseMembership: t.field({
    type: PauseMembershipPayload,
    errors: { types: RULE_ERRORS },
    description:
      "Member: pause for `months` months from the month of the next box (consecutive skips; the membership stays ACTIVE), inside the skip window, " +
      "up to the page's pauseMaxMonths (0: pause_not_offered; more: pause_too_long). The first month must not be skipped yet (already_skipped).",
    args: { input: t.arg({ type: PauseMembershipInput, required: true }) },
    resolve: (_p, { input }, ctx) => skips.pauseMembership(ctx, { subscriptionId: subscriptionIdOf(input), months: input.months }),
  }),
  resumeMembership: t.field({
    type: ResumeMembershipPayload,
    errors: { types: RULE_ERRORS },
    description:
      "Member: end the pause early, taking back the skips of the months Membership.pausedThrough covers that are not frozen for packing or paid " +
      "(inside the skip window; not_paused when the next box is not skipped).",
    args: { input: t.arg({ type: ResumeMembershipInput, required: true }) },
    resolve: (_p, { input }, ctx) => skips.resumeMembership(ctx, { subscriptionId: subscriptionIdOf(input) }),
  }),
  unskipMonth: t.field({
    type: UnskipMonthPayload,
    errors: { types: RULE_ERRORS },
    description:
      "Member: take back the skip of one month: its box and its charge come back. Inside the skip window, for a month not frozen for packing " +
      "(month_frozen) and not paid (month_paid); not_skipped when it is not skipped.",
    args: { input: t.arg({ type: UnskipMonthInput, required: true }) },
    resolve: (_p, { input }, ctx) => skips.unskipMonth(ctx, { subscriptionId: subscriptionIdOf(input), month: input.month }),
  }),
}));
