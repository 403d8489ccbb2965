/**
 * Storing planned messages: each is rendered once (HTML and plain text), given its Message-ID and inserted with
 * its dedupe key (and a receipt with its order's id, mail_messages.order_id); a key already stored inserts nothing (ON CONFLICT DO NOTHING), which is what makes a re-read
 * event, a repeated reminder run or two dispatchers plan each message once. The send job of each new queued
 * message is inserted in the SAME transaction (pg-boss's `db` option over the Prisma transaction): a message is
 * never stored without its job, nor a job without its message.
 *
 * Status at birth: HELD without SMTP_URL (kept for the Sent mail page, never sent); FAILED when the recipient has
 * no email address (shown, not silently dropped); else QUEUED, with a job on the mail-send queue.
 */
import { randomUUID } from "node:crypto";
import { fromPrisma } from "pg-boss";
import type { Config } from "../config.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import type { JobQueue } from "../queue/job-queue.ts";
import { ConflictError } from "../shared/errors.ts";
import { renderLetter } from "./layout.ts";
import type { PlannedMessage } from "./planner.ts";

type Tx = Prisma.TransactionClient;

/** The queue whose jobs deliver one message each (api/jobs/mail-jobs.ts). */
export const MAIL_SEND_QUEUE = "mail-send";

const NO_ADDRESS = "No email address on file";

export function newMessageId(config: Pick<Config, "mailFrom">): string {
  return `<${randomUUID()}@${config.mailFrom.split("@")[1] ?? "localhost"}>`;
}

export interface StoreContext {
  config: Config;
  jobs?: JobQueue;
  now: Date;
}

/** Inserts the messages not stored yet and queues their sends; returns how many were new. */
export async function storeMessages(tx: Tx, ctx: StoreContext, planned: readonly PlannedMessage[]): Promise<number> {
  if (planned.length === 0) return 0;
  const rendered = await Promise.all(planned.map((p) => renderLetter(p.sender.brand, p.letter)));
  const rows = await tx.mailMessage.createManyAndReturn({
    data: planned.map((p, i) => {
      const status = !p.toAddress ? "FAILED" : ctx.config.smtpUrl ? "QUEUED" : "HELD";
      return {
        businessId: p.sender.businessId,
        dedupeKey: p.dedupeKey,
        template: p.template,
        recipientUserId: p.recipientUserId,
        toAddress: p.toAddress,
        fromName: p.sender.fromName,
        replyTo: p.sender.replyTo,
        subject: p.letter.subject,
        html: rendered[i].html,
        text: rendered[i].text,
        messageId: newMessageId(ctx.config),
        status,
        lastError: status === "FAILED" ? NO_ADDRESS : null,
        eventSequence: p.eventSequence === null ? null : BigInt(p.eventSequence),
        orderId: p.orderId,
        createdAt: ctx.now,
      } as const;
    }),
    skipDuplicates: true,
    select: { id: true, status: true },
  });
  await queueSends(tx, ctx, rows.filter((r) => r.status === "QUEUED").map((r) => r.id));
  return rows.length;
}

/** Inserts one mail-send job per message, in the transaction `tx`. */
export async function queueSends(tx: Tx, ctx: Pick<StoreContext, "jobs">, messageIds: number[]): Promise<void> {
  if (messageIds.length === 0) return;
  if (!ctx.jobs) throw new ConflictError("The job queue is not running in this process: messages cannot be queued.", "jobs_not_running");
  await ctx.jobs.boss.insert(
    MAIL_SEND_QUEUE,
    messageIds.map((messageId) => ({ data: { messageId } })),
    { db: fromPrisma(tx) },
  );
}
