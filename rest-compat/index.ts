import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import multipart from "@fastify/multipart";
import type { RequestContext } from "../api/context.ts";
import { authRoutes } from "./auth.ts";
import { businessRoutes } from "./businesses.ts";
import { catalogRoutes } from "./catalog.ts";
import { checkoutRoutes } from "./checkout.ts";
import { couponRoutes } from "./coupons.ts";
import { restErrorHandler } from "./errors.ts";
import { fulfilmentRoutes } from "./packing.ts";
import { memberHistoryRoutes } from "./member-history.ts";
import { memberSubscriptionRoutes } from "./member-subscriptions.ts";
import { membershipRoutes } from "./memberships.ts";
import { metricsRoutes } from "./metrics.ts";
import { pageRoutes } from "./pages.ts";
import { profileRoutes } from "./profile.ts";
import { statementRoutes } from "./statements.ts";
import { userRoutes } from "./users.ts";
import { openApiDocument } from "./openapi.ts";
import { createRouter, declaredRoutes, type AnySpec, type Router } from "./router.ts";
import { UPLOAD_LIMITS, uploadRoutes } from "./uploads.ts";

/** One file per resource; the order is the OpenAPI document's. */
const ROUTE_FILES: ((r: Router) => void)[] = [
  pageRoutes,
  catalogRoutes,
  businessRoutes,
  authRoutes,
  profileRoutes,
  memberSubscriptionRoutes,
  memberHistoryRoutes,
  checkoutRoutes,
  membershipRoutes,
  fulfilmentRoutes,
  statementRoutes,
  metricsRoutes,
  userRoutes,
  couponRoutes,
  uploadRoutes,
];

/** Every declared /api route (method, path, schemas), for the contract tests that check answers against them. */
export const restRouteSpecs = (): AnySpec[] => declaredRoutes(ROUTE_FILES);

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
  for (const file of ROUTE_FILES) file(router);

  let document: ReturnType<typeof openApiDocument> | null = null;
  app.get("/openapi.json", async () => (document ??= openApiDocument(routes)));

  app.setNotFoundHandler((_req, reply) => reply.status(404).send({ error: "Not found" }));
};
