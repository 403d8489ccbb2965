/**
 * `npm run billing:run [-- --as-of 2026-04-03T12:00:00Z] [--batch-size 500] [--concurrency 2]`: one pass of the
 * billing clock (renewals, retries of past-due memberships) against DATABASE_URL or the embedded database, then
 * prints what it did. The pass runs here, in this process, not through the job queue (api/jobs/), so it needs no
 * server running; the servers' scheduled passes (BILLING_INTERVAL_MINUTES) do the same work as jobs. Safe to run
 * while servers are running on PostgreSQL and to run twice; the embedded database is one process's at a time, so
 * beside a server on it this refuses to run (exit 1). Exits 1 when some memberships
 * could not be renewed because of an error (they are left as they were and tried again on the next run).
 */
import { parseArgs } from "node:util";
import pino from "pino";
import { loadConfig } from "../api/config.ts";
import { configuredDatabase, openDatabase } from "../api/db.ts";
import { exitIfInUse } from "../api/embedded-lock.ts";
import { DEFAULT_BATCH_SIZE, DEFAULT_CONCURRENCY, runRenewals } from "../api/billing/renewals/clock.ts";
import { FixedClock, systemClock } from "../api/shared/clock.ts";

const { values } = parseArgs({
  options: {
    "as-of": { type: "string" },
    "batch-size": { type: "string", default: String(DEFAULT_BATCH_SIZE) },
    concurrency: { type: "string", default: String(DEFAULT_CONCURRENCY) },
  },
});
const config = loadConfig();
const log = pino({ level: config.logLevel });
const clock = values["as-of"] ? new FixedClock(values["as-of"]) : systemClock;
if (values["as-of"] && Number.isNaN(clock.now().getTime())) {
  console.error(`--as-of must be an ISO date-time, got "${values["as-of"]}"`);
  process.exit(2);
}
const batchSize = Number(values["batch-size"]);
const concurrency = Number(values.concurrency);
for (const [flag, n, max] of [["--batch-size", batchSize, 5000], ["--concurrency", concurrency, 32]] as const) {
  if (!Number.isInteger(n) || n < 1 || n > max) {
    console.error(`${flag} must be a whole number from 1 to ${max}`);
    process.exit(2);
  }
}
// The embedded database while a server has it open: refused with one line (api/embedded-lock.ts).
const db = await openDatabase({ ...configuredDatabase(config), poolSize: Math.max(config.databasePoolSize, concurrency + 2) }).catch(exitIfInUse);
try {
  await db.migrate();
  const started = Date.now();
  const report = await runRenewals({ db: db.prisma, clock, config, log }, { batchSize, concurrency });
  console.log(JSON.stringify({ asOf: clock.now().toISOString(), seconds: (Date.now() - started) / 1000, ...report }, null, 2));
  if (report.errors > 0) process.exitCode = 1;
} finally {
  await db.close();
}
