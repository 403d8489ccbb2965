import fs from "node:fs";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import type { Log } from "../context.ts";
import type { Database } from "../db.ts";
import { Prisma } from "../generated/prisma/client.ts";

/** The migrations this code expects, one folder each (the files are part of the deployment). */
const MIGRATIONS_DIR = path.resolve(import.meta.dirname, "../../prisma/migrations");
/** The schema whose models' tables the product reads (their `@@map` names; the file is part of the deployment). */
const SCHEMA_FILE = path.resolve(import.meta.dirname, "../../prisma/schema.prisma");

type Readiness = { ready: true } | { ready: false; reason: "database unreachable" | "migrations pending" | "schema missing" };

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

/** The table of every model of prisma/schema.prisma (each model names its table with `@@map`). */
function expectedTables(schemaFile: string): string[] {
  const text = fs.readFileSync(schemaFile, "utf8");
  return [...text.matchAll(/^\s*@@map\(\s*"([^"]+)"\s*\)/gm)].map((m) => m[1]);
}

/** Every readiness check of this process: a request that finds a table missing drops their cached passes. */
const liveChecks = new Set<{ forget(): void }>();

/** True when an error (or one of its causes) says a table does not exist (Prisma P2021, PostgreSQL 42P01). */
function isMissingRelation(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === "object" && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message, originalCode } = e as { code?: unknown; message?: unknown; originalCode?: unknown };
    if (code === "P2021" || code === "42P01" || originalCode === "42P01") return true;
    if (typeof message === "string" && /\brelation\b.*\bdoes not exist\b|\btable\b.*\bdoes not exist\b/i.test(message)) return true;
  }
  return false;
}

/**
 * Called where a failed request is logged (GraphQL's unexpected errors, the REST and the main error handlers):
 * when the error says a table does not exist, every readiness check of the process forgets its cached pass, so
 * the next /readyz looks at the database again (and answers 503 "schema missing") instead of trusting it for up
 * to 30 s.
 */
export function noteRequestError(err: unknown): void {
  if (!liveChecks.size || !isMissingRelation(err)) return;
  for (const c of liveChecks) c.forget();
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
 * table has none) and every table of prisma/schema.prisma exists in the current schema (one catalogue query: a
 * database whose tables were dropped while `_prisma_migrations` stayed answers "schema missing"). Concurrent
 * checks share one run; a passed migration and table check is kept 30 s, dropped at once when a request fails
 * on a missing table (noteRequestError). A change of state is logged once (with the database's error), never
 * sent to the client.
 */
function readinessCheck(db: Database, log: Log, migrationsDir = MIGRATIONS_DIR, schemaFile = SCHEMA_FILE): { check: () => Promise<Readiness>; forget(): void } {
  let expected: string[] | undefined;
  let tables: string[] | undefined;
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
      tables ??= expectedTables(schemaFile);
      const present = await withTimeout(
        db.prisma.$queryRaw<{ name: string }[]>`SELECT tablename AS name FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename IN (${Prisma.join(tables)})`,
        DATABASE_TIMEOUT_MS,
      );
      const found = new Set(present.map((r) => r.name));
      const missing = tables.filter((name) => !found.has(name));
      if (missing.length) return report({ ready: false, reason: "schema missing" }, undefined, { missing });
      migratedUntil = Date.now() + MIGRATIONS_CACHE_MS;
      return report({ ready: true });
    } catch (err) {
      return report({ ready: false, reason: "database unreachable" }, err);
    }
  };

  const report = (r: Readiness, err?: unknown, detail?: object): Readiness => {
    const state = r.ready ? "ready" : r.reason;
    if (state !== last) {
      if (r.ready) log.info("ready: the database answers, its migrations are applied and its tables exist");
      else log.warn({ err, ...detail }, `not ready: ${r.reason}`);
      last = state;
    }
    return r;
  };

  return {
    check: () => {
      inFlight ??= check().finally(() => {
        inFlight = null;
      });
      return inFlight;
    },
    forget: () => {
      migratedUntil = 0;
    },
  };
}

/**
 * The probes: `/healthz` is liveness (200 while the process serves requests; no database call, nothing about
 * the internals), `/readyz` is readiness (200 `{ ready: true }`, else 503 `{ ready: false, reason }`).
 */
export function installProbes(app: FastifyInstance<any, any, any, any, any>, opts: { db: Database; log: Log }): void {
  const readiness = readinessCheck(opts.db, opts.log);
  liveChecks.add(readiness);
  app.addHook("onClose", async () => {
    liveChecks.delete(readiness);
  });
  app.get("/healthz", { logLevel: "warn" }, async (_req, reply) => reply.header("cache-control", "no-store").send({ ok: true }));
  app.get("/readyz", { logLevel: "warn" }, async (_req, reply) => {
    const r = await readiness.check();
    return reply.status(r.ready ? 200 : 503).header("cache-control", "no-store").send(r);
  });
}
