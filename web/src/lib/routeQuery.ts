import { useEffect, useMemo, useState } from "react";
import { loadQuery, usePreloadedQuery, useRelayEnvironment, type PreloadedQuery } from "react-relay";
import { getRequest, stableCopy, type FetchPolicy, type GraphQLTaggedNode, type IEnvironment, type OperationType, type VariablesOf } from "relay-runtime";

/**
 * Route queries loaded before their route renders (Relay's render-as-you-fetch): the router starts a route's
 * query when it matches the location (router.tsx `preloadRoute`, main.tsx for the first page), in parallel with
 * the route's code, and the route reads the reference with `useRouteQuery`. One reference per query and
 * variables (and refetch key); a route that unmounts disposes its references, a navigation disposes the ones
 * nobody took.
 */
interface Entry {
  ref: PreloadedQuery<OperationType>;
  /** Mounted routes reading it; disposed when the last one leaves. */
  users: number;
  /** The navigation (React Router location key) that preloaded it, or null when a route loaded it itself. */
  navigation: string | null;
}

const entries = new Map<string, Entry>();

function keyOf(query: GraphQLTaggedNode, variables: object, fetchKey: string | number | undefined): string {
  return `${getRequest(query).params.name}:${JSON.stringify(stableCopy(variables))}:${fetchKey ?? ""}`;
}

function drop(key: string, entry: Entry) {
  entry.ref.dispose();
  if (entries.get(key) === entry) entries.delete(key);
}

/** A mounted route takes the entry; the returned cleanup gives it back, disposing it when nobody else took it. */
function take(key: string, entry: Entry): () => void {
  entry.users += 1;
  return () => {
    entry.users -= 1;
    // After the commit phase: StrictMode's remount (and a re-render taking the same reference) comes first.
    setTimeout(() => {
      if (entry.users === 0) drop(key, entry);
    }, 0);
  };
}

function load<T extends OperationType>(environment: IEnvironment, key: string, query: GraphQLTaggedNode, variables: VariablesOf<T>, fetchPolicy: FetchPolicy, navigation: string | null): Entry {
  const entry: Entry = { ref: loadQuery<T>(environment, query, variables, { fetchPolicy }), users: 0, navigation };
  entries.set(key, entry);
  return entry;
}

/** What a route declares to have its query started by the router: the query's module and its variables. */
export interface RouteQuery<P = Record<string, string | undefined>> {
  /** The generated query artifact, imported on its own so it does not wait for the route's chunk. */
  query: () => Promise<{ default: GraphQLTaggedNode }>;
  /**
   * null: nothing to load. A promise when they need code the entry should not carry (admin session, the stored
   * checkout selection): imported then, beside the query's module.
   */
  variables: (params: P) => object | null | Promise<object | null>;
  fetchPolicy?: FetchPolicy;
}

/** A route object's `handle`: what starts loading when the route matches (its chunk, its query). */
export interface RouteData {
  chunk?: () => Promise<unknown>;
  /** Several when one request would cost more than the server allows: they leave together. */
  query?: RouteQuery | RouteQuery[];
}

/** Loaded queries of the previous navigation that no route took. */
let lastNavigation: string | null = null;

/**
 * Starts the queries of a navigation (`navigation` is its location key: the same key is one navigation however
 * often the router renders it). Queries preloaded for an earlier navigation and not taken by a route are
 * disposed; one that failed (never taken) goes with them.
 */
export function preloadRouteQueries(environment: IEnvironment, navigation: string, routes: { route: RouteQuery; params: Record<string, string | undefined> }[]): void {
  if (navigation === lastNavigation) return;
  lastNavigation = navigation;
  for (const [key, entry] of entries) {
    if (entry.users === 0 && entry.navigation !== null) drop(key, entry);
  }
  for (const { route, params } of routes) {
    const variables = route.variables(params);
    if (!variables) continue;
    Promise.all([route.query(), variables])
      .then(([{ default: query }, resolved]) => {
        if (!resolved || lastNavigation !== navigation) return;
        const key = keyOf(query, resolved, undefined);
        const current = entries.get(key);
        if (current && !current.ref.isDisposed) return;
        load(environment, key, query, resolved, route.fetchPolicy ?? "store-or-network", navigation);
      })
      .catch(() => undefined); // the route's own chunk load reports a failed download
  }
}

/**
 * The route's query data: the reference the router preloaded for these variables, or one loaded now (a refetch
 * key, or a route rendered without a navigation). `fetchKey` undefined means the route's first load; any other
 * value loads again with `fetchPolicy`.
 */
export function useRouteQuery<T extends OperationType>(query: GraphQLTaggedNode, variables: VariablesOf<T>, options: { fetchKey?: string | number; fetchPolicy?: FetchPolicy } = {}): T["response"] {
  const environment = useRelayEnvironment();
  const key = keyOf(query, variables, options.fetchKey);
  const fetchPolicy = options.fetchPolicy ?? "store-or-network";
  // Looked up again on every render until the route commits (a suspended first render keeps no memo).
  const entry = useMemo(() => {
    const current = entries.get(key);
    if (current && !current.ref.isDisposed) return current;
    return load<T>(environment, key, query, variables, fetchPolicy, null);
    // The key stands for the query and variables.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [environment, key]);
  useEffect(() => take(key, entry), [entry, key]);
  return usePreloadedQuery<T>(query, entry.ref);
}

/**
 * A refetch key for `useRouteQuery`: undefined while `parts` (a retry count, the session version…) keep the
 * values they had when the calling component mounted, so the first render takes the preloaded query; their
 * values joined once any changes. Call it in a component that stays mounted while the query loads.
 */
export function useRefetchKey(...parts: (string | number)[]): string | undefined {
  const now = parts.join(":");
  const [first] = useState(now);
  return now === first ? undefined : now;
}
