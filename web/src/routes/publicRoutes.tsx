import { lazy, Suspense } from "react";
import { Navigate, Outlet, type RouteObject } from "react-router";
import type { RouteData, RouteQuery } from "../lib/routeQuery.ts";
import { checkoutQueryVariables, readSelection } from "../lib/selection.ts";
import { readSession } from "../lib/session.ts";
import { currentTenantHost } from "../lib/tenant.ts";
import { PageLoading } from "./PageLoading.tsx";

// One chunk per route: a visitor of the home page does not download the business pages.
const loadHome = () => import("./HomeRoute.tsx");
const loadBusinesses = () => import("./BusinessesRoute.tsx");
const loadBusiness = () => import("./BusinessRoute.tsx");
const loadCheckout = () => import("./CheckoutRoute.tsx");
const loadMembership = () => import("./MembershipRoute.tsx");
const loadContact = () => import("./ContactRoute.tsx");
const loadLegal = () => import("./LegalRoute.tsx");
const loadSandboxOnboarding = () => import("./SandboxOnboardingRoute.tsx");
const loadSandboxAccount = () => import("./SandboxAccountRoute.tsx");
const HomeRoute = lazy(loadHome);
const BusinessesRoute = lazy(loadBusinesses);
const BusinessRoute = lazy(loadBusiness);
const CheckoutRoute = lazy(loadCheckout);
const MembershipRoute = lazy(loadMembership);
const ContactRoute = lazy(loadContact);
const LegalRoute = lazy(loadLegal);
const SandboxOnboardingRoute = lazy(loadSandboxOnboarding);
const SandboxAccountRoute = lazy(loadSandboxAccount);
const LegacyCheckoutRoute = lazy(() => import("./LegacyCheckoutRoute.tsx"));

const tenantHost = currentTenantHost();

// Each route's query module on its own (a small chunk): its request leaves as soon as it arrives, while the
// route's chunk still downloads.
const businessQuery: RouteQuery["query"] = () => import("./__generated__/BusinessRouteQuery.graphql.ts");

/** A business page's data, for /b/:slug or the slug of the tenant host. */
const businessData = (forcedSlug?: string): RouteData => ({
  chunk: loadBusiness,
  query: { query: businessQuery, variables: (p) => ({ slug: (forcedSlug ?? p.slug ?? "").toLowerCase() }), fetchPolicy: "store-and-network" },
});
const membershipData: RouteData = {
  // Signed in, the portal's chunk too, which the route renders once its query answers; a visitor gets the login
  // form's only.
  chunk: () => Promise.all([loadMembership(), readSession() ? import("../features/portal/MemberPortal.tsx") : null]),
  query: { query: () => import("./__generated__/MembershipRouteQuery.graphql.ts"), variables: () => ({}), fetchPolicy: "network-only" },
};
const checkoutData: RouteData = {
  chunk: loadCheckout,
  query: {
    query: () => import("./__generated__/CheckoutRouteQuery.graphql.ts"),
    // The business and the price of the stored selection (no selection: the route redirects, nothing to load).
    variables: () => {
      const selection = readSelection();
      return selection ? checkoutQueryVariables(selection, selection.couponCode ?? "") : null;
    },
    fetchPolicy: "network-only",
  },
};

// Spec §2: on a tenant subdomain, paths under /admin go to the same path on the main host. Checked before the
// router renders, so the admin area never starts on a tenant host (main.tsx then preloads nothing).
export const leavingForMainHost = !!tenantHost && /^\/admin(\/|$)/.test(window.location.pathname);
if (leavingForMainHost && tenantHost) {
  window.location.replace(`${window.location.protocol}//${tenantHost.mainHost}${window.location.pathname}${window.location.search}`);
}

/**
 * A page still loading (its chunk or its data) fills the screen below the header, so the site footer waits
 * below the fold instead of showing and then being pushed down when the page arrives (layout shift, CLS). One
 * boundary for every public page, so a navigation between them still keeps the current page until the next
 * is ready (the router's transitions never show a boundary that is already on screen as loading).
 */
function PublicPage() {
  return (
    <Suspense fallback={<PageLoading label="Loading…" />}>
      <Outlet />
    </Suspense>
  );
}

/** The public site, the business pages, checkout and the member portal, inside the site shell. */
export const publicRoutes: RouteObject[] = [
  {
    element: <PublicPage />,
    children: [
      // On {slug}.{host} the landing page is the business page with the slug forced from the host.
      tenantHost
        ? { index: true, element: <BusinessRoute forcedSlug={tenantHost.slug} />, handle: businessData(tenantHost.slug) }
        : {
            index: true,
            element: <HomeRoute />,
            handle: { chunk: loadHome, query: { query: () => import("./__generated__/HomeRouteQuery.graphql.ts"), variables: () => ({}) } } satisfies RouteData,
          },
      {
        path: "businesses",
        element: <BusinessesRoute />,
        handle: { chunk: loadBusinesses, query: { query: () => import("./__generated__/BusinessesRouteQuery.graphql.ts"), variables: () => ({}) } } satisfies RouteData,
      },
      { path: "contact", element: <ContactRoute />, handle: { chunk: loadContact } satisfies RouteData },
      { path: "b/:slug", element: <BusinessRoute />, handle: businessData() },
      { path: "b/:slug/membership", element: <MembershipRoute />, handle: membershipData },
      { path: "b/:slug/membership/checkout", element: <CheckoutRoute />, handle: checkoutData },
      { path: "membership", element: <MembershipRoute />, handle: membershipData },
      { path: "membership/checkout", element: <CheckoutRoute />, handle: checkoutData },
      { path: "checkout", element: <LegacyCheckoutRoute /> },
      { path: "terms-of-use", element: <LegalRoute kind="terms" />, handle: { chunk: loadLegal } satisfies RouteData },
      { path: "privacy-policy", element: <LegalRoute kind="privacy" />, handle: { chunk: loadLegal } satisfies RouteData },
      { path: "refund-policy", element: <LegalRoute kind="refund" />, handle: { chunk: loadLegal } satisfies RouteData },
      { path: "admin/login", element: <Navigate to="/membership" replace /> },
      // The sandbox payment provider's stand-ins for the provider's hosted pages (no sign-in: whoever holds the link).
      {
        path: "sandbox/connect/:link",
        element: <SandboxOnboardingRoute />,
        handle: {
          chunk: loadSandboxOnboarding,
          query: { query: () => import("./__generated__/SandboxOnboardingRouteQuery.graphql.ts"), variables: (p) => ({ link: p.link ?? "" }), fetchPolicy: "network-only" },
        } satisfies RouteData,
      },
      { path: "sandbox/connect/accounts/:accountId", element: <SandboxAccountRoute />, handle: { chunk: loadSandboxAccount } satisfies RouteData },
    ],
  },
];
