#!/usr/bin/env node
/**
 * `npm test`: every check the project has, in order, stopping at the first failure. The last line is a plain
 * summary ("N passed, N failed", counting steps) for CI; the exit code is non-zero on any failure.
 *
 * The server tests run twice: on the embedded database (in-memory PGlite) and on PostgreSQL. PostgreSQL comes
 * from TEST_DATABASE_URL, else postgresql://postgres@127.0.0.1:5432/postgres when it answers; when it does not,
 * that run is skipped with a notice, except under CI=true where it is a failure. The tests of several processes and
 * races run a third time through PgBouncer in transaction mode (POOLER_TESTS), the way production reaches
 * PostgreSQL; that run needs Debian's pgbouncer (skipped without it, a failure under CI=true).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const inCI = /^(1|true|yes)$/i.test(process.env.CI ?? "");
const DEFAULT_PG = "postgresql://postgres@127.0.0.1:5432/postgres";
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/** Browser flows of members (pause and cancel included, and an owner's coupon over three renewals) that also run with the server on PostgreSQL. */
const MEMBER_JOURNEYS = [
  "tests/e2e/member-multi-business.spec.ts",
  "tests/e2e/member-portal.spec.ts",
  "tests/e2e/member-checkout.spec.ts",
  "tests/e2e/business-page-cutoff.spec.ts",
  "tests/e2e/business-page-footer.spec.ts",
  "tests/e2e/member-receipts.spec.ts",
  "tests/e2e/member-restart-change.spec.ts",
  "tests/e2e/member-address.spec.ts",
  "tests/e2e/business-coupon-durations.spec.ts",
  "tests/e2e/member-pause.spec.ts",
  "tests/e2e/member-cancel.spec.ts",
];
/** Server test files that also run through a transaction pooler (PgBouncer), after the PostgreSQL run. */
const POOLER_TESTS = [
  "tests/integration/pooler.test.ts",
  "tests/integration/payment-races.test.ts",
  "tests/integration/scale-out.test.ts",
  "tests/integration/capacity.test.ts",
  "tests/integration/capacity-processes.test.ts",
  "tests/integration/checkout.test.ts",
  "tests/integration/renewals-batch.test.ts",
  "tests/integration/jobs.test.ts",
  "tests/integration/mail-processes.test.ts",
  "tests/integration/events-outbox.test.ts",
  "tests/integration/session-reads.test.ts",
  "tests/integration/member-sessions.test.ts",
];
// As under `npm run`: tools find each other on PATH (prisma runs the prisma-pothos-types generator by name), and
// every child whose `#!/usr/bin/env node` resolves through PATH (vitest, tsc, vite, playwright, the npm of the
// signal test) runs on the project's Node, node_modules/.bin/node, whatever Node the machine has.
process.env.PATH = `${path.join(root, "node_modules", ".bin")}${path.delimiter}${process.env.PATH ?? ""}`;

let passed = 0;
let failed = 0;

function finish() {
  console.log(`\n${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

function fail(label, reason) {
  failed++;
  console.error(`\n✗ ${label}: ${reason}`);
  finish();
}

/** Runs a step; `cleanup` runs after it whatever its outcome (before a failure ends the run). */
async function run(label, command, args, env = {}, cleanup = async () => {}) {
  console.log(`\n=== ${label}\n$ ${[command.replace(`${root}/`, ""), ...args].join(" ")}`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  await cleanup();
  if (result.status !== 0) fail(label, `exit ${result.status ?? result.signal} after ${seconds}s`);
  passed++;
  console.log(`✓ ${label} (${seconds}s)`);
}

async function postgresUrl() {
  const url = process.env.TEST_DATABASE_URL || DEFAULT_PG;
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return { url };
  } catch (err) {
    return { url, error: err instanceof Error ? err.message : String(err) };
  } finally {
    await client.end().catch(() => {});
  }
}

if (!fs.existsSync(path.join(root, "node_modules"))) fail("setup", "dependencies are missing: run `npm install` (or `npm ci`)");

// The Node every step runs on (CI logs show it): the project's Node 24 from node_modules/.bin under `npm test`.
console.log(`Node ${process.version} (${process.execPath})`);
if (Number(process.versions.node.split(".")[0]) < 24) {
  fail("setup", `Node ${process.version}: the project needs Node 24 or later; run \`npm test\`, which uses node_modules/.bin/node`);
}

// Server side
await run("Prisma client", bin("prisma"), ["generate"]);
await run("schema.graphql is current", process.execPath, ["scripts/print-schema.ts", "--check"]);
await run("Typecheck (server)", bin("tsc"), ["-p", "tsconfig.json"]);
await run("Relay artifacts", bin("relay-compiler"), []);
await run("Typecheck (web)", bin("tsc"), ["-p", "web/tsconfig.json"]);
await run("Typecheck (end-to-end tests)", bin("tsc"), ["-p", "tests/e2e"]);
// ESLint (typed rules, React hooks, Relay, import cycles and layer boundaries: eslint.config.js) and knip (dead
// exports, files and dependencies: knip.jsonc), at zero findings.
await run("Lint", "npm", ["run", "-s", "lint"]);
// The embedded run must not inherit a PostgreSQL URL from the caller's environment.
await run("Server tests (embedded database)", bin("vitest"), ["run"], { TEST_DATABASE_URL: "" });

const pg = await postgresUrl();
if (pg.error) {
  const message = `PostgreSQL at ${pg.url.replace(/\/\/[^@]*@/, "//…@")} is unreachable (${pg.error})`;
  if (inCI) fail("Server tests (PostgreSQL)", `${message}; CI requires it`);
  console.log(`\n=== Server tests (PostgreSQL)\n- skipped: ${message}. Start it or set TEST_DATABASE_URL.`);
} else {
  await run("Server tests (PostgreSQL)", bin("vitest"), ["run"], { TEST_DATABASE_URL: pg.url });
}

// The server tests that run several processes or race each other once more through PgBouncer in transaction
// mode, as production usually reaches PostgreSQL (tests/support/pgbouncer.ts; DATABASE_POOL_MODE=transaction):
// two production servers answering 800 signed-in requests, payment races, two processes billing, capacity,
// jobs, mail workers. Debian's pgbouncer package (.ci/run installs it); skipped without it, except under CI.
if (!pg.error) {
  const { PGBOUNCER, pgbouncerInstalled, startPgbouncer } = await import("../tests/support/pgbouncer.ts");
  const label = "Server tests through a transaction pooler (PgBouncer, PostgreSQL)";
  if (!pgbouncerInstalled()) {
    const message = `no PgBouncer at ${PGBOUNCER} (apt-get install pgbouncer, or set PGBOUNCER)`;
    if (inCI) fail(label, `${message}; CI requires it`);
    console.log(`\n=== ${label}\n- skipped: ${message}.`);
  } else {
    const bouncer = await startPgbouncer({ upstream: pg.url });
    await run(label, bin("vitest"), ["run", ...POOLER_TESTS], { TEST_DATABASE_URL: pg.url, TEST_POOLER_URL: bouncer.url }, () => bouncer.stop());
  }
}

// Web
await run("Web unit tests", bin("vitest"), ["run", "--config", "web/vitest.config.ts"]);
// Built with NODE_ENV=development in the environment, as a developer's shell may have it: the build must still be a
// production one (web/vite.config.ts forces it), which the server then reports (server/web-app.ts webBuildKind).
await run("Web build", bin("vite"), ["build", "--config", "web/vite.config.ts", "--logLevel", "warn"], { NODE_ENV: "development" });
await run("The web build is a production build", process.execPath, [
  "--input-type=module",
  "-e",
  `const { webBuildKind } = await import("./server/web-app.ts"); const kind = webBuildKind("dist/web"); console.log("dist/web: a " + kind + " build"); process.exit(kind === "production" ? 0 : 1);`,
]);
if (!fs.existsSync(CHROMIUM)) {
  fail("End-to-end tests", `no browser at ${CHROMIUM}: install Debian's Chromium (apt-get install chromium) or set CHROMIUM_PATH`);
}
await run("End-to-end tests (Playwright)", bin("playwright"), ["test"]);

// The member journeys once more with the server on PostgreSQL (a database of their own, dropped afterwards).
if (!pg.error) {
  const name = `mp_e2e_${process.pid}`;
  const { default: pgClient } = await import("pg");
  const admin = async (sql) => {
    const client = new pgClient.Client({ connectionString: pg.url });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  const url = new URL(pg.url);
  url.pathname = `/${name}`;
  await admin(`CREATE DATABASE "${name}"`);
  await run("End-to-end member journeys (Playwright, PostgreSQL)", bin("playwright"), ["test", ...MEMBER_JOURNEYS], { E2E_DATABASE_URL: url.toString() }, () =>
    admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  );
}

finish();
