import type { Queue } from "pg-boss";
import type { PrismaClient } from "../db.ts";
import { pruneEvents } from "../events/outbox.ts";
import type { Clock } from "../shared/clock.ts";
import type { JobDefinition, JobSchedule } from "../queue/job-queue.ts";

/** The outbox's retention: once a day, events older than the retention period (api/events/outbox.ts) go. */
export const EVENTS_PRUNE_QUEUE = "events-prune";

const eventsPruneQueue: Queue = {
  name: EVENTS_PRUNE_QUEUE,
  // One run at a time; a missed day is caught up by the next (the deletion is by age, so any run does it all).
  policy: "singleton",
  retryLimit: 3,
  retryDelay: 5 * 60,
  retryBackoff: true,
  expireInSeconds: 60 * 60,
  deleteAfterSeconds: 30 * 24 * 60 * 60,
};

/**
 * Deletes the events past their retention that no active consumer still has to read, by the application's
 * clock. The result counts what went (`deleted`) and what waits for a consumer (`kept`), and names each stalled
 * consumer as `stalled:<name>`: days since its last ack (the Jobs screen lists the numbers of a result).
 */
export function eventsPruneJob(ctx: { db: PrismaClient; clock: Clock }): JobDefinition {
  return {
    queue: eventsPruneQueue,
    // The queue logs the result ("job done"), stalled consumers included.
    async run() {
      const report = await pruneEvents(ctx.db, ctx.clock.now());
      return { deleted: report.deleted, kept: report.kept, ...Object.fromEntries(report.stalled.map((c) => [`stalled:${c.name}`, c.daysSinceAck])) };
    },
  };
}

/** Daily at 03:30 UTC, away from the hour the renewal schedule starts on. */
export const eventsPruneSchedule: JobSchedule = { queue: EVENTS_PRUNE_QUEUE, cron: "30 3 * * *" };
