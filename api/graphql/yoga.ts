import { createHash } from "node:crypto";
import { useResponseCache } from "@graphql-yoga/plugin-response-cache";
import type { FastifyRequest } from "fastify";
import { getNamedType, getOperationAST, GraphQLError, isIntrospectionType, type ASTVisitor, type ExecutionResult, type ValidationContext } from "graphql";
import { createYoga, isAsyncIterable, maskError as yogaMaskError, type Plugin, type YogaServerInstance } from "graphql-yoga";
import type { RequestContext, ServiceContext } from "../context.ts";
import { noteRequestError } from "../observability/readiness.ts";
import { DomainError } from "../shared/errors.ts";
import { dropSessionReads } from "../auth/sessions.ts";
import type { PublicPageCache } from "../cache/public-pages.ts";
import { schema } from "./schema.ts";
import { inputLimitsPlugin } from "./input-limits.ts";
import { cursorsPlugin } from "./cursors.ts";
import { graphqlArmor, refusedRequestsAnswer400 } from "./limits.ts";

/**
 * Root fields whose anonymous answers are the same for every visitor and change only through writes that
 * call publicPageChanged: the public business page (`business`) and the anonymous `viewer` (null). An
 * operation selecting any other root field is never cached.
 */
const PUBLIC_ROOT_FIELDS = new Set(["business", "viewer"]);

type ServerContext = { serviceContext: RequestContext };

/**
 * The cache key of an operation: request tenant, operation name, variables and document. Quoted, because
 * the plugin also sends it as the response's ETag (and answers If-None-Match with it).
 */
function cacheKey(tenant: string | null, operationName: string | null | undefined, variables: unknown, document: string): string {
  const hash = createHash("sha256").update(`${tenant ?? ""}|${operationName ?? ""}|${JSON.stringify(variables ?? {})}|${document}`);
  return `"${hash.digest("base64url")}"`;
}

/**
 * The response cache of anonymous public reads (see api/cache/public-pages.ts): only requests without
 * credentials, only operations made of PUBLIC_ROOT_FIELDS, only results without errors; keyed by the
 * document, variables, operation name and the request's tenant. Mutations are never cached; the domain
 * services invalidate the page, whichever adapter made the write.
 */
function publicResponseCache(cache: PublicPageCache): Plugin {
  const notPublic = Object.keys(schema.getQueryType()!.getFields())
    .filter((f) => !PUBLIC_ROOT_FIELDS.has(f))
    .map((f) => [`Query.${f}`, 0] as const);
  return useResponseCache<ServerContext>({
    cache: cache.store,
    ttl: cache.ttlMs,
    ttlPerSchemaCoordinate: Object.fromEntries(notPublic),
    // Must stay true: with false, @envelop/response-cache caches mutation results like query results (a
    // repeated anonymous login would be answered from the cache without running). True sends mutations down
    // its invalidation path, never into the cache; the domain services still do the real invalidation.
    invalidateViaMutation: true,
    session: () => null,
    enabled: (_req, ctx) => cache.enabled && ctx.serviceContext?.credentials === "none",
    buildResponseCacheKey: ({ documentString, variableValues, operationName, context }) =>
      cacheKey((context as ServerContext).serviceContext?.tenant ?? null, operationName, variableValues, documentString),
  });
}

/**
 * The response media type yoga answers for the Accept headers that browsers and our web app send (checked
 * against yoga by tests/integration/public-cache.test.ts); other Accept headers go through yoga.
 */
const RESPONSE_TYPE_BY_ACCEPT = new Map<string | undefined, string>([
  [undefined, "application/json"],
  ["*/*", "application/json"],
  ["application/json", "application/json"],
  ["application/graphql-response+json", "application/graphql-response+json"],
  ["application/graphql-response+json, application/json", "application/graphql-response+json"],
]);

/** Serialised bodies of cached results (yoga's serialisation: the result without its `extensions.http`). */
const serialised = new WeakMap<object, string>();

/**
 * An anonymous POST /graphql whose result is in the public response cache, answered as yoga answers it from
 * that cache (same status, media type, ETag, Last-Modified and body) but without building a Fetch request,
 * running yoga's hooks and serialising again: the hot path of the public business page. Anything else
 * (credentials, other Accept headers, If-None-Match, GET, extensions in the body, a miss) returns null and
 * goes through yoga.
 */
export function cachedPublicResponse(
  cache: PublicPageCache,
  req: FastifyRequest,
  ctx: RequestContext,
): { headers: Record<string, string>; body: string } | null {
  if (!cache.enabled || ctx.credentials !== "none" || req.method !== "POST" || req.headers["if-none-match"]) return null;
  const mediaType = RESPONSE_TYPE_BY_ACCEPT.get(req.headers.accept);
  if (!mediaType || !req.headers["content-type"]?.startsWith("application/json")) return null;
  const body = req.body as { query?: unknown; variables?: unknown; operationName?: unknown } | null;
  if (!body || typeof body !== "object" || typeof body.query !== "string") return null;
  for (const k of Object.keys(body)) if (k !== "query" && k !== "variables" && k !== "operationName") return null;
  const operationName = body.operationName == null ? undefined : body.operationName;
  if (operationName !== undefined && typeof operationName !== "string") return null;
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- tsc (TypeScript 7) needs it; the linter reads types through the TypeScript 6 API, which does not
  const result = cache.store.get(cacheKey(ctx.tenant, operationName, body.variables, body.query)) as
    | (ExecutionResult & { extensions?: { http?: { headers?: Record<string, string> } } })
    | null;
  const http = result?.extensions?.http?.headers;
  if (!result || result.errors || !http) return null;
  let text = serialised.get(result);
  if (text === undefined) {
    const { http: _http, ...extensions } = result.extensions ?? {};
    text = JSON.stringify({ ...result, extensions: Object.keys(extensions).length ? extensions : undefined });
    serialised.set(result, text);
  }
  return { headers: { ...http, "content-type": `${mediaType}; charset=utf-8` }, body: text };
}

/** What a client sees of an unexpected error in production (yoga's wording). */
export const MASKED_ERROR_MESSAGE = "Unexpected error.";

/** The original error behind each masked one, for the log line (see logUnexpectedErrors). */
const maskedOriginals = new WeakMap<Error, unknown>();

/** The cause of a GraphQL error: the error a resolver (or a hook) threw, or the error itself. */
const causeOf = (error: unknown): unknown => (error instanceof GraphQLError && error.originalError ? error.originalError : error);

/**
 * Production error masking: a domain error keeps its message (they are written for users, see
 * api/shared/errors.ts) and code; GraphQL's own errors (syntax, validation, armor) pass as they are; anything
 * else (Prisma, driver, programming errors) becomes "Unexpected error." with no detail, its original kept for
 * the log.
 */
const productionMaskedErrors = {
  errorMessage: MASKED_ERROR_MESSAGE,
  isDev: false,
  maskError(error: unknown, message: string): Error {
    const cause = causeOf(error);
    if (cause instanceof DomainError) {
      return new GraphQLError(cause.message, {
        ...(error instanceof GraphQLError ? { nodes: error.nodes, source: error.source, positions: error.positions, path: error.path } : {}),
        extensions: { code: cause.code, ...(cause.reason ? { reason: cause.reason } : {}) },
      });
    }
    const masked = yogaMaskError(error, message, false);
    if (masked !== error) maskedOriginals.set(masked, cause);
    return masked;
  },
};

/**
 * Writes one error log line (with the request id: the service context's logger is Fastify's request logger)
 * for each unexpected error of a result: in production the errors masked above, elsewhere any error that did
 * not come from GraphQL itself or from a domain rule. Every answer passes here, also one whose operation never
 * ran (an error in a plugin before execution).
 */
function logUnexpectedErrors(): Plugin<ServerContext> {
  return {
    onResultProcess({ result, serverContext: context }) {
      if (!result || isAsyncIterable(result)) return;
      const results = Array.isArray(result) ? result : [result];
      for (const r of results) {
        for (const error of (r as ExecutionResult).errors ?? []) {
          const cause = maskedOriginals.get(error) ?? causeOf(error);
          if (cause instanceof GraphQLError || cause instanceof DomainError) continue;
          const log = (context as unknown as ServerContext).serviceContext?.log;
          log?.error({ err: cause, path: error.path?.join(".") }, "GraphQL request failed");
          noteRequestError(cause);
        }
      }
    },
  };
}

/**
 * Production: introspection (`__schema`, `__type`) only for partner API tokens and platform administrators;
 * anyone else gets a validation error (HTTP 400) and nothing runs.
 * Outside production it stays open (GraphiQL, the Relay compiler).
 */
function introspectionForPartnersAndAdmins(): Plugin<ServerContext> {
  // The name keys yoga's validation cache: a document validated with this rule is cached apart from the same
  // document validated without it.
  const IntrospectionNeedsPartnerOrAdmin = (ctx: ValidationContext): ASTVisitor => ({
    Field(node) {
      const type = getNamedType(ctx.getType());
      if (type && isIntrospectionType(type)) {
        ctx.reportError(
          new GraphQLError(`Introspection is available to partner API tokens and administrators only ("${node.name.value}").`, {
            nodes: node,
            extensions: { code: "INTROSPECTION_DISABLED" },
          }),
        );
      }
    },
  });
  return {
    onValidate({ context, addValidationRule }) {
      const actor = (context as unknown as ServerContext).serviceContext?.actor;
      const allowed = actor?.kind === "partner" || (actor?.kind === "user" && actor.user.isAdmin);
      if (!allowed) addValidationRule(IntrospectionNeedsPartnerOrAdmin);
    },
  };
}

/** A mutation's answers read what it wrote: the rows the login session read beside it are dropped first. */
function freshReadsAfterWrites(): Plugin<ServiceContext> {
  return {
    onExecute({ args }) {
      if (getOperationAST(args.document, args.operationName)?.operation === "mutation") dropSessionReads(args.contextValue);
    },
  };
}

/**
 * GraphQL over HTTP. Armor bounds what one request may cost: depth, aliases, directives, tokens and an
 * estimated cost, so a single query cannot exhaust the server (api/graphql/limits.ts); a refused document
 * answers HTTP 400.
 */
export function createGraphQL(opts: { production: boolean; publicCache?: PublicPageCache; plugins?: Plugin<ServerContext>[] }): YogaServerInstance<ServerContext, ServiceContext> {
  return createYoga<ServerContext, ServiceContext>({
    schema,
    graphqlEndpoint: "/graphql",
    context: ({ serviceContext }) => serviceContext,
    graphiql: !opts.production,
    landingPage: false,
    // CORS is the server's one policy (server/cors.ts): yoga's own would echo any Origin with credentials.
    cors: false,
    maskedErrors: opts.production ? productionMaskedErrors : false,
    logging: false,
    plugins: [
      ...(opts.production ? [introspectionForPartnersAndAdmins()] : []),
      logUnexpectedErrors(),
      // Metrics and log bindings of each operation (api/observability/graphql.ts): before the response cache, which may answer at onExecute.
      ...(opts.plugins ?? []),
      inputLimitsPlugin(),
      // Forged connection cursors: refused before execution (api/graphql/cursors.ts).
      cursorsPlugin(),
      freshReadsAfterWrites(),
      graphqlArmor({ production: opts.production }),
      refusedRequestsAnswer400(),
      ...(opts.publicCache && opts.publicCache.ttlMs > 0 ? [publicResponseCache(opts.publicCache)] : []),
    ],
  });
}
