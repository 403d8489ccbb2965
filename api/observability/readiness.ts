import fs from "node:fs";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import type { Log } from "../context.ts";
import type { Database } from "../db.ts";

/** The migrations this code expects, one folder each (the files are part of the deployment). */
const MIGRATIONS_DIR = path.resolve(import.meta.dirname, "../../prisma/migrations");

type Readiness = { ready: true } | { ready: false; reason: "database unreachable" | "migrations pending" };

/** How long the database may take to answer a readiness check before it counts as unreachable. */
const DATABASE_TIMEOUT_MS = 3_000;
/** How long a successful migration check is trusted (a database does not lose its migrations while we run). */
const MIGRATIONS_CACHE_MS = 30_000;

function expectedMigrations(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(dir, e.name, "migration.sql")))
    .map((e) => e.name);
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The readiness check: the database answers (`SELECT 1`, at most 3 s) and every migration folder of
 * prisma/migrations is applied (finished and not rolled back in `_prisma_migrations`; a database without that
 * table has none). Concurrent checks share one run; a passed migration check is kept 30 s. A change of state is
 * logged once (with the database's error), never sent to the client.
 */
function readinessCheck(db: Database, log: Log, migrationsDir = MIGRATIONS_DIR): () => Promise<Readiness> {
  let expected: string[] | undefined;
  let migratedUntil = 0;
  let inFlight: Promise<Readiness> | null = null;
  let last: string = "ready";

  const check = async (): Promise<Readiness> => {
    try {
      await withTimeout(db.prisma.$queryRaw`SELECT 1`, DATABASE_TIMEOUT_MS);
    } catch (err) {
      return report({ ready: false, reason: "database unreachable" }, err);
    }
    if (Date.now() < migratedUntil) return report({ ready: true });
    try {
      expected ??= expectedMigrations(migrationsDir);
      const [table] = await withTimeout(db.prisma.$queryRaw<{ present: boolean }[]>`SELECT to_regclass('_prisma_migrations') IS NOT NULL AS present`, DATABASE_TIMEOUT_MS);
      const applied = table?.present
        ? await withTimeout(
            db.prisma.$queryRaw<{ name: string }[]>`SELECT migration_name AS name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
            DATABASE_TIMEOUT_MS,
          )
        : [];
      const names = new Set(applied.map((r) => r.name));
      const pending = expected.filter((name) => !names.has(name));
      if (pending.length) return report({ ready: false, reason: "migrations pending" }, undefined, { pending });
      migratedUntil = Date.now() + MIGRATIONS_CACHE_MS;
      return report({ ready: true });
    } catch (err) {
      return report({ ready: false, reason: "database unreachable" }, err);
    }
  };

  const report = (r: Readiness, err?: unknown, detail?: object): Readiness => {
    const state = r.ready ? "ready" : r.reason;
    if (state !== last) {
      if (r.ready) log.info("ready: the database answers and its migrations are applied");
      else log.warn({ err, ...detail }, `not ready: ${r.reason}`);
      last = state;
    }
    return r;
  };

  return () => {
    inFlight ??= check().finally(() => {
      inFlight = null;
    });
    return inFlight;
  };
}

/**
 * The probes: `/healthz` is liveness (200 while the process serves requests; no database call, nothing about
 * the internals), `/readyz` is readiness (200 `{ ready: true }`, else 503 `{ ready: false, reason }`).
 */
export function installProbes(app: FastifyInstance<any, any, any, any, any>, opts: { db: Database; log: Log }): void {
  const readiness = readinessCheck(opts.db, opts.log);
  app.get("/healthz", { logLevel: "warn" }, async (_req, reply) => reply.header("cache-control", "no-store").send({ ok: true }));
  app.get("/readyz", { logLevel: "warn" }, async (_req, reply) => {
    const r = await readiness();
    return reply.status(r.ready ? 200 : 503).header("cache-control", "no-store").send(r);
  });
}
