import { Environment, Network, RecordSource, Store, type FetchFunction } from "relay-runtime";
import { apiHeaders } from "./tenant.ts";

const GRAPHQL_PATH = "/graphql";

/** Thrown for transport failures and GraphQL errors, so error boundaries can show a retry. */
export class GraphQLRequestError extends Error {
  /** HTTP status of the answer (0 when there was none: the network failed). */
  readonly status: number;
  /** The errors' `extensions.code`s (NOT_FOUND, FORBIDDEN…; production answers carry them), in order. */
  readonly codes: readonly string[];

  constructor(message: string, status: number, codes: readonly string[] = []) {
    super(message);
    this.name = "GraphQLRequestError";
    this.status = status;
    this.codes = codes;
  }
}

/** The GraphQL errors of an answer body (an empty list when it has none). */
function errorsOf(body: unknown): unknown[] {
  const errors = (body as { errors?: unknown } | null)?.errors;
  return Array.isArray(errors) ? errors : [];
}

/** The messages of a GraphQL answer's `errors`, joined, or "" when it has none. */
function errorMessages(body: unknown): string {
  return errorsOf(body)
    .map((e) => (e as { message?: unknown } | null)?.message)
    .filter((m): m is string => typeof m === "string" && m !== "")
    .join("; ");
}

/** The `extensions.code` of each error of an answer body that has one. */
function errorCodes(body: unknown): string[] {
  return errorsOf(body)
    .map((e) => (e as { extensions?: { code?: unknown } } | null)?.extensions?.code)
    .filter((c): c is string => typeof c === "string");
}

/**
 * Whether a query failed because what it asked for does not exist: the server's NotFoundError ("… not found"),
 * a root field's. Production answers name it by its code; development ones carry its message only.
 */
export function isNotFoundError(error: unknown): boolean {
  if (!(error instanceof GraphQLRequestError)) return false;
  return error.codes.includes("NOT_FOUND") || (error.codes.length === 0 && / not found$/.test(error.message));
}

/**
 * Relay's network layer. Any answer that is not a 2xx is a failure, whatever its body holds (the server answers
 * 400 to a document it refuses, with `errors` and no `data`), and so is an answer without `data`: Relay would
 * otherwise render nothing and no error, and the screen would stay blank.
 */
export const fetchGraphQL: FetchFunction = async (operation, variables) => {
  const response = await fetch(GRAPHQL_PATH, {
    method: "POST",
    credentials: "include",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/graphql-response+json, application/json",
      ...apiHeaders({ requestPath: GRAPHQL_PATH, pagePath: window.location.pathname }),
    },
    body: JSON.stringify({ query: operation.text, variables }),
  }).catch(() => {
    throw new GraphQLRequestError("Could not reach the server. Check your connection and try again.", 0);
  });
  const body = await response.json().catch(() => null);
  if (!response.ok || !body || typeof body !== "object" || !body.data) {
    // Errors without data cannot be rendered: surface them to the nearest error boundary.
    throw new GraphQLRequestError(errorMessages(body) || `GraphQL request failed with HTTP ${response.status}`, response.status, errorCodes(body));
  }
  return body;
};

export function createRelayEnvironment(): Environment {
  return new Environment({ network: Network.create(fetchGraphQL), store: new Store(new RecordSource()) });
}
