/**
 * Processes a test starts (`tsx server/main.ts`, `tsx scripts/billing-run.ts`) and must stop entirely. tsx runs the
 * program in a child process of its own, so a signal sent to the process the test spawned reaches only tsx, and
 * SIGKILL (which tsx cannot relay) leaves the server running, orphaned, after the suite. Each process is started
 * in a process group of its own instead, and stopped by signalling the whole group.
 */
import net from "node:net";
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";

/** Groups started here and not yet seen empty: killed when the test worker exits, whatever happened. */
const groups = new Set<number>();
process.once("exit", () => {
  for (const pgid of groups) signalGroup(pgid, "SIGKILL");
});

/** Sends a signal to every process of a group (0: only checks); false when the group has no process left. */
function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw error;
  }
}

/** Starts a command as the leader of a new process group (its descendants, tsx's child included, join it). */
export function spawnProcessGroup(command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  if (child.pid) groups.add(child.pid);
  return child;
}

/**
 * SIGKILL to every process of the child's group, then waits until none is left and the child's exit is seen.
 * A group already gone (a server that killed itself on purpose, a script that finished) is fine.
 */
export async function killProcessGroup(child: ChildProcess, timeoutMs = 10_000): Promise<void> {
  const pgid = child.pid;
  if (!pgid) return;
  signalGroup(pgid, "SIGKILL");
  const deadline = Date.now() + timeoutMs;
  // Until every member is gone and reaped (our own child is reaped by Node once its exit is seen).
  while (signalGroup(pgid, 0)) {
    if (Date.now() > deadline) throw new Error(`processes of group ${pgid} are still alive ${timeoutMs} ms after SIGKILL`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  groups.delete(pgid);
  if (child.exitCode === null && child.signalCode === null) await new Promise((resolve) => child.once("exit", resolve));
}

/** A TCP port free on 127.0.0.1 right now (for a server process a test starts). */
export function freePort(): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/**
 * The address a server started with PORT=0 listens on, read from the line it prints when ready ("Open
 * http://127.0.0.1:PORT/ …", or in production the "membership platform ready" log line with its url). A port chosen by the test beforehand (freePort) can be taken meanwhile by a server of a
 * test running in parallel, whose answers the test would then read; a port the server bound itself cannot.
 */
export function listeningUrl(child: ChildProcess, timeoutMs = 150_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`no "Open" line within ${timeoutMs} ms:\n${out}`)), timeoutMs);
    const onData = (d: Buffer) => {
      out += d;
      // Outside production the plain line; in production the JSON "ready" line (LOG_LEVEL info or lower).
      const m = /Open (http:\/\/[^\s/]+)\//.exec(out) ?? /"url":"(http:\/\/[^"/]+)\/".*"membership platform ready"/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.stdout!.off("data", onData);
      resolve(m[1]);
    };
    child.stdout!.on("data", onData);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code ?? signal}) before listening:\n${out}`));
    });
  });
}

/** Waits until every server answers /healthz with 200; past `timeoutMs`, fails with what the servers logged. */
export async function waitUntilHealthy(urls: readonly string[], logs: readonly string[], timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const url of urls) {
    while (!(await fetch(`${url}/healthz`).then((r) => r.ok, () => false))) {
      if (Date.now() > deadline) throw new Error(`${url} did not start:\n${logs.join("")}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/**
 * The environment of a server process a test starts on its own database: development mode, no demo data, no
 * billing clock, the sandbox provider, quiet logs, and a port the server binds itself (PORT=0, see listeningUrl).
 */
export function serverEnv(databaseEnv: Readonly<Record<string, string>>, extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "development",
    ...databaseEnv,
    BILLING_INTERVAL_MINUTES: "0",
    SEED_DEMO: "0",
    LOG_LEVEL: "warn",
    PAYMENT_PROVIDER: "sandbox",
    HOST: "127.0.0.1",
    PORT: "0",
    ...extra,
  };
}

/** The product's server (`tsx server/main.ts`) in a process group of its own; its output goes to `logs`, each chunk tagged with `name`. */
export function startServer(name: string, env: NodeJS.ProcessEnv, logs: string[]): { child: ChildProcess; url: Promise<string> } {
  const child = spawnProcessGroup("node_modules/.bin/tsx", ["server/main.ts"], { env, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout!.on("data", (d) => logs.push(`[${name}] ${d}`));
  child.stderr!.on("data", (d) => logs.push(`[${name}] ${d}`));
  return { child, url: listeningUrl(child) };
}

/**
 * GraphQL over HTTP as a member of one business sends it: to any of the servers, with the tenant header and a
 * bearer token. A GraphQL error fails the request: whatever the interleaving, every outcome must be a typed answer.
 */
export function tenantGraphql(tenant: string) {
  return async (server: string, query: string, variables: Record<string, unknown> = {}, token?: string): Promise<any> => {
    const res = await fetch(`${server}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-tenant": tenant, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.json()) as { data?: any; errors?: unknown[] };
    if (body.errors?.length) throw new Error(`GraphQL errors from ${server}: ${JSON.stringify(body.errors)}`);
    return body.data;
  };
}
