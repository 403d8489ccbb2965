import fs from "node:fs/promises";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { Config } from "./config.ts";
import { lockEmbeddedDatabase } from "./embedded-lock.ts";
import { PrismaClient } from "./generated/prisma/client.ts";
import { migrate as applyMigrations, pgliteFactory } from "./migrations.ts";

export type { PrismaClient };
type DatabaseKind = "postgres" | "pglite";

/** A statement as Prisma's query events and the direct reads report it. */
interface Statement {
  query: string;
  /** Milliseconds. */
  duration: number;
}

/**
 * A read statement run on the driver itself, outside Prisma: rows as the driver parses them (numbers, text,
 * booleans, JSON as values), except timestamps, which stay text (`toDate` in api/selection-sql/model.ts reads
 * them, on either database). Prisma's raw queries convert every cell to its own types and back, about 0.1 ms of
 * CPU for a page of 50 rows; the read paths every screen takes (the login session, the selection statements)
 * run here instead. Never inside a transaction: it has its own connection from the pool.
 */
type DirectRead = (sql: string, params: readonly unknown[], name?: string) => Promise<Record<string, unknown>[]>;

/** Each database's own client → its direct reads; a transaction's client is not here (its statements need its connection). */
const directReads = new WeakMap<object, DirectRead>();


/**
 * Runs a read statement (`$1`… parameters): on the driver when `db` is a database's own client, through Prisma's
 * raw query when it is a transaction's. Timestamps come back as text or as Date accordingly: read them with
 * `timestampOf`. `prepared` names a statement whose text never changes (the login session's): on a direct
 * connection (pool mode "session") PostgreSQL parses and plans it once per connection instead of on every
 * request; behind a transaction pooler the name is dropped (see `PoolMode`).
 */
export function readRows<T extends object>(db: PrismaClient, sql: string, params: readonly unknown[], opts: { prepared?: string } = {}): Promise<T[]> {
  const direct = directReads.get(db);
  return (direct ? direct(sql, params, opts.prepared) : db.$queryRawUnsafe(sql, ...params)) as Promise<T[]>;
}

/**
 * A timestamp column as a Date, as it comes from either path: text (direct reads; a timestamp without time zone
 * is UTC here, as Prisma stores it) or a Date (Prisma).
 */
export function timestampOf(value: string | Date): Date {
  return typeof value === "string" ? new Date(ZONED.test(value) ? value : `${value}Z`) : value;
}
const ZONED = /(?:[zZ]|[+-]\d\d(?::?\d\d)?)$/;

/** PostgreSQL's type ids of timestamp and timestamptz: kept as text by the direct reads. */
const TIMESTAMP_TYPES = [1114, 1184];

export interface Database {
  prisma: PrismaClient;
  kind: DatabaseKind;
  /** Calls `listener` after every statement, Prisma's and the direct reads' (only with `logQueries`, the default). */
  onStatement(listener: (statement: Statement) => void): void;
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

/**
 * How `url` reaches PostgreSQL. "session": each connection of the pool is one PostgreSQL session (a direct
 * connection, or a pooler in session mode). "transaction": a pooler in transaction mode (PgBouncer's
 * `pool_mode = transaction`), which may hand each transaction, and each statement outside one, to another server
 * connection. There the server keeps no state across transactions on `url`: no named prepared statement (the
 * driver's unnamed ones are parsed with the statement they run with), no session `SET`, no session advisory lock,
 * no LISTEN. What needs a session (migrations and their lock) goes to `directUrl`. Transaction-scoped advisory
 * locks (capacity, the outbox, resends) and `SET LOCAL` stay on `url`: they end with their transaction.
 */
type PoolMode = "session" | "transaction";

export interface OpenOptions {
  /** postgresql://… for PostgreSQL; otherwise ignored. */
  url?: string;
  /** PostgreSQL without a pooler in between, for migrations and their session lock (default: `url`). */
  directUrl?: string;
  /** How `url` reaches PostgreSQL (default "session"). */
  poolMode?: PoolMode;
  /** Embedded database folder, or "memory" for an in-memory database (tests). */
  pgliteDir?: string;
  /**
   * Report every statement to `onStatement` listeners (Prisma's query events and the direct reads): on unless
   * false. The server's metrics count statements with them (api/observability/metrics.ts), and so do the
   * statement-counting tests and benchmarks.
   */
  logQueries?: boolean;
  /** Connection pool size for PostgreSQL. */
  poolSize?: number;
  /** Embedded database only: start from this data-folder snapshot (see Database.snapshot). */
  pgliteSnapshot?: Blob;
}

/** The configured database (DATABASE_URL and its settings, or the embedded one under DATA_DIR) as openDatabase takes it. */
export function configuredDatabase(config: Config): OpenOptions {
  return {
    url: config.databaseUrl,
    directUrl: config.databaseDirectUrl,
    poolMode: config.databasePoolMode,
    poolSize: config.databasePoolSize,
    pgliteDir: path.join(config.dataDir, "pglite"),
  };
}

const isPostgresUrl = (url: string | undefined): url is string => !!url && /^postgres(ql)?:\/\//.test(url);

/**
 * Interactive transactions wait for a pooled connection instead of failing after Prisma's default 2 s: a burst
 * (a double submit repeated many times, a billing run beside traffic) queues rather than erroring.
 */
const TRANSACTION_OPTIONS = { maxWait: 15_000, timeout: 30_000 };

// Arbitrary constant: serialises migrations when several server processes start against one database.
const MIGRATION_LOCK_ID = 7_283_120_411;

/** Statement listeners of one database: Prisma's query events, and the direct reads reporting the same way. */
function statementEvents(prisma: PrismaClient, enabled: boolean) {
  const listeners: ((statement: Statement) => void)[] = [];
  if (enabled) {
    (prisma as unknown as { $on(event: "query", cb: (e: Statement) => void): void }).$on("query", (e) => {
      for (const listener of listeners) listener(e);
    });
  }
  return {
    on: (listener: (statement: Statement) => void) => void listeners.push(listener),
    /** Wraps a direct read so that it reports its statement as Prisma reports its own. */
    timed(read: DirectRead): DirectRead {
      if (!enabled) return read;
      return async (sql, params, name) => {
        const started = performance.now();
        const rows = await read(sql, params, name);
        const statement = { query: sql, duration: performance.now() - started };
        for (const listener of listeners) listener(statement);
        return rows;
      };
    },
  };
}

/**
 * Opens PostgreSQL when a URL is given, otherwise the embedded PGlite database (same schema, same migrations).
 */
export async function openDatabase(opts: OpenOptions): Promise<Database> {
  const logQueries = opts.logQueries !== false;
  const log = logQueries ? [{ emit: "event" as const, level: "query" as const }] : [];
  if (isPostgresUrl(opts.url)) {
    const url = opts.url;
    // Migrations hold a session advisory lock (ours, and Prisma's schema engine takes its own) across many
    // transactions: behind a transaction pooler the unlock could reach another server connection than the lock.
    const migrationUrl = opts.directUrl ?? url;
    const statementNames = (opts.poolMode ?? "session") === "session";
    const { PrismaPg } = await import("@prisma/adapter-pg");
    const pg = (await import("pg")).default;
    // One pool for Prisma and the direct reads.
    const pool = new pg.Pool({ connectionString: url, max: opts.poolSize ?? 10 });
    // An idle connection the server closed (a restart, a failover, a dropped test database) leaves the pool on
    // its own, and the next statement opens another; without a listener its error would end the process.
    pool.on("error", () => {});
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool), log, transactionOptions: TRANSACTION_OPTIONS });
    const events = statementEvents(prisma, logQueries);
    const asText = (value: string) => value;
    const types = { getTypeParser: (id: number, format?: "text" | "binary") => (TIMESTAMP_TYPES.includes(id) ? asText : pg.types.getTypeParser(id, format)) };
    directReads.set(
      prisma,
      events.timed(async (text, values, name) => (await pool.query({ ...(statementNames && name ? { name } : {}), text, values: [...values], types })).rows),
    );
    return {
      prisma,
      kind: "postgres",
      onStatement: events.on,
      async migrate() {
        const pg = (await import("pg")).default;
        const lock = new pg.Client({ connectionString: migrationUrl });
        await lock.connect();
        try {
          await lock.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
          const { appliedMigrationNames } = await applyMigrations(new PrismaPg({ connectionString: migrationUrl, max: 2 }));
          return appliedMigrationNames;
        } finally {
          await lock.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]).catch(() => {});
          await lock.end();
        }
      },
      async close() {
        await prisma.$disconnect();
        await pool.end();
      },
      jobsConnection: { kind: "postgres", url },
    };
  }

  const { PGlite } = await import("@electric-sql/pglite");
  const { PrismaPGlite } = await import("pglite-prisma-adapter");
  const dir = opts.pgliteDir ?? "memory";
  if (dir !== "memory") await fs.mkdir(path.dirname(path.resolve(dir)), { recursive: true });
  // Before PGlite touches the folder: a second process on it would corrupt it (api/embedded-lock.ts).
  const unlock = dir === "memory" ? () => {} : await lockEmbeddedDatabase(dir);
  const pglite = new PGlite(dir === "memory" ? "memory://" : dir, opts.pgliteSnapshot ? { loadDataDir: opts.pgliteSnapshot } : {});
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite), log, transactionOptions: TRANSACTION_OPTIONS });
  const events = statementEvents(prisma, logQueries);
  const parsers = Object.fromEntries(TIMESTAMP_TYPES.map((id) => [id, (value: string) => value]));
  directReads.set(prisma, events.timed(async (sql, params) => (await pglite.query<Record<string, unknown>>(sql, [...params], { parsers })).rows));
  return {
    prisma,
    kind: "pglite",
    onStatement: events.on,
    async migrate() {
      const { appliedMigrationNames } = await applyMigrations(await pgliteFactory(pglite));
      return appliedMigrationNames;
    },
    snapshot: () => pglite.dumpDataDir("none"),
    jobsConnection: { kind: "pglite", pglite },
    async close() {
      try {
        await prisma.$disconnect();
        await pglite.close();
      } finally {
        unlock();
      }
    },
  };
}
