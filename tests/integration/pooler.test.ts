import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { openSession } from "../../api/auth/sessions.ts";
import { testConfig } from "../../api/config.ts";
import { systemClock } from "../../api/shared/clock.ts";
import { killProcessGroup, listeningUrl, spawnProcessGroup, waitUntilHealthy } from "../support/server-process.ts";
import { portalViewerQuery } from "../bench/queries.ts";

/**
 * Production server processes behind PgBouncer in transaction mode (npm test's pooler run sets
 * TEST_POOLER_URL). Before the fix, 800 signed-in portal requests from two processes got 40 answers: 73 were
 * "Unexpected error." (`prepared statement "login-session" already exists`) and the rest hung, the login
 * session's named prepared statement meeting server connections another client had prepared it on, or had not.
 * Two processes migrating an empty database through the pooler hung at start: the migration lock, a session
 * lock, was taken on one server connection and released on another.
 */
const poolerUrl = process.env.TEST_POOLER_URL;
if (!poolerUrl) console.warn("pooler.test.ts skipped: it runs in npm test's pooler run (PgBouncer in transaction mode, TEST_POOLER_URL)");

const tsx = "node_modules/.bin/tsx";
const MIGRATIONS = path.resolve(import.meta.dirname, "../../prisma/migrations");
/** api/db.ts's migration lock, as pg_locks shows a bigint advisory lock (high and low 32 bits). */
const MIGRATION_LOCK_ID = 7_283_120_411n;

describe.skipIf(!poolerUrl)("two production server processes behind a transaction pooler", () => {
  let db: TestDatabase;
  const children: ChildProcess[] = [];
  const servers: string[] = [];
  const logs: string[] = [];
  const tokens: string[] = [];

  /** A statement on the database itself, not through the pooler or the pool under test. */
  const direct = async <T extends object>(sql: string, params: unknown[] = []): Promise<T[]> => {
    const client = new pg.Client({ connectionString: db.env.DIRECT_DATABASE_URL });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    // Empty: both servers migrate it at once as they start, through DIRECT_DATABASE_URL.
    db = await createTestDatabase({ poolSize: 3, migrate: false });
    expect(db.env.DATABASE_POOL_MODE).toBe("transaction");

    const booting: Promise<string>[] = [];
    for (const name of ["a", "b"]) {
      const env = {
        ...process.env,
        ...db.env,
        NODE_ENV: "production",
        // What production sets; the web build is not needed for /graphql.
        PUBLIC_HOST: "pooler.test",
        METRICS_TOKEN: "pooler-test-metrics",
        PAYMENT_PROVIDER: "sandbox",
        SEED_DEMO: "0",
        BILLING_INTERVAL_MINUTES: "0",
        DATABASE_POOL_SIZE: "8",
        // Info: the "ready" line carries the port (production prints no plain line).
        LOG_LEVEL: "info",
        HOST: "127.0.0.1",
        PORT: "0",
      };
      const child = spawnProcessGroup(tsx, ["server/main.ts"], { env, stdio: ["ignore", "pipe", "pipe"] });
      children.push(child);
      child.stdout!.on("data", (d) => logs.push(`[${name}] ${d}`));
      child.stderr!.on("data", (d) => logs.push(`[${name}] ${d}`));
      booting.push(listeningUrl(child, 120_000));
    }
    servers.push(...(await Promise.all(booting)));
    await waitUntilHealthy(servers, logs, 60_000);

    // Members with a membership each, so the portal reads sessions, memberships, windows and orders.
    const prisma = db.prisma;
    // Production servers run on the real clock: the sessions must be valid today.
    const clock = systemClock;
    const business = await prisma.business.create({ data: { collectsOnPlatform: true, slug: "pooled-farm", name: "Pooled Farm", page: { create: { brandName: "Pooled Farm", billingDay: 28 } } } });
    const plan = await prisma.plan.create({ data: { businessId: business.id, ref: "item_pooled", name: "Box", variations: { create: [{ mode: "PICKUP", amountCents: 3000 }] } } });
    for (let i = 0; i < 4; i++) {
      const user = await prisma.user.create({ data: { username: `pooled-member-${i}`, passwordHash: "x", email: `pooled-${i}@example.com` } });
      await prisma.subscription.create({
        data: { userId: user.id, businessId: business.id, planId: plan.id, status: "ACTIVE", mode: "PICKUP", planAmountCents: 3000, totalCents: 3000, billingDay: 28, paidThroughPeriod: "2026-04", startedAt: new Date("2026-03-28T15:00:00Z") },
      });
      tokens.push((await openSession({ db: prisma, clock, config: testConfig() }, user.id, { tenantSlug: null })).token);
    }
  }, 180_000);

  afterAll(async () => {
    await Promise.all(children.map((child) => killProcessGroup(child)));
    await db?.drop();
  }, 30_000);

  it("migrates once, on the direct connection, with the lock released, while both processes start", async () => {
    const expected = fs.readdirSync(MIGRATIONS).filter((d) => fs.existsSync(path.join(MIGRATIONS, d, "migration.sql"))).sort();
    const applied = await direct<{ migration_name: string }>("SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name");
    expect(applied.map((r) => r.migration_name)).toEqual(expected);
    const held = await direct(
      "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 1 AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) AND ((classid::bigint << 32) | objid::bigint) = $1",
      [MIGRATION_LOCK_ID.toString()],
    );
    expect(held).toEqual([]);
  });

  it("answers 800 signed-in portal requests, 40 at a time across both processes, without an error", async () => {
    const query = portalViewerQuery();
    const outcomes: string[] = [];
    let sent = 0;
    // A hung pool must fail the test with its tally, not time it out: nothing new is sent after a minute.
    const deadline = Date.now() + 60_000;
    const worker = async () => {
      while (sent < 800 && Date.now() < deadline) {
        const i = sent++;
        try {
          const res = await fetch(`${servers[i % 2]}/graphql`, {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${tokens[i % tokens.length]}` },
            body: JSON.stringify({ query }),
            signal: AbortSignal.timeout(5_000),
          });
          const body = (await res.json()) as { data?: { viewer?: { username?: string; subscriptions?: unknown[] } }; errors?: { message: string }[] };
          if (body.errors?.length) outcomes.push(`error: ${body.errors[0].message}`);
          else if (!body.data?.viewer?.username) outcomes.push(`signed out (${res.status})`);
          else if (body.data.viewer.subscriptions?.length !== 1) outcomes.push("membership missing");
          else outcomes.push("ok");
        } catch (error) {
          outcomes.push(`no answer: ${(error as Error).name}`);
        }
      }
    };
    await Promise.all(Array.from({ length: 40 }, worker));

    const tally: Record<string, number> = {};
    if (outcomes.length < 800) tally["not sent in a minute"] = 800 - outcomes.length;
    for (const o of outcomes) tally[o] = (tally[o] ?? 0) + 1;
    expect(tally, logs.join("").slice(-4000)).toEqual({ ok: 800 });
    // Nothing either process logged at error level meanwhile (pino's level 50 and above).
    expect(logs.join("")).not.toMatch(/"level":(50|60)/);
  }, 120_000);
});
