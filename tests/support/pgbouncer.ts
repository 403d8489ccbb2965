/**
 * PgBouncer in transaction mode in front of a PostgreSQL server, as production usually reaches PostgreSQL (the
 * settings docs/operations.md lists as tested). `npm test` starts one for its pooler run (scripts/test.mjs) and the
 * soak script starts its own (tests/bench/soak.ts). Debian's package: `apt-get install pgbouncer`; .ci/run
 * installs it.
 *
 * Plain TypeScript that Node runs itself (scripts/test.mjs imports it without a build step): no enums, no
 * parameter properties.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { freePort } from "./server-process.ts";

/** Where Debian puts it; PGBOUNCER overrides. */
export const PGBOUNCER = process.env.PGBOUNCER ?? "/usr/sbin/pgbouncer";

export interface Pgbouncer {
  /** The pooled URL of `upstream`'s database (same user and database name, PgBouncer's host and port). */
  url: string;
  /** Any database of the upstream server through the pooler: `upstream` with PgBouncer's host and port. */
  pooled(directUrl: string): string;
  /** The folder of its configuration and log (`pgbouncer.log`). */
  dir: string;
  stop(): Promise<void>;
}

export interface PgbouncerOptions {
  /** The PostgreSQL server's URL (trust authentication, as on the test machines). */
  upstream: string;
  /** Server connections per database and user (PgBouncer's default_pool_size). */
  poolSize?: number;
  /** Client connections it accepts in all. */
  maxClientConnections?: number;
}

/** The settings it runs with: transaction pooling, every database of the upstream server, trust authentication. */
function configuration(dir: string, port: number, upstream: URL, opts: PgbouncerOptions): string {
  const user = decodeURIComponent(upstream.username || "postgres");
  return [
    "[databases]",
    // The fallback entry: any database name a client asks for, on the upstream server (tests create their own).
    `* = host=${upstream.hostname} port=${upstream.port || 5432}`,
    "",
    "[pgbouncer]",
    "listen_addr = 127.0.0.1",
    `listen_port = ${port}`,
    "unix_socket_dir =",
    "auth_type = trust",
    `auth_file = ${path.join(dir, "userlist.txt")}`,
    "pool_mode = transaction",
    // SHOW POOLS, SHOW CLIENTS… on its admin console (psql -p PORT -U postgres pgbouncer), for whoever debugs a run.
    `admin_users = ${user}`,
    `default_pool_size = ${opts.poolSize ?? 20}`,
    `max_client_conn = ${opts.maxClientConnections ?? 1000}`,
    // node-postgres sends none of these, pg-boss and psql may: PgBouncer refuses a client with a startup
    // parameter it does not know unless it is listed here.
    "ignore_startup_parameters = extra_float_digits,options",
    // Tests open and close thousands of connections: log what goes wrong, not each of them.
    "log_connections = 0",
    "log_disconnections = 0",
    `logfile = ${path.join(dir, "pgbouncer.log")}`,
    `pidfile = ${path.join(dir, "pgbouncer.pid")}`,
    "",
  ].join("\n");
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** True when the PgBouncer binary is installed here. */
export function pgbouncerInstalled(): boolean {
  return fs.existsSync(PGBOUNCER);
}

/**
 * Starts PgBouncer on a free port of 127.0.0.1. It refuses to run as root: as root it is started as the
 * `postgres` user (which Debian's PostgreSQL package creates), its folder readable by that user.
 */
export async function startPgbouncer(opts: PgbouncerOptions): Promise<Pgbouncer> {
  const upstream = new URL(opts.upstream);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mp-pgbouncer-"));
  const port = await freePort();
  const user = decodeURIComponent(upstream.username || "postgres");
  fs.writeFileSync(path.join(dir, "userlist.txt"), `"${user}" ""\n`);
  fs.writeFileSync(path.join(dir, "pgbouncer.ini"), configuration(dir, port, upstream, opts));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    fs.chmodSync(dir, 0o777);
    for (const f of ["userlist.txt", "pgbouncer.ini"]) fs.chmodSync(path.join(dir, f), 0o644);
  }
  // Its console output goes to a file, never a pipe: a caller that blocks its event loop (spawnSync in
  // scripts/test.mjs) would not drain a pipe, and PgBouncer, blocked writing its log, would stop answering.
  const output = fs.openSync(path.join(dir, "output.log"), "a");
  const child: ChildProcess = spawn(PGBOUNCER, [...(asRoot ? ["-u", "postgres"] : []), path.join(dir, "pgbouncer.ini")], { stdio: ["ignore", output, output] });
  fs.closeSync(output);
  const log = () => ["output.log", "pgbouncer.log"].map((f) => (fs.existsSync(path.join(dir, f)) ? fs.readFileSync(path.join(dir, f), "utf8") : "")).join("");

  const deadline = Date.now() + 10_000;
  while (!(await answers(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`PgBouncer did not start (${child.exitCode === null ? "no answer in 10 s" : `exit ${child.exitCode}`}):\n${log()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }

  const pooled = (directUrl: string) => {
    const u = new URL(directUrl);
    u.hostname = "127.0.0.1";
    u.port = String(port);
    return u.toString();
  };
  return {
    url: pooled(opts.upstream),
    pooled,
    dir,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGINT");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
