/**
 * The embedded database's lock (api/embedded-lock.ts) on its own: who may take it, what a refusal says, what a
 * lock left behind by a gone process becomes. The server and billing:run on one folder are
 * tests/integration/embedded-lock.test.ts.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { EmbeddedDatabaseInUse, lockEmbeddedDatabase } from "../../api/embedded-lock.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const node = path.join(ROOT, "node_modules/.bin/node");
const IN_USE = (where: string, pid: number) => `The embedded database in ${where} is in use by a running server (pid ${pid}): run billing from the Jobs screen, or stop the server.`;

let tmp = "";
let n = 0;
/** A fresh database folder (not created: the lock sits beside it, in its parent). */
const folder = () => path.join(tmp, `data-${++n}`, "pglite");
const lockOf = (dir: string) => `${dir}.lock`;
const holder = (dir: string) => JSON.parse(fs.readFileSync(lockOf(dir), "utf8")) as { pid: number; hostname: string; startedAt: string };
const writeLock = (dir: string, text: string) => {
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  fs.writeFileSync(lockOf(dir), text);
};

/** The pid of a process that has exited (and been reaped): nobody has it, for now. */
function deadPid(): Promise<number> {
  const child = spawn(node, ["-e", "0"], { stdio: "ignore" });
  return new Promise((resolve) => child.once("exit", () => resolve(child.pid!)));
}

const releases: (() => void)[] = [];
const take = async (dir: string) => {
  const release = await lockEmbeddedDatabase(dir);
  releases.push(release);
  return release;
};

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "embedded-lock-unit-"));
});
afterEach(() => {
  for (const release of releases.splice(0)) release();
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("the embedded database's lock", () => {
  it("is a file beside the folder holding this process's pid, removed on release; then it can be taken again", async () => {
    const dir = folder();
    fs.mkdirSync(path.dirname(dir));
    const release = await take(dir);
    expect(holder(dir)).toMatchObject({ pid: process.pid, hostname: os.hostname() });
    expect(Number.isNaN(Date.parse(holder(dir).startedAt))).toBe(false);
    release();
    expect(fs.existsSync(lockOf(dir))).toBe(false);
    await take(dir);
    release(); // again, after the new lock: nothing
    expect(holder(dir).pid).toBe(process.pid);
    await expect(lockEmbeddedDatabase(dir)).rejects.toBeInstanceOf(EmbeddedDatabaseInUse);
  });

  it("is refused while this process holds it (PGlite cannot share a folder in one process either)", async () => {
    const dir = folder();
    fs.mkdirSync(path.dirname(dir));
    await take(dir);
    const refusal = await lockEmbeddedDatabase(dir).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(EmbeddedDatabaseInUse);
    expect((refusal as EmbeddedDatabaseInUse).pid).toBe(process.pid);
    expect((refusal as Error).message).toBe(`The embedded database in ${path.dirname(dir)} is already open in this process (pid ${process.pid}): close it before opening it again.`);
  });

  it("is refused while another live process holds it, naming its pid and the folder (absolute outside the working folder)", async () => {
    const other = spawn(node, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    try {
      const dir = folder();
      const text = `${JSON.stringify({ pid: other.pid, hostname: os.hostname(), startedAt: new Date().toISOString() })}\n`;
      writeLock(dir, text);
      const refusal = await lockEmbeddedDatabase(dir).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(EmbeddedDatabaseInUse);
      expect((refusal as Error).message).toBe(IN_USE(path.dirname(dir), other.pid!));
      // Untouched: still the other process's.
      expect(fs.readFileSync(lockOf(dir), "utf8")).toBe(text);
    } finally {
      other.kill("SIGKILL");
    }
  });

  it("shows a folder inside the working folder as ./relative", async () => {
    const cwd = process.cwd();
    const dir = folder();
    const other = spawn(node, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    try {
      writeLock(dir, JSON.stringify({ pid: other.pid }));
      process.chdir(tmp);
      const refusal = await lockEmbeddedDatabase(dir).catch((error: unknown) => error);
      expect((refusal as Error).message).toBe(IN_USE(`./${path.basename(path.dirname(dir))}`, other.pid!));
    } finally {
      process.chdir(cwd);
      other.kill("SIGKILL");
    }
  });

  it("takes over a lock whose process is gone, one in this process's pid that it does not hold, and one never written", async () => {
    for (const text of [JSON.stringify({ pid: await deadPid(), hostname: os.hostname(), startedAt: "2026-01-01T00:00:00.000Z" }), JSON.stringify({ pid: process.pid }), "", "{not json"]) {
      const dir = folder();
      writeLock(dir, text);
      await take(dir);
      expect(holder(dir).pid, `over ${JSON.stringify(text)}`).toBe(process.pid);
      expect(fs.readdirSync(path.dirname(dir)), "nothing left aside").toEqual([path.basename(lockOf(dir))]);
    }
  });

  it("leaves a lock alone on release once another process has taken it over", async () => {
    const dir = folder();
    fs.mkdirSync(path.dirname(dir));
    const release = await take(dir);
    // Another process judged us gone and took over: its lock stays.
    const theirs = JSON.stringify({ pid: 1, hostname: "elsewhere", startedAt: new Date().toISOString() });
    fs.writeFileSync(lockOf(dir), theirs);
    release();
    expect(fs.readFileSync(lockOf(dir), "utf8")).toBe(theirs);
  });

  it("is removed when the process exits without releasing it", () => {
    const dir = folder();
    fs.mkdirSync(path.dirname(dir));
    const script = `
      import fs from "node:fs";
      import { lockEmbeddedDatabase } from ${JSON.stringify(path.join(ROOT, "api/embedded-lock.ts"))};
      await lockEmbeddedDatabase(${JSON.stringify(dir)});
      console.log(fs.existsSync(${JSON.stringify(lockOf(dir))}));
      process.exit(3);
    `;
    const res = spawnSync(node, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(res.status, res.stderr).toBe(3);
    expect(res.stdout.trim()).toBe("true");
    expect(fs.existsSync(lockOf(dir))).toBe(false);
  });

  it("goes to one of several processes taking over the same stale lock at once", async () => {
    const dir = folder();
    writeLock(dir, JSON.stringify({ pid: await deadPid() }));
    // Each loads the module and waits; at the first line on stdin all of them take the lock, say whether they got
    // it, and keep it until the second line.
    const script = `
      import readline from "node:readline";
      import { lockEmbeddedDatabase } from ${JSON.stringify(path.join(ROOT, "api/embedded-lock.ts"))};
      const lines = readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]();
      console.log("ready");
      await lines.next();
      try { await lockEmbeddedDatabase(${JSON.stringify(dir)}); console.log("held"); }
      catch (error) { console.log(error.name); }
      await lines.next();
      process.exit(0);
    `;
    const children = Array.from({ length: 6 }, () => spawn(node, ["--input-type=module", "-e", script], { stdio: ["pipe", "pipe", "inherit"] }));
    const outputs = children.map(() => "");
    children.forEach((child, i) => child.stdout.on("data", (d) => (outputs[i] += d)));
    /** Line `n` (from 0) of child `i`'s output, once written in full. */
    const lineOf = async (i: number, n: number) => {
      while (outputs[i].split("\n").length <= n + 1) await new Promise((r) => setTimeout(r, 10));
      return outputs[i].split("\n")[n];
    };
    await Promise.all(children.map((_, i) => lineOf(i, 0)));
    for (const child of children) child.stdin.write("go\n");
    const answers = await Promise.all(children.map((_, i) => lineOf(i, 1)));
    const holders = children.filter((_, i) => answers[i] === "held");
    expect(answers.filter((a) => a !== "held")).toEqual(Array(5).fill("EmbeddedDatabaseInUse"));
    expect(holders).toHaveLength(1);
    expect(holder(dir).pid).toBe(holders[0].pid);
    await Promise.all(children.map((child) => new Promise((resolve) => (child.once("exit", resolve), child.stdin.end("\n")))));
    expect(fs.readdirSync(path.dirname(dir))).toEqual([]);
  });
});
