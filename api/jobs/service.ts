import type { ServiceContext } from "../context.ts";
import { requireAdmin } from "../auth/policy.ts";
import { ConflictError, NotFoundError } from "../shared/errors.ts";
import { didNothing, type JobQueue } from "../queue/job-queue.ts";

/** Rows listed per queue on the Jobs screen, newest first (a row may stand for several runs that found nothing to do). */
export const RECENT_RUNS = 20;
/**
 * Runs read per queue to fill those rows: the email planner runs every few seconds, so an idle hour is 700
 * runs; folded, a day of them is one row, and the rows past this window are simply not listed.
 */
const RUNS_READ = 1000;

type RunState = "created" | "retry" | "active" | "completed" | "cancelled" | "failed";

/** One job as the Jobs screen shows it: what ran, when, how long, how it ended, its counts or its error. */
export interface JobRun {
  id: string;
  queue: string;
  state: RunState;
  createdAt: Date;
  startedAt: Date | null;
  /** When it completed or finally failed; null while it is queued, running or waiting for a retry. */
  finishedAt: Date | null;
  retryCount: number;
  retryLimit: number;
  /** The error of the last failed attempt (a failed run, or one waiting for its retry). */
  error: string | null;
  /** The counts the job reported (a renewal pass's report), from its result or, when it failed, its error. */
  counts: Record<string, number> | null;
  /** Completed with every count 0: nothing was due (these fold, see `foldedRuns`). */
  nothingDue: boolean;
  /**
   * How many consecutive runs that found nothing to do this row stands for (1: just this run). A folded row is
   * its newest run, `firstCreatedAt` its oldest's queue time.
   */
  foldedRuns: number;
  firstCreatedAt: Date;
}

export interface QueueRuns {
  queue: string;
  /** An administrator may queue a run by hand (runNow). */
  runnable: boolean;
  runs: JobRun[];
}

function jobQueue(ctx: Pick<ServiceContext, "jobs">): JobQueue {
  // Every server process starts one (server/main.ts); only a process without it (a script, a test app) lands here.
  if (!ctx.jobs) throw new ConflictError("The job queue is not running in this process.", "jobs_not_running");
  return ctx.jobs;
}

const numbers = (v: unknown): Record<string, number> | null => {
  if (!v || typeof v !== "object") return null;
  const entries = Object.entries(v).filter((e): e is [string, number] => typeof e[1] === "number");
  return entries.length ? Object.fromEntries(entries) : null;
};

/** A row of pg-boss's job table, as the Jobs screen reads it. */
interface JobRow {
  id: string;
  name: string;
  state: RunState;
  retry_count: number;
  retry_limit: number;
  created_on: Date;
  started_on: Date | null;
  completed_on: Date | null;
  output: unknown;
}

const JOB_COLUMNS = "id, name, state, retry_count, retry_limit, created_on, started_on, completed_on, output";

/** pg-boss stores a failed attempt's error as its output (serialized; sometimes under `value`). */
function toRun(job: JobRow): JobRun {
  const raw = job.output;
  const output = raw && typeof raw === "object" && "value" in raw && Object.keys(raw).length === 1 ? raw.value : raw;
  const failedAttempt = job.state === "failed" || job.state === "retry";
  const o = (output && typeof output === "object" ? output : {}) as Record<string, unknown>;
  const date = (d: Date | string | null) => (d == null ? null : new Date(d));
  const createdAt = date(job.created_on)!;
  return {
    id: job.id,
    queue: job.name,
    state: job.state,
    createdAt,
    startedAt: job.state === "created" ? null : date(job.started_on),
    finishedAt: job.state === "completed" || job.state === "failed" || job.state === "cancelled" ? date(job.completed_on) : null,
    retryCount: Number(job.retry_count),
    retryLimit: Number(job.retry_limit),
    error: failedAttempt ? (typeof o.message === "string" ? o.message : "failed") : null,
    counts: numbers(failedAttempt ? o.report : output),
    nothingDue: job.state === "completed" && didNothing(output),
    foldedRuns: 1,
    firstCreatedAt: createdAt,
  };
}

/** Newest first, consecutive runs that found nothing to do as one row; at most `limit` rows. */
function foldIdleRuns(runs: JobRun[], limit: number): JobRun[] {
  const rows: JobRun[] = [];
  for (const run of runs) {
    const last = rows.at(-1);
    if (run.nothingDue && last?.nothingDue) {
      last.foldedRuns++;
      last.firstCreatedAt = run.createdAt;
      continue;
    }
    if (rows.length === limit) break;
    rows.push({ ...run });
  }
  return rows;
}

async function readRun(jobs: JobQueue, queue: string, id: string): Promise<JobRun | undefined> {
  const { rows } = await jobs.boss.getDb().executeSql(`SELECT ${JOB_COLUMNS} FROM ${jobs.schema}.job WHERE name = $1 AND id::text = $2`, [queue, id]);
  return rows[0] ? toRun(rows[0] as JobRow) : undefined;
}

/**
 * Administrators: each queue of the process's job queue with its most recent runs (newest first), consecutive
 * runs that found nothing to do folded into one row.
 */
export async function recentRuns(ctx: Pick<ServiceContext, "actor" | "jobs">, limit = RECENT_RUNS): Promise<QueueRuns[]> {
  requireAdmin(ctx);
  const jobs = jobQueue(ctx);
  return Promise.all(
    jobs.queues.map(async ({ name }) => {
      const { rows } = await jobs.boss
        .getDb()
        .executeSql(`SELECT ${JOB_COLUMNS} FROM ${jobs.schema}.job WHERE name = $1 ORDER BY created_on DESC, id DESC LIMIT $2`, [name, RUNS_READ]);
      return { queue: name, runnable: jobs.runnable.includes(name), runs: foldIdleRuns((rows as JobRow[]).map(toRun), limit) };
    }),
  );
}

/**
 * Administrators: "Run now". Queues a run of a queue that looks at what is due (renewals, packing snapshots,
 * reminders…) to start at once. A queue that keeps one run waiting (stately) already has one: that run is
 * brought forward instead (a retry waiting out its backoff included), so a click never stacks runs.
 */
export async function runNow(ctx: Pick<ServiceContext, "actor" | "jobs" | "log">, queue: string): Promise<JobRun> {
  requireAdmin(ctx);
  const jobs = jobQueue(ctx);
  if (!jobs.queues.some((q) => q.name === queue)) throw new NotFoundError("Queue");
  if (!jobs.runnable.includes(queue)) throw new ConflictError("This queue's runs each carry their own work (one email each): they are not run by hand.", "job_not_runnable");
  let id = await jobs.boss.send(queue, {});
  if (!id) {
    const { rows } = await jobs.boss.getDb().executeSql(
      `UPDATE ${jobs.schema}.job SET start_after = LEAST(start_after, ${jobs.schema}.job_now())
        WHERE id = (SELECT id FROM ${jobs.schema}.job WHERE name = $1 AND state IN ('created', 'retry', 'active') ORDER BY created_on DESC LIMIT 1)
          AND name = $1
        RETURNING id::text`,
      [queue],
    );
    id = (rows[0] as { id: string } | undefined)?.id ?? null;
  }
  if (!id) throw new ConflictError("The run could not be queued: try again.", "job_not_queued");
  ctx.log.info({ queue, jobId: id, by: ctx.actor.kind === "user" ? ctx.actor.user.username : ctx.actor.kind }, "job run queued by hand");
  return (await readRun(jobs, queue, id))!;
}

/**
 * Administrators: runs a failed job again (pg-boss retry: back to the queue with its data, attempts counted
 * afresh). Only a failed run: a queued or running one is already on its way, a completed one is done.
 */
export async function retryRun(ctx: Pick<ServiceContext, "actor" | "jobs">, queue: string, id: string): Promise<JobRun> {
  requireAdmin(ctx);
  const jobs = jobQueue(ctx);
  if (!jobs.queues.some((q) => q.name === queue)) throw new NotFoundError("Queue");
  const job = await readRun(jobs, queue, id);
  if (!job) throw new NotFoundError("Job");
  if (job.state !== "failed") throw new ConflictError("Only a failed run can be retried.", "job_not_failed");
  await jobs.boss.retry(queue, id);
  return (await readRun(jobs, queue, id))!;
}
