import { EnvelopArmorPlugin } from "@escape.tech/graphql-armor";
import { createYoga, type YogaServerInstance } from "graphql-yoga";
import type { ServiceContext } from "../context.ts";
import { schema } from "./schema.ts";

/**
 * GraphQL over HTTP. Armor bounds what one request may cost: depth, aliases, directives, tokens and an
 * estimated cost, so a single query cannot exhaust the server.
 */
export function createGraphQL(opts: { production: boolean }): YogaServerInstance<{ serviceContext: ServiceContext }, ServiceContext> {
  return createYoga<{ serviceContext: ServiceContext }, ServiceContext>({
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
    ],
  });
}
