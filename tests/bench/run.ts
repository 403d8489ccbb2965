/**
 * `npm run bench:run -- --db postgresql://postgres@127.0.0.1:5432/mp_bench [--duration 10] [--connections 10]
 *  [--only business,memberships,portal,dashboard,checkout,renewals,web] [--renewal-businesses N] [--renewal-workers K]
 *  [--renewal-batch-size B] [--renewal-concurrency C] [--renewals-via-queue] [--renewals-mail] [--processes N]
 *  [--public-cache-ttl S] [--redis redis://…] [--pooler]`
 *
 * On a database filled by `npm run bench:seed`: starts the server (production config, silent logs, billing
 * clock off) on a free loopback port and drives each screen with autocannon for a bounded time, printing req/s
 * and p50/p95/p99; times the same rows through hand-written SQL (`pg`) and prints API/SQL; counts the SQL
 * statements per request (Prisma query events); runs the billing clock over every membership on a copy of the
 * database (twice: the second run must charge nothing); prints the web bundle sizes per route.
 * With --processes N the load goes to N server processes of their own (tests/bench/server.ts) instead of
 * the one in this process, autocannon spreading its connections over them. With --pooler the servers and the SQL
 * reach the database through a PgBouncer in transaction mode that the bench starts (DATABASE_POOL_MODE=transaction,
 * DIRECT_DATABASE_URL = --db): what a request costs behind a transaction pooler.
 * Figures only: nothing here asserts a time.
 */
import "./production-env.ts";
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import pg from "pg";
import pino from "pino";
import { request } from "undici";
import { loadConfig } from "../../api/config.ts";
import { configuredDatabase, openDatabase, type Database } from "../../api/db.ts";
import { startPgbouncer } from "../support/pgbouncer.ts";
import { buildApp } from "../../server/app.ts";
import { FixedClock } from "../../api/shared/clock.ts";
import { hashToken, newToken, SESSION_TOKEN_PREFIX } from "../../api/auth/tokens.ts";
import { DEFAULT_BATCH_SIZE, DEFAULT_CONCURRENCY, runRenewals } from "../../api/billing/renewals/clock.ts";
import { startJobQueue, type JobQueue } from "../../api/queue/job-queue.ts";
import { RENEWALS_QUEUE, renewalsJob } from "../../api/jobs/renewals-job.ts";
import { seriesMonths } from "../../api/metrics/service.ts";
import { businessPageQuery, dashboardQuery, membershipsPageQuery, portalViewerQuery } from "./queries.ts";
import { membershipCursor } from "../../api/graphql/types/memberships/list.ts";
import { businessPageSql, dashboardSql, membershipsSql, portalSql } from "./sql.ts";
import { BENCH_BILLING_INSTANT } from "./seed-large.ts";
import { isPublicRoute, measureBundles } from "./web-bundles.ts";
import { mailAfterRenewals } from "./mail.ts";

const { values } = parseArgs({
  options: {
    db: { type: "string" },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "10" },
    only: { type: "string", default: "business,memberships,portal,dashboard,checkout,renewals,web" },
    /** Renew only the memberships of the first N businesses (default: all, the issue's 100,000). */
    "renewal-businesses": { type: "string" },
    /** Businesses renewed at once by separate runRenewals({ businessId }) calls (1 = one pass over every business, as the billing clock runs). */
    "renewal-workers": { type: "string", default: "1" },
    /** Memberships per renewal batch (default: the billing clock's own). */
    "renewal-batch-size": { type: "string" },
    /** Renewal batches in flight at once within the run (default: the billing clock's own). */
    "renewal-concurrency": { type: "string" },
    /** Each renewal pass is a job of the job queue (pg-boss on the copy), sent and awaited, as the schedule runs it. */
    "renewals-via-queue": { type: "boolean", default: false },
    /** After the renewal runs, email for them: planned and delivered to a local SMTP server (tests/bench/mail.ts). */
    "renewals-mail": { type: "boolean", default: false },
    /** Server processes of their own that take the load (0: the server in this process, as before). */
    processes: { type: "string", default: "0" },
    /** PUBLIC_CACHE_TTL_SECONDS of the servers (default: the app's; 0 measures the public pages uncached). */
    "public-cache-ttl": { type: "string" },
    /** REDIS_URL of the servers (public-page invalidation between processes). */
    redis: { type: "string" },
    /** Servers and SQL through PgBouncer in transaction mode (started here, tests/support/pgbouncer.ts). */
    pooler: { type: "boolean", default: false },
  },
});
const url = values.db ?? process.env.DATABASE_URL;
if (!url) {
  console.error("usage: npm run bench:run -- --db postgresql://postgres@127.0.0.1:5432/mp_bench [--duration 10] [--connections 10] [--only …]");
  process.exit(2);
}
const duration = Number(values.duration);
const connections = Number(values.connections);
const only = new Set(values.only.split(","));
const processes = Number(values.processes);
const cacheEnv = {
  ...(values["public-cache-ttl"] != null ? { PUBLIC_CACHE_TTL_SECONDS: values["public-cache-ttl"] } : {}),
  ...(values.redis ? { REDIS_URL: values.redis } : {}),
};
/** A day inside the skip/change windows, before the billing day of the data set. */
const NOW = "2026-04-10T15:00:00Z";

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
};
const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : "–");

interface Operation {
  name: string;
  /** One request (method, path, headers, body) per call; rotates through the data set. */
  request: (i: number) => { method: "GET" | "POST"; path: string; headers: Record<string, string>; body?: string };
  /** The same rows through hand-written SQL. */
  sql?: (i: number) => Promise<unknown>;
}

/** autocannon for `duration` s; percentiles from every response time (autocannon's summary has no p95). */
function load(opts: autocannon.Options): Promise<{ rps: number; p50: number; p95: number; p99: number; non2xx: number; errors: number }> {
  return new Promise((resolve, reject) => {
    const times: number[] = [];
    const instance = autocannon(opts, (err, result) => {
      if (err) return reject(err instanceof Error ? err : new Error(String(err)));
      times.sort((a, b) => a - b);
      const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? NaN;
      resolve({ rps: result.requests.average, p50: at(0.5), p95: at(0.95), p99: at(0.99), non2xx: result.non2xx, errors: result.errors });
    });
    instance.on("response", (_client, _status, _bytes, responseTime) => times.push(responseTime));
  });
}

const rows: string[][] = [];
const header = ["operation", "req/s", "p50 ms", "p95 ms", "p99 ms", "API 1-client p50", "SQL 1-client p50", "API/SQL", "statements"];

async function main() {
  const started = performance.now();
  // --pooler: the servers' DATABASE_URL is PgBouncer's; migrations (none pending here) would use --db.
  const bouncer = values.pooler ? await startPgbouncer({ upstream: url!, poolSize: connections + 4 }) : undefined;
  const dbEnv: Record<string, string> = bouncer ? { DATABASE_URL: bouncer.pooled(url!), DATABASE_POOL_MODE: "transaction", DIRECT_DATABASE_URL: url! } : { DATABASE_URL: url! };
  if (bouncer) console.log(`Through PgBouncer in transaction mode (${bouncer.pooled(url!).replace(/\/\/[^@]*@/, "//")})`);
  const config = loadConfig({
    NODE_ENV: "production",
    LOG_LEVEL: "silent",
    BILLING_INTERVAL_MINUTES: "0",
    SEED_DEMO: "0",
    ...dbEnv,
    HOST: "127.0.0.1",
    PORT: "0",
    PUBLIC_HOST: "localhost",
    ...cacheEnv,
  });
  const clock = new FixedClock(NOW);
  const log = pino({ level: "silent" });
  const pool = new pg.Pool({ connectionString: dbEnv.DATABASE_URL, max: connections });
  const dbs: Database[] = [];

  const web = only.has("web") ? measureBundles(config.webDistDir) : null;
  const reads = [...only].some((o) => ["business", "memberships", "portal", "dashboard", "checkout"].includes(o));
  if (reads) {
    const db = await openDatabase({ ...configuredDatabase(config), poolSize: connections });
    const counting = await openDatabase({ ...configuredDatabase(config), poolSize: 2, logQueries: true });
    dbs.push(db, counting);
    let statements = 0;
    counting.onStatement(() => statements++);
    const app = await buildApp({ config, db, clock, logger: log });
    const countApp = await buildApp({ config, db: counting, clock, logger: log });
    await app.listen({ host: "127.0.0.1", port: 0 });
    await countApp.ready();
    const { port } = app.server.address() as { port: number };
    const base = `http://127.0.0.1:${port}`;
    await app.publicCache.ready();
    // The servers that take the load: this process's, or N of their own.
    const children = await Promise.all(Array.from({ length: processes }, () => startServer(dbEnv, Math.max(2, Math.ceil(connections / processes) + 1))));
    const loadUrls = children.length ? children.map((c) => c.url) : [base];

    // Fixtures: sessions for the admin and for members, the businesses to rotate through.
    const { rows: [{ n: businessCount }] } = await pool.query(`SELECT count(*)::int AS n FROM businesses`);
    if (businessCount === 0) throw new Error("The database is empty: run npm run bench:seed first");
    const session = async (userIds: number[], tenant: string | null = null) => {
      const tokens = userIds.map(() => newToken(SESSION_TOKEN_PREFIX));
      await pool.query(
        `INSERT INTO sessions (token_hash, user_id, tenant_slug, expires_at) SELECT h, u, $3, now() + interval '30 days' FROM unnest($1::text[], $2::int[]) AS t(h, u)`,
        [tokens.map(hashToken), userIds, tenant],
      );
      return tokens;
    };
    const [adminToken] = await session([(await pool.query(`SELECT id FROM users WHERE is_admin ORDER BY id LIMIT 1`)).rows[0].id]);
    const members = (await pool.query(`SELECT s.user_id AS id FROM subscriptions s WHERE s.status = 'ACTIVE' ORDER BY s.id LIMIT 200`)).rows.map((r) => r.id as number);
    const memberTokens = await session(members);
    const slugs = Array.from({ length: Math.min(100, businessCount) }, (_, i) => `bench-${i + 1}`);
    const zones = new Map((await pool.query(`SELECT id, time_zone FROM businesses WHERE id <= 100`)).rows.map((r) => [r.id as number, r.time_zone as string]));
    const json = (token?: string): Record<string, string> => ({ "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) });
    const gql = (query: string, variables: object, token?: string) => ({ method: "POST" as const, path: "/graphql", headers: json(token), body: JSON.stringify({ query, variables }) });

    // Memberships: a search term and status matching a large share, the first page and a deep page (2,000 rows in).
    const search = "ada";
    const first = await fetch(`${base}/graphql`, { ...gql(membershipsPageQuery, { first: 50, search, status: "ACTIVE" }, adminToken) }).then((r) => r.json() as any);
    const deepRows = await membershipsSql(pool, { search, status: "ACTIVE", limit: 2001 });
    const deepAfter = deepRows.length > 100 ? deepRows[Math.min(2000, Math.floor(deepRows.length / 2))] : null;
    // The cursor of that row in the newest-first order: its start (as the server writes it) and id.
    const deepStart = deepAfter ? (await pool.query(`SELECT to_char(started_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS k FROM subscriptions WHERE id = $1`, [deepAfter.id])).rows[0].k : null;
    const deepCursor = deepAfter && first.data?.memberships.pageInfo.endCursor ? membershipCursor({ sort: "STARTED_DESC", value: deepStart, id: deepAfter.id }) : null;

    const operations: Operation[] = [];
    if (only.has("business")) {
      const q = businessPageQuery();
      operations.push(
        { name: "business page (GraphQL)", request: (i) => gql(q, { slug: slugs[i % slugs.length] }), sql: (i) => businessPageSql(pool, slugs[i % slugs.length]) },
        { name: "business page (REST)", request: (i) => ({ method: "GET", path: `/api/businesses/${slugs[i % slugs.length]}/page`, headers: {} }), sql: (i) => businessPageSql(pool, slugs[i % slugs.length]) },
      );
    }
    if (only.has("memberships")) {
      operations.push(
        { name: "memberships first page, 50 (GraphQL)", request: () => gql(membershipsPageQuery, { first: 50, search, status: "ACTIVE" }, adminToken), sql: () => membershipsSql(pool, { search, status: "ACTIVE", limit: 51 }) },
        ...(deepCursor
          ? [{ name: `memberships deep page, after row ${Math.min(2000, Math.floor(deepRows.length / 2)) + 1} (GraphQL)`, request: () => gql(membershipsPageQuery, { first: 50, after: deepCursor, search, status: "ACTIVE" }, adminToken), sql: () => membershipsSql(pool, { search, status: "ACTIVE", limit: 51, after: { startedAt: deepAfter.started_at, id: deepAfter.id } }) }]
          : []),
        { name: "memberships, 500 rows (REST)", request: () => ({ method: "GET", path: `/api/admin/memberships?q=${search}&status=active`, headers: json(adminToken) }), sql: () => membershipsSql(pool, { search, status: "ACTIVE", limit: 500 }) },
      );
    }
    if (only.has("portal")) {
      const q = portalViewerQuery();
      operations.push({ name: "member portal viewer (GraphQL)", request: (i) => gql(q, { businessSlug: null }, memberTokens[i % memberTokens.length]), sql: (i) => portalSql(pool, members[i % members.length]) });
    }
    if (only.has("dashboard")) {
      const q = dashboardQuery();
      operations.push({
        name: "business dashboard metrics (GraphQL)",
        request: (i) => gql(q, { id: 1 + (i % slugs.length) }, adminToken),
        sql: (i) => {
          const id = 1 + (i % slugs.length);
          return dashboardSql(pool, id, seriesMonths(clock.now(), zones.get(id)!), zones.get(id)!);
        },
      });
    }

    for (const op of operations) {
      // Statements per request, on the counting server: the first request, then the same again (public page cache).
      const r0 = op.request(0);
      const counts: number[] = [];
      for (let k = 0; k < 2; k++) {
        statements = 0;
        const res = await countApp.inject({ method: r0.method, url: r0.path, headers: r0.headers, payload: r0.body });
        counts.push(statements);
        if (res.statusCode !== 200 || res.body.includes('"errors"')) throw new Error(`${op.name}: ${res.statusCode} ${res.body.slice(0, 500)}`);
      }
      const count = counts[1] === counts[0] ? String(counts[0]) : `${counts[0]}, cached ${counts[1]}`;
      // One client, one request at a time: API vs hand-written SQL for the same rows, taken in turns (one request,
      // then the same rows' SQL), so that both meet the machine in the same state: measured one after the other, a
      // shared machine's drift over seconds, and what the server's own work between statements costs PostgreSQL on
      // the same two cores, fell on one side only. The API's client is undici's `request`, as lean on the HTTP side
      // as `pg` is on the SQL side (`fetch`, built on it, adds about 0.4 ms of the client's own work a request).
      const apiTimes: number[] = [];
      const sqlTimes: number[] = [];
      const serialMs = Math.min(10_000, duration * 1_000);
      for (let i = 0, t0 = performance.now(); performance.now() - t0 < serialMs; i++) {
        const r = op.request(i);
        const s = performance.now();
        await request(base + r.path, { method: r.method, headers: r.headers, body: r.body }).then((x) => x.body.arrayBuffer());
        apiTimes.push(performance.now() - s);
        if (op.sql) {
          const s2 = performance.now();
          await op.sql(i);
          sqlTimes.push(performance.now() - s2);
        }
      }
      // Under load: autocannon, `connections` concurrent connections for `duration` seconds.
      let n = 0;
      // Servers of their own start cold (module loading, first compilations): warm them up first, unmeasured,
      // with every request of the rotation at least twice on each.
      if (children.length) {
        await load({ url: loadUrls as unknown as string, connections, amount: 400 * children.length, requests: [{ setupRequest: (req: any) => ({ ...req, ...op.request(n++) }) }] });
      }
      const result = await load({
        url: loadUrls.length === 1 ? loadUrls[0] : (loadUrls as unknown as string),
        connections,
        duration,
        requests: [{ setupRequest: (req: any) => ({ ...req, ...op.request(n++) }) }],
      });
      const api1 = median(apiTimes.slice(3));
      const sql1 = median(sqlTimes.slice(3));
      rows.push([op.name, result.rps.toFixed(0), ms(result.p50), ms(result.p95), ms(result.p99), ms(api1), ms(sql1), op.sql ? (api1 / sql1).toFixed(2) : "–", count]);
      if (result.non2xx || result.errors) rows[rows.length - 1][0] += ` (${result.non2xx} non-2xx, ${result.errors} errors)`;
      console.log(`  ${rows[rows.length - 1].join(" | ")}`);
    }

    if (only.has("checkout")) {
      // Fresh members, each running startCheckout → confirmSandboxPayment → completeCheckout once.
      const nUsers = 20_000;
      const { rows: [{ max }] } = await pool.query(`SELECT max(id)::int AS max FROM users`);
      await pool.query(
        `INSERT INTO users (username, public_id, password_hash, email, updated_at)
         SELECT 'bench-checkout-' || ($1::int + g), gen_random_uuid()::text, 'x', 'checkout' || ($1::int + g) || '@example.com', now()
           FROM generate_series(1, $2::int) g`,
        [max, nUsers],
      );
      const ids = (await pool.query(`SELECT id FROM users WHERE id > $1 ORDER BY id`, [max])).rows.map((r) => r.id as number);
      const tokens = await session(ids);
      const start = `mutation($input: StartCheckoutInput!) { startCheckout(input: $input) { __typename ... on StartCheckoutSuccess { data { clientSecret paymentIntentId } } } }`;
      const confirm = `mutation($s: String!) { confirmSandboxPayment(clientSecret: $s, card: { number: "4242424242424242", expMonth: 12, expYear: 2031, cvc: "123" }) { __typename } }`;
      const complete = `mutation($id: String!) { completeCheckout(paymentIntentId: $id) { __typename } }`;
      let next = 0;
      let completed = 0;
      const checkoutStatements: number[] = [];
      // Statements of one checkout, step by step, on the counting server.
      {
        const token = tokens[tokens.length - 1];
        const step = async (query: string, variables: object) => {
          statements = 0;
          const r = await countApp.inject({ method: "POST", url: "/graphql", headers: { ...json(token), "x-tenant": "bench-1" }, payload: { query, variables } });
          checkoutStatements.push(statements);
          return r.json<any>();
        };
        const s = await step(start, { input: { selection: { businessSlug: "bench-1", planRef: "item_1", mode: "PICKUP", addonRefs: [] }, email: "c@example.com", idempotencyKey: "bench-count-0001" } });
        if (!s.data?.startCheckout?.data) throw new Error(`checkout: ${JSON.stringify(s)}`);
        await step(confirm, { s: s.data.startCheckout.data.clientSecret });
        await step(complete, { id: s.data.startCheckout.data.paymentIntentId });
      }
      const result = await load({
        url: base,
        connections,
        duration,
        requests: [
          {
            setupRequest: (req: any, ctx: any) => {
              const i = next++ % (tokens.length - 1);
              const b = 1 + (i % Math.min(50, businessCount));
              ctx.token = tokens[i];
              ctx.tenant = `bench-${b}`;
              return { ...req, ...gql(start, { input: { selection: { businessSlug: ctx.tenant, planRef: `item_${(b - 1) * 3 + 1}`, mode: "PICKUP", addonRefs: [] }, email: "c@example.com", idempotencyKey: `bench-checkout-${i}` } }, ctx.token), headers: { ...json(ctx.token), "x-tenant": ctx.tenant } };
            },
            onResponse: (_status: number, body: string, ctx: any) => {
              try {
                ctx.started = (JSON.parse(body)).data?.startCheckout?.data ?? null;
              } catch {
                ctx.started = null;
              }
            },
          },
          { setupRequest: (req: any, ctx: any) => ({ ...req, ...gql(confirm, { s: ctx.started?.clientSecret ?? "missing" }) }) },
          {
            setupRequest: (req: any, ctx: any) => ({ ...req, ...gql(complete, { id: ctx.started?.paymentIntentId ?? "missing" }, ctx.token), headers: { ...json(ctx.token), "x-tenant": ctx.tenant } }),
            onResponse: (_status: number, body: string) => {
              if (body.includes("CompleteCheckoutSuccess")) completed++;
            },
          },
        ],
      });
      rows.push([
        `sandbox checkout, 3 requests (${(completed / duration).toFixed(1)} checkouts/s, ${completed} completed)`,
        result.rps.toFixed(0), ms(result.p50), ms(result.p95), ms(result.p99), "–", "–", "–", checkoutStatements.join(" + "),
      ]);
      console.log(`  ${rows[rows.length - 1].join(" | ")}`);
    }
    await app.close();
    await countApp.close();
    await Promise.all(children.map((c) => c.stop()));
  }
  for (const db of dbs) await db.close();
  await pool.end();
  await bouncer?.stop();

  let renewalLines: string[] = [];
  if (only.has("renewals")) renewalLines = await renewals(url!, config);

  console.log(
    `\nLoad: ${connections} connections, ${duration} s per operation, loopback, ${processes ? `${processes} server processes of their own` : "the server in the bench process"}` +
      `${values["public-cache-ttl"] != null ? `, PUBLIC_CACHE_TTL_SECONDS=${values["public-cache-ttl"]}` : ""}${values.redis ? ", Redis" : ""}; percentiles over every response; ` +
      `"1-client" columns: one request at a time, API and SQL in turns, median (the server in the bench process; the API's client is undici's request); statements: first request, and the same request again when it differs (cached).\n`,
  );
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  if (rows.length) {
    console.log(line(header));
    console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
    for (const r of rows) console.log(line(r));
  }
  for (const l of renewalLines) console.log(l);
  if (web) {
    console.log(`\nWeb bundles (gzip, kB = 1000 bytes): entry and its static imports ${(web.entryGzip / 1000).toFixed(1)} kB`);
    console.log("| route | route chunk | initial JS to show it | admin/editor chunks loaded |");
    console.log("|---|---|---|---|");
    for (const r of web.routes) {
      console.log(`| ${r.route}${isPublicRoute(r.route) ? " (public)" : ""} | ${(r.chunkGzip / 1000).toFixed(1)} | ${(r.initialGzip / 1000).toFixed(1)} | ${r.adminChunks.join(", ") || "none"} |`);
    }
  } else if (only.has("web")) console.log("\nWeb bundles: dist/web missing (run npm run web:build)");
  console.log(`\nbench finished in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

/** A server process of its own (tests/bench/server.ts) on the bench database; resolves once it listens. */
function startServer(dbEnv: Record<string, string>, poolSize: number): Promise<{ url: string; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", new URL("./server.ts", import.meta.url).pathname], {
    env: { ...process.env, ...cacheEnv, ...dbEnv, BENCH_NOW: NOW, BENCH_POOL: String(poolSize) },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("bench server did not start in 60 s")), 60_000);
    child.once("exit", (code) => reject(new Error(`bench server exited with ${code}`)));
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const m = /^listening (\d+)$/.exec(line);
      if (!m) return;
      clearTimeout(timer);
      resolve({ url: `http://127.0.0.1:${m[1]}`, stop });
    });
  });
}

/** Renewals over every membership on a throw-away copy of the database: time, then a second run (charges nothing). */
async function renewals(sourceUrl: string, config: ReturnType<typeof loadConfig>): Promise<string[]> {
  const source = new URL(sourceUrl);
  const sourceName = decodeURIComponent(source.pathname.slice(1));
  const copyName = `${sourceName}_renewals`;
  const admin = new URL(sourceUrl);
  admin.pathname = "/postgres";
  const c = new pg.Client({ connectionString: admin.toString() });
  await c.connect();
  const out: string[] = [];
  try {
    await c.query(`DROP DATABASE IF EXISTS "${copyName}" WITH (FORCE)`);
    const t0 = performance.now();
    // The server's pools have just closed; PostgreSQL may still see their sessions for a moment.
    for (let attempt = 1; ; attempt++) {
      try {
        await c.query(`CREATE DATABASE "${copyName}" TEMPLATE "${sourceName}"`);
        break;
      } catch (e) {
        if ((e as { code?: string }).code !== "55006" || attempt === 10) throw e;
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
    console.log(`  renewals: copied ${sourceName} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const copy = new URL(sourceUrl);
    copy.pathname = `/${copyName}`;
    const db = await openDatabase({ url: copy.toString(), poolSize: Math.max(10, Number(values["renewal-workers"]) + 2) });
    try {
      // A data set seeded before the latest migrations (the events table, for one) gets them on the copy.
      const applied = await db.migrate();
      if (applied.length) console.log(`  renewals: applied ${applied.join(", ")} to the copy`);
      const ctx = { db: db.prisma, clock: new FixedClock(BENCH_BILLING_INSTANT), config: { ...config, databaseUrl: copy.toString() }, log: pino({ level: "silent" }) };
      const limit = values["renewal-businesses"] ? Number(values["renewal-businesses"]) : null;
      const workers = Number(values["renewal-workers"]);
      const batching = {
        batchSize: values["renewal-batch-size"] ? Number(values["renewal-batch-size"]) : DEFAULT_BATCH_SIZE,
        concurrency: values["renewal-concurrency"] ? Number(values["renewal-concurrency"]) : DEFAULT_CONCURRENCY,
      };
      const ids = (await db.prisma.business.findMany({ select: { id: true }, orderBy: { id: "asc" }, ...(limit ? { take: limit } : {}) })).map((b) => b.id);
      const total = await db.prisma.subscription.count();
      const n = limit ? await db.prisma.subscription.count({ where: { businessId: { in: ids } } }) : total;
      const viaQueue = values["renewals-via-queue"];
      const jobs: JobQueue | undefined = viaQueue
        ? await startJobQueue({ db, log: ctx.log, definitions: [renewalsJob(ctx, batching)], schedules: [], pollingIntervalSeconds: 0.5 })
        : undefined;
      /** One renewal pass as the schedule runs it: a job sent to the queue, awaited until it ends (its result is the report). */
      const queuedPass = async (queue: JobQueue) => {
        const id = (await queue.boss.send(RENEWALS_QUEUE, {}))!;
        for (;;) {
          const job = await queue.boss.getJobById<object>(RENEWALS_QUEUE, id);
          const output = job?.output as (Awaited<ReturnType<typeof runRenewals>> & { report?: Awaited<ReturnType<typeof runRenewals>> }) | undefined;
          if (job && ["completed", "failed", "retry"].includes(job.state)) return output?.report ?? output!;
          await new Promise((r) => setTimeout(r, 100));
        }
      };
      /** One pass of the billing clock: runRenewals itself, or per business with `workers` at once. */
      const pass = async () => {
        if (jobs) return queuedPass(jobs);
        if (!limit && workers === 1) return runRenewals(ctx, batching);
        const sum: Record<string, number> = {};
        const queue = [...ids];
        await Promise.all(
          Array.from({ length: workers }, async () => {
            for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
              for (const [k, v] of Object.entries(await runRenewals(ctx, { ...batching, businessId: id }))) sum[k] = (sum[k] ?? 0) + v;
            }
          }),
        );
        return sum as unknown as Awaited<ReturnType<typeof runRenewals>>;
      };
      const eventCount = () => db.prisma.event.count();
      const eventsBefore = await eventCount();
      const s1 = performance.now();
      const first = await pass();
      const t1 = (performance.now() - s1) / 1000;
      const eventsWritten = (await eventCount()) - eventsBefore;
      const s2 = performance.now();
      const second = await pass();
      const t2 = (performance.now() - s2) / 1000;
      await jobs?.stop();
      out.push(
        `\nRenewals over ${n} memberships${limit ? ` (the first ${limit} businesses of ${total} memberships)` : ""}, ${workers} business(es) at once, ` +
          `batches of ${batching.batchSize}, ${batching.concurrency} batch(es) in flight, as of ${BENCH_BILLING_INSTANT} (on a copy of the database)` +
          `${jobs ? ", each pass a job of the job queue (pg-boss), from send to completion" : ""}:`,
      );
      out.push(`  first run:  ${t1.toFixed(1)} s, ${((t1 * 1000) / Math.max(1, first.due)).toFixed(2)} ms per due membership  ${JSON.stringify(first)}`);
      out.push(`  events written by the first run (outbox, same transactions): ${eventsWritten}, ${(eventsWritten / t1).toFixed(0)} per second`);
      if (limit) out.push(`  at that rate all ${total} memberships (${Math.round((first.due * total) / n)} due) would take ≈ ${((t1 * total) / n).toFixed(0)} s`);
      out.push(`  second run: ${t2.toFixed(1)} s  ${JSON.stringify(second)}  (charged ${second.charged}: must be 0)`);
      if (values["renewals-mail"]) out.push(...(await mailAfterRenewals(db, ctx.clock, ctx.config)));
    } finally {
      await db.close();
    }
  } finally {
    await c.query(`DROP DATABASE IF EXISTS "${copyName}" WITH (FORCE)`).catch(() => {});
    await c.end();
  }
  return out;
}

await main();
