/**
 * Signals: README's command (`npm start`) run as an operator's process manager runs it, then stopped.
 * SIGTERM to npm's pid (with a request in flight), SIGINT to the server's own pid, Ctrl-C (SIGINT to the whole
 * process group, so the server gets it twice) and npm killed outright (SIGKILL): each time the server logs
 * "shutting down" then "stopped", every process of the tree (collected before the signal) is gone within 10 s,
 * and the port is free. The cases share one embedded database folder, so each start also shows that the previous
 * stop closed the database cleanly.
 *
 * Process-level, independent of the database under test: runs in the embedded run only (not again with
 * TEST_DATABASE_URL). Every process is started in its own process group and killed with it afterwards, whatever
 * happens, so the test never leaves a server behind.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../support/server-process.ts";

const root = path.resolve(import.meta.dirname, "../..");
/** The issue's bound for the whole tree, from the signal to the last process gone. */
const STOP_BOUND_MS = 10_000;
/** Start-up of `npm start` on a loaded machine (npm, module loading, migrations on the first start). */
const START_TIMEOUT_MS = 120_000;

let tmp = "";
const groups = new Set<number>();
const trees: number[][] = [];

interface Started {
  npm: ChildProcess;
  port: number;
  /** Every line written by the tree (stdout and stderr). */
  output: string[];
  /** The server's pid, from its own log lines. */
  serverPid: number;
  /** npm and every descendant, collected once the server answered. */
  tree: number[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Stdout and stderr closed: every process holding them has exited and all they wrote has been read. */
  drained: Promise<void>;
}


const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Children of a process, then theirs, and so on (`ps --ppid`). */
function descendants(pid: number): number[] {
  let out: string;
  try {
    out = execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" });
  } catch {
    return []; // ps exits 1 when nothing matches
  }
  const children = out.split("\n").map((l) => Number(l.trim())).filter((n) => n > 0);
  return children.flatMap((c) => [c, ...descendants(c)]);
}

/** Alive = exists and is not a zombie (an exited process its new parent has not reaped yet). */
function alive(pid: number): boolean {
  try {
    const stat = execFileSync("ps", ["-o", "stat=", "-p", String(pid)], { encoding: "utf8" }).trim();
    return stat !== "" && !stat.startsWith("Z");
  } catch {
    return false;
  }
}

const describeTree = (pids: number[]) => {
  try {
    return execFileSync("ps", ["-o", "pid,ppid,stat,args", "-p", pids.join(",")], { encoding: "utf8" });
  } catch {
    return "(none)";
  }
};

/** GET on a fresh connection (no keep-alive pool that could outlive the test). */
const get = (port: number, pathname: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path: pathname, agent: false }, (res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.setTimeout(10_000, () => req.destroy(new Error("timeout")));
  });

/** Whether a TCP connection to the port is refused (nothing listening). */
const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", (err: NodeJS.ErrnoException) => resolve(err.code === "ECONNREFUSED"));
  });

/** The port can be listened on again. */
const listenable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.createServer();
    s.once("error", () => resolve(false));
    s.listen(port, "127.0.0.1", () => s.close(() => resolve(true)));
  });

/** JSON log lines of the server. */
const logLines = (output: string[]) =>
  output
    .join("")
    .split("\n")
    .flatMap((line) => {
      try {
        const entry = JSON.parse(line);
        return entry && typeof entry === "object" && "msg" in entry ? [entry as { msg: string; pid: number; [k: string]: unknown }] : [];
      } catch {
        return [];
      }
    });

async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs: number, output?: string[]): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${output ? `\n--- output:\n${output.join("")}` : ""}`);
    await sleep(100);
  }
}

/**
 * README's command, as a process manager runs it: `npm start` in the project folder, in its own process group.
 * At LOG_LEVEL debug by default (the request lines, which the cases wait for, are debug lines); `env` adds to or
 * replaces the settings (undefined: unset, for the server's default).
 */
async function npmStart(extra: Record<string, string | undefined> = {}): Promise<Started> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: path.join(tmp, "data"),
    WEB_DIST_DIR: path.join(tmp, "web"),
    SEED_DEMO: "0",
    BILLING_INTERVAL_MINUTES: "0",
    NODE_ENV: "development",
    LOG_LEVEL: "debug",
    PAYMENT_PROVIDER: "sandbox",
    ...extra,
  };
  for (const [name, value] of Object.entries(extra)) if (value === undefined) delete env[name];
  // The embedded database, one process, no metrics listener: nothing else of the caller's environment.
  for (const name of ["DATABASE_URL", "REDIS_URL", "METRICS_PORT", "CLOCK_START", "CRASH_AT", "TEST_DATABASE_URL"]) delete env[name];
  const npm = spawn("npm", ["start"], { cwd: root, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  groups.add(npm.pid!);
  const output: string[] = [];
  npm.stdout.on("data", (d) => output.push(String(d)));
  npm.stderr.on("data", (d) => output.push(String(d)));
  const drained = Promise.all([npm.stdout, npm.stderr].map((stream) => new Promise((r) => stream.once("close", r)))).then(() => {});
  let done = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    npm.once("exit", (code, signal) => {
      done = true;
      output.push(`\n[npm exited: code ${code}, signal ${signal}]\n`);
      resolve({ code, signal });
    }),
  );
  await waitFor(
    "GET /healthz to answer 200",
    async () => {
      if (done) throw new Error(`npm start exited before answering:\n${output.join("")}`);
      return (await get(port, "/healthz").catch(() => null))?.status === 200 ? true : undefined;
    },
    START_TIMEOUT_MS,
    output,
  );
  const serverPid = await waitFor("the server's ready line", () => logLines(output).find((l) => l.msg === "membership platform ready")?.pid, 10_000, output);
  const tree = [npm.pid!, ...descendants(npm.pid!)];
  trees.push(tree);
  return { npm, port, output, serverPid, tree, exited, drained };
}

/** After a stop: the log lines, the tree gone within the bound (from `signalledAt`), the port free. */
async function expectStopped(s: Started, signalledAt: number, signal: string) {
  await waitFor("every process of the tree to exit", () => (s.tree.some(alive) ? undefined : true), STOP_BOUND_MS + 20_000, s.output).catch((err) => {
    throw new Error(`${err.message}\n--- still alive:\n${describeTree(s.tree.filter(alive))}`);
  });
  const elapsed = Date.now() - signalledAt;
  expect(elapsed, `all of ${s.tree.join(", ")} gone ${elapsed} ms after ${signal}`).toBeLessThan(STOP_BOUND_MS);
  for (const pid of s.tree) expect(alive(pid), `process ${pid}`).toBe(false);
  // What the processes wrote last may still be in the pipes.
  await waitFor("the output pipes to close", async () => (await Promise.race([s.drained.then(() => true), sleep(100).then(() => undefined)])), 10_000, s.output);

  const lines = logLines(s.output).filter((l) => l.pid === s.serverPid);
  const stopping = lines.filter((l) => l.msg === "shutting down");
  expect(stopping, s.output.join("")).toHaveLength(1);
  expect(String(stopping[0].signal)).toContain(signal);
  const stoppedAt = lines.findIndex((l) => l.msg === "stopped");
  expect(stoppedAt, s.output.join("")).toBeGreaterThan(lines.indexOf(stopping[0]));

  expect(await refused(s.port)).toBe(true);
  expect(await listenable(s.port)).toBe(true);
}

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "mp-signals-"));
  // A web app for the server to serve, so `npm start` does not build the real one.
  fs.mkdirSync(path.join(tmp, "web"));
  fs.writeFileSync(path.join(tmp, "web", "index.html"), "<!doctype html><title>signals test</title>\n");
});

// Safety net: whatever a case did, nothing it started survives it.
afterEach(() => {
  for (const group of groups) {
    try {
      process.kill(-group, "SIGKILL");
    } catch {
      // already gone
    }
  }
  groups.clear();
  for (const pid of trees.flat()) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  trees.length = 0;
});

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe.skipIf(!!process.env.TEST_DATABASE_URL)("stopping `npm start` with a signal", () => {
  it("SIGTERM to npm's pid: the request in flight completes, new connections are refused, every process exits", async () => {
    const s = await npmStart();
    // npm, then the server itself (package.json runs it with `exec`, and start.mjs runs it in its own process).
    expect(s.tree[0]).toBe(s.npm.pid);
    expect(s.tree).toContain(s.serverPid);

    // A request in flight: headers and the start of its body sent before the signal, the rest after it.
    const body = JSON.stringify({ query: "query InFlight { __typename }" });
    const request = http.request({
      host: "127.0.0.1",
      port: s.port,
      path: "/graphql",
      method: "POST",
      agent: false,
      headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
    });
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      request.on("error", reject);
      request.on("response", (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
    });
    request.write(body.slice(0, 10));
    // Until the server has the request (its "incoming request" line), the signal would not find it in flight.
    await waitFor("the request to reach the server", () => (logLines(s.output).some((l) => (l.req as { url?: string } | undefined)?.url === "/graphql") ? true : undefined), 20_000, s.output);

    const signalledAt = Date.now();
    process.kill(s.npm.pid!, "SIGTERM");
    await waitFor("the shutting down line", () => (logLines(s.output).some((l) => l.msg === "shutting down") ? true : undefined), STOP_BOUND_MS, s.output);
    // Draining: no new connections, while the request in flight is still served.
    await waitFor("new connections to be refused", async () => ((await refused(s.port)) ? true : undefined), 5_000, s.output);
    request.end(body.slice(10));
    const res = await answer;
    expect(res.status, res.body).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ data: { __typename: "Query" } });

    await expectStopped(s, signalledAt, "SIGTERM");
    expect(await s.exited).toEqual({ code: 0, signal: null });
  });

  it("SIGINT to the server's own pid: it stops, and npm with it", async () => {
    const s = await npmStart();
    expect((await get(s.port, "/healthz")).status).toBe(200);
    const signalledAt = Date.now();
    process.kill(s.serverPid, "SIGINT");
    await expectStopped(s, signalledAt, "SIGINT");
    expect(await s.exited).toEqual({ code: 0, signal: null });
  });

  it("Ctrl-C (SIGINT to the whole process group; npm forwards it too): the server shuts down once", async () => {
    const s = await npmStart();
    const signalledAt = Date.now();
    process.kill(-s.npm.pid!, "SIGINT");
    await expectStopped(s, signalledAt, "SIGINT");
  });

  it("the console at the default level: one Open line with the demo logins, then nothing while the server idles", async () => {
    const s = await npmStart({ LOG_LEVEL: undefined, SEED_DEMO: "1" });
    const text = () => s.output.join("");
    await waitFor("the Open line", () => (/Open http:\/\/127\.0\.0\.1:\d+\/ {2}\(admin\/admin1234, owner\/owner1234, member\/member1234\)/.test(text()) ? true : undefined), 10_000, s.output);
    // The Open line comes after the start's JSON lines, "ready" included.
    const lines = text().split("\n");
    const openAt = lines.findIndex((l) => l.includes("Open http"));
    expect(lines.findIndex((l) => l.includes('"msg":"membership platform ready"')), text()).toBeLessThan(openAt);
    // The passes queued at start (renewals, packing snapshots, reminders, and the email they plan) log the work
    // they did; once they are over, requests (a page, the API) and the job queue's idle runs (mail dispatch every
    // few seconds) write nothing at the default level.
    let settled = s.output.length;
    for (let quiet = 0, waited = 0; quiet < 6_000 && waited < 40_000; waited += 1_000) {
      await sleep(1_000);
      quiet = s.output.length === settled ? quiet + 1_000 : 0;
      settled = s.output.length;
    }
    const before = s.output.length;
    for (const pathname of ["/", "/graphql?query=%7B__typename%7D", "/api/businesses"]) expect((await get(s.port, pathname)).status).toBeLessThan(500);
    await sleep(15_000);
    const idle = logLines(s.output.slice(before));
    expect(idle.map((l) => l.msg), text()).toEqual([]);
    const signalledAt = Date.now();
    process.kill(-s.npm.pid!, "SIGINT");
    await expectStopped(s, signalledAt, "SIGINT");
  });

  it("npm killed outright (SIGKILL): the server notices its parent is gone and stops", async () => {
    const s = await npmStart();
    const signalledAt = Date.now();
    process.kill(s.npm.pid!, "SIGKILL");
    await expectStopped(s, signalledAt, "parent process");
  });
});
