import { lazy } from "react";
import { Navigate, type RouteObject } from "react-router";
import type { RouteData, RouteQuery } from "../lib/routeQuery.ts";

// Every admin module is its own chunk, loaded only under /admin: the public pages never download them.
const AdminLayout = lazy(() => import("./admin/AdminLayoutRoute.tsx"));
const AdminHomeRoute = lazy(() => import("./admin/AdminHomeRoute.tsx"));
const BusinessDashboardRoute = lazy(() => import("./admin/BusinessDashboardRoute.tsx"));
const AdminBusinessesRoute = lazy(() => import("./admin/AdminBusinessesRoute.tsx"));
const MyBusinessesRoute = lazy(() => import("./admin/MyBusinessesRoute.tsx"));
const HomePageEditorRoute = lazy(() => import("./admin/HomePageEditorRoute.tsx"));
const BusinessPageEditorRoute = lazy(() => import("./admin/BusinessPageEditorRoute.tsx"));
const PagePreviewRoute = lazy(() => import("./admin/PagePreviewRoute.tsx"));
const NextBoxesRoute = lazy(() => import("./admin/NextBoxesRoute.tsx"));
const NextBoxEditorRoute = lazy(() => import("./admin/NextBoxEditorRoute.tsx"));
const MembershipsRoute = lazy(() => import("./admin/MembershipsRoute.tsx"));
const BusinessMembershipsRoute = lazy(() => import("./admin/BusinessMembershipsRoute.tsx"));
const MemberRoute = lazy(() => import("./admin/MemberRoute.tsx"));
const FulfilmentRoute = lazy(() => import("./admin/FulfilmentRoute.tsx"));
const FulfilmentBusinessesRoute = lazy(() => import("./admin/FulfilmentBusinessesRoute.tsx"));
const CouponsRoute = lazy(() => import("./admin/CouponsRoute.tsx"));
const BusinessCouponsRoute = lazy(() => import("./admin/BusinessCouponsRoute.tsx"));
const UsersRoute = lazy(() => import("./admin/UsersRoute.tsx"));
const ChangePasswordRoute = lazy(() => import("./admin/ChangePasswordRoute.tsx"));
const ApiTokensRoute = lazy(() => import("./admin/ApiTokensRoute.tsx"));
const JobsRoute = lazy(() => import("./admin/JobsRoute.tsx"));
const MailRoute = lazy(() => import("./admin/MailRoute.tsx"));
const PayoutsRoute = lazy(() => import("./admin/PayoutsRoute.tsx"));
const FeesRoute = lazy(() => import("./admin/FeesRoute.tsx"));

/** The route's query, started by the router with the route's chunk (lib/routeQuery.ts). */
function withQuery(query: RouteQuery["query"], variables: RouteQuery["variables"], fetchPolicy: RouteQuery["fetchPolicy"]): { handle: RouteData } {
  return { handle: { query: { query, variables, fetchPolicy } } };
}
const none = () => ({});
/** Whether the signed-in user is an administrator, read by the admin session module (not in the public entry). */
const isAdmin = () => import("../features/admin/session.ts").then(({ readAdminSession }) => readAdminSession().isAdmin);
const businessId = (p: Record<string, string | undefined>) => ({ id: Number(p.id) });

/** Whether the sidebar offers a business's Coupons, API Tokens and Payouts (AdminLayoutRoute): asked for members, not administrators. */
const businessNav: RouteQuery = {
  query: () => import("./admin/sharedQueries.ts").then((m) => ({ default: m.businessNavGateQuery })),
  variables: (p) => (Number.isSafeInteger(Number(p.id)) ? isAdmin().then((admin) => (admin ? null : businessId(p))) : null),
};

/** The Fulfilment screen's month: the path's, else null (the server's month whose box is next). */
const businessMonth = (p: Record<string, string | undefined>) => ({ id: Number(p.id), month: p.month ?? null });
const fulfilmentQuery: { handle: RouteData } = {
  handle: { query: [{ query: () => import("./admin/__generated__/FulfilmentRouteQuery.graphql.ts"), variables: businessMonth, fetchPolicy: "store-and-network" }, businessNav] },
};

/** A business's page: its own query and, beside it, the sidebar's. */
function withBusinessQuery(query: RouteQuery["query"], fetchPolicy: RouteQuery["fetchPolicy"]): { handle: RouteData } {
  return { handle: { query: [{ query, variables: businessId, fetchPolicy }, businessNav] } };
}

/**
 * The admin area (/admin/*): its own layout, guard and pages. Mounted beside the public site by router.tsx.
 */
export const adminRoutes: RouteObject[] = [
  { path: "/admin/login", element: <Navigate to="/membership" replace /> },
  // The preview checks its own access (spec §5 messages) and has no admin chrome.
  { path: "/admin/preview/:slug", element: <PagePreviewRoute /> },
  {
    path: "/admin",
    element: <AdminLayout />,
    children: [
      { index: true, element: <AdminHomeRoute />, ...withQuery(() => import("./admin/__generated__/AdminHomeRouteQuery.graphql.ts"), none, "store-and-network") },
      { path: "businesses", element: <AdminBusinessesRoute />, ...withQuery(() => import("./admin/__generated__/AdminBusinessesRouteQuery.graphql.ts"), none, "store-and-network") },
      { path: "my", element: <MyBusinessesRoute />, ...withQuery(() => import("./admin/__generated__/MyBusinessesRouteQuery.graphql.ts"), none, "store-and-network") },
      { path: "page", element: <HomePageEditorRoute />, ...withQuery(() => import("./admin/__generated__/HomePageEditorRouteQuery.graphql.ts"), none, "network-only") },
      { path: "coupons", element: <CouponsRoute />, ...withQuery(() => import("./admin/__generated__/CouponsRouteQuery.graphql.ts"), none, "store-and-network") },
      {
        path: "fees",
        element: <FeesRoute />,
        handle: {
          query: [
            { query: () => import("./admin/__generated__/FeesRouteQuery.graphql.ts"), variables: none, fetchPolicy: "store-and-network" },
            { query: () => import("./admin/sharedQueries.ts").then((m) => ({ default: m.businessFilterQuery })), variables: none, fetchPolicy: "store-or-network" },
          ],
        } satisfies RouteData,
      },
      { path: "next-boxes", element: <NextBoxesRoute />, ...withQuery(() => import("./admin/__generated__/NextBoxesRouteQuery.graphql.ts"), none, "store-and-network") },
      { path: "users", element: <UsersRoute />, ...withQuery(() => import("./admin/__generated__/UsersRouteQuery.graphql.ts"), () => ({ search: null }), "store-and-network") },
      { path: "jobs", element: <JobsRoute />, ...withQuery(() => import("./admin/__generated__/JobsRouteQuery.graphql.ts"), none, "store-and-network") },
      {
        path: "mail",
        element: <MailRoute />,
        handle: {
          query: [
            { query: () => import("./admin/__generated__/MailRouteQuery.graphql.ts"), variables: none, fetchPolicy: "store-and-network" },
            // The business filter's options: administrators only (owners see their businesses' messages only).
            { query: () => import("./admin/sharedQueries.ts").then((m) => ({ default: m.businessFilterQuery })), variables: () => isAdmin().then((admin) => (admin ? {} : null)), fetchPolicy: "store-or-network" },
          ],
        } satisfies RouteData,
      },
      {
        path: "memberships",
        element: <MembershipsRoute />,
        handle: {
          query: [
            { query: () => import("./admin/__generated__/MembershipsRouteQuery.graphql.ts"), variables: none, fetchPolicy: "store-and-network" },
            { query: () => import("./admin/sharedQueries.ts").then((m) => ({ default: m.businessFilterQuery })), variables: none, fetchPolicy: "store-or-network" },
          ],
        } satisfies RouteData,
      },
      {
        path: "fulfilment",
        element: <FulfilmentBusinessesRoute />,
        handle: { query: { query: () => import("./admin/sharedQueries.ts").then((m) => ({ default: m.businessFilterQuery })), variables: none, fetchPolicy: "store-or-network" } } satisfies RouteData,
      },
      { path: "change-password", element: <ChangePasswordRoute /> },
      { path: "business/:id", element: <BusinessDashboardRoute />, ...withBusinessQuery(() => import("./admin/__generated__/BusinessDashboardRouteQuery.graphql.ts"), "store-and-network") },
      { path: "business/:id/page", element: <BusinessPageEditorRoute />, ...withBusinessQuery(() => import("./admin/__generated__/BusinessPageEditorRouteQuery.graphql.ts"), "network-only") },
      { path: "business/:id/next-box", element: <NextBoxEditorRoute />, ...withBusinessQuery(() => import("./admin/__generated__/NextBoxEditorRouteQuery.graphql.ts"), "network-only") },
      { path: "business/:id/memberships", element: <BusinessMembershipsRoute />, ...withBusinessQuery(() => import("./admin/__generated__/BusinessMembershipsRouteQuery.graphql.ts"), "store-and-network") },
      {
        path: "business/:id/members/:membershipId",
        element: <MemberRoute />,
        handle: {
          query: [
            {
              query: () => import("./admin/__generated__/MemberRouteQuery.graphql.ts"),
              variables: (p) => ({ id: Number(p.id), membershipId: Number(p.membershipId) }),
              fetchPolicy: "store-and-network",
            },
            businessNav,
          ],
        } satisfies RouteData,
      },
      { path: "business/:id/fulfilment", element: <FulfilmentRoute />, ...fulfilmentQuery },
      { path: "business/:id/fulfilment/:month", element: <FulfilmentRoute />, ...fulfilmentQuery },
      { path: "business/:id/payouts", element: <PayoutsRoute />, ...withBusinessQuery(() => import("./admin/__generated__/PayoutsRouteQuery.graphql.ts"), "store-and-network") },
      { path: "business/:id/coupons", element: <BusinessCouponsRoute />, ...withBusinessQuery(() => import("./admin/__generated__/BusinessCouponsRouteQuery.graphql.ts"), "store-and-network") },
      { path: "business/:id/api-tokens", element: <ApiTokensRoute />, ...withBusinessQuery(() => import("./admin/__generated__/ApiTokensRouteQuery.graphql.ts"), "store-and-network") },
      { path: "*", element: <Navigate to="/admin" replace /> },
    ],
  },
];
