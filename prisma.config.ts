import path from "node:path";
import { defineConfig } from "prisma/config";

// Offline: Prisma's CLI would download a native schema engine on first use. Point it at our shim, which
// speaks the engine's protocol and runs Prisma's WebAssembly engine through a driver adapter instead.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.resolve(import.meta.dirname, "scripts/schema-engine-shim.mjs");

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  // postgresql://… = PostgreSQL (DIRECT_DATABASE_URL first: migrations bypass a transaction pooler); otherwise
  // the embedded PGlite data folder.
  datasource: { url: process.env.DIRECT_DATABASE_URL || process.env.DATABASE_URL || `pglite:${process.env.DATA_DIR || "./.data"}/pglite` },
});
