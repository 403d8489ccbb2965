import { createHash, timingSafeEqual } from "node:crypto";
import diagnostics from "node:diagnostics_channel";
import http from "node:http";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { collectDefaultMetrics, Counter, Histogram, Registry } from "prom-client";
import type { Config } from "../config.ts";
import type { Log } from "../context.ts";
import type { Database } from "../db.ts";
import { BILLING_RUN_CHANNEL, type BillingRunEvent } from "../billing/renewals/run-events.ts";
import { graphqlObservability, type GraphQLObservability } from "./graphql.ts";

/**
 * Prometheus metrics of one server instance (prom-client), served at /metrics:
 *
 * - the process's default metrics (`process_*`, `nodejs_*`, `nodejs_version_info` among them);
 * - `http_request_duration_seconds{method, route, status_code}`: route is the Fastify route pattern
 *   (`/api/businesses/:slug/page`), never the URL; a request no route matched (404s, the web app's client-side
 *   routes) is `route="unmatched"`; methods outside the usual seven are `method="other"`;
 * - `graphql_operations_total{operation, type, outcome}` (api/observability/graphql.ts);
 * - `db_statements_total{kind}` and `db_statement_duration_seconds{kind}`: each SQL statement Prisma ran, by its
 *   first keyword (select, insert, update, delete, with, begin, commit, rollback, other);
 * - `billing_runs_total{kind, outcome}`, `billing_run_duration_seconds{kind}`, `billing_renewals_total{result}`
 *   and `billing_changes_applied_total`: billing passes of this process and what they did with each membership.
 *
 * Each instance has its own registry (tests build many servers in one process); the process metrics come from
 * one registry shared by the instances of the process, since they describe the process. prom-client's global
 * default registry is not used.
 *
 * Who may read them: in production only a scraper presenting METRICS_TOKEN, or anyone reaching the separate
 * listener on METRICS_PORT (which then also wants the token when one is set); outside production /metrics is open
 * on the main port unless one of the two is set.
 */
export interface AppMetrics {
  registry: Registry;
  graphql: GraphQLObservability;
  /** The text exposition of every metric (process and instance). */
  scrape(): Promise<string>;
  contentType: string;
}

let processRegistry: Registry | undefined;

/** The process metrics, collected once per process however many servers it builds. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const STATEMENT_KINDS = new Set(["select", "insert", "update", "delete", "with", "begin", "commit", "rollback"]);
const FIRST_WORD = /^\s*([A-Za-z]+)/;
const RENEWAL_RESULTS = ["charged", "failed", "canceled", "ended", "waiting", "skipped", "busy", "blocked", "errors"] as const;

/** The route label of a request: its route pattern, or "unmatched" when no route matched (the not-found handler). */
function routeOf(req: FastifyRequest): string {
  return (!req.is404 && req.routeOptions.url) || "unmatched";
}

function createMetrics(): AppMetrics & {
  http: Histogram<"method" | "route" | "status_code">;
  statements: Counter<"kind">;
  statementSeconds: Histogram<"kind">;
  billingRuns: Counter<"kind" | "outcome">;
  billingRunSeconds: Histogram<"kind">;
  renewals: Counter<"result">;
  changesApplied: Counter;
} {
  const registry = new Registry();
  const http = new Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP requests by method, route pattern and status code: time until the answer was sent",
    labelNames: ["method", "route", "status_code"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const operations = new Counter({
    name: "graphql_operations_total",
    help: "GraphQL operations answered, by operation name (bounded), type and outcome (ok, refused, invalid, error)",
    labelNames: ["operation", "type", "outcome"] as const,
    registers: [registry],
  });
  const statements = new Counter({
    name: "db_statements_total",
    help: "SQL statements run (through Prisma or straight on the driver), by first keyword",
    labelNames: ["kind"] as const,
    registers: [registry],
  });
  const statementSeconds = new Histogram({
    name: "db_statement_duration_seconds",
    help: "Duration of SQL statements run (through Prisma or straight on the driver), by first keyword",
    labelNames: ["kind"] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const billingRuns = new Counter({
    name: "billing_runs_total",
    help: "Billing passes of this process: kind renewals (the billing clock) or retry (past due, after a new card); outcome ok, errors (some memberships failed with an error) or failed (the pass threw)",
    labelNames: ["kind", "outcome"] as const,
    registers: [registry],
  });
  const billingRunSeconds = new Histogram({
    name: "billing_run_duration_seconds",
    help: "Duration of billing passes",
    labelNames: ["kind"] as const,
    buckets: [0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300],
    registers: [registry],
  });
  const renewals = new Counter({
    name: "billing_renewals_total",
    help: "Memberships handled by billing passes, by result: charged, failed (declined or needing the member: now past due), canceled (last attempt failed), ended (canceled instead of charged: the member's own cancel), waiting (past due, retry not yet due), skipped (month skipped), busy (another pass had it), errors (left for the next pass)",
    labelNames: ["result"] as const,
    registers: [registry],
  });
  const changesApplied = new Counter({
    name: "billing_changes_applied_total",
    help: "Scheduled membership changes applied by billing passes",
    registers: [registry],
  });
  const all = Registry.merge([processMetrics(), registry]);
  return {
    registry,
    graphql: graphqlObservability(operations),
    scrape: () => all.metrics(),
    contentType: registry.contentType,
    http,
    statements,
    statementSeconds,
    billingRuns,
    billingRunSeconds,
    renewals,
    changesApplied,
  };
}

/** Whether an Authorization header carries the token (constant time whatever the header holds). */
function bearerMatches(authorization: string | undefined, token: string): boolean {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")?.[1] ?? "";
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(given), digest(token));
}

/** How /metrics answers on the main port: open, behind the token, or not there (404). */
function mainPortAccess(config: Pick<Config, "env" | "metricsToken" | "metricsPort">): "open" | "token" | "off" {
  if (config.metricsPort !== undefined) return "off";
  if (config.metricsToken) return "token";
  return config.env === "production" ? "off" : "open";
}

/**
 * Installs the metrics of a server instance: the request histogram (an onResponse hook), Prisma's statements,
 * the billing passes on this instance's database, /metrics on the main port and, with METRICS_PORT, the separate
 * listener (opened when the app is ready, closed with it).
 */
export function installMetrics(app: FastifyInstance<any, any, any, any, any>, opts: { config: Config; db: Database; log: Log }): AppMetrics {
  const { config, db, log } = opts;
  const m = createMetrics();

  app.addHook("onResponse", (req, reply, done) => {
    m.http.observe(
      { method: METHODS.has(req.method) ? req.method : "other", route: routeOf(req), status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });

  // Every SQL statement, Prisma's and the direct reads' (api/db.ts turns the events on).
  let counting = true;
  db.onStatement((e) => {
    if (!counting) return;
    const word = FIRST_WORD.exec(e.query)?.[1]?.toLowerCase() ?? "other";
    const kind = STATEMENT_KINDS.has(word) ? word : "other";
    m.statements.inc({ kind });
    m.statementSeconds.observe({ kind }, Number(e.duration) / 1000 || 0);
  });

  const onBillingRun = (message: unknown) => {
    const event = message as BillingRunEvent;
    if (event.db !== db.prisma) return;
    const report = event.report;
    m.billingRuns.inc({ kind: event.kind, outcome: !report ? "failed" : report.errors ? "errors" : "ok" });
    m.billingRunSeconds.observe({ kind: event.kind }, event.seconds);
    if (!report) return;
    for (const result of RENEWAL_RESULTS) if (report[result]) m.renewals.inc({ result }, report[result]);
    if (report.changesApplied) m.changesApplied.inc(report.changesApplied);
  };
  diagnostics.subscribe(BILLING_RUN_CHANNEL, onBillingRun);

  const answer = async (authorization: string | undefined, access: "open" | "token" | "off") => {
    if (access === "off") return { status: 404, type: "application/json; charset=utf-8", body: JSON.stringify({ error: "Not found" }) };
    if (access === "token" && !bearerMatches(authorization, config.metricsToken!)) {
      return { status: 401, type: "application/json; charset=utf-8", body: JSON.stringify({ error: "Unauthorized" }) };
    }
    return { status: 200, type: m.contentType, body: await m.scrape() };
  };

  // Scrapes come every few seconds: their request lines stay out of the info log.
  app.get("/metrics", { logLevel: "warn" }, async (req, reply) => {
    const a = await answer(req.headers.authorization, mainPortAccess(config));
    if (a.status === 401) reply.header("www-authenticate", 'Bearer realm="metrics"');
    return reply.status(a.status).header("content-type", a.type).header("cache-control", "no-store").send(a.body);
  });

  if (config.env === "production" && mainPortAccess(config) === "off" && config.metricsPort === undefined) {
    log.info("metrics not served: set METRICS_TOKEN or METRICS_PORT to serve /metrics in production");
  }

  if (config.metricsPort !== undefined) {
    const port = config.metricsPort;
    const access = config.metricsToken ? "token" : "open";
    const server = http.createServer((req, res) => {
      const path = (req.url ?? "").split("?")[0];
      const found = path === "/metrics" && (req.method === "GET" || req.method === "HEAD");
      answer(req.headers.authorization, found ? access : "off").then(
        (a) => {
          const headers: Record<string, string> = { "content-type": a.type, "cache-control": "no-store" };
          if (a.status === 401) headers["www-authenticate"] = 'Bearer realm="metrics"';
          res.writeHead(a.status, headers).end(req.method === "HEAD" ? undefined : a.body);
        },
        (err: unknown) => {
          log.error({ err }, "metrics scrape failed");
          res.writeHead(500).end();
        },
      );
    });
    app.addHook("onReady", async () => {
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, config.metricsHost, () => {
          server.off("error", reject);
          resolve();
        });
      });
      log.info({ url: `http://${config.metricsHost}:${port}/metrics` }, "metrics listening");
    });
    app.addHook("onClose", async () => {
      if (!server.listening) return;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    });
  }

  app.addHook("onClose", async () => {
    counting = false;
    diagnostics.unsubscribe(BILLING_RUN_CHANNEL, onBillingRun);
  });
  return m;
}
