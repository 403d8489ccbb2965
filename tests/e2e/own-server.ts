import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import pg from "pg";

const root = path.resolve(import.meta.dirname, "../..");

/** A port free on 127.0.0.1 now, found synchronously: test.use needs the base URL while the spec's module loads. */
function freePort(): number {
  const script = "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  return Number(execFileSync(process.execPath, ["-e", script]).toString());
}

/**
 * A server of the spec's own, for specs that move the demo clock or add a job queue, which the shared server of the
 * other specs must not see: `program` (by default the product's server/main.ts) on a fresh embedded database in a
 * temporary folder (with E2E_DATABASE_URL, the PostgreSQL run's: a database of its own on that server, dropped
 * after), on the demo clock's start, until the spec's tests are done. Its tests run in order, on its base URL,
 * which this returns.
 */
export function useOwnServer(o: { name: string; program?: string[]; env?: Record<string, string> }): string {
  const port = freePort();
  const base = `http://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  let dataDir = "";
  const shared = process.env.E2E_DATABASE_URL;
  const database = shared ? ownDatabase(shared, o.name) : null;

  test.describe.configure({ mode: "serial" });
  test.use({ baseURL: base });

  test.beforeAll(async () => {
    test.setTimeout(150_000);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `membership-e2e-${o.name}-`));
    if (database) await database.admin(`CREATE DATABASE "${database.name}"`);
    child = spawn(path.join(root, "node_modules/.bin/node"), o.program ?? ["server/main.ts"], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: "development",
        HOST: "127.0.0.1",
        PORT: String(port),
        PUBLIC_HOST: `localhost:${port}`,
        DATA_DIR: dataDir,
        DATABASE_URL: database?.url ?? "",
        LOG_LEVEL: "warn",
        CLOCK_START: "2026-03-05T15:00:00Z",
        ...o.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
    await expect
      .poll(
        async () => {
          if (child!.exitCode !== null) return `exited: ${out}`;
          return fetch(`${base}/healthz`).then(
            (r) => r.ok,
            () => false,
          );
        },
        { timeout: 140_000, intervals: [500] },
      )
      .toBe(true);
  });

  test.afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child!.once("exit", r));
      child.kill("SIGKILL");
      await exited;
    }
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    if (database) await database.admin(`DROP DATABASE IF EXISTS "${database.name}" WITH (FORCE)`);
  });

  return base;
}

/** A database beside the PostgreSQL run's (`url`) for one spec's server, and a way to create and drop it. */
function ownDatabase(url: string, spec: string) {
  const shared = new URL(url);
  const name = `${shared.pathname.slice(1)}_${spec.replace(/[^a-z0-9]/gi, "_")}`.slice(0, 63);
  const own = new URL(url);
  own.pathname = `/${name}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  return { name, url: own.toString(), admin };
}
