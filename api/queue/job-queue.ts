import { fromPglite, PgBoss, type ConstructorOptions, type Job, type Queue } from "pg-boss";
import type { Database } from "../db.ts";
import type { Log } from "../shared/log.ts";

/** pg-boss's own tables live in this schema, beside Prisma's `public` (which migrations and db:diff keep to). */
const JOBS_SCHEMA = "pgboss";

/** One kind of job: its queue (name, retries, expiry, policy) and what a worker does with one job. */
export interface JobDefinition<Data extends object = object> {
  queue: Queue;
  /**
   * Runs one job. What it returns is stored as the job's result (the Jobs screen shows it); a throw fails
   * the attempt, and pg-boss retries it as the queue says. `signal` aborts when the process shuts down or the
   * job's claim is lost: stop at the next safe point and throw, so the job is retried.
   */
  run(job: Job<Data>, signal: AbortSignal): Promise<object>;
  /** Jobs of this queue a process runs at once (default 1): for many small jobs that wait on the network (email). */
  concurrency?: number;
  /**
   * Fetch without pausing between jobs while more than this many are ready (pg-boss's burstWhenReadyExceeds;
   * default: off, one poll interval between jobs, fine for a few long jobs and far too slow for thousands of sends).
   */
  burstWhenReadyExceeds?: number;
  /**
   * Whether an administrator may queue a run by hand ("Run now" on the Jobs screen), a job with no data. Default
   * true: a pass that looks at what is due. False for queues whose jobs carry their work (one email each).
   */
  runByHand?: boolean;
}

/** A cron schedule: pg-boss turns each occurrence into one job of `queue`, once across every process. */
export interface JobSchedule {
  queue: string;
  cron: string;
  data?: object;
}

export interface JobQueueOptions {
  db: Database;
  log: Log;
  definitions: JobDefinition[];
  schedules: JobSchedule[];
  /** Work the queues in this process (default true); false only sends jobs, reads and retries them. */
  work?: boolean;
  /** Seconds between a worker's polls for new jobs (default 2). */
  pollingIntervalSeconds?: number;
  /** pg-boss timers; only tests shorten them (schedules turned into jobs sooner, dead workers found sooner). */
  timing?: Pick<ConstructorOptions, "cronWorkerIntervalSeconds" | "cronMonitorIntervalSeconds" | "superviseIntervalSeconds" | "monitorIntervalSeconds">;
}

/** The process's job queue: pg-boss on the application's database, its queues, schedules and workers. */
export interface JobQueue {
  boss: PgBoss;
  /** The database schema of pg-boss's tables. */
  schema: string;
  /** The queues this process knows, in the order the Jobs screen lists them. */
  queues: Queue[];
  /** The queues an administrator may run by hand (JobDefinition.runByHand). */
  runnable: string[];
  /**
   * Stops taking jobs, tells running ones to stop at their next safe point (their `signal`), waits for them
   * (at most `timeoutMs`) and stops pg-boss. A job cut short is retried by another process or the next start.
   */
  stop(timeoutMs?: number): Promise<void>;
}

/**
 * Adds to a running job's stored data, so that its later attempts and an administrator's "Retry" see it: a
 * scheduled run (whose data the schedule fixes) records what it chose, such as the day it checks.
 */
export async function amendJobData(db: Pick<Database["prisma"], "$executeRawUnsafe">, job: Pick<Job<object>, "name" | "id">, patch: object): Promise<void> {
  await db.$executeRawUnsafe(`UPDATE ${JOBS_SCHEMA}.job SET data = COALESCE(data, '{}'::jsonb) || $1::jsonb WHERE name = $2 AND id::text = $3`, JSON.stringify(patch), job.name, job.id);
}

/** True when every number in a job's result (nested objects and arrays included) is 0, and there is at least one. */
export function didNothing(result: unknown): boolean {
  const numbers: number[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === "number") numbers.push(value);
    else if (value && typeof value === "object") for (const v of Object.values(value)) walk(v);
  };
  walk(result);
  return numbers.length > 0 && numbers.every((n) => n === 0);
}

/** This release's queues and schedules, whatever an earlier release left. */
async function applyQueuesAndSchedules(boss: PgBoss, opts: Pick<JobQueueOptions, "definitions" | "schedules">): Promise<void> {
  for (const { queue } of opts.definitions) {
    // createQueue keeps an existing queue as it is: apply this release's settings on every start (a queue's
    // policy and partitioning are fixed when it is created).
    const { name, policy: _policy, partition: _partition, ...settings } = queue;
    if (await boss.getQueue(name)) await boss.updateQueue(name, settings);
    else await boss.createQueue(name, queue);
  }
  // A removed schedule must stop firing.
  const wanted = new Set(opts.schedules.map((s) => s.queue));
  for (const old of await boss.getSchedules()) if (!wanted.has(old.name)) await boss.unschedule(old.name);
  for (const s of opts.schedules) await boss.schedule(s.queue, s.cron, s.data ?? {});
}

/**
 * Starts pg-boss on the application's database (creating or upgrading its `pgboss` schema on first start, on
 * PostgreSQL and on the embedded PGlite alike), creates the queues, replaces the schedules and, unless
 * `work` is false, registers a worker per queue. Every server process does this: pg-boss hands each job to one
 * worker, and a schedule's occurrence becomes one job however many processes see it.
 */
export async function startJobQueue(opts: JobQueueOptions): Promise<JobQueue> {
  const { db, log } = opts;
  const connection =
    db.jobsConnection.kind === "postgres"
      ? { connectionString: db.jobsConnection.url, max: 4 }
      : { db: fromPglite(db.jobsConnection.pglite), backend: "pglite" as const };
  // pg-boss works behind a transaction pooler (DATABASE_POOL_MODE=transaction) on the pooled URL: its statements
  // are unnamed, its locks transaction-scoped (BEGIN … pg_advisory_xact_lock … COMMIT in one query) and its
  // settings SET LOCAL. Its LISTEN/NOTIFY wake-ups would need a session: they stay off, workers poll.
  const options: ConstructorOptions = { ...connection, schema: JOBS_SCHEMA, useListenNotify: false, ...opts.timing };

  // First pg-boss without its timers: it creates or upgrades its schema, and this release's queues and
  // schedules are stored. Only then the instance that runs: its first cron pass, which it makes at once on
  // start, already sees the schedules. Storing them after that start left a brand-new database's first pass
  // with nothing to send and the next one a cron monitor interval (30 s) later: a first run 35 s after start.
  const setup = new PgBoss({ ...options, schedule: false, supervise: false });
  setup.on("error", (err) => log.error({ err }, "job queue error"));
  await setup.start();
  try {
    await applyQueuesAndSchedules(setup, opts);
  } finally {
    await setup.stop({ graceful: false });
  }

  const boss = new PgBoss(options);
  boss.on("error", (err) => log.error({ err }, "job queue error"));
  await boss.start();

  const stopping = new AbortController();

  if (opts.work !== false) {
    for (const def of opts.definitions) {
      await boss.work<object>(def.queue.name, { pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 2, batchSize: 1, localConcurrency: def.concurrency ?? 1, ...(def.burstWhenReadyExceeds ? { burstWhenReadyExceeds: def.burstWhenReadyExceeds } : {}) }, async ([job]) => {
        const signal = AbortSignal.any([stopping.signal, job.signal]);
        const started = Date.now();
        try {
          const result = await def.run(job, signal);
          // A run that did nothing (every count in its result 0: no email to send, nothing due) at debug, so an
          // idle server's console stays quiet; a run that did something at info.
          log[didNothing(result) ? "debug" : "info"]({ queue: job.name, jobId: job.id, ms: Date.now() - started, result }, "job done");
          return result;
        } catch (err) {
          log.error({ err, queue: job.name, jobId: job.id, ms: Date.now() - started, retryCount: job.retryCount }, "job failed");
          throw err;
        }
      });
    }
  }

  let stopped: Promise<void> | undefined;
  return {
    boss,
    schema: JOBS_SCHEMA,
    queues: opts.definitions.map((d) => d.queue),
    runnable: opts.definitions.filter((d) => d.runByHand !== false).map((d) => d.queue.name),
    stop(timeoutMs = 8_000) {
      stopped ??= (async () => {
        stopping.abort();
        await boss.stop({ graceful: true, timeout: timeoutMs });
      })();
      return stopped;
    },
  };
}
