import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import multipart from "@fastify/multipart";
import type { RequestContext } from "../api/context.ts";
import { adminRoutes } from "./admin.ts";
import { authRoutes } from "./auth.ts";
import { checkoutRoutes } from "./checkout.ts";
import { contentRoutes } from "./content.ts";
import { restErrorHandler } from "./errors.ts";
import { memberRoutes } from "./member.ts";
import { openApiDocument } from "./openapi.ts";
import { createRouter, type AnySpec } from "./router.ts";
import { UPLOAD_LIMITS, uploadRoutes } from "./uploads.ts";

export interface RestCompatOptions {
  /** The request's service context (actor, tenant, db, clock), shared with GraphQL. */
  serviceContext(req: FastifyRequest): Promise<RequestContext>;
}

/**
 * The spec's /api/* routes (issue: REST compatibility layer), each a thin adapter over the domain services
 * of api/. Unknown routes under /api answer JSON 404, never the web app.
 */
export const restCompat: FastifyPluginAsync<RestCompatOptions> = async (app, opts) => {
  await app.register(multipart, { limits: UPLOAD_LIMITS });
  app.setErrorHandler(restErrorHandler);

  const routes: AnySpec[] = [];
  const router = createRouter(app, opts.serviceContext, routes);
  contentRoutes(router);
  authRoutes(router);
  memberRoutes(router);
  checkoutRoutes(router);
  adminRoutes(router);
  uploadRoutes(router);

  let document: ReturnType<typeof openApiDocument> | null = null;
  app.get("/openapi.json", async () => (document ??= openApiDocument(routes)));

  app.setNotFoundHandler((_req, reply) => reply.status(404).send({ error: "Not found" }));
};
