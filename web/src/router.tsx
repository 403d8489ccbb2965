import { lazy } from "react";
import { createBrowserRouter } from "react-router";
import { PageShell } from "./ui/PageShell.tsx";

// One chunk per route: a visitor of the home page does not download the business pages.
const HomeRoute = lazy(() => import("./routes/HomeRoute.tsx"));
const BusinessesRoute = lazy(() => import("./routes/BusinessesRoute.tsx"));
const BusinessRoute = lazy(() => import("./routes/BusinessRoute.tsx"));
const NotFoundRoute = lazy(() => import("./routes/NotFoundRoute.tsx"));

export const router = createBrowserRouter([
  {
    element: <PageShell />,
    children: [
      { index: true, element: <HomeRoute /> },
      { path: "businesses", element: <BusinessesRoute /> },
      { path: "b/:slug", element: <BusinessRoute /> },
      { path: "*", element: <NotFoundRoute /> },
    ],
  },
]);
