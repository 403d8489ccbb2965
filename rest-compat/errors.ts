import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { noteRequestError } from "../api/observability/readiness.ts";
import { DomainError, RateLimitedError, ValidationError } from "../api/shared/errors.ts";

/** The JSON body of every REST error (spec §7, §8): a message, and a machine-readable reason where there is one. */
interface RestError {
  error: string;
  reason?: string;
  issues?: { path: string; message: string }[];
}

/**
 * The one error handler of /api: domain errors keep their status and reason; Fastify's own client errors
 * (malformed JSON, a file too large, an unsupported content type) keep theirs; anything else is a 500 whose
 * detail stays in the log.
 */
export function restErrorHandler(err: FastifyError | Error, req: FastifyRequest, reply: FastifyReply) {
  if (err instanceof DomainError) {
    const body: RestError = { error: err.message };
    if (err.reason) body.reason = err.reason;
    if (err instanceof ValidationError && err.issues.length) body.issues = err.issues;
    if (err instanceof RateLimitedError) reply.header("retry-after", String(err.retryAfterSeconds));
    return reply.status(err.httpStatus).send(body);
  }
  const status = (err as FastifyError).statusCode;
  if (status && status >= 400 && status < 500) {
    const code = (err as FastifyError).code;
    const reason = code === "FST_REQ_FILE_TOO_LARGE" ? "file_too_large" : status === 415 ? "unsupported_media_type" : "invalid_request";
    return reply.status(status).send({ error: err.message, reason } satisfies RestError);
  }
  req.log.error({ err }, "REST request failed");
  noteRequestError(err);
  return reply.status(500).send({ error: "Internal server error" } satisfies RestError);
}
