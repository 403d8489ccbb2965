import { Component, lazy, type ReactNode } from "react";
import { useLocation, useRoutes, type Location, type RouteObject } from "react-router";
import { PageShell } from "./ui/PageShell.tsx";
import { adminRoutes } from "./routes/adminRoutes.tsx";
import { publicRoutes } from "./routes/publicRoutes.tsx";

const NotFoundRoute = lazy(() => import("./routes/NotFoundRoute.tsx"));

export const routes: RouteObject[] = [
  {
    element: <PageShell />,
    children: [...publicRoutes, { path: "*", element: <NotFoundRoute /> }],
  },
  ...adminRoutes,
];

/**
 * The routes in React Router's declarative mode (`<BrowserRouter>` in main.tsx). The app uses no loaders,
 * actions or blockers, so the data router (`createBrowserRouter`, ~17 kB gzip more in the entry chunk) bought
 * nothing. Both wrap navigations in startTransition: the current page stays until the next route's chunk has
 * loaded.
 */
export function AppRoutes() {
  const location = useLocation();
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
