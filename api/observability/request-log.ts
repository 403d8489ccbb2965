import { LogController, type FastifyReply, type FastifyRequest } from "fastify";

/**
 * Fastify's request lines, quiet by default: "incoming request" and "request completed" at `debug`, so a server at
 * the default `info` level writes a line per request only when it failed (5xx: "request completed" at `warn`, beside
 * the "request failed" error line with its stack). LOG_LEVEL=debug shows every request again, with the same fields
 * (`reqId`, `res.statusCode`, `responseTime`, and the actor's and operation's bindings).
 */
export class QuietRequestLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug({ req: request }, "incoming request");
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error) super.requestCompleted(error, request, reply);
    else if (reply.statusCode >= 500) reply.log.warn({ res: reply, responseTime: reply.elapsedTime }, "request completed");
    else reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, "request completed");
  }
}
