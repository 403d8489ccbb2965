/**
 * One process per embedded database: a real server (`node server/main.ts`) on a DATA_DIR, then `billing:run`
 * (`node scripts/billing-run.ts`) and a second server on the same folder, which are refused with one line naming
 * the server's pid and leave the server answering; once the server has stopped (SIGTERM) the lock is gone and
 * billing runs. A lock left by a gone process is taken over, and one folder cannot be open twice in one process.
 * On PostgreSQL nothing of this applies: billing:run beside a server works.
 *
 * The embedded cases run in the embedded run only, the PostgreSQL case in the PostgreSQL run (TEST_DATABASE_URL).
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../api/db.ts";
import { EmbeddedDatabaseInUse } from "../../api/embedded-lock.ts";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { killProcessGroup, listeningUrl, spawnProcessGroup } from "../support/server-process.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const node = path.join(ROOT, "node_modules/.bin/node");
const onPostgres = !!process.env.TEST_DATABASE_URL;

/** The settings of every process here; `extra` adds to them (undefined: unset). */
function environment(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "development",
    HOST: "127.0.0.1",
    PORT: "0",
    SEED_DEMO: "0",
    BILLING_INTERVAL_MINUTES: "0",
    LOG_LEVEL: "warn",
    PAYMENT_PROVIDER: "sandbox",
    ...extra,
  };
  for (const name of ["DATABASE_URL", "DIRECT_DATABASE_URL", "DATABASE_POOL_MODE", "REDIS_URL", "METRICS_PORT", "CLOCK_START"]) if (!(name in extra)) delete env[name];
  return env;
}

/** Runs `node <args>` to its end. */
function run(args: string[], env: NodeJS.ProcessEnv, cwd = ROOT): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawnProcessGroup(node, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d) => (stdout += d));
    child.stderr!.on("data", (d) => (stderr += d));
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** `node server/main.ts`, listening. */
async function startServer(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string; output: string[] }> {
  const child = spawnProcessGroup(node, ["server/main.ts"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  const output: string[] = [];
  child.stdout!.on("data", (d) => output.push(String(d)));
  child.stderr!.on("data", (d) => output.push(String(d)));
  return { child, url: await listeningUrl(child), output };
}

const inUse = (where: string, pid: number) => `The embedded database in ${where} is in use by a running server (pid ${pid}): run billing from the Jobs screen, or stop the server.`;
const billing = (env: NodeJS.ProcessEnv, cwd?: string) => run([path.join(ROOT, "scripts/billing-run.ts"), "--as-of", "2026-04-28T16:00:00Z"], env, cwd);

describe.skipIf(onPostgres)("the embedded database, one process at a time", () => {
  let tmp = "";
  let dataDir = "";
  let env: NodeJS.ProcessEnv;
  let server: Awaited<ReturnType<typeof startServer>>;
  const lockFile = () => path.join(dataDir, "pglite.lock");

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "embedded-lock-"));
    dataDir = path.join(tmp, "data");
    env = environment({ DATA_DIR: dataDir });
    server = await startServer(env);
  }, 180_000);

  afterAll(async () => {
    if (server) await killProcessGroup(server.child);
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  }, 30_000);

  it("refuses billing:run and a second server beside a running server, which goes on answering", async () => {
    const pid = server.child.pid!;
    expect(JSON.parse(fs.readFileSync(lockFile(), "utf8"))).toMatchObject({ pid, hostname: os.hostname() });

    // DATA_DIR as an operator writes it, relative to where billing:run is started: shown the same way.
    const refused = await billing({ ...env, DATA_DIR: "./data" }, tmp);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`${inUse("./data", pid)}\n`);
    expect(refused.stdout).toBe("");
    // Elsewhere: the absolute folder.
    const absolute = await billing(env);
    expect(absolute.code).toBe(1);
    expect(absolute.stderr).toBe(`${inUse(dataDir, pid)}\n`);

    const second = await run(["server/main.ts"], env);
    expect(second.code).toBe(1);
    expect(second.stderr).toBe(`${inUse(dataDir, pid)}\n`);

    expect(JSON.parse(fs.readFileSync(lockFile(), "utf8")).pid).toBe(pid);
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status, server.output.join("")).toBe(200);
    expect(await ready.json()).toMatchObject({ ready: true });
  });

  it("after the server stops (SIGTERM) the lock is gone and billing:run runs", async () => {
    const exited = new Promise<number | null>((resolve) => server.child.once("exit", (code) => resolve(code)));
    server.child.kill("SIGTERM");
    expect(await exited, server.output.join("")).toBe(0);
    expect(fs.existsSync(lockFile())).toBe(false);

    const billed = await billing(env);
    expect(billed.stderr).not.toContain("in use");
    expect(billed.code, billed.stderr).toBe(0);
    expect(JSON.parse(billed.stdout)).toMatchObject({ asOf: "2026-04-28T16:00:00.000Z" });
    expect(fs.existsSync(lockFile())).toBe(false);
  });

  it("takes over a lock left by a process that is gone", async () => {
    const gone = spawn(node, ["-e", "0"], { stdio: "ignore" });
    const pid = await new Promise<number>((resolve) => gone.once("exit", () => resolve(gone.pid!)));
    fs.writeFileSync(lockFile(), `${JSON.stringify({ pid, hostname: os.hostname(), startedAt: new Date().toISOString() })}\n`);

    const db = await openDatabase({ pgliteDir: path.join(dataDir, "pglite") });
    try {
      expect(JSON.parse(fs.readFileSync(lockFile(), "utf8")).pid).toBe(process.pid);
      await db.migrate();
    } finally {
      await db.close();
    }
    expect(fs.existsSync(lockFile())).toBe(false);
  });

  it("opens a folder once at a time in one process, again after closing", async () => {
    const pgliteDir = path.join(dataDir, "pglite");
    const first = await openDatabase({ pgliteDir });
    try {
      const again = await openDatabase({ pgliteDir }).catch((error: unknown) => error);
      expect(again).toBeInstanceOf(EmbeddedDatabaseInUse);
      expect((again as EmbeddedDatabaseInUse).pid).toBe(process.pid);
      // In-memory databases have no folder, and no lock.
      const memory = await openDatabase({ pgliteDir: "memory" });
      await memory.close();
    } finally {
      await first.close();
    }
    const reopened = await openDatabase({ pgliteDir });
    expect(await reopened.migrate()).toEqual([]);
    await reopened.close();
    expect(fs.existsSync(path.join(dataDir, "pglite.lock"))).toBe(false);
  });
});

describe.skipIf(!onPostgres)("PostgreSQL: billing:run beside a running server", () => {
  let db: TestDatabase;
  let tmp = "";
  let server: Awaited<ReturnType<typeof startServer>> | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "embedded-lock-pg-"));
  });

  afterAll(async () => {
    if (server) await killProcessGroup(server.child);
    await db?.drop();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  }, 30_000);

  it("runs, and no lock is taken", async () => {
    const env = environment({ ...db.env, DATA_DIR: tmp });
    server = await startServer(env);
    const billed = await billing(env);
    expect(billed.code, billed.stderr).toBe(0);
    expect(JSON.parse(billed.stdout)).toMatchObject({ asOf: "2026-04-28T16:00:00.000Z" });
    expect(fs.readdirSync(tmp).filter((name) => name.endsWith(".lock"))).toEqual([]);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  }, 180_000);
});
