/**
 * The mail reads and actions of the admin area and the portal: the Sent mail list (administrators: every
 * message; owners: their businesses'), one message with its rendered parts, a resend, and the email preferences
 * of a member (reminders, pre-charge notice) and of staff (the daily digest).
 */
import { z } from "zod";
import type { ServiceContext } from "../context.ts";
import type { MailMessage, MailStatus, Prisma } from "../generated/prisma/client.ts";
import { assertCan, businessesWhere, can, isAdmin, requireUser } from "../auth/policy.ts";
import { ConflictError, ForbiddenError, NotFoundError, RuleViolationError, ValidationError } from "../shared/errors.ts";
import { parseInput } from "../shared/validation.ts";
import { newMessageId, queueSends } from "./store.ts";

export type MailPage = Pick<Prisma.MailMessageFindManyArgs, "select" | "include" | "take" | "skip" | "cursor">;

/** Whether messages go out (SMTP_URL set) or are held for the Sent mail page. */
export const smtpConfigured = (ctx: Pick<ServiceContext, "config">) => Boolean(ctx.config.smtpUrl);

/** Who may read a message: administrators; owners of its business (platform messages: administrators only). */
export function canReadMailMessage(ctx: ServiceContext, row: { businessId: number | null }): boolean | Promise<boolean> {
  if (isAdmin(ctx)) return true;
  return row.businessId !== null && can(ctx, row.businessId, "readMail");
}

/**
 * The Sent mail list, newest first: administrators see every message, owners their businesses'; optionally of
 * one business and one status.
 */
export async function listMessages(ctx: ServiceContext, filter: { businessId?: number | null; status?: MailStatus | null }, page: MailPage = {}): Promise<MailMessage[]> {
  requireUser(ctx);
  if (filter.businessId != null) await assertCan(ctx, filter.businessId, "readMail");
  const where: Prisma.MailMessageWhereInput = {
    ...(filter.businessId != null ? { businessId: filter.businessId } : isAdmin(ctx) ? {} : { business: businessesWhere(ctx, "readMail") }),
    ...(filter.status ? { status: filter.status } : {}),
  };
  return ctx.db.mailMessage.findMany({ take: 50, ...page, where, orderBy: { id: "desc" } });
}

/**
 * The Sent mail rows of one member at one business (the member page), newest first: what the business sent them,
 * never account mail (password changes, platform messages: no business). Null, not a refusal, for a reader who may
 * not read the business's mail (readMail: owners and administrators), so the page shows that instead.
 */
export async function memberMail(ctx: ServiceContext, member: { businessId: number; userId: number }, page: MailPage = {}): Promise<MailMessage[] | null> {
  const args: Prisma.MailMessageFindManyArgs = { take: 50, ...page, where: { businessId: member.businessId, recipientUserId: member.userId }, orderBy: { id: "desc" } };
  return (await can(ctx, member.businessId, "readMail")) ? ctx.db.mailMessage.findMany(args) : null;
}

async function readableMessage(ctx: ServiceContext, id: number): Promise<MailMessage> {
  requireUser(ctx);
  const row = await ctx.db.mailMessage.findUnique({ where: { id } });
  if (!row || !(await canReadMailMessage(ctx, row))) throw new NotFoundError("Message");
  return row;
}

/** Most resends of one message in 24 hours, and of one business's messages in an hour (no mail-bombing). */
const RESEND_LIMITS = { perMessagePerDay: 3, perBusinessPerHour: 50 } as const;

/** First key of the two-int advisory locks (pg_try_advisory_xact_lock(class, id)): one resend of a message at a time. */
const RESEND_MESSAGE_LOCK_CLASS = 0x6d61_696c; // "mail"
/** And one count-and-insert at a time per business, so two resends of different messages cannot both pass the hourly limit. */
const RESEND_BUSINESS_LOCK_CLASS = 0x6d62_7573; // "mbus"

const HOUR_MS = 3_600_000;

/**
 * Sends a message again, as a new message (same words, new Message-ID: it is a new delivery the operator asked
 * for), queued for SMTP or held without it. The original keeps its status.
 *
 * One resend of a message at a time: a transaction-scoped advisory lock on the original (never a session lock:
 * the product runs behind a transaction pooler), taken without waiting, so a concurrent resend answers
 * "already in progress" (ConflictError resend_in_progress) instead of racing for the same dedupe key. Limits,
 * counted in the database on the injectable clock so every process shares them: RESEND_LIMITS.perMessagePerDay
 * resends of a message in the last 24 hours, RESEND_LIMITS.perBusinessPerHour resends of a business's messages
 * in the last hour (RuleViolationError resend_limit).
 */
export async function resendMessage(ctx: ServiceContext, id: number): Promise<MailMessage> {
  const original = await readableMessage(ctx, id);
  if (!original.toAddress) throw new ValidationError("This message has no recipient address to send to.", [{ path: "id", message: "No email address on file" }]);
  const now = ctx.clock.now();
  return ctx.db.$transaction(async (tx) => {
    const [{ locked }] = await tx.$queryRaw<{ locked: boolean }[]>`SELECT pg_try_advisory_xact_lock(${RESEND_MESSAGE_LOCK_CLASS}::int, ${original.id}::int) AS locked`;
    if (!locked) throw new ConflictError("A resend of this message is already in progress.", "resend_in_progress");
    const today = await tx.mailMessage.count({ where: { resendOfId: original.id, createdAt: { gt: new Date(now.getTime() - 24 * HOUR_MS) } } });
    if (today >= RESEND_LIMITS.perMessagePerDay) {
      const n = RESEND_LIMITS.perMessagePerDay;
      throw new RuleViolationError(`This message was already resent ${today} times in the last 24 hours; the limit is ${n} a day.`, "resend_limit");
    }
    if (original.businessId !== null) {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${RESEND_BUSINESS_LOCK_CLASS}::int, ${original.businessId}::int)`;
      const hour = await tx.mailMessage.count({ where: { businessId: original.businessId, resendOfId: { not: null }, createdAt: { gt: new Date(now.getTime() - HOUR_MS) } } });
      if (hour >= RESEND_LIMITS.perBusinessPerHour) {
        const n = RESEND_LIMITS.perBusinessPerHour;
        throw new RuleViolationError(`This business's messages were already resent ${hour} times in the last hour; the limit is ${n} an hour.`, "resend_limit");
      }
    }
    const copies = await tx.mailMessage.count({ where: { resendOfId: original.id } });
    const status = ctx.config.smtpUrl ? "QUEUED" : "HELD";
    const row = await tx.mailMessage.create({
      data: {
        businessId: original.businessId,
        dedupeKey: `resend:${original.id}:${copies + 1}`,
        template: original.template,
        recipientUserId: original.recipientUserId,
        toAddress: original.toAddress,
        fromName: original.fromName,
        replyTo: original.replyTo,
        subject: original.subject,
        html: original.html,
        text: original.text,
        messageId: newMessageId(ctx.config),
        status,
        // A resent receipt is still that order's receipt (orderReceipt reads the latest copy).
        orderId: original.orderId,
        resendOfId: original.id,
        createdAt: now,
      },
    });
    if (status === "QUEUED") await queueSends(tx, ctx, [row.id]);
    return row;
  });
}

export interface MailPreferences {
  /** The window-closing reminder. */
  reminders: boolean;
  /** The notice 3 days before a charge. */
  prechargeNotice: boolean;
  /** The owners' daily digest (staff of a business). */
  digest: boolean;
}

async function mailPreferences(ctx: ServiceContext, userId: number): Promise<MailPreferences> {
  const u = await ctx.db.user.findUnique({ where: { id: userId }, select: preferenceColumns });
  if (!u) throw new NotFoundError("User");
  return preferencesOf(u);
}

/** The user columns that hold the preferences (GraphQL User.mailPreferences reads them with the user's row). */
export const preferenceColumns = { mailReminders: true, mailPrechargeNotice: true, mailDigest: true } as const satisfies Prisma.UserSelect;

export function preferencesOf(u: Prisma.UserGetPayload<{ select: typeof preferenceColumns }>): MailPreferences {
  return { reminders: u.mailReminders, prechargeNotice: u.mailPrechargeNotice, digest: u.mailDigest };
}

const PreferencesInput = z.object({ reminders: z.boolean().optional(), prechargeNotice: z.boolean().optional(), digest: z.boolean().optional() }).strict();

/** The signed-in user's own email preferences (receipts, payment and security messages cannot be turned off). */
export async function updateMailPreferences(ctx: ServiceContext, input: z.input<typeof PreferencesInput>): Promise<MailPreferences> {
  const actor = requireUser(ctx);
  const p = parseInput(PreferencesInput, input);
  await ctx.db.user.update({
    where: { id: actor.user.id },
    data: {
      ...(p.reminders !== undefined ? { mailReminders: p.reminders } : {}),
      ...(p.prechargeNotice !== undefined ? { mailPrechargeNotice: p.prechargeNotice } : {}),
      ...(p.digest !== undefined ? { mailDigest: p.digest } : {}),
    },
  });
  return mailPreferences(ctx, actor.user.id);
}

/** The receipts a member may open from their order history. */
const RECEIPT_TEMPLATES = ["welcome", "renewal_receipt", "restarted"] as const;

export interface OrderReceipt {
  subject: string;
  html: string;
  text: string;
  toAddress: string;
  status: MailStatus;
  createdAt: Date;
  sentAt: Date | null;
}

/**
 * The receipt message of an order as the Sent mail page holds it (its latest copy), for the member page's "View
 * receipt": null while none was written, and for a reader who may not read the business's mail (readMail).
 */
export async function orderReceiptMessage(ctx: ServiceContext, order: { id: number; businessId: number }): Promise<MailMessage | null> {
  if (!(await can(ctx, order.businessId, "readMail"))) return null;
  return ctx.db.mailMessage.findFirst({ where: { orderId: order.id, businessId: order.businessId, template: { in: [...RECEIPT_TEMPLATES] } }, orderBy: { id: "desc" } });
}

/**
 * The receipt stored for an order (Order History's "View receipt"): the member's own only; staff and administrators
 * read it on the Sent mail page. Its latest copy (an operator's resend is a copy of the same words), or null while
 * it is still being planned or for an order paid before receipts were linked to orders.
 */
export async function orderReceipt(ctx: ServiceContext, order: { id: number; userId: number }): Promise<OrderReceipt | null> {
  const actor = requireUser(ctx);
  if (actor.user.id !== order.userId) throw new ForbiddenError("You do not have permission to open this receipt: only the member who paid for the order can.", "not_owner");
  return ctx.db.mailMessage.findFirst({
    where: { orderId: order.id, template: { in: [...RECEIPT_TEMPLATES] } },
    orderBy: { id: "desc" },
    select: { subject: true, html: true, text: true, toAddress: true, status: true, createdAt: true, sentAt: true },
  });
}
