// Offline Prisma Migrate for Prisma 7: drives @prisma/schema-engine-wasm (the same WASM
// schema engine Prisma 6.x used for `engine: "js"`) through a driver adapter.
// No native schema-engine binary, no network.
//
//   node scripts/prisma-wasm.mjs diff [name]   # new prisma/migrations/<ts>_<name>/migration.sql
//                                              # (migrations dir -> schema.prisma, shadow = in-memory PGlite)
//   node scripts/prisma-wasm.mjs deploy        # apply pending migrations to DATABASE_URL
//   node scripts/prisma-wasm.mjs status        # diagnoseMigrationHistory
//   node scripts/prisma-wasm.mjs push          # like `prisma db push` (no migration files)
//
// DATABASE_URL: postgresql://...   -> @prisma/adapter-pg
//               pglite:memory       -> in-memory PGlite (only useful in-process, see migrate())
//               pglite:./some/dir   -> PGlite data directory (default: pglite:$DATA_DIR/pglite, folders created)
//               anything else       -> refused (the server takes PostgreSQL URLs only, api/config.ts)
import fs from "node:fs/promises";
import path from "node:path";
import { createRequire } from "node:module";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const SCHEMA = path.join(ROOT, "prisma/schema.prisma");
const MIGRATIONS = path.join(ROOT, "prisma/migrations");
const FILTERS = { externalTables: [], externalEnums: [] };

let SchemaEngineClass;
async function loadSchemaEngine() {
  if (SchemaEngineClass) return SchemaEngineClass;
  const bgPath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
  const bg = await import(bgPath);
  const bytes = await fs.readFile(path.join(path.dirname(bgPath), "schema_engine_bg.wasm"));
  const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), { "./schema_engine_bg.js": bg });
  bg.__wbg_set_wasm(instance.exports);
  instance.exports.__wbindgen_start();
  return (SchemaEngineClass = bg.SchemaEngine);
}

/** Returns { factory, close } for a URL. */
export async function adapterFor(url = process.env.DATABASE_URL || `pglite:${process.env.DATA_DIR || "./.data"}/pglite`) {
  if (/^postgres(ql)?:\/\//.test(url)) {
    const { PrismaPg } = await import("@prisma/adapter-pg");
    return { factory: new PrismaPg({ connectionString: url }), close: async () => {} };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const dir = url.replace(/^pglite:/, "");
  // PGlite creates its own folder but not the ones above it: on a fresh clone DATA_DIR does not exist yet.
  if (dir !== "memory") await fs.mkdir(path.dirname(path.resolve(dir)), { recursive: true });
  const db = new PGlite(dir === "memory" ? "memory://" : dir);
  return { factory: await pgliteFactory(db), close: () => db.close(), db };
}

export async function pgliteFactory(db) {
  const { PrismaPGlite } = await import("pglite-prisma-adapter");
  return fixPgliteFactory(new PrismaPGlite(db));
}

// pglite-prisma-adapter <=0.7.2: executeScript() does not await client.exec(), so a failing
// migration is recorded as applied and the error is lost. Await it (migration tooling only).
export function fixPgliteFactory(factory) {
  const fix = (adapter) => {
    adapter.executeScript = async (script) => {
      try { await adapter.client.exec(script); } catch (e) { adapter.onError(e); }
    };
    return adapter;
  };
  const connect = factory.connect.bind(factory);
  const shadow = factory.connectToShadowDb.bind(factory);
  factory.connect = async () => fix(await connect());
  factory.connectToShadowDb = async () => fix(await shadow());
  return factory;
}

async function readSchemaFiles() {
  return { files: [{ path: SCHEMA, content: await fs.readFile(SCHEMA, "utf8") }] };
}

export async function readMigrations(dir = MIGRATIONS) {
  await fs.mkdir(dir, { recursive: true });
  const entries = (await fs.readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  const lock = await fs.readFile(path.join(dir, "migration_lock.toml"), "utf8").catch(() => null);
  const migrationDirectories = [];
  for (const name of entries) {
    const content = await fs.readFile(path.join(dir, name, "migration.sql"), "utf8")
      .then((value) => ({ tag: "ok", value }), (e) => ({ tag: "error", value: String(e) }));
    migrationDirectories.push({ path: name, migrationFile: { path: "migration.sql", content } });
  }
  return { baseDir: dir, lockfile: { path: "migration_lock.toml", content: lock }, migrationDirectories, shadowDbInitScript: "" };
}

export async function withEngine(factory, fn) {
  const SchemaEngine = await loadSchemaEngine();
  const raw = await factory;
  // Track the connections the engine opens: they hold Prisma's migration advisory lock until disposed, and a
  // later migration (another process, or this one again) would wait for it.
  const opened = [];
  const track = (connect) => async (...args) => {
    const adapter = await connect(...args);
    opened.push(adapter);
    return adapter;
  };
  raw.connect = track(raw.connect.bind(raw));
  if (raw.connectToShadowDb) raw.connectToShadowDb = track(raw.connectToShadowDb.bind(raw));
  const bound = bindMigrationAwareSqlAdapterFactory(raw);
  const schema = await readSchemaFiles();
  const log = process.env.DEBUG_SCHEMA_ENGINE ? (m) => console.error(m) : () => {};
  const engine = await SchemaEngine.new({ datamodels: schema.files.map((f) => [f.path, f.content]) }, log, bound);
  try {
    return await fn(engine, schema);
  } finally {
    engine.free();
    // PGlite adapters share the caller's database handle, which the caller closes.
    for (const adapter of opened) if (adapter.adapterName === "@prisma/adapter-pg") await adapter.dispose?.().catch(() => {});
  }
}

/** Apply pending migrations in-process (use for in-memory PGlite in tests). */
export async function migrate(factory) {
  const migrationsList = await readMigrations();
  return withEngine(factory, (engine) => engine.applyMigrations({ migrationsList, filters: FILTERS }));
}

const LOCKFILE = '# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "postgresql"\n';

async function diff() {
  await fs.mkdir(MIGRATIONS, { recursive: true });
  const lock = path.join(MIGRATIONS, "migration_lock.toml");
  await fs.access(lock).catch(() => fs.writeFile(lock, LOCKFILE));
  const migrationsList = await readMigrations();
  // The shadow DB used to replay existing migrations is an in-memory PGlite: fully offline.
  const { PGlite } = await import("@electric-sql/pglite");
  const scratch = new PGlite("memory://");
  try {
    return await withEngine(pgliteFactory(scratch), (engine, schema) =>
      engine.diff({ from: { tag: "migrations", ...migrationsList }, to: { tag: "schemaDatamodel", ...schema }, script: true, exitCode: null, filters: FILTERS }));
  } finally {
    await scratch.close();
  }
}

async function main() {
  const [cmd, arg] = process.argv.slice(2);
  if (cmd === "diff") {
    const res = await diff();
    const sql = res.stdout ?? "";
    if (!sql.trim() || /^-- This is an empty migration\.\s*$/.test(sql.trim())) { console.log("No schema changes."); return; }
    const ts = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
    const dir = path.join(MIGRATIONS, `${ts}_${arg ?? "migration"}`);
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, "migration.sql"), sql);
    console.log(`Created ${path.relative(ROOT, dir)}/migration.sql`);
    return;
  }
  const url = process.env.DATABASE_URL;
  if (url && !/^(postgres(ql)?:\/\/|pglite:)/.test(url)) {
    throw new Error("DATABASE_URL must be a PostgreSQL URL (postgresql://… or postgres://…), or pglite:<folder> for an embedded database; unset it for the one under DATA_DIR.");
  }
  const { factory, close } = await adapterFor();
  try {
    if (cmd === "deploy") {
      const { appliedMigrationNames } = await migrate(factory);
      console.log(appliedMigrationNames.length ? `Applied: ${appliedMigrationNames.join(", ")}` : "No pending migrations to apply.");
    } else if (cmd === "status") {
      const migrationsList = await readMigrations();
      console.log(JSON.stringify(await withEngine(factory, (e) => e.diagnoseMigrationHistory({ migrationsList, optInToShadowDatabase: false, filters: FILTERS })), null, 2));
    } else if (cmd === "push") {
      console.log(await withEngine(factory, (e, schema) => e.schemaPush({ force: process.argv.includes("--force"), schema, filters: FILTERS })));
    } else {
      console.error("usage: prisma-wasm.mjs diff [name] | deploy | status | push [--force]");
      process.exitCode = 2;
    }
  } finally {
    await close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // process.exit: PGlite (emscripten timers, also the adapter's never-closed shadow DB) keeps Node alive
  main().then(() => process.exit(process.exitCode ?? 0), (e) => { console.error(e?.message ?? e); process.exit(1); });
}
