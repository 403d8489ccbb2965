/**
 * What one GraphQL request may cost (graphql-armor), and how a refused document is answered: HTTP 400 with one
 * error per refusal, a message a developer can act on and an `extensions.code`, whatever the Accept header.
 *
 * Armor's own refusals say "Syntax Error: …", are thrown from the parser or from a validation rule and answer
 * 200 without `data`. Here the parse-time limit (tokens) throws our error instead, and the validation-time
 * limits (depth, aliases, directives, cost) report theirs beside graphql-js's own validation errors.
 */
import { EnvelopArmorPlugin } from "@escape.tech/graphql-armor";
import { GraphQLError, type ExecutionResult, type ValidationContext } from "graphql";
import { isAsyncIterable, type Plugin } from "graphql-yoga";

const GRAPHQL_LIMITS = {
  /** Levels of fields (fragments flattened). */
  depth: 12,
  aliases: 15,
  directives: 20,
  /** Lexical tokens of the document. */
  tokens: 4000,
  /** Armor's estimate: objects 2, scalars 1, ×1.5 per level of fields (fragments flattened), × `first`/`last` of a connection. */
  cost: 20000,
} as const;

type Limit = keyof typeof GRAPHQL_LIMITS;

/** Armor's rejection callback: the validation context (null at parse time) and armor's own error. */
type OnReject = (ctx: ValidationContext | null, error: GraphQLError) => void;

/** The code of a refusal by one of the limits above (graphql-js's own refusals keep yoga's codes). */
const QUERY_TOO_COMPLEX = "QUERY_TOO_COMPLEX";

/** "…, found 13." at the end of armor's message: what the document has, when armor says it. */
function foundIn(error: GraphQLError): number | null {
  const match = /found (\d+(?:\.\d+)?)\.?$/.exec(error.message);
  return match ? Math.ceil(Number(match[1])) : null;
}

const MESSAGES: Record<Limit, (max: number, found: number | null) => string> = {
  depth: (max, found) => `Query is too deep: ${found === null ? "" : `${found} levels, `}at most ${max} are allowed.`,
  aliases: (max, found) => `Query has too many aliases: ${found === null ? "" : `${found}, `}at most ${max} are allowed.`,
  directives: (max, found) => `Query has too many directives: ${found === null ? "" : `${found}, `}at most ${max} are allowed.`,
  tokens: (max) => `Query is too long: at most ${max} tokens are allowed.`,
  cost: (max, found) => `Query is too expensive: ${found === null ? "" : `an estimated cost of ${found}, `}at most ${max} is allowed.`,
};

function refusal(limit: Limit, armorError: GraphQLError): GraphQLError {
  return new GraphQLError(MESSAGES[limit](GRAPHQL_LIMITS[limit], foundIn(armorError)), {
    extensions: { code: QUERY_TOO_COMPLEX, reason: `max_${limit}` },
  });
}

/** A validation-time limit: reported as a validation error, so validation goes on and nothing runs. */
function reportAs(limit: Limit) {
  const onReject: OnReject = (ctx, error) => ctx?.reportError(refusal(limit, error));
  return { onReject: [onReject], propagateOnRejection: false };
}

/** The parse-time limit (tokens): the parser stops with our error instead of armor's. */
function throwAs(limit: Limit) {
  const onReject: OnReject = (_ctx, error) => {
    throw refusal(limit, error);
  };
  return { onReject: [onReject] };
}

/** Armor with the limits above; field suggestions ("Did you mean …?") are left out in production. */
export function graphqlArmor(opts: { production: boolean }) {
  return EnvelopArmorPlugin({
    // Depth counts levels of fields, not of fragments: each of Relay's colocated fragments otherwise counted as one
    // more level, so splitting a component in two could refuse a query asking for the same fields.
    maxDepth: { n: GRAPHQL_LIMITS.depth, flattenFragments: true, ...reportAs("depth") },
    maxAliases: { n: GRAPHQL_LIMITS.aliases, ...reportAs("aliases") },
    maxDirectives: { n: GRAPHQL_LIMITS.directives, ...reportAs("directives") },
    maxTokens: { n: GRAPHQL_LIMITS.tokens, ...throwAs("tokens") },
    // Fragments flattened: Relay's colocated fragments (one per component) are how the web app writes its queries,
    // and armor's default priced each fragment level as one more level of fields (×1.5, twice over), so moving
    // the member portal's fields into one more component's fragment took it over the limit. Flattened, the
    // portal's query is estimated 5,521 (12,795 before); tests/integration/graphql-edge.test.ts has the case.
    costLimit: { maxCost: GRAPHQL_LIMITS.cost, flattenFragments: true, ...reportAs("cost") },
    blockFieldSuggestion: { enabled: opts.production },
  });
}

/**
 * A request refused before anything ran (a syntax error, a validation error, a limit above, a malformed
 * request) answers HTTP 400 for every Accept header. Yoga marks these errors as the GraphQL-over-HTTP
 * specification's (`extensions.http.spec`), which makes it answer 200 to `Accept: application/json`; a client
 * reading the status (our web app, curl, a monitor counting 4xx) would then see a success with nothing in it.
 * Variables that do not fit their types (400 already) get the code the other input refusals have.
 */
export function refusedRequestsAnswer400(): Plugin {
  return {
    onResultProcess({ result }) {
      if (Array.isArray(result) || isAsyncIterable(result)) return;
      const single = result as ExecutionResult;
      if ("data" in single || !single.errors?.length) return;
      for (const error of single.errors) {
        const extensions = error.extensions as { code?: unknown; http?: { status?: number; spec?: boolean } } | undefined;
        if (extensions?.http?.status !== 400) continue;
        extensions.http.spec = false;
        extensions.code ??= "BAD_USER_INPUT";
      }
    },
  };
}
