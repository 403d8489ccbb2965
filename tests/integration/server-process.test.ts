/**
 * The suites that start real servers (scale-out, payment races) used to leave them running after the run, because
 * their SIGKILL reached only the tsx wrapper. tests/support/server-process.ts stops the whole process group.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killProcessGroup, spawnProcessGroup } from "../support/server-process.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const tsx = path.join(ROOT, "node_modules/.bin/tsx");
let tmp: string;
let program: string;

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "server-process-"));
  program = path.join(tmp, "idle.ts");
  // Stands in for server/main.ts: a TypeScript program that runs until it is stopped.
  await fs.writeFile(program, `const pid: number = process.pid;\nconsole.log(pid);\nsetInterval(() => {}, 1000);\n`);
});
afterAll(() => fs.rm(tmp, { recursive: true, force: true }));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The pid the program itself runs as (tsx starts it in a child process of its own). */
function programPid(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += d;
      if (out.includes("\n")) resolve(Number(out.trim().split("\n")[0]));
    });
    child.once("exit", () => reject(new Error("exited before printing its pid")));
  });
}

async function waitUntilGone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (alive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

describe("killProcessGroup", () => {
  it("stops tsx and the program it runs", async () => {
    const child = spawnProcessGroup(tsx, [program], { stdio: ["ignore", "pipe", "pipe"] });
    const pid = await programPid(child);
    expect(pid).not.toBe(child.pid);
    await killProcessGroup(child);
    expect(alive(pid)).toBe(false);
    expect(alive(child.pid!)).toBe(false);
    expect(child.signalCode).toBe("SIGKILL");
  });

  it("is fine with a group that already ended (a server that killed itself, a finished script)", async () => {
    const child = spawnProcessGroup(tsx, ["-e", "process.exit(0)"], { stdio: "ignore" });
    await new Promise((resolve) => child.once("exit", resolve));
    await killProcessGroup(child);
  });

  it("is needed: a SIGKILL to tsx alone leaves the program running", async () => {
    const child = spawn(tsx, [program], { stdio: ["ignore", "pipe", "pipe"] });
    const pid = await programPid(child);
    try {
      child.kill("SIGKILL");
      await new Promise((resolve) => child.once("exit", resolve));
      expect(await waitUntilGone(pid, 1000)).toBe(false);
    } finally {
      if (alive(pid)) process.kill(pid, "SIGKILL");
    }
  });
});
