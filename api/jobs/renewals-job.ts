import type { Queue } from "pg-boss";
import { runRenewals, type BillingContext, type RenewalOptions, type RenewalReport } from "../billing/renewals/clock.ts";
import type { JobDefinition, JobSchedule } from "../queue/job-queue.ts";

/** The billing clock's queue: one job = one renewal pass over every business (api/billing/renewals/clock.ts). */
export const RENEWALS_QUEUE = "billing-renewals";

/**
 * At most one pass queued and one running ("stately"): occurrences piling up behind a long pass collapse into
 * one. A failed attempt (errors, memberships another run held, a shutdown mid-pass) is retried with a doubling
 * backoff from a minute (pg-boss adds jitter: 1–2, 2–4, … 16–32 minutes). A worker that dies mid-pass stops
 * refreshing its heartbeat; after 60 s without one the attempt is failed and retried elsewhere. The renewal
 * leases and the idempotency key per charge are what keep a retried pass from charging a period twice; the pass
 * itself only decides when to look again.
 */
const renewalsQueue: Queue = {
  name: RENEWALS_QUEUE,
  policy: "stately",
  retryLimit: 5,
  retryDelay: 60,
  retryBackoff: true,
  retryDelayMax: 60 * 60,
  heartbeatSeconds: 60,
  expireInSeconds: 4 * 60 * 60,
  retentionSeconds: 24 * 60 * 60,
  deleteAfterSeconds: 30 * 24 * 60 * 60,
};


/** A renewal pass that must be looked at again: its report says why, the Jobs screen shows the counts. */
class RenewalPassIncomplete extends Error {
  readonly report: RenewalReport;
  constructor(report: RenewalReport, why: string) {
    super(why);
    this.name = "RenewalPassIncomplete";
    this.report = report;
  }
}

/** Why a pass is not done (null: done): a job with these is retried, so the memberships get their run. */
function incomplete(report: RenewalReport, aborted: boolean): string | null {
  const why: string[] = [];
  if (report.errors) why.push(`${report.errors} not renewed because of an error`);
  if (report.busy) why.push(`${report.busy} held by another run`);
  if (aborted) why.push("stopped before the end (shutdown or lost claim)");
  return why.length ? `renewal pass incomplete: ${why.join(", ")}` : null;
}

/**
 * The renewal queue's definition: its worker runs one pass and fails the attempt when the pass is incomplete.
 * `afterPass` runs once a pass completed (the packing snapshot job is sent then: months frozen "when the renewal
 * run completes", api/packing/cycle.ts); its failure is logged, never the pass's.
 */
export function renewalsJob(
  ctx: BillingContext,
  opts: Omit<RenewalOptions, "signal"> & { queue?: Partial<Queue>; afterPass?: () => Promise<unknown> } = {},
): JobDefinition {
  const { queue, afterPass, ...pass } = opts;
  return {
    queue: { ...renewalsQueue, ...queue, name: RENEWALS_QUEUE },
    async run(_job, signal) {
      const report = await runRenewals(ctx, { ...pass, signal });
      const why = incomplete(report, signal.aborted);
      if (why) throw new RenewalPassIncomplete(report, why);
      await afterPass?.().catch((err: unknown) => ctx.log.error({ err }, "after the renewal pass: follow-up job not sent"));
      return report;
    },
  };
}

/**
 * BILLING_INTERVAL_MINUTES as a cron expression (UTC): under an hour, at the minutes past each hour that are a
 * multiple of it (every N minutes exactly when N divides 60); from an hour, on the hour every N/60 hours
 * (rounded); a day or more, at midnight UTC. 0 means no schedule.
 */
export function renewalSchedule(minutes: number): JobSchedule[] {
  if (minutes <= 0) return [];
  let cron: string;
  if (minutes < 60) cron = `*/${minutes} * * * *`;
  else if (minutes < 24 * 60) cron = `0 */${Math.round(minutes / 60)} * * *`;
  else cron = "0 0 * * *";
  return [{ queue: RENEWALS_QUEUE, cron }];
}
