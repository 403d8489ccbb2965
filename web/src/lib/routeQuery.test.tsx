import { Suspense } from "react";
import { act, cleanup, render, screen } from "@testing-library/react";
import { graphql, RelayEnvironmentProvider } from "react-relay";
import { Environment, Network, Observable, RecordSource, Store, type GraphQLResponse } from "relay-runtime";
import { afterEach, describe, expect, it } from "vitest";
import type { routeQueryTestQuery } from "./__generated__/routeQueryTestQuery.graphql.ts";
import { preloadRouteQueries, useRouteQuery } from "./routeQuery.ts";

const query = graphql`
  query routeQueryTestQuery {
    viewer {
      username
    }
  }
`;

/** A Relay environment whose server answers each request when the test says so. */
function fakeServer() {
  const requests: { respond: (username: string) => void; cancelled: boolean }[] = [];
  const network = Network.create(() =>
    Observable.create<GraphQLResponse>((sink) => {
      const request = {
        cancelled: false,
        respond: (username: string) => {
          sink.next({ data: { viewer: { id: "u1", username } } });
          sink.complete();
        },
      };
      requests.push(request);
      return () => {
        request.cancelled = true;
      };
    }),
  );
  return { environment: new Environment({ network, store: new Store(new RecordSource()) }), requests };
}

const route = { query: () => Promise.resolve({ default: query }), variables: () => ({}), fetchPolicy: "network-only" as const };

function Viewer({ fetchKey }: { fetchKey?: number }) {
  const data = useRouteQuery<routeQueryTestQuery>(query, {}, { fetchKey, fetchPolicy: "network-only" });
  return <p>Signed in as {data.viewer?.username}</p>;
}

function page(environment: Environment, fetchKey?: number) {
  return (
    <RelayEnvironmentProvider environment={environment}>
      <Suspense fallback={<p>Loading…</p>}>
        <Viewer fetchKey={fetchKey} />
      </Suspense>
    </RelayEnvironmentProvider>
  );
}

/** Lets the query module's promise and React's work settle. */
const settle = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));

afterEach(cleanup);

describe("route queries", () => {
  it("the request leaves when the router matches the route, and the route renders its answer without asking again", async () => {
    const { environment, requests } = fakeServer();
    preloadRouteQueries(environment, "navigation-1", [{ route, params: {} }]);
    await settle();
    expect(requests).toHaveLength(1); // before anything rendered

    render(page(environment));
    expect(screen.getByText("Loading…")).toBeTruthy();
    act(() => requests[0].respond("ada"));
    expect(await screen.findByText("Signed in as ada")).toBeTruthy();
    expect(requests).toHaveLength(1);
  });

  it("a refetch key loads again; leaving the route and preloading for a navigation nobody rendered cancels what no page took", async () => {
    const { environment, requests } = fakeServer();
    preloadRouteQueries(environment, "navigation-2", [{ route, params: {} }]);
    await settle();
    const { rerender, unmount } = render(page(environment));
    act(() => requests[0].respond("ada"));
    await screen.findByText("Signed in as ada");

    rerender(page(environment, 1)); // Try Again, a new session…
    expect(requests).toHaveLength(2);
    act(() => requests[1].respond("grace"));
    expect(await screen.findByText("Signed in as grace")).toBeTruthy();

    unmount();
    await settle();
    preloadRouteQueries(environment, "navigation-3", [{ route, params: {} }]);
    await settle();
    expect(requests).toHaveLength(3); // the route's reference went with it: nothing stale is reused
    preloadRouteQueries(environment, "navigation-4", []); // navigated elsewhere before the answer came
    expect(requests[2].cancelled).toBe(true);
  });

  it("variables read by a module loaded beside the query (the admin session): nothing leaves when they say so, the request otherwise", async () => {
    const { environment, requests } = fakeServer();
    const isAdmin = (admin: boolean) => Promise.resolve(admin);
    preloadRouteQueries(environment, "navigation-5", [{ route: { ...route, variables: () => isAdmin(true).then((admin) => (admin ? null : {})) }, params: {} }]);
    await settle();
    expect(requests).toHaveLength(0);

    preloadRouteQueries(environment, "navigation-6", [{ route: { ...route, variables: () => isAdmin(false).then((admin) => (admin ? null : {})) }, params: {} }]);
    await settle();
    expect(requests).toHaveLength(1);
    render(page(environment));
    act(() => requests[0].respond("ada"));
    expect(await screen.findByText("Signed in as ada")).toBeTruthy();
    expect(requests).toHaveLength(1); // the route took the preloaded request
  });
});
