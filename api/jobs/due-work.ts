import { FULFILMENT_FREEZE_QUEUE } from "./packing-job.ts";
import { MAIL_REMINDERS_QUEUE } from "./mail-jobs.ts";
import type { JobQueue } from "../queue/job-queue.ts";
import { RENEWALS_QUEUE } from "./renewals-job.ts";
import { PAYOUTS_SANDBOX_QUEUE } from "./payouts-sandbox-job.ts";

/**
 * Queues one pass of each job that acts on what is due by the application's clock: renewals (whose completion
 * queues the packing snapshots), packing snapshots, reminders, the sandbox's payouts (only where that queue runs:
 * PAYMENT_PROVIDER=sandbox). The schedules fire on the wall clock, hourly at
 * most; without this, what fell due while no process ran (a server started on the 27th, a month frozen on the
 * 26th) or what a moved demo clock made due waited up to an hour for its next occurrence. Sent at start and
 * when the demo clock moves. The queues keep one run waiting (stately), so the processes of a deployment
 * starting together queue one pass each, not one per process. Queues this process does not run are passed by.
 */
export async function queueDueWork(jobs: JobQueue, opts: { renewals: boolean }): Promise<string[]> {
  const wanted = [...(opts.renewals ? [RENEWALS_QUEUE] : []), FULFILMENT_FREEZE_QUEUE, MAIL_REMINDERS_QUEUE, PAYOUTS_SANDBOX_QUEUE];
  const queued: string[] = [];
  for (const name of wanted) {
    if (!jobs.queues.some((q) => q.name === name)) continue;
    await jobs.boss.send(name, {});
    queued.push(name);
  }
  return queued;
}
