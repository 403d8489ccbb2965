/**
 * The demo clock (demos and browser tests only): a server started with CLOCK_START (never in production, see
 * api/config.ts) runs on a ShiftedClock, which an administrator may move forward to walk through a month: after a
 * move, a renewal pass, a reminders pass and (sandbox) a payouts pass are queued (the renewal pass charges what is due on the new day; its
 * completion queues the packing snapshots, api/jobs/renewals-job.ts). A server on the real clock refuses. Each server process has its own clock:
 * with several processes, only the one that answered moved.
 */
import type { ServiceContext } from "../context.ts";
import { requireAdmin } from "../auth/policy.ts";
import { isMovable } from "../shared/clock.ts";
import { ConflictError, ValidationError } from "../shared/errors.ts";
import { queueDueWork } from "./due-work.ts";
import { queueReconciliations } from "./reconcile-job.ts";
import { RENEWALS_QUEUE } from "./renewals-job.ts";

export interface DemoClockMove {
  now: Date;
  /** A renewal pass is queued for the new day (or already was); false: no job queue runs in this process. */
  renewalQueued: boolean;
}

export async function moveDemoClock(ctx: ServiceContext, to: Date): Promise<DemoClockMove> {
  requireAdmin(ctx);
  if (!isMovable(ctx.clock)) throw new ConflictError("The demo clock runs only on a server started with CLOCK_START (never in production).", "demo_clock_off");
  if (to.getTime() < ctx.clock.now().getTime()) throw new ValidationError("The demo clock moves forward only.", [{ path: "to", message: "The demo clock moves forward only." }]);
  const from = ctx.clock.now();
  ctx.clock.moveTo(to);
  ctx.log.warn({ now: to.toISOString() }, "demo clock moved");
  // A pass already waiting (the queues' stately policy) runs on the new day too.
  const queued = ctx.jobs ? await queueDueWork(ctx.jobs, { renewals: true }) : [];
  // The UTC days it passed are reconciled (api/jobs/reconcile-job.ts), as the daily schedule would have.
  if (ctx.jobs) await queueReconciliations(ctx.jobs, from, to);
  return { now: ctx.clock.now(), renewalQueued: queued.includes(RENEWALS_QUEUE) };
}
