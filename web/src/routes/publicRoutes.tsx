import { lazy } from "react";
import { Navigate, type RouteObject } from "react-router";
import { currentTenantHost } from "../lib/tenant.ts";

// One chunk per route: a visitor of the home page does not download the business pages.
const HomeRoute = lazy(() => import("./HomeRoute.tsx"));
const BusinessesRoute = lazy(() => import("./BusinessesRoute.tsx"));
const BusinessRoute = lazy(() => import("./BusinessRoute.tsx"));
const CheckoutRoute = lazy(() => import("./CheckoutRoute.tsx"));
const MembershipRoute = lazy(() => import("./MembershipRoute.tsx"));
const ContactRoute = lazy(() => import("./ContactRoute.tsx"));
const LegalRoute = lazy(() => import("./LegalRoute.tsx"));
const LegacyCheckoutRoute = lazy(() => import("./LegacyCheckoutRoute.tsx"));

const tenantHost = currentTenantHost();

// Spec §2: on a tenant subdomain, paths under /admin go to the same path on the main host. Checked before the
// router renders, so the admin area never starts on a tenant host.
if (tenantHost && /^\/admin(\/|$)/.test(window.location.pathname)) {
  window.location.replace(`${window.location.protocol}//${tenantHost.mainHost}${window.location.pathname}${window.location.search}`);
}

/** The public site, the business pages, checkout and the member portal, inside the site shell. */
export const publicRoutes: RouteObject[] = [
  // On {slug}.{host} the landing page is the business page with the slug forced from the host.
  { index: true, element: tenantHost ? <BusinessRoute forcedSlug={tenantHost.slug} /> : <HomeRoute /> },
  { path: "businesses", element: <BusinessesRoute /> },
  { path: "contact", element: <ContactRoute /> },
  { path: "b/:slug", element: <BusinessRoute /> },
  { path: "b/:slug/membership", element: <MembershipRoute /> },
  { path: "b/:slug/membership/checkout", element: <CheckoutRoute /> },
  { path: "membership", element: <MembershipRoute /> },
  { path: "membership/checkout", element: <CheckoutRoute /> },
  { path: "checkout", element: <LegacyCheckoutRoute /> },
  { path: "terms-of-use", element: <LegalRoute kind="terms" /> },
  { path: "privacy-policy", element: <LegalRoute kind="privacy" /> },
  { path: "refund-policy", element: <LegalRoute kind="refund" /> },
  { path: "admin/login", element: <Navigate to="/membership" replace /> },
];
