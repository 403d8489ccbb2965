import { builder } from "../builder.ts";
import { COMMON_ERRORS, RULE_ERRORS } from "../errors.ts";
import { numericId } from "../ids.ts";
import { MailStatus } from "../../generated/prisma/enums.ts";
import { ValidationError } from "../../shared/errors.ts";
import * as mail from "../../mail/service.ts";
import { isTemplateName, TEMPLATES } from "../../mail/templates.ts";

const MailStatusEnum = builder.enumType(MailStatus, {
  name: "MailStatus",
  description: "QUEUED: waiting for the SMTP server (retried with backoff); SENT: accepted by it; FAILED: refused for good or out of retries; HELD: kept, not sent (no SMTP_URL).",
});

export const MailMessageNode = builder.prismaNode("MailMessage", {
  id: { field: "id" },
  authScopes: (m, ctx) => mail.canReadMailMessage(ctx, m),
  fields: (t) => ({
    databaseId: t.exposeInt("id"),
    template: t.exposeString("template", { description: "The template's key (docs/jobs-events-mail.md, \"Email\")." }),
    templateName: t.string({ description: "The template's name, e.g. \"Renewal receipt\".", resolve: (m) => (isTemplateName(m.template) ? TEMPLATES[m.template].label : m.template) }),
    toAddress: t.exposeString("toAddress", { description: "The recipient's address; empty when there was none (the message failed)." }),
    fromName: t.exposeString("fromName"),
    replyTo: t.exposeString("replyTo", { nullable: true }),
    subject: t.exposeString("subject"),
    status: t.expose("status", { type: MailStatusEnum }),
    attempts: t.exposeInt("attempts", { description: "Delivery attempts made." }),
    lastError: t.exposeString("lastError", { nullable: true, description: "Why the last attempt failed." }),
    messageId: t.exposeString("messageId", { description: "The RFC 5322 Message-ID it is sent with." }),
    html: t.exposeString("html", { description: "The rendered HTML part." }),
    text: t.exposeString("text", { description: "The plain-text part." }),
    business: t.relation("business", { nullable: true }),
    resent: t.boolean({ description: "An operator's resend of an earlier message.", resolve: (m) => m.resendOfId !== null }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    sentAt: t.expose("sentAt", { type: "DateTime", nullable: true }),
  }),
});

const MailPreferencesRef = builder.objectRef<mail.MailPreferences>("MailPreferences").implement({
  description: "Which optional messages the user gets. Receipts, payment and security messages cannot be turned off.",
  fields: (t) => ({
    reminders: t.exposeBoolean("reminders", { description: "The reminder 3 days before the skip/change window closes." }),
    prechargeNotice: t.exposeBoolean("prechargeNotice", { description: "The notice 3 days before a charge." }),
    digest: t.exposeBoolean("digest", { description: "The daily digest for owners and editors of a business." }),
  }),
});

builder.prismaObjectFields("User", (t) => ({
  mailPreferences: t.field({ type: MailPreferencesRef, select: mail.preferenceColumns, resolve: (u) => mail.preferencesOf(u) }),
}));

builder.queryFields((t) => ({
  mailMessages: t.prismaConnection({
    type: MailMessageNode,
    cursor: "id",
    defaultSize: 50,
    maxSize: 200,
    description: "The Sent mail list, newest first: administrators see every message, owners their businesses'.",
    authScopes: { loggedIn: true },
    args: {
      businessId: t.arg.int({ description: "Only this business's messages." }),
      status: t.arg({ type: MailStatusEnum }),
    },
    resolve: (query, _p, args, ctx) => mail.listMessages(ctx, { businessId: args.businessId, status: args.status }, query),
  }),
  mailDelivery: t.field({
    type: builder.objectRef<{ smtpConfigured: boolean }>("MailDelivery").implement({
      fields: (f) => ({ smtpConfigured: f.exposeBoolean("smtpConfigured", { description: "false: no SMTP_URL, messages are held here and never sent." }) }),
    }),
    authScopes: { loggedIn: true },
    resolve: (_p, _a, ctx) => ({ smtpConfigured: mail.smtpConfigured(ctx) }),
  }),
}));

const UpdateMailPreferencesInput = builder.inputType("UpdateMailPreferencesInput", {
  fields: (t) => ({ reminders: t.boolean(), prechargeNotice: t.boolean(), digest: t.boolean() }),
});

builder.mutationFields((t) => ({
  resendMailMessage: t.field({
    type: MailMessageNode,
    description:
      "Sends a message again as a new message (administrators; owners for their businesses). One resend of a message at a time (CONFLICT resend_in_progress), at most 3 of a message a day and 50 of a business's messages an hour (RULE_VIOLATION resend_limit).",
    errors: { types: [...RULE_ERRORS, ValidationError] },
    args: { id: t.arg.id({ required: true }) },
    // The new row, whole: the message type reads only its own columns and its business (loaded on demand).
    resolve: (_p, { id }, ctx) => mail.resendMessage(ctx, numericId(id, "MailMessage", "id")),
  }),
  updateMailPreferences: t.field({
    type: MailPreferencesRef,
    description: "The signed-in user's optional messages.",
    errors: { types: [...COMMON_ERRORS] },
    args: { input: t.arg({ type: UpdateMailPreferencesInput, required: true }) },
    resolve: (_p, { input }, ctx) =>
      mail.updateMailPreferences(ctx, {
        ...(input.reminders != null ? { reminders: input.reminders } : {}),
        ...(input.prechargeNotice != null ? { prechargeNotice: input.prechargeNotice } : {}),
        ...(input.digest != null ? { digest: input.digest } : {}),
      }),
  }),
}));

const OrderReceiptRef = builder.objectRef<mail.OrderReceipt>("OrderReceipt").implement({
  description: "The receipt email stored for an order, as it was sent (or held).",
  fields: (t) => ({
    subject: t.exposeString("subject"),
    html: t.exposeString("html", { description: "The rendered HTML part (show it sandboxed: it is a whole email document)." }),
    text: t.exposeString("text", { description: "The plain-text part." }),
    toAddress: t.exposeString("toAddress"),
    status: t.expose("status", { type: MailStatusEnum }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    sentAt: t.expose("sentAt", { type: "DateTime", nullable: true }),
  }),
});

builder.prismaObjectFields("Order", (t) => ({
  receipt: t.field({
    type: OrderReceiptRef,
    nullable: true,
    description: "The member's own order only (others get FORBIDDEN): its receipt email (Order History's View receipt); null until it is written.",
    select: { id: true, userId: true },
    resolve: (o, _a, ctx) => mail.orderReceipt(ctx, o),
  }),
}));
