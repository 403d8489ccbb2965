/**
 * `npm run db:seed`: opens the configured database (DATABASE_URL, or the embedded one under DATA_DIR), applies
 * pending migrations and creates the demo data when the database is empty. In production (NODE_ENV=production)
 * it seeds only with SEED_DEMO=1, the same rule the server follows on start.
 */
import path from "node:path";
import { loadConfig } from "../api/config.ts";
import { configuredDatabase, openDatabase } from "../api/db.ts";
import { exitIfInUse } from "../api/embedded-lock.ts";
import { systemClock } from "../api/shared/clock.ts";
import { seedDemoData } from "./seed-data.ts";

const config = loadConfig();
const where = config.databaseUrl ? "PostgreSQL (DATABASE_URL)" : `embedded database in ${path.join(config.dataDir, "pglite")}`;
// The embedded database while a server has it open: refused with one line (api/embedded-lock.ts).
const db = await openDatabase(configuredDatabase(config)).catch(exitIfInUse);
try {
  console.log(`Database: ${where}`);
  const applied = await db.migrate();
  console.log(applied.length ? `Applied migrations: ${applied.join(", ")}` : "Migrations: up to date");
  if (!config.seedDemo) {
    console.log("Demo data: not seeded (NODE_ENV=production; set SEED_DEMO=1 to seed anyway)");
  } else if (await seedDemoData(db.prisma, systemClock)) {
    console.log("Demo data: created (logins admin/admin1234, owner/owner1234, member/member1234)");
  } else {
    console.log("Demo data: skipped, the database already has users or businesses");
  }
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await db.close();
}
