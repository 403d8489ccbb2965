import type { Queue } from "pg-boss";
import { runSandboxPayouts } from "../billing/sandbox-payouts.ts";
import type { ServiceContext } from "../context.ts";
import type { JobDefinition, JobSchedule } from "../queue/job-queue.ts";

/**
 * The sandbox's payouts (PAYMENT_PROVIDER=sandbox only: Stripe pays out on its own schedule and reports it by
 * webhook): one job = one pass settling arrived payouts, paying out on Mondays and mirroring the payouts
 * (api/billing/sandbox-payouts.ts).
 */
export const PAYOUTS_SANDBOX_QUEUE = "payouts-sandbox";

const payoutsSandboxQueue: Queue = {
  name: PAYOUTS_SANDBOX_QUEUE,
  // One pass queued and one running: the hourly occurrence and the one queued when the demo clock moves collapse.
  policy: "stately",
  retryLimit: 3,
  retryDelay: 60,
  retryBackoff: true,
  expireInSeconds: 60 * 60,
  deleteAfterSeconds: 30 * 24 * 60 * 60,
};

/**
 * The queue's definition. Its result is the pass's counts (`paid`, `settled`, `failed`, `mirrored`). A pass is safe
 * to repeat: an account is paid out once per Monday, and the mirror records each change once.
 */
export function payoutsSandboxJob(ctx: Pick<ServiceContext, "db" | "clock" | "config" | "log">): JobDefinition {
  return {
    queue: payoutsSandboxQueue,
    run: async (_job, signal) => ({ ...(await runSandboxPayouts(ctx, signal)) }),
  };
}

/** Hourly at :20 (UTC): a Monday begins at a different hour in each business's time zone. */
export const payoutsSandboxSchedule: JobSchedule = { queue: PAYOUTS_SANDBOX_QUEUE, cron: "20 * * * *" };
