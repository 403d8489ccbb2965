import { randomBytes } from "node:crypto";
import pg from "pg";
import { openDatabase, type Database } from "../../api/db.ts";

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default; with TEST_DATABASE_URL, a
 * uniquely named PostgreSQL database created on that server and dropped afterwards.
 */
export async function createTestDatabase(opts: { logQueries?: boolean } = {}): Promise<Database & { drop(): Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const db = await openDatabase({ pgliteDir: "memory", logQueries: opts.logQueries });
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
  const db = await openDatabase({ url: url.toString(), logQueries: opts.logQueries, poolSize: 5 });
  await db.migrate();
  return Object.assign(db, {
    async drop() {
      await db.close();
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  });
}
