import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { openDatabase, type Database, type OpenOptions } from "../../api/db.ts";

/**
 * A test's database: `drop()` closes it (and drops a PostgreSQL one). On PostgreSQL, `url` is the URL a server
 * would use (the pooler's, in the pooler run); `env` holds the settings a server process needs to reach it as this
 * test does (DATABASE_URL, and in the pooler run DIRECT_DATABASE_URL and DATABASE_POOL_MODE), and `connection`
 * the same as openDatabase's options, for a script a test runs.
 */
export type TestDatabase = Database & { drop(): Promise<void>; url?: string; env: Record<string, string>; connection: OpenOptions };

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default; with TEST_DATABASE_URL, a
 * uniquely named PostgreSQL database created on that server and dropped afterwards. With TEST_POOLER_URL as
 * well (a PgBouncer in transaction mode in front of that server, which `npm test` starts for its pooler run),
 * the database is reached through the pooler, as production usually reaches it, and migrated directly.
 */
export async function createTestDatabase(opts: { logQueries?: boolean; poolSize?: number; /** PostgreSQL only: leave it empty, for servers to migrate. */ migrate?: boolean } = {}): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const db = await openDatabase({ pgliteDir: "memory", logQueries: opts.logQueries, pgliteSnapshot: await migratedSnapshot() });
    // Applies nothing when the snapshot is current; a migration added since would still be applied here.
    await db.migrate();
    return Object.assign(db, { drop: () => db.close(), env: {}, connection: {} });
  }
  const name = `mp_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const direct = new URL(serverUrl);
  direct.pathname = `/${name}`;
  const pooler = process.env.TEST_POOLER_URL ? new URL(process.env.TEST_POOLER_URL) : undefined;
  if (pooler) pooler.pathname = `/${name}`;
  const url = (pooler ?? direct).toString();
  const env: Record<string, string> = pooler
    ? { DATABASE_URL: url, DIRECT_DATABASE_URL: direct.toString(), DATABASE_POOL_MODE: "transaction" }
    : { DATABASE_URL: url };
  const connection: OpenOptions = pooler ? { url, directUrl: direct.toString(), poolMode: "transaction" } : { url };
  const db = await openDatabase({ ...connection, logQueries: opts.logQueries, poolSize: opts.poolSize ?? 5 });
  if (opts.migrate !== false) await db.migrate();
  return Object.assign(db, {
    url,
    env,
    connection,
    async drop() {
      await db.close();
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  });
}

const MIGRATIONS = path.resolve(import.meta.dirname, "../../prisma/migrations");

/**
 * A migrated, empty embedded database as a tar archive, made once per set of migrations and shared by every
 * test file through a temporary file: loading it takes a fraction of replaying the migrations.
 */
async function migratedSnapshot(): Promise<Blob> {
  const hash = createHash("sha256");
  for (const dir of fs.readdirSync(MIGRATIONS).sort()) {
    const file = path.join(MIGRATIONS, dir, "migration.sql");
    if (fs.existsSync(file)) hash.update(dir).update(fs.readFileSync(file));
  }
  const cached = path.join(os.tmpdir(), `membership-pglite-${hash.digest("hex").slice(0, 16)}.tar`);
  if (fs.existsSync(cached)) return new Blob([fs.readFileSync(cached)]);
  const db = await openDatabase({ pgliteDir: "memory" });
  try {
    await db.migrate();
    const blob = await db.snapshot!();
    // Write then rename: a parallel worker never reads half a file.
    const partial = `${cached}.${process.pid}.partial`;
    fs.writeFileSync(partial, Buffer.from(await blob.arrayBuffer()));
    fs.renameSync(partial, cached);
    return blob;
  } finally {
    await db.close();
  }
}
