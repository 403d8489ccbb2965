/**
 * `npm run payments:reconcile -- --day 2026-04-02`: one UTC day's reconciliation (api/billing/reconcile-run.ts) of
 * the provider's balance transactions against our payments and ledger, against DATABASE_URL or the embedded
 * database, run here rather than through the job queue (the servers' `payments-reconcile` job does the same daily at
 * 04:10 UTC). Prints the result; exits 1 when there are differences, 2 on a bad argument. The embedded database is
 * one process's at a time, so beside a server on it this refuses to run (exit 1), as billing:run does.
 */
import { parseArgs } from "node:util";
import { loadConfig } from "../api/config.ts";
import { configuredDatabase, openDatabase } from "../api/db.ts";
import { exitIfInUse } from "../api/embedded-lock.ts";
import { reconcileDay, utcDay } from "../api/billing/reconcile-run.ts";
import { systemClock } from "../api/shared/clock.ts";

const { values } = parseArgs({ options: { day: { type: "string" } } });
const day = values.day ?? "";
try {
  utcDay(day);
} catch {
  console.error(`--day must be a date, YYYY-MM-DD, got "${day}"`);
  process.exit(2);
}
const config = loadConfig();
// The embedded database while a server has it open: refused with one line (api/embedded-lock.ts).
const db = await openDatabase(configuredDatabase(config)).catch(exitIfInUse);
try {
  await db.migrate();
  const report = await reconcileDay({ db: db.prisma, clock: systemClock, config }, day);
  console.log(JSON.stringify(report, null, 2));
  if (report.differences.length > 0) process.exitCode = 1;
} finally {
  await db.close();
}
