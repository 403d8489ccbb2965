import type { Queue } from "pg-boss";
import { previousUtcDay, reconcileDay, type ReconcileReport } from "../billing/reconcile-run.ts";
import { describeDifferences } from "../payouts/reconcile.ts";
import type { ServiceContext } from "../context.ts";
import { amendJobData, type JobDefinition, type JobQueue, type JobSchedule } from "../queue/job-queue.ts";

/** One UTC day's reconciliation of the provider's balance transactions against payments and ledger. */
export const RECONCILE_QUEUE = "payments-reconcile";

/**
 * A difference is for a person to look at, so a failed run is not retried: "Retry" on the Jobs screen checks the
 * same day again after a fix. Runs of different days may wait together (the demo clock queues several).
 */
const reconcileQueue: Queue = {
  name: RECONCILE_QUEUE,
  policy: "standard",
  retryLimit: 0,
  expireInSeconds: 60 * 60,
  deleteAfterSeconds: 90 * 24 * 60 * 60,
};

/**
 * The day a job checks: its own, else the UTC day before the application's clock's (the schedule's runs), which
 * the run then records on the job, so that "Retry" after the next midnight checks that day again, not the next.
 */
interface ReconcileData {
  day?: string;
}

/** A run with differences: its message names the first five, the Jobs screen shows it. */
class ReconciliationDifferences extends Error {
  readonly report: ReconcileReport;
  constructor(report: ReconcileReport) {
    super(`${report.day}: ${report.differences.length} difference(s) in ${report.checked} checked: ${describeDifferences(report.differences)}`);
    this.name = "ReconciliationDifferences";
    this.report = report;
  }
}

/** The result the Jobs screen counts: the day's numbers (the differences themselves are in a failed run's error). */
export function reconcileJob(ctx: Pick<ServiceContext, "db" | "clock" | "config">): JobDefinition<ReconcileData> {
  return {
    queue: reconcileQueue,
    // A moved demo clock queues a run per day it passed: they run back to back, not one per poll.
    burstWhenReadyExceeds: 1,
    async run(job) {
      let day = job.data.day;
      if (!day) {
        day = previousUtcDay(ctx.clock.now());
        await amendJobData(ctx.db, job, { day });
      }
      const report = await reconcileDay(ctx, day);
      if (report.differences.length) throw new ReconciliationDifferences(report);
      return { day: report.day, checked: report.checked, matched: report.matched, differences: 0 };
    },
  };
}

/** Daily at 04:10 UTC, for the UTC day just ended. */
export const reconcileSchedule: JobSchedule = { queue: RECONCILE_QUEUE, cron: "10 4 * * *" };

/** The most days one move of the demo clock queues: the last ones passed. */
const MAX_QUEUED_DAYS = 31;

/**
 * The demo clock moved from `from` to `to`: one run for each full UTC day it passed (at most the last
 * MAX_QUEUED_DAYS), ending with the day before `to`'s. Nothing when this process runs no such queue.
 */
export async function queueReconciliations(jobs: JobQueue, from: Date, to: Date): Promise<string[]> {
  if (!jobs.queues.some((q) => q.name === RECONCILE_QUEUE)) return [];
  const last = previousUtcDay(to);
  const days: string[] = [];
  for (let d = new Date(`${last}T00:00:00Z`); days.length < MAX_QUEUED_DAYS && d.toISOString().slice(0, 10) >= from.toISOString().slice(0, 10); d = new Date(d.getTime() - 86_400_000)) {
    days.unshift(d.toISOString().slice(0, 10));
  }
  if (days.length === 0) days.push(last);
  for (const day of days) await jobs.boss.send(RECONCILE_QUEUE, { day });
  return days;
}
