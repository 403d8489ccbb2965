import closeWithGrace from "close-with-grace";
import pino from "pino";
import { loadConfigOrExit } from "./config.ts";
import { openDatabase } from "./db.ts";
import { buildApp } from "./server.ts";
import { startBillingClock } from "./billing/renewals.ts";
import { ShiftedClock, systemClock, type Clock } from "./shared/clock.ts";
import path from "node:path";

const config = loadConfigOrExit();
const log = pino({ level: config.logLevel, ...(config.env === "development" && process.stdout.isTTY ? { transport: { target: "pino-pretty" } } : {}) });

const clock: Clock = config.clockStart ? new ShiftedClock(config.clockStart) : systemClock;
if (config.clockStart) log.warn({ clockStart: config.clockStart }, "clock shifted: business dates follow CLOCK_START");

const db = await openDatabase({ url: config.databaseUrl, pgliteDir: path.join(config.dataDir, "pglite") });
const applied = await db.migrate();
if (applied.length) log.info({ applied }, "migrations applied");

if (config.seedDemo) {
  const { seedDemoData } = await import("../prisma/seed-data.ts");
  const seeded = await seedDemoData(db.prisma, clock);
  if (seeded) log.info("demo data created");
}

const app = await buildApp({ config, db, clock, logger: log });
await app.listen({ host: config.host, port: config.port });
const shown = config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host;
const url = `http://${shown}:${config.port}/`;
log.info({ url, database: db.kind, payments: config.paymentProvider }, "membership platform ready");
// A plain line for whoever ran `npm start` (logs stay JSON for log shippers).
if (config.env !== "production") console.log(`\n  Membership platform running at ${url}  (${db.kind} database, ${config.paymentProvider} payments)\n`);

// The billing clock runs in every server process; leases and idempotency keys make concurrent runs safe.
const stopBillingClock = config.billingIntervalMs
  ? startBillingClock({ db: db.prisma, clock, config, log }, config.billingIntervalMs)
  : async () => {};

closeWithGrace({ delay: 10_000, logger: log }, async ({ err }) => {
  if (err) log.error({ err }, "shutting down after error");
  await stopBillingClock();
  await app.close();
  await db.close();
});
