/**
 * `npm run db:status` and `npm run db:migrate` (scripts/prisma-wasm.mjs) on a fresh clone, before the
 * server ever started: the data folder does not exist yet, and the embedded database must be created in it.
 */
import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
let tmp: string;

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "migrate-script-"));
});
afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

function script(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const { DATABASE_URL: _unset, ...base } = process.env;
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, "scripts/prisma-wasm.mjs"), ...args], { cwd: ROOT, env: { ...base, ...env }, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe("scripts/prisma-wasm.mjs on a fresh clone (no DATABASE_URL, DATA_DIR not created yet)", () => {
  it("status, then deploy, create the embedded database under DATA_DIR", async () => {
    const dataDir = path.join(tmp, "fresh", "data");
    const status = await script(["status"], { DATA_DIR: dataDir });
    expect(status.stderr).not.toMatch(/ENOENT/);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toBeTypeOf("object");

    const deploy = await script(["deploy"], { DATA_DIR: path.join(tmp, "other", "data") });
    expect(deploy.code, deploy.stderr).toBe(0);
    expect(deploy.stdout).toMatch(/^Applied: /);
    const again = await script(["deploy"], { DATA_DIR: path.join(tmp, "other", "data") });
    expect(again.stdout.trim()).toBe("No pending migrations to apply.");
    expect((await fs.stat(path.join(tmp, "other", "data", "pglite"))).isDirectory()).toBe(true);
  });

  it("refuses a DATABASE_URL that is neither PostgreSQL nor pglite: with one line", async () => {
    const res = await script(["status"], { DATABASE_URL: "mysql://root@127.0.0.1/shop", DATA_DIR: path.join(tmp, "unused") });
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toBe("DATABASE_URL must be a PostgreSQL URL (postgresql://… or postgres://…), or pglite:<folder> for an embedded database; unset it for the one under DATA_DIR.");
    await expect(fs.stat(path.join(tmp, "unused"))).rejects.toThrow();
  });
});
