import { Environment, Network, RecordSource, Store, type FetchFunction } from "relay-runtime";
import { apiHeaders } from "./tenant.ts";

const GRAPHQL_PATH = "/graphql";

/** Thrown for transport failures and GraphQL errors, so error boundaries can show a retry. */
export class GraphQLRequestError extends Error {}

const fetchGraphQL: FetchFunction = async (operation, variables) => {
  const response = await fetch(GRAPHQL_PATH, {
    method: "POST",
    credentials: "include",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/graphql-response+json, application/json",
      ...apiHeaders({ requestPath: GRAPHQL_PATH, pagePath: window.location.pathname }),
    },
    body: JSON.stringify({ query: operation.text, variables }),
  });
  const body = await response.json().catch(() => null);
  if (!body || (!response.ok && !body.data)) {
    throw new GraphQLRequestError(`GraphQL request failed with HTTP ${response.status}`);
  }
  // Field errors without data cannot be rendered: surface them to the nearest error boundary.
  if (Array.isArray(body.errors) && body.errors.length && !body.data) {
    throw new GraphQLRequestError(body.errors.map((e: { message: string }) => e.message).join("; "));
  }
  return body;
};

export function createRelayEnvironment(): Environment {
  return new Environment({ network: Network.create(fetchGraphQL), store: new Store(new RecordSource()) });
}
