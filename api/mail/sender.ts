/**
 * Delivering one stored message (the mail-send job). Exactly-once as far as we can see it: a message leaves
 * QUEUED once, recorded SENT after the SMTP server accepted it; a job that finds it no longer QUEUED does
 * nothing. The one gap is between the server's acceptance and our record (the process dies there): the retried
 * job sends again, with the same Message-ID, and mail clients show it once (docs/jobs-events-mail.md, "Email").
 */
import type { PrismaClient } from "../db.ts";
import type { Clock } from "../shared/clock.ts";
import type { Config } from "../config.ts";
import { crashPoint } from "../shared/crash-points.ts";
import { PermanentMailError, type MailTransport } from "./transport.ts";

export interface SendContext {
  db: PrismaClient;
  clock: Clock;
  config: Config;
  /** null without SMTP_URL: the message is held. */
  transport: MailTransport | null;
}

export type SendOutcome = "sent" | "held" | "failed" | "not_queued";

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 1000);

/**
 * Sends message `id` if it is still QUEUED. A temporary failure is recorded and thrown (the job is retried with
 * backoff), except on the `lastAttempt`, where the message is recorded FAILED; a permanent refusal is recorded
 * FAILED and not thrown.
 */
export async function deliver(ctx: SendContext, id: number, opts: { lastAttempt?: boolean } = {}): Promise<SendOutcome> {
  const m = await ctx.db.mailMessage.findUnique({ where: { id } });
  if (!m || m.status !== "QUEUED") return "not_queued";
  if (!ctx.transport) {
    await ctx.db.mailMessage.updateMany({ where: { id, status: "QUEUED" }, data: { status: "HELD" } });
    return "held";
  }
  crashPoint("mail:before-send");
  try {
    await ctx.transport.send({
      from: { name: m.fromName, address: ctx.config.mailFrom },
      to: m.toAddress,
      replyTo: m.replyTo,
      subject: m.subject,
      html: m.html,
      text: m.text,
      messageId: m.messageId,
    });
  } catch (err) {
    const permanent = err instanceof PermanentMailError;
    await ctx.db.mailMessage.updateMany({
      where: { id, status: "QUEUED" },
      data: { attempts: { increment: 1 }, lastError: errorText(err), ...(permanent || opts.lastAttempt ? { status: "FAILED" } : {}) },
    });
    if (permanent) return "failed";
    throw err;
  }
  crashPoint("mail:after-send");
  await ctx.db.mailMessage.updateMany({
    where: { id, status: "QUEUED" },
    data: { status: "SENT", sentAt: ctx.clock.now(), attempts: { increment: 1 }, lastError: null },
  });
  crashPoint("mail:after-record");
  return "sent";
}
