/**
 * The email sender as a consumer of the event outbox (api/events/outbox.ts): reads the events after its position,
 * plans and stores their messages and moves its position, all in one transaction. The consumer's row is locked
 * first (FOR UPDATE), so two processes dispatching at once take turns and the second reads from where the first
 * stopped; a dispatcher that dies before commit leaves the position where it was and the next one plans the same
 * messages again (their dedupe keys make that harmless).
 */
import type { PrismaClient } from "../db.ts";
import type { Clock } from "../shared/clock.ts";
import type { Config } from "../config.ts";
import type { JobQueue } from "../queue/job-queue.ts";
import { ack, readEvents } from "../events/outbox.ts";
import { planForEvent } from "./planner.ts";
import { storeMessages } from "./store.ts";

/** The mail sender's name in event_consumers. */
export const MAIL_CONSUMER = "mail";

const BATCH = 200;

export interface DispatchContext {
  db: PrismaClient;
  clock: Clock;
  config: Config;
  jobs?: JobQueue;
}

/** One batch: returns the events read and the messages stored. */
async function dispatchBatch(ctx: DispatchContext): Promise<{ events: number; messages: number }> {
  return ctx.db.$transaction(
    async (tx) => {
      await tx.$executeRaw`INSERT INTO event_consumers (name, position, updated_at) VALUES (${MAIL_CONSUMER}, 0, ${ctx.clock.now()}::timestamp) ON CONFLICT (name) DO NOTHING`;
      const [{ position }] = await tx.$queryRaw<{ position: bigint }[]>`SELECT position FROM event_consumers WHERE name = ${MAIL_CONSUMER} FOR UPDATE`;
      const events = await readEvents(tx, { after: Number(position), limit: BATCH });
      if (events.length === 0) return { events: 0, messages: 0 };
      const planned = [];
      for (const event of events) planned.push(...(await planForEvent(tx, ctx.config, event)));
      const messages = await storeMessages(tx, { config: ctx.config, jobs: ctx.jobs, now: ctx.clock.now() }, planned);
      await ack(tx, MAIL_CONSUMER, events[events.length - 1].sequence, ctx.clock.now());
      return { events: events.length, messages };
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
}

/** Dispatches until the outbox is read to its end (or `signal` aborts between batches). */
export async function dispatchEvents(ctx: DispatchContext, signal?: AbortSignal): Promise<{ events: number; messages: number }> {
  const total = { events: 0, messages: 0 };
  for (;;) {
    const batch = await dispatchBatch(ctx);
    total.events += batch.events;
    total.messages += batch.messages;
    if (batch.events < BATCH || signal?.aborted) return total;
  }
}
