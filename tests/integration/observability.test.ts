import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runRenewals } from "../../api/billing/renewals/clock.ts";
import { sandboxFor } from "../../api/billing/service.ts";
import { openDatabase, type Database } from "../../api/db.ts";
import { observeBillingRun } from "../../api/billing/renewals/run-events.ts";
import { buildApp, type App } from "../../server/app.ts";
import { createGraphQL } from "../../api/graphql/yoga.ts";
import type { Plugin } from "graphql-yoga";
import { testConfig, type Config } from "../../api/config.ts";
import { FixedClock } from "../../api/shared/clock.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createTestDatabase } from "../support/database.ts";
import { factories } from "../support/factories.ts";
import { freePort } from "../support/server-process.ts";

/**
 * The operator's view: Prometheus /metrics (process, HTTP by route, GraphQL operations, database,
 * billing) and who may read it, X-Request-Id in and out and on every log line with the operation, user and
 * tenant, unexpected errors logged with their stack, /healthz (liveness) and /readyz (readiness).
 */

const NOW = "2026-04-03T14:00:00Z";
const TOKEN = "metrics-token-0123456789abcdef";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Prisma, driver and SQL text that must never reach a client. */
const INTERNAL_TEXT = /prisma|P\d{4}\b|invocation|pglite|ECONNREFUSED|does not exist|\bselect\b|\.ts:\d/i;

type Sample = { name: string; labels: Record<string, string>; value: number };

/** The samples of a Prometheus text exposition. */
function samples(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split("\n")) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2]!;
    out.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return out;
}

/** The value of the sample with this name and (at least) these labels; 0 when there is none. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const found = samples(text).filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return found.reduce((sum, s) => sum + s.value, 0);
}

async function scrape(app: App, headers: Record<string, string> = {}) {
  const res = await app.inject({ method: "GET", url: "/metrics", headers });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.body;
}

/** A pino logger whose lines are kept as objects (at `level` and above: request lines are debug lines). */
function capturedLog(level: "debug" | "info" = "info") {
  const lines: Record<string, any>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split("\n")) if (line.trim()) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: pino({ level }, stream) };
}

/** A database with nothing in it, not even the migrations table (on PostgreSQL when TEST_DATABASE_URL is set). */
async function emptyDatabase(): Promise<{ db: Database; drop(): Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const db = await openDatabase({ pgliteDir: "memory" });
    return { db, drop: () => db.close() };
  }
  const name = `mp_test_empty_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: serverUrl });
    await c.connect();
    await c.query(sql);
    await c.end();
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = await openDatabase({ url: url.toString(), poolSize: 2 });
  return {
    db,
    async drop() {
      await db.close();
      await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}

/** A member of a business billing on the 3rd with a saved card and March paid: due at NOW. */
async function dueMembership(t: TestApp) {
  const f = factories(t);
  const business = await f.business({ page: { billingDay: 3, pickupEnabled: true } });
  const plan = await f.plan(business, { prices: { PICKUP: 2000 } });
  const user = await f.user();
  const sandbox = sandboxFor({ db: t.db.prisma, clock: t.clock, config: t.config });
  const customerId = await sandbox.ensureCustomer({ userId: user.id });
  await t.db.prisma.user.update({ where: { id: user.id }, data: { paymentCustomerId: customerId } });
  const seti = await sandbox.createSetupIntent({ customerId, idempotencyKey: `setup-${user.id}` });
  const card = await sandbox.confirmSetupIntent(seti.clientSecret, { number: "4242424242424242", expMonth: 12, expYear: 2031, cvc: "123" });
  const sub = await f.subscription({ user, business, plan, planAmountCents: 2000, totalCents: 2000, paidThroughPeriod: "2026-03" });
  await t.db.prisma.subscription.update({ where: { id: sub.id }, data: { billingDay: 3, providerPaymentMethodId: card.paymentMethodId } });
  return business;
}

describe("/metrics outside production", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ now: NOW });
    await factories(t).business({ slug: "alpha", name: "Alpha", page: {} });
  });
  afterAll(() => t.close());

  it("serves the process metrics, nodejs_version_info among them", async () => {
    const text = await scrape(t.app);
    expect(sample(text, "nodejs_version_info", { version: process.version })).toBe(1);
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
  });

  it("times requests by route pattern, method and status code, never by URL", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/businesses/alpha/page" })).statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: "/api/businesses/no-such-business/page" })).statusCode).toBe(404);
    expect((await t.app.inject({ method: "GET", url: "/api/no/such/path-x1" })).statusCode).toBe(404);
    expect((await t.app.inject({ method: "POST", url: "/no/such/path-x2?a=1" })).statusCode).toBe(404);
    const text = await scrape(t.app);
    const route = "/api/businesses/:slug/page";
    expect(sample(text, "http_request_duration_seconds_count", { method: "GET", route, status_code: "200" })).toBe(1);
    expect(sample(text, "http_request_duration_seconds_count", { method: "GET", route, status_code: "404" })).toBe(1);
    expect(sample(text, "http_request_duration_seconds_bucket", { method: "GET", route, status_code: "200", le: "+Inf" })).toBe(1);
    expect(sample(text, "http_request_duration_seconds_count", { method: "GET", route: "unmatched", status_code: "404" })).toBe(1);
    expect(sample(text, "http_request_duration_seconds_count", { method: "POST", route: "unmatched", status_code: "404" })).toBe(1);
    expect(text).not.toMatch(/alpha|no-such|path-x/);
  });

  it("counts GraphQL operations by bounded name, type and outcome", async () => {
    const send = (payload: object) => t.app.inject({ method: "POST", url: "/graphql", payload });
    await send({ query: `query AlphaPage { business(slug: "alpha") { name } }` });
    await send({ query: `query AlphaPage { business(slug: "alpha") { name } }` });
    await send({ query: `mutation SignIn { login(input: { username: "nobody", password: "wrong-password" }) { __typename } }` });
    await send({ query: `query AdminOnly { adminBusiness(id: 1) { name } }` });
    await send({ query: `query Broken { business(slug: "alpha") { noSuchField } }` });
    await send({ query: `query Unparsable {` });
    await send({ query: `{ __typename }` });
    const long = `Q${"x".repeat(64)}`;
    await send({ query: `query ${long} { __typename }` });
    await send({ query: `query A { __typename } query B { __typename }`, operationName: "not a name!" });

    const text = await scrape(t.app);
    const count = (operation: string, type: string, outcome: string) => sample(text, "graphql_operations_total", { operation, type, outcome });
    expect(count("AlphaPage", "query", "ok")).toBe(2);
    expect(count("SignIn", "mutation", "ok")).toBe(1);
    expect(count("AdminOnly", "query", "refused")).toBe(1);
    // Requests refused before running: their names are not trusted as labels until an operation of that name ran.
    expect(count("other", "query", "invalid")).toBe(2); // Broken, Unparsable
    expect(count("other", "unknown", "invalid")).toBe(1); // operationName "not a name!"
    expect(count("anonymous", "query", "ok")).toBe(1);
    expect(count("other", "query", "ok")).toBe(1); // 65 characters
    expect(text).not.toMatch(/Broken|Unparsable|not a name|xxxx/);
  });

  it("counts SQL statements and their time", async () => {
    const text = await scrape(t.app);
    expect(sample(text, "db_statements_total", { kind: "select" })).toBeGreaterThan(0);
    expect(sample(text, "db_statement_duration_seconds_count", { kind: "select" })).toBe(sample(text, "db_statements_total", { kind: "select" }));
  });

  it("counts billing passes and what they did with each membership, for this server's database only", async () => {
    const business = await dueMembership(t);
    const report = await runRenewals({ db: t.db.prisma, clock: t.clock, config: t.config, log: pino({ level: "silent" }) }, { businessId: business.id });
    expect(report).toMatchObject({ due: 1, charged: 1 });
    await expect(observeBillingRun(t.db.prisma, "renewals", () => Promise.reject(new Error("database gone")))).rejects.toThrow("database gone");
    // A pass on another database client (another server in this process) is not this server's.
    await observeBillingRun({}, "renewals", async () => ({ due: 5, charged: 5, skipped: 0, busy: 0, failed: 0, canceled: 0, ended: 0, waiting: 0, blocked: 0, changesApplied: 0, errors: 0 }));

    const text = await scrape(t.app);
    expect(sample(text, "billing_runs_total", { kind: "renewals", outcome: "ok" })).toBe(1);
    expect(sample(text, "billing_runs_total", { kind: "renewals", outcome: "failed" })).toBe(1);
    expect(sample(text, "billing_renewals_total", { result: "charged" })).toBe(1);
    expect(sample(text, "billing_run_duration_seconds_count", { kind: "renewals" })).toBe(2);
  });

  it("keeps one registry per server: another server in the process has its own counts", async () => {
    const other = await createTestApp({ now: NOW });
    try {
      const text = await scrape(other.app);
      expect(sample(text, "nodejs_version_info")).toBe(1);
      expect(sample(text, "graphql_operations_total")).toBe(0);
      expect(sample(text, "http_request_duration_seconds_count", { route: "/api/businesses/:slug/page" })).toBe(0);
      expect(sample(await scrape(t.app), "graphql_operations_total")).toBeGreaterThan(0);
    } finally {
      await other.close();
    }
  });
});

describe("/metrics in production", () => {
  it("is not served on the main port without METRICS_TOKEN or METRICS_PORT", async () => {
    const t = await createTestApp({ config: { env: "production" } });
    try {
      const res = await t.app.inject({ method: "GET", url: "/metrics" });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toMatch(/nodejs|process_|http_request/);
    } finally {
      await t.close();
    }
  });

  it("wants METRICS_TOKEN as a bearer token", async () => {
    const t = await createTestApp({ config: { env: "production", metricsToken: TOKEN } });
    try {
      for (const authorization of [undefined, "Bearer wrong-token-0123456789abcdef", `Basic ${TOKEN}`, `Bearer ${TOKEN}x`, "Bearer "]) {
        const res = await t.app.inject({ method: "GET", url: "/metrics", headers: authorization ? { authorization } : {} });
        expect(res.statusCode, authorization).toBe(401);
        expect(res.headers["www-authenticate"]).toBe('Bearer realm="metrics"');
        expect(res.body).not.toMatch(/nodejs|process_|http_request/);
      }
      const text = await scrape(t.app, { authorization: `Bearer ${TOKEN}` });
      expect(sample(text, "nodejs_version_info")).toBe(1);
    } finally {
      await t.close();
    }
  });

  it("with METRICS_PORT, serves /metrics on that listener only (and nothing else there)", async () => {
    const port = await freePort();
    const t = await createTestApp({ config: { env: "production", metricsPort: port } });
    try {
      expect((await t.app.inject({ method: "GET", url: "/metrics" })).statusCode).toBe(404);
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(sample(await res.text(), "nodejs_version_info")).toBe(1);
      for (const path of ["/", "/graphql", "/healthz", "/metrics/x"]) expect((await fetch(`http://127.0.0.1:${port}${path}`)).status, path).toBe(404);
      expect((await fetch(`http://127.0.0.1:${port}/metrics`, { method: "POST" })).status).toBe(404);
    } finally {
      await t.close();
    }
    // Closed with the server.
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });

  it("with METRICS_PORT and METRICS_TOKEN, the listener wants the token too", async () => {
    const port = await freePort();
    const t = await createTestApp({ config: { env: "production", metricsPort: port, metricsToken: TOKEN } });
    try {
      expect((await t.app.inject({ method: "GET", url: "/metrics", headers: { authorization: `Bearer ${TOKEN}` } })).statusCode).toBe(404);
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(401);
      const res = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(200);
      expect(sample(await res.text(), "nodejs_version_info")).toBe(1);
    } finally {
      await t.close();
    }
  });
});

describe("request ids", () => {
  let t: TestApp;
  const log = capturedLog("debug");
  let token: string;
  beforeAll(async () => {
    t = await createTestApp({ now: NOW, logger: log.logger, config: { publicCacheTtlMs: 60_000 } });
    const f = factories(t);
    await f.business({ slug: "alpha", name: "Alpha", page: {} });
    token = await f.session(await f.user({ username: "rid-member" }), "alpha");
  });
  afterAll(() => t.close());

  const get = (url: string, id?: string) => t.app.inject({ method: "GET", url, headers: id === undefined ? {} : { "x-request-id": id } });

  it("keeps a valid incoming X-Request-Id and returns it", async () => {
    for (const id of ["abc-123_X.y", "a", "0".repeat(128), "7f6c1f0e-5b4a-4c43-9d1e-3a2b1c0d9e8f"]) {
      const res = await get("/api/businesses/alpha/page", id);
      expect(res.statusCode).toBe(200);
      expect(res.headers["x-request-id"]).toBe(id);
    }
  });

  it("replaces a missing, too long or malformed one with a new UUID", async () => {
    const seen = new Set<string>();
    for (const id of [undefined, "", "0".repeat(129), "abc def", "a/b", "<script>", "id\u00e9", "a,b", "a;b=c"]) {
      const res = await get("/api/businesses/alpha/page", id);
      const returned = String(res.headers["x-request-id"]);
      expect(returned, String(id)).toMatch(UUID);
      seen.add(returned);
    }
    expect(seen.size).toBe(9);
  });

  it("returns it on 404s, refusals and errors too", async () => {
    expect((await get("/no/such/page", "rid-404")).headers["x-request-id"]).toBe("rid-404");
    expect((await get("/api/no/such/route", "rid-api-404")).headers["x-request-id"]).toBe("rid-api-404");
    const malformed = await t.app.inject({ method: "POST", url: "/graphql", headers: { "content-type": "application/json", "x-request-id": "rid-400" }, payload: "{ nope" });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.headers["x-request-id"]).toBe("rid-400");
    const refused = await t.app.inject({ method: "GET", url: "/api/my/subscriptions", headers: { "x-request-id": "rid-401", "x-tenant": "alpha" } });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers["x-request-id"]).toBe("rid-401");
    expect((await get("/metrics", "rid-metrics")).headers["x-request-id"]).toBe("rid-metrics");
  });

  it("returns it on GraphQL answers, the cached public page included", async () => {
    const query = `query AlphaName { business(slug: "alpha") { name } }`;
    for (const id of ["rid-gql-1", "rid-gql-2", "rid-gql-3"]) {
      const res = await t.app.inject({ method: "POST", url: "/graphql", headers: { "x-request-id": id }, payload: { query } });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.business.name).toBe("Alpha");
      expect(res.headers["x-request-id"]).toBe(id);
    }
    // The second and third answers came from the cache, and are logged with the operation like the first.
    for (const id of ["rid-gql-1", "rid-gql-2", "rid-gql-3"]) {
      const done = log.lines.find((l) => l.reqId === id && l.msg === "request completed");
      expect(done, id).toMatchObject({ operation: "AlphaName" });
    }
  });

  it("puts it on every log line of the request, with the operation name, user id and tenant once known", async () => {
    log.lines.length = 0;
    const res = await t.app.inject({
      method: "POST",
      url: "/graphql",
      headers: { authorization: `Bearer ${token}`, "x-tenant": "alpha", "x-request-id": "rid-viewer" },
      payload: { query: `query ViewerName { viewer { username } }` },
    });
    expect(res.json().data.viewer.username).toBe("rid-member");
    const lines = log.lines.filter((l) => l.reqId === "rid-viewer");
    expect(lines.map((l) => l.msg)).toEqual(["incoming request", "request completed"]);
    const user = await t.db.prisma.user.findUniqueOrThrow({ where: { username: "rid-member" } });
    expect(lines[1]).toMatchObject({ reqId: "rid-viewer", operation: "ViewerName", userId: user.id, tenant: "alpha", res: { statusCode: 200 } });
    // Lines without the header carry the generated id that was returned.
    log.lines.length = 0;
    const rest = await t.app.inject({ method: "GET", url: "/api/my/subscriptions", headers: { authorization: `Bearer ${token}`, "x-tenant": "alpha" } });
    expect(rest.statusCode).toBe(200);
    const id = rest.headers["x-request-id"];
    expect(id).toMatch(UUID);
    expect(log.lines.length).toBeGreaterThan(0);
    for (const line of log.lines) expect(line.reqId).toBe(id);
    expect(log.lines.at(-1)).toMatchObject({ msg: "request completed", userId: user.id, tenant: "alpha" });
    expect(log.lines.every((l) => l.msg !== "incoming request" || l.userId === undefined)).toBe(true);
  });
});

describe("request lines at the default level", () => {
  let t: TestApp;
  const log = capturedLog("info");
  beforeAll(async () => {
    t = await createTestApp({ now: NOW, logger: log.logger });
    await factories(t).business({ slug: "quiet", name: "Quiet", page: {} });
  });
  afterAll(() => t.close());

  it("a request that answered (2xx, 3xx, 4xx) writes nothing at info; at debug both of its lines are there", async () => {
    log.lines.length = 0;
    expect((await t.app.inject({ method: "POST", url: "/graphql", payload: { query: `{ business(slug: "quiet") { name } }` } })).statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: "/api/no/such/route" })).statusCode).toBe(404);
    expect((await t.app.inject({ method: "GET", url: "/api/my/subscriptions", headers: { "x-tenant": "quiet" } })).statusCode).toBe(401);
    expect(log.lines).toEqual([]);
  });

  it("a 5xx writes its request completed line at warn, beside the error with its stack", async () => {
    log.lines.length = 0;
    expect((await t.app.inject({ method: "GET", url: "/api/businesses/quiet/page" })).statusCode).toBe(200);
    // A route that fails on purpose would be test-only code; a table gone is what fails in production.
    await t.db.prisma.$executeRawUnsafe("ALTER TABLE pages RENAME TO pages_gone");
    try {
      const res = await t.app.inject({ method: "GET", url: "/api/businesses/quiet/page", headers: { "x-request-id": "rid-quiet-500b" } });
      expect(res.statusCode).toBe(500);
      const lines = log.lines.filter((l) => l.reqId === "rid-quiet-500b");
      expect(lines.map((l) => [l.level, l.msg])).toEqual(expect.arrayContaining([[40, "request completed"]]));
      expect(lines.some((l) => l.level >= 50 && l.err?.stack)).toBe(true);
      expect(lines.some((l) => l.msg === "incoming request")).toBe(false);
    } finally {
      await t.db.prisma.$executeRawUnsafe("ALTER TABLE pages_gone RENAME TO pages");
    }
  });
});

describe("unexpected errors in production", () => {
  let t: TestApp;
  const log = capturedLog();
  let token: string;
  let userId: number;
  beforeAll(async () => {
    t = await createTestApp({ now: NOW, logger: log.logger, config: { env: "production", metricsToken: TOKEN } });
    const f = factories(t);
    await f.business({ slug: "alpha", name: "Alpha", page: {} });
    const user = await f.user({ username: "err-member" });
    userId = user.id;
    token = await f.session(user, "alpha");
    // The businesses table goes away under the running server: every read of it fails unexpectedly.
    await t.db.prisma.$executeRawUnsafe(`ALTER TABLE businesses RENAME TO businesses_gone`);
  });
  afterAll(() => t.close());

  const errorLines = (reqId: string) => log.lines.filter((l) => l.reqId === reqId && l.level >= 50);

  it("a masked GraphQL error is logged with its stack, request id, operation, user and tenant, and counted", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/graphql",
      headers: { authorization: `Bearer ${token}`, "x-tenant": "alpha", "x-request-id": "rid-masked" },
      payload: { query: `query ListBusinesses { businesses(first: 5) { edges { node { name } } } }` },
    });
    expect(res.json().errors[0].message).toBe("Unexpected error.");
    expect(res.body).not.toMatch(INTERNAL_TEXT);
    const [line, ...more] = errorLines("rid-masked");
    expect(more).toEqual([]);
    expect(line).toMatchObject({ msg: "GraphQL request failed", operation: "ListBusinesses", userId, tenant: "alpha" });
    expect(line.err.message).toMatch(/businesses/);
    expect(line.err.stack).toMatch(/\n\s+at /);
    const text = await scrape(t.app, { authorization: `Bearer ${TOKEN}` });
    expect(sample(text, "graphql_operations_total", { operation: "ListBusinesses", type: "query", outcome: "error" })).toBe(1);
  });

  it("an error before the operation runs (a plugin reading the request) is masked and logged with its stack too", async () => {
    const plugin: Plugin = {
      onParams() {
        throw new Error("plugin exploded");
      },
    };
    const yoga = createGraphQL({ production: true, plugins: [plugin as Plugin<any>] });
    const lines = capturedLog();
    const res = await yoga.fetch(
      "http://localhost/graphql",
      { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: `query Exploding { __typename }` }) },
      { serviceContext: { log: lines.logger, actor: { kind: "anonymous" } } as any },
    );
    const body = await res.json();
    expect(body.errors[0].message).toBe("Unexpected error.");
    expect(JSON.stringify(body)).not.toMatch(/exploded/);
    const line = lines.lines.find((l) => l.msg === "GraphQL request failed");
    expect(line?.err.message).toBe("plugin exploded");
    expect(line?.err.stack).toMatch(/\n\s+at /);
  });

  it("a REST 500 is logged with its stack and request id", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/businesses", headers: { "x-request-id": "rid-rest-500" } });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: "Internal server error" });
    expect(res.headers["x-request-id"]).toBe("rid-rest-500");
    const [line] = errorLines("rid-rest-500");
    expect(line).toMatchObject({ msg: "REST request failed" });
    expect(line.err.stack).toMatch(/\n\s+at /);
    const text = await scrape(t.app, { authorization: `Bearer ${TOKEN}` });
    expect(sample(text, "http_request_duration_seconds_count", { route: "/api/businesses", status_code: "500" })).toBe(1);
  });

  it("a 500 outside /api (the bearer token cannot be resolved) is logged with its stack and request id", async () => {
    await t.db.prisma.$executeRawUnsafe(`ALTER TABLE sessions RENAME TO sessions_gone`);
    try {
      const res = await t.app.inject({
        method: "POST",
        url: "/graphql",
        headers: { authorization: `Bearer ${token}`, "x-request-id": "rid-500" },
        payload: { query: `{ viewer { username } }` },
      });
      expect(res.statusCode).toBe(500);
      expect(res.body).not.toMatch(INTERNAL_TEXT);
      expect(res.headers["x-request-id"]).toBe("rid-500");
      const [line] = errorLines("rid-500");
      expect(line).toMatchObject({ msg: "request failed" });
      expect(line.err.stack).toMatch(/\n\s+at /);
    } finally {
      await t.db.prisma.$executeRawUnsafe(`ALTER TABLE sessions_gone RENAME TO sessions`);
    }
  });
});

describe("/healthz and /readyz", () => {
  it("/readyz answers 200 when the database answers and every migration is applied; /healthz 200", async () => {
    const t = await createTestApp();
    try {
      const ready = await t.app.inject({ method: "GET", url: "/readyz" });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ ready: true });
      const health = await t.app.inject({ method: "GET", url: "/healthz" });
      expect(health.statusCode).toBe(200);
      expect(health.json()).toEqual({ ok: true });
    } finally {
      await t.close();
    }
  });

  it("with the database gone: /healthz stays 200 without touching it, /readyz answers 503 database unreachable", async () => {
    const log = capturedLog();
    const db = await createTestDatabase();
    const app = await buildApp({ config: testConfig({ env: "production" }), db, clock: new FixedClock(NOW), logger: log.logger });
    await app.ready();
    let statements = 0;
    db.onStatement(() => statements++);
    expect((await app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(200);
    // Closed, and on PostgreSQL dropped too (Prisma would reconnect to a database that is still there).
    await db.drop();
    try {
      statements = 0;
      const health = await app.inject({ method: "GET", url: "/healthz" });
      expect(health.statusCode).toBe(200);
      expect(health.json()).toEqual({ ok: true });
      expect(statements).toBe(0);
      const ready = await app.inject({ method: "GET", url: "/readyz" });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ ready: false, reason: "database unreachable" });
      expect(ready.body).not.toMatch(INTERNAL_TEXT);
      // The operator finds the cause in the log.
      const warn = log.lines.find((l) => l.msg === "not ready: database unreachable");
      expect(warn?.err?.stack).toBeTruthy();
    } finally {
      await app.close();
    }
  });

  it("/readyz answers 503 migrations pending on an empty database, and when one migration is missing", async () => {
    const empty = await emptyDatabase();
    const app = await buildApp({ config: testConfig({ env: "production" }), db: empty.db, clock: new FixedClock(NOW), logger: pino({ level: "silent" }) });
    try {
      await app.ready();
      const res = await app.inject({ method: "GET", url: "/readyz" });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ ready: false, reason: "migrations pending" });
      expect((await app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
    } finally {
      await app.close();
      await empty.drop();
    }

    const t = await createTestApp();
    try {
      await t.db.prisma.$executeRawUnsafe(`DELETE FROM _prisma_migrations WHERE migration_name = (SELECT max(migration_name) FROM _prisma_migrations)`);
      const res = await t.app.inject({ method: "GET", url: "/readyz" });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ ready: false, reason: "migrations pending" });
    } finally {
      await t.close();
    }
  });
});

describe("configuration", () => {
  it("checks METRICS_TOKEN and METRICS_PORT", async () => {
    const { loadConfig } = await import("../../api/config.ts");
    const config = (env: Record<string, string>) => loadConfig({ NODE_ENV: "production", ...env });
    expect(config({ METRICS_TOKEN: TOKEN, METRICS_PORT: "9464" })).toMatchObject({ metricsToken: TOKEN, metricsPort: 9464, metricsHost: "127.0.0.1" });
    expect(config({ METRICS_PORT: "9464", METRICS_HOST: "0.0.0.0" }) satisfies Config).toMatchObject({ metricsToken: undefined, metricsPort: 9464, metricsHost: "0.0.0.0" });
    expect(config({})).toMatchObject({ metricsToken: undefined, metricsPort: undefined });
    for (const env of [{ METRICS_TOKEN: "" }, { METRICS_TOKEN: "short" }, { METRICS_TOKEN: "has spaces in the token" }]) {
      expect(() => config(env), JSON.stringify(env)).toThrow(/METRICS_TOKEN: must be 16 to 256 printable ASCII characters/);
    }
    for (const env of [{ METRICS_PORT: "" }, { METRICS_PORT: "0" }, { METRICS_PORT: "70000" }, { METRICS_PORT: "x" }, { METRICS_PORT: "3000" }]) {
      expect(() => config(env), JSON.stringify(env)).toThrow(/METRICS_PORT/);
    }
  });
});
