import { lazy } from "react";
import { Navigate, type RouteObject } from "react-router";

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
const CouponsRoute = lazy(() => import("./admin/CouponsRoute.tsx"));
const UsersRoute = lazy(() => import("./admin/UsersRoute.tsx"));
const ChangePasswordRoute = lazy(() => import("./admin/ChangePasswordRoute.tsx"));
const ApiTokensRoute = lazy(() => import("./admin/ApiTokensRoute.tsx"));
const JobsRoute = lazy(() => import("./admin/JobsRoute.tsx"));

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
      { index: true, element: <AdminHomeRoute /> },
      { path: "businesses", element: <AdminBusinessesRoute /> },
      { path: "my", element: <MyBusinessesRoute /> },
      { path: "page", element: <HomePageEditorRoute /> },
      { path: "coupons", element: <CouponsRoute /> },
      { path: "next-boxes", element: <NextBoxesRoute /> },
      { path: "users", element: <UsersRoute /> },
      { path: "jobs", element: <JobsRoute /> },
      { path: "memberships", element: <MembershipsRoute /> },
      { path: "change-password", element: <ChangePasswordRoute /> },
      { path: "business/:id", element: <BusinessDashboardRoute /> },
      { path: "business/:id/page", element: <BusinessPageEditorRoute /> },
      { path: "business/:id/next-box", element: <NextBoxEditorRoute /> },
      { path: "business/:id/memberships", element: <BusinessMembershipsRoute /> },
      { path: "business/:id/api-tokens", element: <ApiTokensRoute /> },
      { path: "*", element: <Navigate to="/admin" replace /> },
    ],
  },
];
