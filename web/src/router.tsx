import { lazy } from "react";
import { createBrowserRouter } from "react-router";
import { PageShell } from "./ui/PageShell.tsx";
import { adminRoutes } from "./routes/adminRoutes.tsx";
import { publicRoutes } from "./routes/publicRoutes.tsx";

const NotFoundRoute = lazy(() => import("./routes/NotFoundRoute.tsx"));

export const router = createBrowserRouter([
  {
    element: <PageShell />,
    children: [...publicRoutes, { path: "*", element: <NotFoundRoute /> }],
  },
  ...adminRoutes,
]);
