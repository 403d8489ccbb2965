import fs from "node:fs/promises";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { PrismaClient } from "./generated/prisma/client.ts";
import { migrate as applyMigrations, pgliteFactory } from "./migrations.ts";

export type { PrismaClient };
type DatabaseKind = "postgres" | "pglite";

export interface Database {
  prisma: PrismaClient;
  kind: DatabaseKind;
  /** Apply pending migrations from prisma/migrations; returns the names applied. */
  migrate(): Promise<string[]>;
  /** Embedded database only: its data folder as a tar archive (tests start new databases from a migrated one). */
  snapshot?(): Promise<Blob>;
  close(): Promise<void>;
  /**
   * What the job queue (api/jobs/) connects with: PostgreSQL's URL (pg-boss keeps a small pool of its own), or
   * the embedded database itself (one connection, shared with Prisma).
   */
  jobsConnection: { kind: "postgres"; url: string } | { kind: "pglite"; pglite: PGlite };
}

export interface OpenOptions {
  /** postgresql://… for PostgreSQL; otherwise ignored. */
  url?: string;
  /** Embedded database folder, or "memory" for an in-memory database (tests). */
  pgliteDir?: string;
  /**
   * Emit Prisma query events: on unless false. The server's metrics count statements with them
   * (api/observability/metrics.ts), and so do the statement-counting tests and benchmarks.
   */
  logQueries?: boolean;
  /** Connection pool size for PostgreSQL. */
  poolSize?: number;
  /** Embedded database only: start from this data-folder snapshot (see Database.snapshot). */
  pgliteSnapshot?: Blob;
}

const isPostgresUrl = (url: string | undefined): url is string => !!url && /^postgres(ql)?:\/\//.test(url);

/**
 * Interactive transactions wait for a pooled connection instead of failing after Prisma's default 2 s: a burst
 * (a double submit repeated many times, a billing run beside traffic) queues rather than erroring.
 */
const TRANSACTION_OPTIONS = { maxWait: 15_000, timeout: 30_000 };

// Arbitrary constant: serialises migrations when several server processes start against one database.
const MIGRATION_LOCK_ID = 7_283_120_411;

/**
 * Opens PostgreSQL when a URL is given, otherwise the embedded PGlite database (same schema, same migrations).
 */
export async function openDatabase(opts: OpenOptions): Promise<Database> {
  const log = opts.logQueries !== false ? [{ emit: "event" as const, level: "query" as const }] : [];
  if (isPostgresUrl(opts.url)) {
    const url = opts.url;
    const { PrismaPg } = await import("@prisma/adapter-pg");
    const prisma = new PrismaClient({
      adapter: new PrismaPg({ connectionString: url, max: opts.poolSize ?? 10 }),
      log,
      transactionOptions: TRANSACTION_OPTIONS,
    });
    return {
      prisma,
      kind: "postgres",
      async migrate() {
        const pg = (await import("pg")).default;
        const lock = new pg.Client({ connectionString: url });
        await lock.connect();
        try {
          await lock.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
          const { appliedMigrationNames } = await applyMigrations(new PrismaPg({ connectionString: url, max: 2 }));
          return appliedMigrationNames;
        } finally {
          await lock.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]).catch(() => {});
          await lock.end();
        }
      },
      close: () => prisma.$disconnect(),
      jobsConnection: { kind: "postgres", url },
    };
  }

  const { PGlite } = await import("@electric-sql/pglite");
  const { PrismaPGlite } = await import("pglite-prisma-adapter");
  const dir = opts.pgliteDir ?? "memory";
  if (dir !== "memory") await fs.mkdir(path.dirname(path.resolve(dir)), { recursive: true });
  const pglite = new PGlite(dir === "memory" ? "memory://" : dir, opts.pgliteSnapshot ? { loadDataDir: opts.pgliteSnapshot } : {});
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite), log, transactionOptions: TRANSACTION_OPTIONS });
  return {
    prisma,
    kind: "pglite",
    async migrate() {
      const { appliedMigrationNames } = await applyMigrations(await pgliteFactory(pglite));
      return appliedMigrationNames;
    },
    snapshot: () => pglite.dumpDataDir("none"),
    jobsConnection: { kind: "pglite", pglite },
    async close() {
      await prisma.$disconnect();
      await pglite.close();
    },
  };
}
