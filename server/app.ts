import fs from "node:fs";
import Fastify, { type FastifyError, type FastifyRequest } from "fastify";
import cors from "@fastify/cors";
import helmet from "helmet";
import pino, { type Logger } from "pino";
import type { Config } from "../api/config.ts";
import type { RequestContext } from "../api/context.ts";
import type { Database } from "../api/db.ts";
import type { JobQueue } from "../api/queue/job-queue.ts";
import type { Clock } from "../api/shared/clock.ts";
import { resolveActor } from "../api/auth/sessions.ts";
import { requestTenant } from "./tenancy.ts";
import { corsPolicy } from "./cors.ts";
import { cachedPublicResponse, createGraphQL, MASKED_ERROR_MESSAGE } from "../api/graphql/yoga.ts";
import { restCompat } from "../rest-compat/index.ts";
import { installInputLimits } from "../api/http/input-limits.ts";
import { serveWebApp } from "./web-app.ts";
import { stripeWebhookRoute } from "../api/billing/webhooks.ts";
import { uploadFileRoutes } from "../api/uploads/routes.ts";
import { PublicPageCache } from "../api/cache/public-pages.ts";
import { actorLogBindings, bindRequestLog, installObservability, noteRequestError, QuietRequestLog, requestIdOptions, withErrorStacks } from "../api/observability/index.ts";

export interface AppDeps {
  config: Config;
  db: Database;
  clock: Clock;
  logger?: Logger;
  /** The process's job queue (api/jobs/): the Jobs screen reads and retries through it. */
  jobs?: JobQueue;
}

declare module "fastify" {
  interface FastifyInstance {
    /** The process's public page cache (ready() waits for its Redis subscription). */
    publicCache: PublicPageCache;
  }
}

/** One HTTP server: GraphQL at /graphql, the REST compatibility layer under /api, uploads and the web app. */
/** Public images (uploads and the demo's), readable from any origin. */
const PUBLIC_IMAGES = /^\/(uploads|demo)\//;

export async function buildApp({ config, db, clock, logger, jobs }: AppDeps) {
  const log = withErrorStacks(logger ?? pino({ level: config.logLevel }));
  // Request lines at debug unless the request failed (api/observability/request-log.ts): the console stays readable.
  const app = Fastify({ loggerInstance: log, logController: new QuietRequestLog(), trustProxy: config.trustProxy, bodyLimit: 2 * 1024 * 1024, ...requestIdOptions });
  // X-Request-Id on every answer, /metrics, /healthz and /readyz (docs/operations.md, "Running in production").
  const observability = installObservability(app, { config, db, log });

  // Security headers: helmet's middleware built once (the Fastify plugin rebuilt it, and re-parsed the CSP, per request).
  // HSTS and upgrade-insecure-requests only when browsers reach the site over https (PUBLIC_SCHEME): on plain
  // http (the app opened at http://<LAN address>:3000) the upgrade sends every script to an https port that
  // does not answer, and the page stays blank.
  const https = config.publicScheme === "https";
  const securityHeaders = helmet({
    strictTransportSecurity: https,
    contentSecurityPolicy: {
      directives: {
        upgradeInsecureRequests: https ? [] : null,
        defaultSrc: ["'self'"],
        // Chakra/emotion inject styles at run time; Stripe.js and its frames when a Stripe key is configured.
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'", "https://js.stripe.com"],
        frameSrc: ["'self'", "https://js.stripe.com", "https://hooks.stripe.com"],
        connectSrc: ["'self'", "https://api.stripe.com"],
        imgSrc: ["'self'", "data:", "blob:", "https:", "http:"],
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook("onRequest", (req, reply, done) =>
    securityHeaders(req.raw, reply.raw, (err) => {
      // Logos and gallery images are public and drawn in emails: a receipt shown in the portal's sandboxed frame
      // (an opaque origin) loads them too, which helmet's same-origin resource policy would block.
      if (PUBLIC_IMAGES.test(req.url)) reply.raw.setHeader("cross-origin-resource-policy", "cross-origin");
      done(err as Error | undefined);
    }),
  );
  // Spec §7: one API host, credentials sent. One policy for every route, in every environment (server/cors.ts):
  // the main host and its tenant subdomains, scheme checked; any other Origin gets no Access-Control-* header.
  const corsOrigins = corsPolicy({ publicHost: config.publicHost, production: config.env === "production" });
  await app.register(cors, {
    credentials: true,
    methods: ["GET", "HEAD", "POST", "DELETE"],
    origin: (origin, cb) => cb(null, corsOrigins.allows(origin)),
  });
  // In production an unexpected error answers without its text (Prisma messages and codes, SQL, paths); the
  // detail goes to the log with the request id. /api has its own handler (rest-compat/errors.ts) doing the same.
  app.setErrorHandler((err: FastifyError, req, reply) => {
    const status = err.statusCode ?? 500;
    if (status >= 500) noteRequestError(err); // a missing table: /readyz looks again at once
    if (config.env !== "production" || (status >= 400 && status < 500)) return reply.send(err);
    req.log.error({ err }, "request failed");
    reply.status(500);
    if (req.url.startsWith("/graphql")) return reply.send({ errors: [{ message: MASKED_ERROR_MESSAGE, extensions: { code: "INTERNAL_SERVER_ERROR" } }] });
    return reply.send({ error: "Internal server error" });
  });

  installInputLimits(app); // NUL/control characters, nesting > 32, arrays > 1,000: a 400 before any route runs

  // Anonymous public page reads (GraphQL and REST) answer from here; page edits invalidate it (with Redis, in every process).
  const publicCache = new PublicPageCache({ ttlMs: config.publicCacheTtlMs, redisUrl: config.redisUrl, database: config.databaseUrl ?? config.dataDir, log });
  app.decorate("publicCache", publicCache);
  app.addHook("onClose", () => publicCache.close());

  /** The service context of a request (built once): actor from the bearer token, tenant from X-Tenant or host. */
  const contexts = new WeakMap<FastifyRequest, Promise<RequestContext>>();
  const serviceContext = (req: FastifyRequest): Promise<RequestContext> => {
    let ctx = contexts.get(req);
    if (!ctx) {
      ctx = resolveActor(db.prisma, clock, req.headers.authorization, config.paymentProvider).then(({ actor, credentials }) => {
        const tenant = requestTenant(req.headers, config.publicHost);
        // Every later log line of the request (services log through req.log) names the user and tenant.
        bindRequestLog(req.log, actorLogBindings(actor, tenant));
        return { db: db.prisma, clock, config, log: req.log, actor, credentials, tenant, ip: req.ip, roleCache: new Map(), publicCache, jobs };
      });
      contexts.set(req, ctx);
    }
    return ctx;
  };

  const yoga = createGraphQL({ production: config.env === "production", publicCache, plugins: [observability.graphql.plugin] });
  app.route({
    url: "/graphql",
    method: ["GET", "POST", "OPTIONS"],
    handler: async (req, reply) => {
      const ctx = await serviceContext(req);
      // An anonymous public page read already in the cache is answered here, without a trip through yoga.
      const cached = cachedPublicResponse(publicCache, req, ctx);
      if (cached) {
        observability.graphql.cachedAnswer(req.body, ctx);
        return reply.headers(cached.headers).send(cached.body);
      }
      // The web app's API: a member's session reaches their memberships at every business (see requireMember).
      const response = await yoga.handleNodeRequestAndResponse(req, reply, { serviceContext: { ...ctx, memberSessionScope: "account" } });
      response.headers.forEach((value, key) => void reply.header(key, value));
      reply.status(response.status);
      // A JSON answer is one string: sent whole, it leaves in one write with its length. Only a stream (server-sent
      // events, multipart) is piped.
      reply.send(streamedAnswer(response) ? response.body : await response.text());
      return reply;
    },
  });

  await app.register(stripeWebhookRoute({ db: db.prisma, clock, config, log, publicCache }));
  await app.register(restCompat, { prefix: "/api", serviceContext });

  if (fs.existsSync(config.uploadsDir) || config.env !== "test") {
    fs.mkdirSync(config.uploadsDir, { recursive: true });
    await uploadFileRoutes(app, { dir: config.uploadsDir });
  }

  // The web app, its assets and files, and every 404 (server/web-app.ts).
  await serveWebApp(app, { config, serviceContext });
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;

/** Whether yoga's answer is a stream (server-sent events or a multipart answer) rather than one JSON document. */
function streamedAnswer(response: Response): boolean {
  const type = response.headers.get("content-type") ?? "";
  return type.startsWith("text/event-stream") || type.startsWith("multipart/");
}
