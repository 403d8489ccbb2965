// Offline Prisma Migrate for Prisma 7: drives @prisma/schema-engine-wasm (the same WASM schema engine Prisma 6.x
// used for `engine: "js"`) through a driver adapter. No native schema-engine binary, no network. The server
// migrates on start with migrate() (api/db.ts); scripts/prisma-wasm.mjs is the command line over this module.
import fs from "node:fs/promises";
import path from "node:path";
import { createRequire } from "node:module";
import { bindMigrationAwareSqlAdapterFactory, type SqlDriverAdapter, type SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import type { PGlite } from "@electric-sql/pglite";
import { exitIfInUse, lockEmbeddedDatabase } from "./embedded-lock.ts";

const require = createRequire(import.meta.url);
export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const SCHEMA = path.join(ROOT, "prisma/schema.prisma");
export const MIGRATIONS = path.join(ROOT, "prisma/migrations");
export const FILTERS = { externalTables: [], externalEnums: [] };

/** The WASM schema engine, as far as this module and scripts/prisma-wasm.mjs use it (its answers are JSON). */
export type SchemaEngine = { free(): void } & Record<string, (params: any) => Promise<any>>;
type SchemaFiles = { files: { path: string; content: string }[] };
type EngineClass = { new: (config: { datamodels: [string, string][] }, log: (m: string) => void, adapter: unknown) => Promise<SchemaEngine> } & Record<string, any>;
type Adapter = SqlDriverAdapter & { executeScript(script: string): Promise<void>; client: { exec(script: string): Promise<unknown> }; onError(e: unknown): never; adapterName: string; dispose?(): Promise<void> };

let SchemaEngineClass: EngineClass | undefined;
async function loadSchemaEngine(): Promise<EngineClass> {
  if (SchemaEngineClass) return SchemaEngineClass;
  const bgPath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
  const bg = await import(bgPath);
  const bytes = await fs.readFile(path.join(path.dirname(bgPath), "schema_engine_bg.wasm"));
  const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), { "./schema_engine_bg.js": bg });
  const exports = instance.exports as { __wbindgen_start(): void };
  bg.__wbg_set_wasm(instance.exports);
  exports.__wbindgen_start();
  return (SchemaEngineClass = bg.SchemaEngine);
}

/** Returns { factory, close } for a URL. */
export async function adapterFor(url: string = process.env.DIRECT_DATABASE_URL || process.env.DATABASE_URL || `pglite:${process.env.DATA_DIR || "./.data"}/pglite`) {
  if (/^postgres(ql)?:\/\//.test(url)) {
    const { PrismaPg } = await import("@prisma/adapter-pg");
    return { factory: new PrismaPg({ connectionString: url }), close: async () => {} };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const dir = url.replace(/^pglite:/, "");
  // PGlite creates its own folder but not the ones above it: on a fresh clone DATA_DIR does not exist yet.
  if (dir !== "memory") await fs.mkdir(path.dirname(path.resolve(dir)), { recursive: true });
  // The migration tools (db:migrate, db:status, the Prisma CLI shim) take the folder's lock too: migrating it
  // under a running server would corrupt it (api/embedded-lock.ts).
  const unlock = dir === "memory" ? () => {} : await lockEmbeddedDatabase(dir).catch(exitIfInUse);
  const db = new PGlite(dir === "memory" ? "memory://" : dir);
  return {
    factory: await pgliteFactory(db),
    close: async () => {
      try {
        await db.close();
      } finally {
        unlock();
      }
    },
    db,
  };
}

export async function pgliteFactory(db: PGlite): Promise<SqlMigrationAwareDriverAdapterFactory> {
  const { PrismaPGlite } = await import("pglite-prisma-adapter");
  return fixPgliteFactory(new PrismaPGlite(db));
}

// pglite-prisma-adapter <=0.7.2: executeScript() does not await client.exec(), so a failing
// migration is recorded as applied and the error is lost. Await it (migration tooling only).
function fixPgliteFactory(factory: SqlMigrationAwareDriverAdapterFactory): SqlMigrationAwareDriverAdapterFactory {
  const fix = (connected: SqlDriverAdapter) => {
    const adapter = connected as Adapter;
    adapter.executeScript = async (script: string) => {
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

async function readSchemaFiles(): Promise<SchemaFiles> {
  return { files: [{ path: SCHEMA, content: await fs.readFile(SCHEMA, "utf8") }] };
}

export async function readMigrations(dir: string = MIGRATIONS) {
  await fs.mkdir(dir, { recursive: true });
  const entries = (await fs.readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  const lock = await fs.readFile(path.join(dir, "migration_lock.toml"), "utf8").catch(() => null);
  const migrationDirectories = [];
  for (const name of entries) {
    const content = await fs.readFile(path.join(dir, name, "migration.sql"), "utf8")
      .then((value) => ({ tag: "ok" as const, value }), (e: unknown) => ({ tag: "error" as const, value: String(e) }));
    migrationDirectories.push({ path: name, migrationFile: { path: "migration.sql", content } });
  }
  return { baseDir: dir, lockfile: { path: "migration_lock.toml", content: lock }, migrationDirectories, shadowDbInitScript: "" };
}

export async function withEngine<T>(
  factory: SqlMigrationAwareDriverAdapterFactory | Promise<SqlMigrationAwareDriverAdapterFactory>,
  fn: (engine: SchemaEngine, schema: SchemaFiles) => Promise<T>,
): Promise<T> {
  const SchemaEngine = await loadSchemaEngine();
  const raw = await factory;
  // Track the connections the engine opens: they hold Prisma's migration advisory lock until disposed, and a
  // later migration (another process, or this one again) would wait for it.
  const opened: Adapter[] = [];
  const track = (connect: () => Promise<SqlDriverAdapter>) => async () => {
    const adapter = await connect();
    opened.push(adapter as Adapter);
    return adapter;
  };
  raw.connect = track(raw.connect.bind(raw));
  if (raw.connectToShadowDb) raw.connectToShadowDb = track(raw.connectToShadowDb.bind(raw));
  const bound = bindMigrationAwareSqlAdapterFactory(raw);
  const schema = await readSchemaFiles();
  const log = process.env.DEBUG_SCHEMA_ENGINE ? (m: string) => console.error(m) : () => {};
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
export async function migrate(factory: SqlMigrationAwareDriverAdapterFactory): Promise<{ appliedMigrationNames: string[] }> {
  const migrationsList = await readMigrations();
  return withEngine(factory, (engine) => engine.applyMigrations({ migrationsList, filters: FILTERS }));
}
