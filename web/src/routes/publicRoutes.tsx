import { lazy } from "react";
import type { RouteObject } from "react-router";

// One chunk per route: a visitor of the home page does not download the business pages.
const HomeRoute = lazy(() => import("./HomeRoute.tsx"));
const BusinessesRoute = lazy(() => import("./BusinessesRoute.tsx"));
const BusinessRoute = lazy(() => import("./BusinessRoute.tsx"));

/** The public site, the business pages, checkout and the member portal, inside the site shell. */
export const publicRoutes: RouteObject[] = [
  { index: true, element: <HomeRoute /> },
  { path: "businesses", element: <BusinessesRoute /> },
  { path: "b/:slug", element: <BusinessRoute /> },
];
