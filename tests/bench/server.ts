/**
 * One server process of `bench:run --processes N`: the app as run.ts builds it (production config, silent
 * logs, billing clock off, the bench's fixed clock) on the database run.ts passes (DATABASE_URL, and behind its
 * pooler DATABASE_POOL_MODE and DIRECT_DATABASE_URL), listening on a free loopback
 * port, which it prints as `listening <port>`. Stops on SIGTERM or when its parent goes away.
 */
import "./production-env.ts";
import pino from "pino";
import { loadConfig } from "../../api/config.ts";
import { configuredDatabase, openDatabase } from "../../api/db.ts";
import { buildApp } from "../../server/app.ts";
import { FixedClock } from "../../api/shared/clock.ts";

const now = process.env.BENCH_NOW;
if (!process.env.DATABASE_URL || !now) throw new Error("DATABASE_URL and BENCH_NOW are set by tests/bench/run.ts");
const config = loadConfig({
  NODE_ENV: "production",
  LOG_LEVEL: "silent",
  BILLING_INTERVAL_MINUTES: "0",
  SEED_DEMO: "0",
  DATABASE_URL: process.env.DATABASE_URL,
  ...(process.env.DATABASE_POOL_MODE ? { DATABASE_POOL_MODE: process.env.DATABASE_POOL_MODE } : {}),
  ...(process.env.DIRECT_DATABASE_URL ? { DIRECT_DATABASE_URL: process.env.DIRECT_DATABASE_URL } : {}),
  HOST: "127.0.0.1",
  PORT: "0",
  PUBLIC_HOST: "localhost",
  ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
  ...(process.env.PUBLIC_CACHE_TTL_SECONDS ? { PUBLIC_CACHE_TTL_SECONDS: process.env.PUBLIC_CACHE_TTL_SECONDS } : {}),
});
const db = await openDatabase({ ...configuredDatabase(config), poolSize: Number(process.env.BENCH_POOL ?? 10) });
const app = await buildApp({ config, db, clock: new FixedClock(now), logger: pino({ level: "silent" }) });
await app.listen({ host: "127.0.0.1", port: 0 });
await app.publicCache.ready();
const { port } = app.server.address() as { port: number };
console.log(`listening ${port}`);

const stop = async () => {
  await app.close();
  await db.close();
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.on("disconnect", () => void stop());
process.stdin.on("end", () => void stop());
process.stdin.resume();
