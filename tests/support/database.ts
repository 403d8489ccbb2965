import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { openDatabase, type Database } from "../../api/db.ts";

/** A test's database: `drop()` closes it (and drops a PostgreSQL one); `url` is a PostgreSQL database's, for processes of its own. */
export type TestDatabase = Database & { drop(): Promise<void>; url?: string };

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default; with TEST_DATABASE_URL, a
 * uniquely named PostgreSQL database created on that server and dropped afterwards.
 */
export async function createTestDatabase(opts: { logQueries?: boolean; poolSize?: number } = {}): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const db = await openDatabase({ pgliteDir: "memory", logQueries: opts.logQueries, pgliteSnapshot: await migratedSnapshot() });
    // Applies nothing when the snapshot is current; a migration added since would still be applied here.
    await db.migrate();
    return Object.assign(db, { drop: () => db.close() });
  }
  const name = `mp_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = await openDatabase({ url: url.toString(), logQueries: opts.logQueries, poolSize: opts.poolSize ?? 5 });
  await db.migrate();
  return Object.assign(db, {
    url: url.toString(),
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
