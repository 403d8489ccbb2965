import { builder } from "../builder.ts";
import { COMMON_ERRORS } from "../errors.ts";
import { ConflictError } from "../../shared/errors.ts";
import * as demoClock from "../../jobs/demo-clock.ts";
import * as jobs from "../../jobs/service.ts";

const JobRunStateEnum = builder.enumType("JobRunState", {
  description: "Where a job is: queued (CREATED), waiting for a retry after a failed attempt (RETRY), running (ACTIVE), or finished.",
  values: {
    CREATED: { value: "created" },
    RETRY: { value: "retry" },
    ACTIVE: { value: "active" },
    COMPLETED: { value: "completed" },
    CANCELLED: { value: "cancelled" },
    FAILED: { value: "failed", description: "Failed its last allowed attempt: retryJobRun runs it again." },
  } as const,
});

const JobRunCount = builder.objectRef<{ name: string; value: number }>("JobRunCount").implement({
  description: "One figure a job reported, e.g. a renewal pass's charged, failed, skipped.",
  fields: (t) => ({ name: t.exposeString("name"), value: t.exposeInt("value") }),
});

const JobRunRef = builder.objectRef<jobs.JobRun>("JobRun").implement({
  description: "One job of the job queue (pg-boss): a renewal pass, for example.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "pg-boss's job id (a UUID)." }),
    queue: t.exposeString("queue"),
    state: t.field({ type: JobRunStateEnum, resolve: (r) => r.state }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    startedAt: t.expose("startedAt", { type: "DateTime", nullable: true, description: "When its last attempt started." }),
    finishedAt: t.expose("finishedAt", { type: "DateTime", nullable: true }),
    durationMs: t.int({
      nullable: true,
      description: "From the last attempt's start to the end (finished runs).",
      resolve: (r) => (r.startedAt && r.finishedAt ? Math.max(0, r.finishedAt.getTime() - r.startedAt.getTime()) : null),
    }),
    retryCount: t.exposeInt("retryCount", { description: "Attempts after the first." }),
    retryLimit: t.exposeInt("retryLimit"),
    error: t.exposeString("error", { nullable: true, description: "The last failed attempt's error." }),
    counts: t.field({
      type: [JobRunCount],
      description: "What the job reported (from its result, or from the error of a failed attempt).",
      resolve: (r) => Object.entries(r.counts ?? {}).map(([name, value]) => ({ name, value })),
    }),
    nothingDue: t.exposeBoolean("nothingDue", { description: "Completed with every count 0: nothing was due." }),
    foldedRuns: t.exposeInt("foldedRuns", {
      description: "How many consecutive runs that found nothing due this row stands for (1: this run alone); `firstCreatedAt` is the oldest one's.",
    }),
    firstCreatedAt: t.expose("firstCreatedAt", { type: "DateTime", description: "When the oldest run this row stands for was queued (`createdAt` for a single run)." }),
  }),
});

const JobQueueRuns = builder.objectRef<jobs.QueueRuns>("JobQueueRuns").implement({
  fields: (t) => ({
    queue: t.exposeString("queue"),
    runnable: t.exposeBoolean("runnable", { description: "An administrator may queue a run by hand (runJobNow)." }),
    runs: t.field({
      type: [JobRunRef],
      description: `The ${jobs.RECENT_RUNS} newest rows, consecutive runs that found nothing due folded into one.`,
      resolve: (q) => q.runs,
    }),
  }),
});

builder.queryFields((t) => ({
  jobQueues: t.field({
    type: [JobQueueRuns],
    description: "Administrators: each job queue with its recent runs (the Jobs screen).",
    authScopes: { admin: true },
    resolve: (_p, _a, ctx) => jobs.recentRuns(ctx),
  }),
}));

builder.mutationFields((t) => ({
  retryJobRun: t.field({
    type: JobRunRef,
    description: "Administrators: runs a failed job again.",
    errors: { types: [...COMMON_ERRORS, ConflictError] },
    authScopes: { admin: true },
    args: { queue: t.arg.string({ required: true }), id: t.arg.id({ required: true }) },
    resolve: (_p, { queue, id }, ctx) => jobs.retryRun(ctx, queue, String(id)),
  }),
  runJobNow: t.field({
    type: JobRunRef,
    description: "Administrators: queues a run of a queue to start at once (a queue that keeps one run waiting has it brought forward instead).",
    errors: { types: [...COMMON_ERRORS, ConflictError] },
    authScopes: { admin: true },
    args: { queue: t.arg.string({ required: true }) },
    resolve: (_p, { queue }, ctx) => jobs.runNow(ctx, queue),
  }),
}));

const DemoClockMoveRef = builder.objectRef<demoClock.DemoClockMove>("DemoClockMove").implement({
  fields: (t) => ({
    now: t.expose("now", { type: "DateTime", description: "The server's time after the move." }),
    renewalQueued: t.exposeBoolean("renewalQueued", { description: "A renewal pass is queued for the new day (its completion queues the fulfilment freeze)." }),
  }),
});

builder.mutationFields((t) => ({
  moveDemoClock: t.field({
    type: DemoClockMoveRef,
    description: "Administrators, demos and tests only: moves the clock of a server started with CLOCK_START forward to `to` and queues a renewal pass. Refused (ConflictError) on the real clock, so never in production.",
    errors: { types: [...COMMON_ERRORS, ConflictError] },
    authScopes: { admin: true },
    args: { to: t.arg({ type: "DateTime", required: true }) },
    resolve: (_p, { to }, ctx) => demoClock.moveDemoClock(ctx, to),
  }),
}));
