import closeWithGrace from "close-with-grace";
import type { AddressInfo } from "node:net";
import pino from "pino";
import { loadConfigOrExit } from "../api/config.ts";
import { configuredDatabase, openDatabase, type Database } from "../api/db.ts";
import { exitIfInUse } from "../api/embedded-lock.ts";
import { buildApp } from "./app.ts";
import { startJobQueue, type JobQueue } from "../api/queue/job-queue.ts";
import { eventsPruneJob, eventsPruneSchedule } from "../api/jobs/events-prune-job.ts";
import { renewalSchedule, renewalsJob } from "../api/jobs/renewals-job.ts";
import { FULFILMENT_FREEZE_QUEUE, fulfilmentFreezeJob, fulfilmentFreezeSchedule } from "../api/jobs/packing-job.ts";
import { MAIL_DISPATCH_QUEUE, mailJobs, mailSchedules } from "../api/jobs/mail-jobs.ts";
import { queueDueWork } from "../api/jobs/due-work.ts";
import { reconcileJob, reconcileSchedule } from "../api/jobs/reconcile-job.ts";
import { payoutsSandboxJob, payoutsSandboxSchedule } from "../api/jobs/payouts-sandbox-job.ts";
import { smtpTransport } from "../api/mail/transport.ts";
import { ShiftedClock, systemClock, type Clock } from "../api/shared/clock.ts";

/**
 * The server: `node server/main.ts` (Node's own type stripping; `npm start` imports this module in its own process).
 *
 * Stopping: SIGTERM, SIGINT or SIGHUP (or `shutdown()`, which start.mjs calls when npm goes away) stops accepting
 * connections, lets in-flight requests finish (at most DRAIN_LIMIT_MS, then their connections are closed), stops
 * the job queue (a renewal pass in flight stops at its next batch boundary and is retried later), closes the database and exits 0, logging "shutting down" and
 * "stopped". Whatever happens, the process exits within SHUTDOWN_LIMIT_MS of the signal, so every process of
 * `npm start` is gone within 10 s. A signal during start-up lets the step in progress finish and skips the rest.
 */
export const SHUTDOWN_LIMIT_MS = 9_000;
const DRAIN_LIMIT_MS = 6_000;

const config = loadConfigOrExit();
// Outside production the JSON lines are written synchronously, so the plain "Open" line printed after "ready"
// comes after them (pino's default stream buffers and would print it above); production keeps the buffered one.
const log =
  config.env === "development" && process.stdout.isTTY
    ? pino({ level: config.logLevel, transport: { target: "pino-pretty" } })
    : pino({ level: config.logLevel }, config.env === "production" ? undefined : pino.destination({ dest: 1, sync: true }));

const clock: Clock = config.clockStart ? new ShiftedClock(config.clockStart) : systemClock;
// Without SMTP_URL, messages are held for the Sent mail page (api/mail/).
const transport = config.smtpUrl ? smtpTransport(config.smtpUrl) : null;
if (config.clockStart) log.warn({ clockStart: config.clockStart }, "clock shifted: business dates follow CLOCK_START");

let db: Database | undefined;
let app: Awaited<ReturnType<typeof buildApp>> | undefined;
let jobs: JobQueue | undefined;
let stopping = false;
let stopReason: string | undefined;
let startup: Promise<void> = Promise.resolve();

// close-with-grace swaps its signal listeners at the first signal (`once`, then `on`): for that instant the process
// had none, so Node restored the default action, and a repeat landing then (npm forwarding the Ctrl-C the process
// also got from the terminal) killed it on the spot, without draining. A listener that stays closes that window.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => {});

// Installed before anything opens. One shutdown per process: npm forwards a signal to its script, and a terminal's
// Ctrl-C signals the whole process group as well, so the same stop often arrives twice; a repeat is only logged,
// since the first one's shutdown already has its time bound.
const grace = closeWithGrace(
  {
    delay: SHUTDOWN_LIMIT_MS,
    logger: log,
    onSecondSignal: (signal) => log.warn({ signal }, "already shutting down"),
    onTimeout: (ms) => log.error({ ms }, "shutdown did not finish in time: exiting now"),
  },
  async ({ signal, err }) => {
    stopping = true;
    const began = Date.now();
    if (err) log.error({ err }, "shutting down after an error");
    else log.info({ signal: signal ?? stopReason ?? "exit" }, "shutting down");
    await startup.catch(() => {});
    // Stops listening; requests in flight finish (keep-alive connections close after their answer).
    const drained = app?.close();
    const force = setTimeout(() => app?.server.closeAllConnections(), DRAIN_LIMIT_MS);
    force.unref();
    // A renewal pass in flight stops at its next batch boundary (charged batches recorded); the job is retried.
    await Promise.all([jobs?.stop(DRAIN_LIMIT_MS), drained]);
    transport?.close();
    clearTimeout(force);
    await db?.close();
    log.info({ ms: Date.now() - began }, "stopped");
  },
);

/** Stops the server as a signal would (start.mjs: the npm process that ran it has gone away). */
export function shutdown(reason: string): void {
  if (stopping) return;
  stopReason = reason;
  void grace.close();
}

startup = (async () => {
  // Another process on the embedded database: its one line, as for a refused setting.
  const database = (db = await openDatabase(configuredDatabase(config)).catch(exitIfInUse));
  if (stopping) return;
  const applied = await database.migrate();
  if (applied.length) log.info({ applied }, "migrations applied");
  if (stopping) return;

  if (config.seedDemo) {
    const { seedDemoData } = await import("../prisma/seed-data.ts");
    const seeded = await seedDemoData(database.prisma, clock);
    if (seeded) log.info("demo data created");
    if (stopping) return;
  }

  // The job queue (api/jobs/): pg-boss on the same database, in every process; each job runs once across them.
  // The billing clock is its cron schedule (BILLING_INTERVAL_MINUTES; 0: no schedule, the queue still runs);
  // the event outbox's retention runs daily; packing snapshots are frozen hourly and after each renewal pass
  // (api/jobs/packing-job.ts); email reads the outbox every few seconds (api/jobs/mail-jobs.ts).
  jobs = await startJobQueue({
    db: database,
    log,
    definitions: [
      renewalsJob({ db: database.prisma, clock, config, log }, { afterPass: async () => jobs?.boss.send(FULFILMENT_FREEZE_QUEUE, {}) }),
      eventsPruneJob({ db: database.prisma, clock }),
      fulfilmentFreezeJob({ db: database.prisma, clock, log }),
      ...mailJobs({ db: database.prisma, clock, config, transport, jobs: () => jobs }),
      reconcileJob({ db: database.prisma, clock, config }),
      // The sandbox stands in for Stripe's payout schedule and the banks (Stripe reports its payouts by webhook).
      ...(config.paymentProvider === "sandbox" ? [payoutsSandboxJob({ db: database.prisma, clock, config, log })] : []),
    ],
    schedules: [
      ...renewalSchedule(config.billingIntervalMs / 60_000),
      eventsPruneSchedule,
      fulfilmentFreezeSchedule,
      ...mailSchedules,
      reconcileSchedule,
      ...(config.paymentProvider === "sandbox" ? [payoutsSandboxSchedule] : []),
    ],
  });
  if (stopping) return;
  // Start the mail dispatch chain now rather than at the next minute's schedule, and catch up on what fell due
  // while no process ran (renewals only where the billing schedule is on: with it off, `billing:run` bills).
  await jobs.boss.send(MAIL_DISPATCH_QUEUE, {});
  await queueDueWork(jobs, { renewals: config.billingIntervalMs > 0 });

  const server = (app = await buildApp({ config, db: database, clock, logger: log, jobs }));
  if (stopping) return;
  await server.listen({ host: config.host, port: config.port });
  const shown = config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host;
  // The port actually bound: PORT=0 asks the system for a free one (the process tests start servers that way).
  const { port } = server.server.address() as AddressInfo;
  const url = `http://${shown}:${port}/`;
  log.info({ url, database: database.kind, ...(database.kind === "postgres" ? { poolMode: config.databasePoolMode } : {}), payments: config.paymentProvider, node: process.version }, "membership platform ready");
  // A plain line for whoever ran `npm start`, after the JSON lines of the start (logs stay JSON for log shippers):
  // where to go and, with the demo data, how to sign in.
  if (config.env !== "production") {
    const logins = config.seedDemo ? "  (admin/admin1234, owner/owner1234, member/member1234)" : "";
    console.log(`\n  Open ${url}${logins}\n  Membership platform: ${database.kind} database, ${config.paymentProvider} payments\n`);
  }
})();
await startup;
