import { lazy, Suspense } from "react";
import { Box } from "@chakra-ui/react";
import { Navigate, Outlet, type RouteObject } from "react-router";
import { currentTenantHost } from "../lib/tenant.ts";
import { LoadingState } from "../ui/StatusStates.tsx";

// One chunk per route: a visitor of the home page does not download the business pages.
const loadHome = () => import("./HomeRoute.tsx");
const loadBusinesses = () => import("./BusinessesRoute.tsx");
const loadBusiness = () => import("./BusinessRoute.tsx");
const loadCheckout = () => import("./CheckoutRoute.tsx");
const loadMembership = () => import("./MembershipRoute.tsx");
const loadContact = () => import("./ContactRoute.tsx");
const loadLegal = () => import("./LegalRoute.tsx");
const HomeRoute = lazy(loadHome);
const BusinessesRoute = lazy(loadBusinesses);
const BusinessRoute = lazy(loadBusiness);
const CheckoutRoute = lazy(loadCheckout);
const MembershipRoute = lazy(loadMembership);
const ContactRoute = lazy(loadContact);
const LegalRoute = lazy(loadLegal);
const LegacyCheckoutRoute = lazy(() => import("./LegacyCheckoutRoute.tsx"));

const tenantHost = currentTenantHost();

/**
 * The chunk of the page being opened starts loading while the entry script still runs (issue 16), instead of
 * when React first renders the route: its download overlaps the entry's start-up work. Same chunk, same
 * module: React.lazy then finds it loaded or in flight.
 */
function chunkOf(pathname: string): (() => Promise<unknown>) | null {
  const p = pathname.replace(/\/+$/, "") || "/";
  if (p === "/") return tenantHost ? loadBusiness : loadHome;
  if (p === "/businesses") return loadBusinesses;
  if (/^(\/b\/[^/]+)?\/membership\/checkout$/.test(p)) return loadCheckout;
  if (/^(\/b\/[^/]+)?\/membership$/.test(p)) return loadMembership;
  if (/^\/b\/[^/]+$/.test(p)) return loadBusiness;
  if (p === "/contact") return loadContact;
  if (/^\/(terms-of-use|privacy-policy|refund-policy)$/.test(p)) return loadLegal;
  return null;
}

// Spec §2: on a tenant subdomain, paths under /admin go to the same path on the main host. Checked before the
// router renders, so the admin area never starts on a tenant host.
if (tenantHost && /^\/admin(\/|$)/.test(window.location.pathname)) {
  window.location.replace(`${window.location.protocol}//${tenantHost.mainHost}${window.location.pathname}${window.location.search}`);
} else {
  chunkOf(window.location.pathname)?.().catch(() => undefined);
}

/**
 * A page still loading (its chunk or its data) fills the screen below the header, so the site footer waits
 * below the fold instead of showing and then being pushed down when the page arrives (layout shift, CLS). One
 * boundary for every public page, so a navigation between them still keeps the current page until the next
 * is ready (the router's transitions never show a boundary that is already on screen as loading).
 */
function PublicPage() {
  return (
    <Suspense
      fallback={
        <Box minH="100dvh">
          <LoadingState label="Loading…" />
        </Box>
      }
    >
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
    ],
  },
];
