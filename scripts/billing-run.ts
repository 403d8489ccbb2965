/**
 * `npm run billing:run [-- --as-of 2026-04-03T12:00:00Z]`: one pass of the billing clock (renewals, retries of
 * past-due memberships) against DATABASE_URL or the embedded database, then prints what it did. Safe to run
 * while servers are running and to run twice.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import pino from "pino";
import { loadConfig } from "../api/config.ts";
import { openDatabase } from "../api/db.ts";
import { runRenewals } from "../api/billing/renewals.ts";
import { FixedClock, systemClock } from "../api/shared/clock.ts";

const { values } = parseArgs({ options: { "as-of": { type: "string" } } });
const config = loadConfig();
const log = pino({ level: config.logLevel });
const clock = values["as-of"] ? new FixedClock(values["as-of"]) : systemClock;
if (values["as-of"] && Number.isNaN(clock.now().getTime())) {
  console.error(`--as-of must be an ISO date-time, got "${values["as-of"]}"`);
  process.exit(2);
}
const db = await openDatabase({ url: config.databaseUrl, pgliteDir: path.join(config.dataDir, "pglite") });
try {
  await db.migrate();
  const started = Date.now();
  const report = await runRenewals({ db: db.prisma, clock, config, log });
  console.log(JSON.stringify({ asOf: clock.now().toISOString(), seconds: (Date.now() - started) / 1000, ...report }, null, 2));
} finally {
  await db.close();
}
