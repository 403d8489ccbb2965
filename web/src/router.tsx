import { Component, lazy, type ReactNode } from "react";
import { useRelayEnvironment } from "react-relay";
import { matchRoutes, useLocation, useRoutes, type Location, type RouteObject } from "react-router";
import type { IEnvironment } from "relay-runtime";
import { preloadRouteQueries, type RouteData } from "./lib/routeQuery.ts";
import { useScrollRestoration } from "./lib/scrollRestoration.ts";
import { PageShell } from "./ui/PageShell.tsx";
import { adminRoutes } from "./routes/adminRoutes.tsx";
import { publicRoutes } from "./routes/publicRoutes.tsx";

const NotFoundRoute = lazy(() => import("./routes/NotFoundRoute.tsx"));

const routes: RouteObject[] = [
  {
    element: <PageShell />,
    children: [...publicRoutes, { path: "*", element: <NotFoundRoute /> }],
  },
  ...adminRoutes,
];

/**
 * Starts loading what the routes matching `location` declare in their `handle` (lib/routeQuery.ts `RouteData`):
 * their chunks and their queries, at once. main.tsx calls it for the first page before React renders; every
 * navigation calls it when the router renders the new location, before the routes' components render (and
 * suspend on their chunk). The role loaders play in React Router's data router.
 */
export function preloadRoute(environment: IEnvironment, location: Pick<Location, "pathname" | "key">): void {
  const matches = matchRoutes(routes, location.pathname) ?? [];
  const queries = [];
  for (const { route, params } of matches) {
    const data = route.handle as RouteData | undefined;
    data?.chunk?.().catch(() => undefined); // React.lazy reports a failed download when the route renders
    for (const query of [data?.query ?? []].flat()) queries.push({ route: query, params });
  }
  preloadRouteQueries(environment, location.key, queries);
}

/**
 * The routes in React Router's declarative mode (`<BrowserRouter>` in main.tsx): the data router
 * (`createBrowserRouter`, ~17 kB gzip more in the entry chunk) would only add its loaders, and `preloadRoute`
 * does their work. Both wrap navigations in startTransition: the current page stays until the next route's
 * chunk and data have loaded. Scroll restoration, the data router's `<ScrollRestoration />`, is
 * lib/scrollRestoration.ts.
 */
export function AppRoutes() {
  const location = useLocation();
  preloadRoute(useRelayEnvironment(), location);
  useScrollRestoration();
  return <RouteErrorBoundary location={location}>{useRoutes(routes)}</RouteErrorBoundary>;
}

/**
 * What the data router showed for an error no route catches (its default error element), cleared on the next
 * navigation as it was. Routes catch their own loading errors (ui/ErrorBoundary.tsx); this is the last resort.
 */
class RouteErrorBoundary extends Component<{ location: Location; children: ReactNode }, { error: unknown; location: Location }> {
  state = { error: undefined as unknown, location: this.props.location };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(props: { location: Location }, state: { location: Location }) {
    return props.location !== state.location ? { error: undefined, location: props.location } : null;
  }

  componentDidCatch(error: unknown) {
    console.error("React Router caught the following error during render", error);
  }

  render() {
    const { error } = this.state;
    if (error === undefined) return this.props.children;
    const message = error instanceof Error ? error.message : JSON.stringify(error);
    const stack = error instanceof Error ? error.stack : null;
    return (
      <>
        <h2>Unexpected Application Error!</h2>
        <h3 style={{ fontStyle: "italic" }}>{message}</h3>
        {stack ? <pre style={{ padding: "0.5rem", backgroundColor: "rgba(200,200,200, 0.5)" }}>{stack}</pre> : null}
      </>
    );
  }
}
