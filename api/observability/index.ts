import type { FastifyInstance } from "fastify";
import pino, { type Logger } from "pino";
import type { Config } from "../config.ts";
import type { Database } from "../db.ts";
import { installMetrics, type AppMetrics } from "./metrics.ts";
import { installProbes } from "./readiness.ts";
import { installRequestIdHeader } from "./request-id.ts";

export { requestIdOptions, actorLogBindings, bindRequestLog } from "./request-id.ts";
export { noteRequestError } from "./readiness.ts";
export { QuietRequestLog } from "./request-log.ts";

/**
 * The server's logger with pino's standard error serializer on `err` (type, message and stack, causes
 * included), whatever logger the caller gave: every "request failed" line carries the stack.
 */
export function withErrorStacks(log: Logger): Logger {
  return log.child({}, { serializers: { err: pino.stdSerializers.err } });
}

/**
 * What an operator watches (docs/operations.md, "Running in production"): X-Request-Id on every answer, /metrics,
 * /healthz and /readyz. Installed first, so its hooks see every request, 404s and errors included.
 */
export function installObservability(app: FastifyInstance<any, any, any, any, any>, opts: { config: Config; db: Database; log: Logger }): AppMetrics {
  installRequestIdHeader(app);
  const metrics = installMetrics(app, opts);
  installProbes(app, opts);
  return metrics;
}
