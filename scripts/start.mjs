#!/usr/bin/env node
/**
 * `npm start`: everything a fresh clone needs after `npm install`, then the server.
 *   1. the Prisma client (api/generated) when missing: `prisma generate` (offline: prisma.config.ts points the
 *      CLI at our WASM schema-engine shim);
 *   2. the web app (WEB_DIST_DIR, default dist/web) when missing, or with --rebuild: relay-compiler + vite build;
 *   3. the server, server/main.ts, in this very process (Node 24 strips its types; no transpiler, no child process):
 *      migrates, seeds the demo data into an empty database, serves API and web on PORT.
 *
 * Signals: package.json runs this with `exec`, so npm's shell is replaced by this process and the SIGTERM/SIGINT
 * npm forwards reaches the server itself, which drains and exits (server/main.ts); npm then exits too. Should npm
 * go away anyway (killed, or a shell that did not exec), the server notices that its parent changed and stops
 * the same way, so nothing is left serving. A signal during a build step stops that step and exits.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name) => path.join(root, "node_modules", ".bin", process.platform === "win32" ? `${name}.cmd` : name);
const rebuild = process.argv.includes("--rebuild");
// The server reads relative paths (DATA_DIR, WEB_DIST_DIR) from the project folder, wherever this was started.
process.chdir(root);
// As under `npm run`: tools find each other on PATH (prisma runs the prisma-pothos-types generator by name), and
// every child whose `#!/usr/bin/env node` resolves through PATH runs on the project's Node (node_modules/.bin/node).
process.env.PATH = `${path.join(root, "node_modules", ".bin")}${path.delimiter}${process.env.PATH ?? ""}`;

if (!fs.existsSync(path.join(root, "node_modules"))) {
  console.error("Dependencies are missing: run `npm install` first.");
  process.exit(1);
}
if (Number(process.versions.node.split(".")[0]) < 24) {
  console.error(`The server needs Node 24 or later; this is Node ${process.version}. Start it with \`npm start\`, which runs the project's Node 24 (node_modules/.bin/node, from \`npm install\`).`);
  process.exit(1);
}

// Build steps run as children; a stop signal meanwhile ends the step and this process (exit 0: a requested stop).
let building = null;
let stopSignal = null;
const onSignal = (signal) => {
  stopSignal ??= signal;
  building?.kill(signal);
};
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, onSignal);

function stopBeforeServer(label) {
  console.error(`\n${label}: stopped (${stopSignal}).`);
  process.exit(0);
}

function step(label, command, args) {
  if (stopSignal) stopBeforeServer(label);
  console.log(`> ${label}`);
  return new Promise((resolve) => {
    building = spawn(command, args, { cwd: root, stdio: "inherit", env: process.env });
    building.on("error", (err) => {
      console.error(`\n${label} failed: ${err.message}`);
      process.exit(1);
    });
    building.on("exit", (code, signal) => {
      building = null;
      if (stopSignal) stopBeforeServer(label);
      if (code === 0) return resolve();
      console.error(`\n${label} failed (exit ${code ?? signal}).`);
      process.exit(code || 1);
    });
  });
}

if (!fs.existsSync(path.join(root, "api/generated/prisma/client.ts"))) {
  await step("Generating the Prisma client", bin("prisma"), ["generate"]);
}
// The folder the server will serve: WEB_DIST_DIR, as api/config.ts reads it (relative to the project folder).
const webDist = path.resolve(process.env.WEB_DIST_DIR || "dist/web");
if (rebuild || !fs.existsSync(path.join(webDist, "index.html"))) {
  await step("Compiling Relay artifacts", bin("relay-compiler"), []);
  const outDir = process.env.WEB_DIST_DIR ? ["--outDir", webDist] : [];
  await step("Building the web app", bin("vite"), ["build", "--config", "web/vite.config.ts", "--logLevel", "warn", ...outDir]);
}

// The server, in this process. Its module installs its own signal handling (one graceful shutdown) while it loads;
// a signal that came before that is passed on once it has. (onSignal stays: it does nothing more from then on.)
if (stopSignal) stopBeforeServer("Start");
const { shutdown } = await import("../server/main.ts");
if (stopSignal) shutdown(stopSignal);

// npm (or its shell) gone: we were re-parented, and nobody is left to forward a signal. Stop like on SIGTERM.
const parent = process.ppid;
if (parent > 1) {
  setInterval(() => {
    if (process.ppid !== parent) shutdown(`parent process ${parent} exited`);
  }, 500).unref();
}
