/**
 * `npm run bench:soak -- [--minutes 10] [--connections 20] [--upstream postgresql://postgres@127.0.0.1:5432/postgres]`
 *
 * Soak behind a transaction pooler: creates a database of its own (`mp_soak_<pid>`) on the upstream
 * PostgreSQL server, starts PgBouncer in transaction mode in front of it (tests/support/pgbouncer.ts) and two
 * production server processes on it (DATABASE_POOL_MODE=transaction, migrations through DIRECT_DATABASE_URL,
 * demo data seeded by the first, the billing clock every minute), then drives a mixed load for the given minutes with N concurrent
 * workers spread over both processes: public pages (GraphQL and REST), the member portal, the admin memberships
 * page, checkouts of fresh users (register → startCheckout → confirmSandboxPayment → completeCheckout) and skips
 * and changes of the memberships they took.
 *
 * Every minute it prints, per operation, requests, req/s, p50 and p99 and the errors and refusals, and per
 * process its RSS, event-loop delay and billing runs (read from each process's /metrics); at the end totals and
 * the RSS growth from minute 2 to the last minute. An error is a network error or a 10 s timeout, an HTTP 5xx or
 * a GraphQL top-level `errors` array; a typed domain error (a union member whose `__typename` ends in Error, a
 * closed window for instance) is a refusal, a normal answer. Figures only: nothing here asserts a time, and it
 * exits 0 whatever it measured. It stops the servers and PgBouncer and drops its database at the end, on Ctrl-C
 * and on a failure.
 *
 * Fresh users register from addresses of their own (TRUST_PROXY=1, X-Forwarded-For): the registration throttle
 * allows 10 per address and hour, as many clients, not one, would sign up.
 */
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { startPgbouncer, type Pgbouncer } from "../support/pgbouncer.ts";
import { killProcessGroup, listeningUrl, spawnProcessGroup, waitUntilHealthy } from "../support/server-process.ts";
import { businessPageQuery, membershipsPageQuery, portalViewerQuery } from "./queries.ts";

const { values } = parseArgs({
  options: {
    minutes: { type: "string", default: "10" },
    connections: { type: "string", default: "20" },
    upstream: { type: "string", default: "postgresql://postgres@127.0.0.1:5432/postgres" },
  },
});
const minutes = Number(values.minutes);
const connections = Number(values.connections);
if (!(minutes >= 1) || !(connections >= 1)) {
  console.error("usage: npm run bench:soak -- [--minutes 10] [--connections 20] [--upstream postgresql://postgres@127.0.0.1:5432/postgres]");
  process.exit(2);
}

const METRICS_TOKEN = "soak-metrics-token";
const REQUEST_TIMEOUT_MS = 10_000;
/** Server connections per process (DATABASE_POOL_SIZE) and PgBouncer's per database and user. */
const PROCESS_POOL_SIZE = 10;
const PGBOUNCER_POOL_SIZE = 20;
const SLUGS = ["green-acres-farm", "ember-oak-coffee", "rise-and-crumb-bakery"];
/** Checkouts go to the coffee roaster: shipping only, cutoff day 28, a payment (not a setup) intent most days. */
const CHECKOUT_SLUG = "ember-oak-coffee";
const CHECKOUT_PLANS = ["item_1767225600301", "item_1767225600302", "item_1767225600303"];
const ADDRESS = { fullName: "Soak Member", phone: "330-555-0100", street: "1 Soak St", apt: "", city: "Akron", state: "OH", zip: "44303", country: "US" };

// ---------------------------------------------------------------------------------------------------------
// Environment: database, pooler, two server processes.

const upstream = new URL(values.upstream);
const dbName = `mp_soak_${process.pid}`;
const directUrl = new URL(upstream);
directUrl.pathname = `/${dbName}`;

let pooler: Pgbouncer | undefined;
const children: ChildProcess[] = [];
const logs: string[][] = [[], []];
/** Each process's log lines at error level or above, all of them (the tail in `logs` drops older output). */
const errorLines: string[][] = [[], []];
let dbCreated = false;
let cleaning: Promise<void> | undefined;

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: upstream.toString() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    await Promise.all(children.map((c) => killProcessGroup(c).catch((e: unknown) => console.error(`stopping a server: ${String(e)}`))));
    await pooler?.stop().catch((e: unknown) => console.error(`stopping PgBouncer: ${String(e)}`));
    if (dbCreated) await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch((e: unknown) => console.error(`dropping ${dbName}: ${String(e)}`));
  })();
  return cleaning;
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the servers and PgBouncer, dropping ${dbName}…`);
    void cleanup().then(() => process.exit(130));
  });
}

async function startEnvironment(): Promise<string[]> {
  await admin(`CREATE DATABASE ${dbName}`);
  dbCreated = true;
  pooler = await startPgbouncer({ upstream: upstream.toString(), poolSize: PGBOUNCER_POOL_SIZE });
  const pooledUrl = pooler.pooled(directUrl.toString());
  const partial = ["", ""];
  const booting = ["a", "b"].map((name, i) => {
    const env = {
      ...process.env,
      DATABASE_URL: pooledUrl,
      DIRECT_DATABASE_URL: directUrl.toString(),
      DATABASE_POOL_MODE: "transaction",
      DATABASE_POOL_SIZE: String(PROCESS_POOL_SIZE),
      NODE_ENV: "production",
      PUBLIC_HOST: "soak.test",
      METRICS_TOKEN,
      PAYMENT_PROVIDER: "sandbox",
      // Both migrate and seed at once, as a deploy of two processes on an empty database would: migrations
      // through DIRECT_DATABASE_URL under their lock, the demo seed under its own (one seeds, the other finds it).
      SEED_DEMO: "1",
      BILLING_INTERVAL_MINUTES: "1",
      TRUST_PROXY: "1",
      LOG_LEVEL: "info",
      HOST: "127.0.0.1",
      PORT: "0",
    };
    // As production runs it: Node 24's own type stripping, no transpiler in the process (tsx's would count in RSS).
    const child = spawnProcessGroup(process.execPath, ["server/main.ts"], { env, stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    const keep = (d: Buffer) => {
      logs[i].push(`[${name}] ${String(d)}`);
      if (logs[i].length > 2000) logs[i].splice(0, 1000);
      partial[i] += String(d);
      const lines = partial[i].split("\n");
      partial[i] = lines.pop() ?? "";
      for (const line of lines) if (/"level":(50|60)/.test(line)) errorLines[i].push(line);
    };
    child.stdout!.on("data", keep);
    child.stderr!.on("data", keep);
    return listeningUrl(child, 180_000);
  });
  const servers = await Promise.all(booting);
  await waitUntilHealthy(servers, logs.flat(), 120_000);
  const deadline = Date.now() + 120_000;
  for (const server of servers) {
    while ((await fetch(`${server}/readyz`).then((r) => r.status, () => 0)) !== 200) {
      if (Date.now() > deadline) throw new Error(`${server}/readyz is not 200 after 2 minutes:\n${logs.flat().join("").slice(-4000)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  // Skip and change windows open all month at every demo business, so skips and changes write (a skip, its event
  // and email; a scheduled change) whatever day the soak runs on, rather than meeting a closed window.
  const windows = new pg.Client({ connectionString: directUrl.toString() });
  await windows.connect();
  await windows.query("UPDATE pages SET skip_window_start = 1, skip_window_end = 28, change_window_start = 1, change_window_end = 28 WHERE business_id IS NOT NULL");
  await windows.end();
  return servers;
}

// ---------------------------------------------------------------------------------------------------------
// Requests and their tally.

interface Outcome {
  /** What the answer held (JSON), when there was one. */
  body?: unknown;
  error?: string;
  refused?: string;
}

interface Tally {
  ms: number[];
  errors: number;
  refused: number;
}

const OPERATIONS = [
  "businessPage (GraphQL)",
  "businessPage (REST)",
  "businesses (REST)",
  "portal",
  "memberships (admin)",
  "register",
  "startCheckout",
  "confirmSandboxPayment",
  "completeCheckout",
  "skipMonth",
  "changeQuote",
  "changeSubscription",
] as const;
type Operation = (typeof OPERATIONS)[number];

function emptyTally(): Record<Operation, Tally> {
  const tally = {} as Record<Operation, Tally>;
  for (const op of OPERATIONS) tally[op] = { ms: [], errors: 0, refused: 0 };
  return tally;
}
let minuteTally = emptyTally();
const totalTally = emptyTally();
const errorSamples = new Map<string, number>();
const refusalSamples = new Map<string, number>();

function record(op: Operation, ms: number, outcome: Outcome): void {
  for (const t of [minuteTally[op], totalTally[op]]) {
    t.ms.push(ms);
    if (outcome.error) t.errors++;
    else if (outcome.refused) t.refused++;
  }
  if (outcome.error) errorSamples.set(`${op}: ${outcome.error}`, (errorSamples.get(`${op}: ${outcome.error}`) ?? 0) + 1);
  if (outcome.refused) refusalSamples.set(`${op}: ${outcome.refused}`, (refusalSamples.get(`${op}: ${outcome.refused}`) ?? 0) + 1);
}

let clientAddress = 0;
/** A client address of its own (X-Forwarded-For), for a registration. */
function newClientAddress(): string {
  const n = ++clientAddress;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

interface Auth {
  token?: string;
  ip?: string;
}

/** One request (GET without a body, POST with a JSON one) and what came of it; not recorded. */
async function request(url: string, body: unknown, auth: Auth): Promise<Outcome> {
  try {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers["content-type"] = "application/json";
    if (auth.token) headers.authorization = `Bearer ${auth.token}`;
    if (auth.ip) headers["x-forwarded-for"] = auth.ip;
    const res = await fetch(url, {
      method: body === undefined ? "GET" : "POST",
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.text();
    if (res.status >= 500) return { error: `HTTP ${res.status}: ${text.slice(0, 200)}` };
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return { refused: `HTTP ${res.status}, not JSON: ${text.slice(0, 120)}` };
    }
    const errors = (parsed as { errors?: { message?: string }[] } | null)?.errors;
    if (Array.isArray(errors) && errors.length) return { error: `GraphQL errors: ${errors.map((e) => e.message).join("; ").slice(0, 200)}` };
    if (res.status >= 400) return { refused: `HTTP ${res.status}: ${text.slice(0, 120)}` };
    return { body: parsed };
  } catch (error) {
    const e = error as Error & { cause?: { code?: string; message?: string } };
    if (e.name === "TimeoutError") return { error: `no answer in ${REQUEST_TIMEOUT_MS / 1000} s` };
    return { error: `network: ${e.message}${e.cause ? ` (${e.cause.code ?? e.cause.message ?? ""})` : ""}` };
  }
}

/** A read: REST (no body) or a GraphQL query whose `data[field]` must not be null (null counts as refused). */
async function read(op: Operation, url: string, gql?: { query: string; variables?: Record<string, unknown>; field: string }, auth: Auth = {}): Promise<unknown> {
  const started = performance.now();
  const outcome = await request(url, gql && { query: gql.query, variables: gql.variables ?? {} }, auth);
  if (gql && !outcome.error && !outcome.refused && (outcome.body as { data?: Record<string, unknown> } | undefined)?.data?.[gql.field] == null) outcome.refused = `${gql.field} is null`;
  record(op, performance.now() - started, outcome);
  return outcome.body;
}

type Result = { __typename: string; message?: string; data?: unknown };

/** A GraphQL mutation (or changeQuote) whose answer is one union result in `data[field]`: a typed error there is a refusal. */
async function mutate(op: Operation, server: string, query: string, variables: Record<string, unknown>, field: string, auth: Auth = {}): Promise<Result | undefined> {
  const started = performance.now();
  const outcome = await request(`${server}/graphql`, { query, variables }, auth);
  const result = (outcome.body as { data?: Record<string, Result | null> } | undefined)?.data?.[field];
  if (!outcome.error && !outcome.refused) {
    if (!result) outcome.error = `no ${field} in the answer`;
    else if (result.__typename.endsWith("Error")) outcome.refused = `${result.__typename}: ${result.message ?? ""}`.slice(0, 160);
  }
  record(op, performance.now() - started, outcome);
  return outcome.error || outcome.refused ? undefined : result!;
}

// ---------------------------------------------------------------------------------------------------------
// The load.

const ERROR_FIELDS = "... on Error { message }";
const LOGIN = `mutation Login($u: String!, $p: String!) { login(input: { username: $u, password: $p }) { __typename ... on LoginSuccess { data { token } } ${ERROR_FIELDS} } }`;
const REGISTER = `mutation Register($input: RegisterInput!) { register(input: $input) { __typename ... on RegisterSuccess { data { token } } ${ERROR_FIELDS} } }`;
const START = `mutation Start($input: StartCheckoutInput!) { startCheckout(input: $input) { __typename ... on StartCheckoutSuccess { data { clientSecret paymentIntentId intent } } ${ERROR_FIELDS} } }`;
const CONFIRM = `mutation Confirm($s: String!) { confirmSandboxPayment(clientSecret: $s, card: { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" }) { __typename ... on Error { message } } }`;
const COMPLETE = `mutation Complete($id: String!) { completeCheckout(paymentIntentId: $id) { __typename ... on CompleteCheckoutSuccess { data { chargedCents membership { databaseId } } } ${ERROR_FIELDS} } }`;
const COMPLETE_SETUP = `mutation CompleteSetup($id: String!) { completeCheckout(setupIntentId: $id) { __typename ... on CompleteCheckoutSuccess { data { chargedCents membership { databaseId } } } ${ERROR_FIELDS} } }`;
const SKIP = `mutation Skip($input: SkipMonthInput!) { skipMonth(input: $input) { __typename ... on SkipMonthSuccess { data { skippedMonth } } ${ERROR_FIELDS} } }`;
const QUOTE = `query Quote($input: ChangeSubscriptionInput!) { changeQuote(input: $input) { __typename ${ERROR_FIELDS} } }`;
const CHANGE = `mutation Change($input: ChangeSubscriptionInput!) { changeSubscription(input: $input) { __typename ${ERROR_FIELDS} } }`;
const PLANS = `query Plans($slug: String!) { business(slug: $slug) { plans(first: 20) { edges { node { id ref } } } } }`;
const MY_MEMBERSHIPS = `query Mine { viewer { subscriptions { databaseId business { slug } } } }`;

/** Members with a membership at the checkout business: skips and changes, and portal reads. */
const members: { token: string; subscriptionId: number }[] = [];
const portalTokens: string[] = [];
let adminToken = "";
const planIds: Record<string, string> = {};
let stopping = false;
let registered = 0;

const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)];

/** A setup call that must succeed (logins, the plans): its union result's data. */
async function setupCall<T>(server: string, query: string, variables: Record<string, unknown>, path: (data: Record<string, unknown>) => T | undefined, auth: Auth = {}): Promise<T> {
  const outcome = await request(`${server}/graphql`, { query, variables }, auth);
  const value = outcome.body ? path((outcome.body as { data: Record<string, unknown> }).data) : undefined;
  if (value === undefined) throw new Error(`setup: ${query.slice(0, 40)}… failed: ${outcome.error ?? outcome.refused ?? JSON.stringify(outcome.body).slice(0, 300)}`);
  return value;
}

async function setUp(servers: string[]): Promise<void> {
  const login = (username: string, password: string) =>
    setupCall(servers[0], LOGIN, { u: username, p: password }, (d) => (d.login as { data?: { token: string } }).data?.token, { ip: newClientAddress() });
  adminToken = await login("admin", "admin1234");
  const memberToken = await login("member", "member1234");
  portalTokens.push(memberToken);
  const mine = await setupCall(servers[1], MY_MEMBERSHIPS, {}, (d) => (d.viewer as { subscriptions: { databaseId: number; business: { slug: string } }[] } | null)?.subscriptions, { token: memberToken });
  for (const m of mine.filter((s) => s.business.slug === CHECKOUT_SLUG)) members.push({ token: memberToken, subscriptionId: m.databaseId });
  const plans = await setupCall(servers[0], PLANS, { slug: CHECKOUT_SLUG }, (d) => (d.business as { plans: { edges: { node: { id: string; ref: string } }[] } } | null)?.plans.edges);
  for (const { node } of plans) planIds[node.ref] = node.id;
}

/** A fresh user signs up and takes a membership, each step on the other process than the one before. */
async function checkout(servers: string[], i: number): Promise<void> {
  const n = ++registered;
  const ip = newClientAddress();
  const at = (step: number) => servers[(i + step) % servers.length];
  const email = `soak-${process.pid}-${n}@example.com`;
  const reg = await mutate("register", at(0), REGISTER, { input: { username: `soak-${process.pid}-${n}`, password: "soak-password-1234", email } }, "register", { ip });
  const token = (reg?.data as { token?: string } | undefined)?.token;
  if (!token) return;
  const selection = { businessSlug: CHECKOUT_SLUG, planRef: pick(CHECKOUT_PLANS), mode: "SHIPPING", addonRefs: [] };
  const started = await mutate("startCheckout", at(1), START, { input: { selection, email, address: ADDRESS, idempotencyKey: `soak-${process.pid}-${n}` } }, "startCheckout", { token, ip });
  const intent = started?.data as { clientSecret: string; paymentIntentId: string; intent: string } | undefined;
  if (!intent) return;
  if (!(await mutate("confirmSandboxPayment", at(2), CONFIRM, { s: intent.clientSecret }, "confirmSandboxPayment", { ip }))) return;
  const done = await mutate("completeCheckout", at(3), intent.intent === "SETUP" ? COMPLETE_SETUP : COMPLETE, { id: intent.paymentIntentId }, "completeCheckout", { token, ip });
  const membership = (done?.data as { membership?: { databaseId: number } } | undefined)?.membership;
  if (!membership) return;
  members.push({ token, subscriptionId: membership.databaseId });
  portalTokens.push(token);
}

/** A member skips next month, asks what a change would cost (a query), or makes it. */
async function skipOrChange(server: string): Promise<void> {
  const m = pick(members);
  const r = Math.random();
  if (r < 1 / 3) {
    await mutate("skipMonth", server, SKIP, { input: { subscriptionId: String(m.subscriptionId) } }, "skipMonth", { token: m.token });
    return;
  }
  const input = { subscriptionId: String(m.subscriptionId), planId: planIds[pick(CHECKOUT_PLANS)], mode: "SHIPPING", addonIds: [] };
  if (r < 2 / 3) await mutate("changeQuote", server, QUOTE, { input }, "changeQuote", { token: m.token });
  else await mutate("changeSubscription", server, CHANGE, { input }, "changeSubscription", { token: m.token });
}

/**
 * The mix, in parts of 91 picks: reads 75, checkouts 3 (4 requests each), skips and changes 13: about three
 * requests in four are reads.
 */
async function worker(servers: string[], i: number): Promise<void> {
  const server = servers[i % servers.length];
  const businessQuery = businessPageQuery();
  const portalQuery = portalViewerQuery();
  while (!stopping) {
    const r = Math.random() * 91;
    if (r < 20) await read("businessPage (GraphQL)", `${server}/graphql`, { query: businessQuery, variables: { slug: pick(SLUGS) }, field: "business" });
    else if (r < 35) await read("businessPage (REST)", `${server}/api/businesses/${pick(SLUGS)}/page`);
    else if (r < 45) await read("businesses (REST)", `${server}/api/businesses`);
    else if (r < 67) await read("portal", `${server}/graphql`, { query: portalQuery, field: "viewer" }, { token: pick(portalTokens) });
    else if (r < 75) await read("memberships (admin)", `${server}/graphql`, { query: membershipsPageQuery, variables: { first: 25 }, field: "memberships" }, { token: adminToken });
    else if (r < 78) await checkout(servers, i);
    else await skipOrChange(server);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Figures.

interface ProcessFigures {
  rssMb: number;
  lagP50: number;
  lagP99: number;
  lagMax: number;
  /** billing_runs_total by outcome, summed over kinds. */
  billingRuns: Record<string, number>;
  renewals: number;
}

/** The values of one metric (every label set) in a Prometheus text exposition. */
function metricValues(text: string, name: string): { labels: string; value: number }[] {
  const out: { labels: string; value: number }[] = [];
  for (const line of text.split("\n")) {
    if (!line.startsWith(name) || (line[name.length] !== " " && line[name.length] !== "{")) continue;
    const m = /^[^\s{]+(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (m) out.push({ labels: m[1] ?? "", value: Number(m[2]) });
  }
  return out;
}

async function scrape(server: string): Promise<ProcessFigures | undefined> {
  try {
    const res = await fetch(`${server}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    if (!res.ok) return undefined;
    const text = await res.text();
    const one = (name: string) => metricValues(text, name)[0]?.value ?? NaN;
    const billingRuns: Record<string, number> = {};
    for (const { labels, value } of metricValues(text, "billing_runs_total")) {
      const outcome = /outcome="([^"]*)"/.exec(labels)?.[1] ?? "?";
      billingRuns[outcome] = (billingRuns[outcome] ?? 0) + value;
    }
    return {
      rssMb: one("process_resident_memory_bytes") / 2 ** 20,
      lagP50: one("nodejs_eventloop_lag_p50_seconds") * 1000,
      lagP99: one("nodejs_eventloop_lag_p99_seconds") * 1000,
      lagMax: one("nodejs_eventloop_lag_max_seconds") * 1000,
      billingRuns,
      renewals: metricValues(text, "billing_renewals_total").reduce((sum, v) => sum + v.value, 0),
    };
  } catch {
    return undefined;
  }
}

function percentile(sorted: number[], q: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : NaN;
}

const f0 = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : "n/a");
const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : "n/a");

function operationRows(label: string, tally: Record<Operation, Tally>, seconds: number): string[] {
  const rows: string[] = [];
  for (const op of OPERATIONS) {
    const t = tally[op];
    const sorted = [...t.ms].sort((a, b) => a - b);
    rows.push(`| ${label} | ${op} | ${t.ms.length} | ${f1(t.ms.length / seconds)} | ${f0(percentile(sorted, 0.5))} | ${f0(percentile(sorted, 0.99))} | ${t.errors} | ${t.refused} |`);
  }
  const all = OPERATIONS.flatMap((op) => tally[op].ms).sort((a, b) => a - b);
  const errors = OPERATIONS.reduce((s, op) => s + tally[op].errors, 0);
  const refused = OPERATIONS.reduce((s, op) => s + tally[op].refused, 0);
  rows.push(`| ${label} | **all** | ${all.length} | ${f1(all.length / seconds)} | ${f0(percentile(all, 0.5))} | ${f0(percentile(all, 0.99))} | ${errors} | ${refused} |`);
  return rows;
}

const OPERATION_HEADER = ["| min | operation | requests | req/s | p50 ms | p99 ms | errors | refused |", "|---|---|--:|--:|--:|--:|--:|--:|"];
const PROCESS_HEADER = ["| min | process | RSS MB | loop p50 ms | loop p99 ms | loop max ms | billing runs (total, by outcome) | renewals handled (total) |", "|---|---|--:|--:|--:|--:|---|--:|"];

function processRow(label: string, name: string, f: ProcessFigures | undefined): string {
  if (!f) return `| ${label} | ${name} | n/a | n/a | n/a | n/a | /metrics did not answer | |`;
  const runs = Object.entries(f.billingRuns).map(([k, v]) => `${k} ${v}`).join(", ") || "none";
  return `| ${label} | ${name} | ${f0(f.rssMb)} | ${f1(f.lagP50)} | ${f1(f.lagP99)} | ${f1(f.lagMax)} | ${runs} | ${f.renewals} |`;
}

function firstDistinct(samples: Map<string, number>, n: number): string[] {
  return [...samples].slice(0, n).map(([message, count]) => `  - ${count}× ${message.replace(/\s+/g, " ")}`);
}

// ---------------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  console.log(`Soak: ${minutes} min, ${connections} connections over 2 production processes behind PgBouncer (transaction mode), database ${dbName} on ${upstream.host}`);
  const booted = Date.now();
  const servers = await startEnvironment();
  console.log(`Servers ${servers.join(", ")} ready in ${((Date.now() - booted) / 1000).toFixed(1)} s (PgBouncer ${pooler!.url.replace(/\/[^/]*$/, "")}, pool ${PGBOUNCER_POOL_SIZE}; DATABASE_POOL_SIZE ${PROCESS_POOL_SIZE} per process)`);
  await setUp(servers);
  // A first scrape: prom-client resets the event-loop histogram at each, so each minute's scrape covers that minute.
  await Promise.all(servers.map(scrape));

  const names = servers.map((_, i) => (i === 0 ? "a" : "b"));
  const startedAt = Date.now();
  console.log(`Load from ${new Date(startedAt).toISOString()}\n`);
  const workers = Array.from({ length: connections }, (_, i) => worker(servers, i));
  const minuteRows: string[] = [];
  const processRows: string[] = [];
  const rss: (number | undefined)[][] = servers.map(() => []);
  let boundary = startedAt;
  for (let m = 1; m <= minutes; m++) {
    await new Promise((r) => setTimeout(r, Math.max(0, startedAt + m * 60_000 - Date.now())));
    if (m === minutes) {
      stopping = true;
      await Promise.all(workers);
    }
    const tally = minuteTally;
    minuteTally = emptyTally();
    const seconds = (Date.now() - boundary) / 1000;
    boundary = Date.now();
    const figures = await Promise.all(servers.map(scrape));
    const rows = operationRows(String(m), tally, seconds);
    const procs = figures.map((f, i) => processRow(String(m), names[i], f));
    figures.forEach((f, i) => rss[i].push(f?.rssMb));
    minuteRows.push(...rows);
    processRows.push(...procs);
    console.log([`Minute ${m} (${new Date().toISOString()}, ${members.length} members with a membership)`, "", ...OPERATION_HEADER, ...rows, "", ...PROCESS_HEADER, ...procs, ""].join("\n"));
  }
  const endedAt = Date.now();
  const seconds = (endedAt - startedAt) / 1000;

  const totalRequests = OPERATIONS.reduce((s, op) => s + totalTally[op].ms.length, 0);
  const totalErrors = OPERATIONS.reduce((s, op) => s + totalTally[op].errors, 0);
  const totalRefused = OPERATIONS.reduce((s, op) => s + totalTally[op].refused, 0);
  const reads = (["businessPage (GraphQL)", "businessPage (REST)", "businesses (REST)", "portal", "memberships (admin)"] as const).reduce((s, op) => s + totalTally[op].ms.length, 0);
  const serverErrorLines = errorLines;
  const pgbouncerLog = fs.readFileSync(path.join(pooler!.dir, "pgbouncer.log"), "utf8");
  const pgbouncerProblems = pgbouncerLog.split("\n").filter((line) => /\b(WARNING|ERROR|FATAL)\b/.test(line));
  const db = new pg.Client({ connectionString: directUrl.toString() });
  await db.connect();
  const { rows: dbRows } = await db.query<{ status: string; n: string }>("SELECT status::text, count(*) AS n FROM subscriptions GROUP BY status ORDER BY status");
  const { rows: orderRows } = await db.query<{ kind: string; n: string }>("SELECT kind::text, count(*) AS n FROM orders GROUP BY kind ORDER BY kind");
  await db.end();

  const summary = [
    `Summary (${new Date(startedAt).toISOString()} to ${new Date(endedAt).toISOString()}, ${f0(seconds)} s)`,
    "",
    ...OPERATION_HEADER,
    ...operationRows("all", totalTally, seconds),
    "",
    `Requests ${totalRequests} (${f1(totalRequests / seconds)} req/s, reads ${f0((100 * reads) / totalRequests)} %), errors ${totalErrors}, refused ${totalRefused}; ${registered} sign-ups started, ${members.length} members with a membership at ${CHECKOUT_SLUG}.`,
    `Database at the end: memberships ${dbRows.map((r) => `${r.status} ${r.n}`).join(", ")}; orders ${orderRows.map((r) => `${r.kind} ${r.n}`).join(", ")}.`,
    "",
    "| process | RSS MB by minute | minute 2 → last | growth |",
    "|---|---|---|--:|",
    ...rss.map((r, i) => {
      const from = r[Math.min(1, r.length - 1)];
      const to = r[r.length - 1];
      const growth = from && to ? `${((100 * (to - from)) / from).toFixed(1)} %` : "n/a";
      return `| ${names[i]} | ${r.map((v) => (v === undefined ? "n/a" : f0(v))).join(" ")} | ${from === undefined ? "n/a" : f0(from)} → ${to === undefined ? "n/a" : f0(to)} | ${growth} |`;
    }),
    "",
    `Errors: ${totalErrors}${totalErrors ? ` (first 5 distinct of ${errorSamples.size}):` : ""}`,
    ...firstDistinct(errorSamples, 5),
    `Refusals by kind (typed domain errors, first 10 distinct of ${refusalSamples.size}):`,
    ...firstDistinct(refusalSamples, 10),
    `Server log lines at error level: ${serverErrorLines.map((l, i) => `${names[i]} ${l.length}`).join(", ")}`,
    ...serverErrorLines.flat().slice(0, 5).map((line) => `  - ${line.slice(0, 300)}`),
    `PgBouncer log warnings/errors: ${pgbouncerProblems.length}`,
    ...pgbouncerProblems.slice(0, 5).map((line) => `  - ${line.slice(0, 300)}`),
  ];
  console.log(summary.join("\n"));
}

try {
  await main();
} catch (error) {
  console.error(error);
  console.error(logs.flat().join("").slice(-4000));
} finally {
  await cleanup();
}
