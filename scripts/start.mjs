#!/usr/bin/env node
/**
 * `npm start`: everything a fresh clone needs after `npm install`, then the server.
 *   1. the Prisma client (api/generated) when missing: `prisma generate` (offline: prisma.config.ts points the
 *      CLI at our WASM schema-engine shim);
 *   2. the web app (dist/web) when missing, or with --rebuild: relay-compiler + vite build;
 *   3. `tsx api/main.ts`: migrates, seeds the demo data into an empty database, serves API and web on PORT.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name) => path.join(root, "node_modules", ".bin", process.platform === "win32" ? `${name}.cmd` : name);
const rebuild = process.argv.includes("--rebuild");
// As under `npm run`: tools find each other on PATH (prisma runs the prisma-pothos-types generator by name).
process.env.PATH = `${path.join(root, "node_modules", ".bin")}${path.delimiter}${process.env.PATH ?? ""}`;

function step(label, command, args) {
  console.log(`> ${label}`);
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: process.env });
  if (result.status !== 0) {
    console.error(`\n${label} failed (exit ${result.status ?? result.signal}).`);
    process.exit(result.status || 1);
  }
}

if (!fs.existsSync(path.join(root, "node_modules"))) {
  console.error("Dependencies are missing: run `npm install` first.");
  process.exit(1);
}
if (!fs.existsSync(path.join(root, "api/generated/prisma/client.ts"))) {
  step("Generating the Prisma client", bin("prisma"), ["generate"]);
}
if (rebuild || !fs.existsSync(path.join(root, "dist/web/index.html"))) {
  step("Compiling Relay artifacts", bin("relay-compiler"), []);
  step("Building the web app", bin("vite"), ["build", "--config", "web/vite.config.ts", "--logLevel", "warn"]);
}

// The server stays in the foreground; signals go to it so it can close the database cleanly.
const server = spawn(bin("tsx"), ["api/main.ts"], { cwd: root, stdio: "inherit", env: process.env });
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
