import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { FastifyInstance } from "fastify";
import type { Actor } from "../context.ts";

/** The header a request id comes in and goes out on. */
const REQUEST_ID_HEADER = "x-request-id";

/** An incoming id is kept when it is 1 to 128 characters of this set (anything else could forge log lines or bloat them). */
const VALID_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * The request id of a request: the caller's `X-Request-Id` (a proxy's or a client's, so one id follows a request
 * through every hop) when it is valid, else a new UUID. A header sent twice arrives joined with ", ", so it is
 * replaced too.
 */
function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  return typeof incoming === "string" && VALID_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * Fastify options: request ids from requestIdOf, logged as `reqId` (Fastify's default label) on every line
 * Fastify's request logger writes, and every line a service writes through the service context, whose `log`
 * is that logger.
 */
export const requestIdOptions = {
  genReqId: requestIdOf,
  // Fastify would take any value of the header as it is; requestIdOf checks it first.
  requestIdHeader: false,
} as const;

/**
 * Returns the request id in `X-Request-Id` on every answer: set before anything else runs, so routes, errors,
 * 404s and answers that bypass yoga (the cached public page) all carry it.
 */
export function installRequestIdHeader(app: FastifyInstance): void {
  app.addHook("onRequest", (req, reply, done) => {
    reply.header(REQUEST_ID_HEADER, req.id);
    done();
  });
}

/** The log fields a request gains once its actor and tenant are known. */
export function actorLogBindings(actor: Actor, tenant: string | null): Record<string, string | number> {
  const bindings: Record<string, string | number> = {};
  if (actor.kind === "user") bindings.userId = actor.user.id;
  else if (actor.kind === "partner") {
    bindings.apiTokenId = actor.token.id;
    bindings.businessId = actor.token.businessId;
  }
  if (tenant) bindings.tenant = tenant;
  return bindings;
}

/**
 * Adds fields to every later line of a request's logger (Fastify's request logger is a pino child made for
 * the request, and the reply logs "request completed" through the same object, so the bindings reach that
 * line too). Loggers without setBindings (a test double) are left as they are.
 */
export function bindRequestLog(log: object, bindings: Record<string, unknown>): void {
  if (Object.keys(bindings).length === 0) return;
  const setBindings = (log as { setBindings?: (b: Record<string, unknown>) => void }).setBindings;
  if (typeof setBindings === "function") setBindings.call(log, bindings);
}
