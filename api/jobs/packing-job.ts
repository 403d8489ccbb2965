import type { Queue } from "pg-boss";
import type { PrismaClient } from "../db.ts";
import { freezeDue } from "../packing/snapshot.ts";
import type { Clock } from "../shared/clock.ts";
import type { Log } from "../shared/log.ts";
import type { JobDefinition, JobSchedule } from "../queue/job-queue.ts";

/** Packing snapshots (api/packing/): one job = one pass freezing every month whose freeze time has passed. */
export const FULFILMENT_FREEZE_QUEUE = "fulfilment-freeze";

const freezeQueue: Queue = {
  name: FULFILMENT_FREEZE_QUEUE,
  // One pass queued and one running: the hourly occurrence and the one sent after a renewal pass collapse.
  policy: "stately",
  retryLimit: 5,
  retryDelay: 60,
  retryBackoff: true,
  expireInSeconds: 60 * 60,
  deleteAfterSeconds: 30 * 24 * 60 * 60,
};

/** A pass that could not freeze some months fails its attempt, so it is retried (the report says how many). */
class FreezePassIncomplete extends Error {
  constructor(errors: number) {
    super(`packing snapshots incomplete: ${errors} not frozen because of an error`);
    this.name = "FreezePassIncomplete";
  }
}

/**
 * The freeze queue's definition. The pass is safe with two processes: a snapshot is unique per business and
 * month, and a freeze that meets one made meanwhile writes nothing.
 */
export function fulfilmentFreezeJob(ctx: { db: PrismaClient; clock: Clock; log: Log }): JobDefinition {
  return {
    queue: freezeQueue,
    async run(_job, signal) {
      const report = await freezeDue(ctx, { signal });
      if (report.errors) throw new FreezePassIncomplete(report.errors);
      return report;
    },
  };
}

/** Hourly at a quarter past (a cutoff day ends at a local midnight; :05 is the mail reminders'); renewal passes also send one when they complete. */
export const fulfilmentFreezeSchedule: JobSchedule = { queue: FULFILMENT_FREEZE_QUEUE, cron: "15 * * * *" };
