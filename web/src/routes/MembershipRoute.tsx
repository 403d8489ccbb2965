import { Box } from "@chakra-ui/react";
import { lazy, Suspense, useEffect, useState } from "react";
import { graphql } from "react-relay";
import { useNavigate, useParams, useSearchParams } from "react-router";
import type { MembershipRouteQuery } from "./__generated__/MembershipRouteQuery.graphql.ts";
import { LoginForm } from "../features/portal/LoginForm.tsx";
import { useRefetchKey, useRouteQuery } from "../lib/routeQuery.ts";
import { useSessionVersion } from "../lib/session.ts";
import { STORAGE_KEYS, writeItem } from "../lib/storage.ts";
import { currentTenantHost } from "../lib/tenant.ts";
import { useDocumentTitle } from "../lib/useDocumentTitle.ts";
import { ErrorBoundary } from "../ui/ErrorBoundary.tsx";
import { PageContent } from "../ui/PageShell.tsx";
import { ErrorState } from "../ui/StatusStates.tsx";
import { PageLoading } from "./PageLoading.tsx";

// The portal's fields are MemberPortal's fragments (a chunk of its own, loaded once a member is signed in).
const PortalQuery = graphql`
  query MembershipRouteQuery {
    viewer {
      ...MemberPortalFragment_viewer
    }
    paymentConfig {
      ...MemberPortalFragment_paymentConfig
    }
  }
`;

/** The portal after login, in a chunk of its own (publicRoutes.tsx starts it with this route's when signed in). */
const MemberPortal = lazy(() => import("../features/portal/MemberPortal.tsx").then((m) => ({ default: m.MemberPortal })));

/**
 * /membership and /b/:slug/membership: member login, then the portal tabs. One login manages every membership
 * the member holds: the portal lists each business's membership, the business of the URL first.
 */
export default function MembershipRoute() {
  useDocumentTitle("Membership");
  const { slug } = useParams();
  const businessSlug = slug?.toLowerCase() ?? null;
  const session = useSessionVersion();
  const [attempt, setAttempt] = useState(0);
  const [refresh, setRefresh] = useState(0);
  const refetchKey = useRefetchKey(attempt, session, refresh);

  useEffect(() => {
    // A session made at another business stays signed in here (in place of spec §4's logout on load).
    if (businessSlug) writeItem(STORAGE_KEYS.currentTenant, businessSlug);
  }, [businessSlug]);

  return (
    <ErrorBoundary key={`${attempt}:${session}`} fallback={(e) => <PageContent><ErrorState message={e.message || "Failed to load your membership. Please try again."} onRetry={() => setAttempt((n) => n + 1)} /></PageContent>}>
      <Suspense fallback={<PageLoading label="Loading your membership…" />}>
        <Portal businessSlug={businessSlug} fetchKey={refetchKey} onRefresh={() => setRefresh((n) => n + 1)} />
      </Suspense>
    </ErrorBoundary>
  );
}

function Portal({ businessSlug, fetchKey, onRefresh }: { businessSlug: string | null; fetchKey: string | undefined; onRefresh: () => void }) {
  const data = useRouteQuery<MembershipRouteQuery>(PortalQuery, {}, { fetchKey, fetchPolicy: "network-only" });
  const [params] = useSearchParams();
  const navigate = useNavigate();

  if (!data.viewer) {
    // As tall as the loading box before it: the footer does not move up into view when the form arrives.
    return (
      <Box minH="100dvh">
        <PageContent>
          <LoginForm
            businessName={null}
            onLoggedIn={({ admin, ownerHome }) => {
              const r = params.get("r");
              if (admin || ownerHome) {
                if (ownerHome) writeItem(STORAGE_KEYS.ownerHomePath, ownerHome);
                const host = currentTenantHost();
                if (host) window.location.assign(`${window.location.protocol}//${host.mainHost}/admin`);
                else void navigate("/admin");
              } else if (r && r.startsWith("/")) void navigate(r);
            }}
          />
        </PageContent>
      </Box>
    );
  }
  return <MemberPortal viewer={data.viewer} paymentConfig={data.paymentConfig} businessSlug={businessSlug} onRefresh={onRefresh} />;
}
