import { createHash } from "node:crypto";
import { EnvelopArmorPlugin } from "@escape.tech/graphql-armor";
import { useResponseCache } from "@graphql-yoga/plugin-response-cache";
import { createYoga, type Plugin, type YogaServerInstance } from "graphql-yoga";
import type { ServiceContext } from "../context.ts";
import type { RequestContext } from "../server.ts";
import type { PublicPageCache } from "../pages/public-cache.ts";
import { schema } from "./schema.ts";

/**
 * Root fields whose anonymous answers are the same for every visitor and change only through writes that
 * call publicPageChanged: the public business page (`business`) and the anonymous `viewer` (null). An
 * operation selecting any other root field is never cached.
 */
const PUBLIC_ROOT_FIELDS = new Set(["business", "viewer"]);

type ServerContext = { serviceContext: RequestContext };

/**
 * The response cache of anonymous public reads (see api/pages/public-cache.ts): only requests without
 * credentials, only operations made of PUBLIC_ROOT_FIELDS, only results without errors; keyed by the
 * document, variables, operation name and the request's tenant. Mutations do not invalidate by themselves:
 * the domain services do, whichever adapter made the write.
 */
function publicResponseCache(cache: PublicPageCache): Plugin {
  const notPublic = Object.keys(schema.getQueryType()!.getFields())
    .filter((f) => !PUBLIC_ROOT_FIELDS.has(f))
    .map((f) => [`Query.${f}`, 0] as const);
  return useResponseCache<ServerContext>({
    cache: cache.store,
    ttl: cache.ttlMs,
    ttlPerSchemaCoordinate: Object.fromEntries(notPublic),
    invalidateViaMutation: false,
    session: () => null,
    enabled: (_req, ctx) => cache.enabled && ctx.serviceContext?.credentials === "none",
    buildResponseCacheKey: ({ documentString, variableValues, operationName, context }) =>
      createHash("sha256")
        .update(`${(context as unknown as ServerContext).serviceContext?.tenant ?? ""}|${operationName ?? ""}|${JSON.stringify(variableValues ?? {})}|${documentString}`)
        .digest("base64url"),
  });
}

/**
 * GraphQL over HTTP. Armor bounds what one request may cost: depth, aliases, directives, tokens and an
 * estimated cost, so a single query cannot exhaust the server.
 */
export function createGraphQL(opts: { production: boolean; publicCache?: PublicPageCache }): YogaServerInstance<ServerContext, ServiceContext> {
  return createYoga<ServerContext, ServiceContext>({
    schema,
    graphqlEndpoint: "/graphql",
    context: ({ serviceContext }) => serviceContext,
    graphiql: !opts.production,
    landingPage: false,
    maskedErrors: opts.production,
    logging: false,
    plugins: [
      EnvelopArmorPlugin({
        maxDepth: { n: 12 },
        maxAliases: { n: 15 },
        maxDirectives: { n: 20 },
        maxTokens: { n: 4000 },
        costLimit: { maxCost: 20000 },
        blockFieldSuggestion: { enabled: opts.production },
      }),
      ...(opts.publicCache && opts.publicCache.ttlMs > 0 ? [publicResponseCache(opts.publicCache)] : []),
    ],
  });
}
