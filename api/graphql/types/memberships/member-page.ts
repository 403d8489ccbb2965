/**
 * The member page of the admin area (docs/admin.md, "Member page"): Query.adminMembership, the Membership fields the
 * page reads beyond the list's (the member, the next charge, payments, the business's mail, notes, what the viewer
 * may do), an order's receipt message, and addMembershipNote. Each calls the domain (api/subscriptions/member-page.ts,
 * next-charge.ts, notes.ts; api/mail/service.ts), which decides who reads what.
 */
import { builder } from "../../builder.ts";
import { COMMON_ERRORS } from "../../errors.ts";
import { numericId } from "../../ids.ts";
import { PaymentStatus } from "../../../generated/prisma/enums.ts";
import type { Payment } from "../../../generated/prisma/client.ts";
import { can } from "../../../auth/policy.ts";
import { globalId } from "../../../shared/global-id.ts";
import * as memberPage from "../../../subscriptions/member-page.ts";
import * as notes from "../../../subscriptions/notes.ts";
import { nextChargeOf, type NextCharge } from "../../../subscriptions/next-charge.ts";
import * as mail from "../../../mail/service.ts";
import { MailMessageNode } from "../mail.ts";
import { membershipCouponTerms } from "../../../billing/breakdown.ts";
import { fulfilmentDataScopes, MembershipNode, OrderNode } from "./membership.ts";

const MembershipNoteObject = builder.prismaObject("MembershipNote", {
  description: "A staff note on a membership: internal, never shown to the member (readMemberNotes).",
  select: { id: true },
  findUnique: (n) => ({ id: n.id }),
  fields: (t) => ({
    id: t.id({ description: "Its global id (a MembershipNote is no Node: read it through its membership).", resolve: (n) => globalId("MembershipNote", n.id) }),
    databaseId: t.int({ resolve: (n) => n.id }),
    body: t.exposeString("body"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    authorName: t.string({
      nullable: true,
      description: "Who wrote it: their name, else their username; null once their account is gone.",
      select: { author: { select: { name: true, username: true } } },
      resolve: (n) => (n.author ? n.author.name?.trim() || n.author.username : null),
    }),
  }),
});

const NextChargeRef = builder.objectRef<NextCharge>("MembershipNextCharge").implement({
  description: "The next renewal charge: when, for which period, and what the renewal will charge (a scheduled change taking effect then included).",
  fields: (t) => ({
    date: t.exposeString("date", { description: "ISO date in the business's time zone: the billing day, or a past-due membership's next retry." }),
    period: t.exposeString("period", { description: "The billing period (YYYY-MM) it pays for." }),
    amountCents: t.exposeInt("amountCents"),
    retry: t.exposeBoolean("retry", { description: "A retry of a declined charge (past due)." }),
  }),
});

const PaymentStatusEnum = builder.enumType(PaymentStatus, { name: "PaymentStatus", description: "The payment's state at the provider." });

const MembershipPaymentRef = builder.objectRef<Payment>("MembershipPayment").implement({
  description: "A charge made or tried for a membership (checkout, renewal, retry, restart).",
  fields: (t) => ({
    databaseId: t.int({ resolve: (p) => p.id }),
    createdAt: t.field({ type: "DateTime", resolve: (p) => p.createdAt }),
    paidAt: t.field({ type: "DateTime", nullable: true, resolve: (p) => p.paidAt }),
    amountCents: t.int({ resolve: (p) => p.amountCents }),
    status: t.field({ type: PaymentStatusEnum, resolve: (p) => p.status }),
    failureMessage: t.string({ nullable: true, description: "Why it was declined, as the provider said.", resolve: (p) => p.failureMessage ?? p.failureCode }),
    refundedCents: t.int({ resolve: (p) => p.refundedCents }),
    refundReason: t.string({ nullable: true, description: "Why it was given back in full when it matched nothing (duplicate, superseded, …).", resolve: (p) => p.refundReason }),
    orderDatabaseId: t.int({ nullable: true, description: "The order it paid for.", resolve: (p) => p.orderId }),
  }),
});

const ViewerCanRef = builder.objectRef<{ businessId: number }>("MembershipViewerCan").implement({
  description: "What the signed-in user may do with the membership (api/auth/policy.ts), for the member page's actions.",
  fields: (t) => ({
    cancel: t.boolean({ description: "cancelSubscription (cancelMemberships).", resolve: (b, _a, ctx) => can(ctx, b.businessId, "cancelMemberships") }),
    addNote: t.boolean({ description: "addMembershipNote (writeMemberNotes).", resolve: (b, _a, ctx) => can(ctx, b.businessId, "writeMemberNotes") }),
    readMail: t.boolean({ description: "sentMail and receipts (readMail).", resolve: (b, _a, ctx) => can(ctx, b.businessId, "readMail") }),
  }),
});

builder.prismaObjectFields(MembershipNode, (t) => ({
  memberPhone: t.string({
    nullable: true,
    description: "The member's phone: their profile's, else the one given with the address. Partner tokens: with fulfilment:read only.",
    authScopes: (s, _a, ctx) => fulfilmentDataScopes(s, ctx),
    select: { address: true, user: { select: { phone: true } } },
    resolve: (s) => memberPage.memberPhone(s),
  }),
  memberSince: t.field({
    type: "DateTime",
    description: "The start of the member's first membership at this business.",
    select: memberPage.memberSinceSelect,
    resolve: (s) => memberPage.memberSince(s),
  }),
  couponCode: t.string({ nullable: true, description: "The coupon the membership was taken with.", select: { coupon: { select: { code: true } } }, resolve: (s) => s.coupon?.code ?? null }),
  couponTerms: t.string({
    nullable: true,
    description: 'What the membership\'s coupon still does: "20 % off · 2 months left" (the next charge included), "20 % off" for every charge; null without a coupon.',
    select: {
      coupon: { select: { id: true, type: true, value: true, duration: true, durationMonths: true } },
      couponRedemptions: { select: { couponId: true, chargesUsed: true } },
    },
    resolve: (s) => membershipCouponTerms(s.coupon, s.couponRedemptions),
  }),
  nextCharge: t.field({
    type: NextChargeRef,
    nullable: true,
    description: "The next renewal charge; null for a membership that is not current.",
    resolve: (s, _a, ctx) => nextChargeOf(ctx, s.id),
  }),
  payments: t.field({
    type: [MembershipPaymentRef],
    description: "Charges made or tried, newest first, the latest 50 (readOrders).",
    resolve: (s, _a, ctx) => memberPage.paymentsOf(ctx, s),
  }),
  notes: t.prismaConnection({
    type: MembershipNoteObject,
    cursor: "id",
    defaultSize: 50,
    maxSize: 100,
    description: "Staff notes, newest first: the business's staff and administrators (readMemberNotes), never the member or a partner token.",
    resolve: (query, s, _a, ctx) => notes.listNotes(ctx, s, query),
  }),
  sentMail: t.prismaConnection({
    type: MailMessageNode,
    cursor: "id",
    nullable: true,
    defaultSize: 20,
    maxSize: 100,
    description: "What this business emailed the member, newest first (its Sent mail rows; account mail is not the business's). Null for readers without readMail.",
    resolve: (query, s, _a, ctx) => mail.memberMail(ctx, { businessId: s.businessId, userId: s.userId }, query),
  }),
  viewerCan: t.field({ type: ViewerCanRef, resolve: (s) => ({ businessId: s.businessId }) }),
}));

builder.prismaObjectFields(OrderNode, (t) => ({
  receiptMail: t.field({
    type: MailMessageNode,
    nullable: true,
    description: "The order's receipt as the Sent mail page holds it (staff with readMail; null otherwise, or while none was written).",
    resolve: (o, _a, ctx) => mail.orderReceiptMessage(ctx, o),
  }),
}));

builder.queryFields((t) => ({
  adminMembership: t.prismaField({
    type: MembershipNode,
    nullable: true,
    description:
      "A membership of a business for the member page (/admin/business/{id}/members/{membershipId}): the business's staff and administrators " +
      "(readMemberNotes; never the member or a partner token). Null when the business has no such membership.",
    args: { businessId: t.arg.int({ required: true }), membershipId: t.arg.int({ required: true }) },
    resolve: (query, _p, args, ctx) => memberPage.membershipOfBusiness(ctx, args.businessId, args.membershipId, query),
  }),
}));

const AddMembershipNoteInput = builder.inputType("AddMembershipNoteInput", {
  fields: (t) => ({
    membershipId: t.id({ required: true, description: "Membership global id or numeric databaseId." }),
    body: t.string({ required: true, description: "The note: 1 to 2,000 characters once trimmed." }),
  }),
});

builder.mutationFields((t) => ({
  addMembershipNote: t.field({
    type: MembershipNoteObject,
    errors: { types: COMMON_ERRORS },
    description: "Owners, editors and administrators (writeMemberNotes): add an internal note to a membership of the business.",
    args: { input: t.arg({ type: AddMembershipNoteInput, required: true }) },
    resolve: (_p, { input }, ctx) => notes.addNote(ctx, { membershipId: numericId(input.membershipId, "Membership", "membershipId"), body: input.body }),
  }),
}));
