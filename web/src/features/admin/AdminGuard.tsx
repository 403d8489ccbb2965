import { Suspense, useEffect, type ReactNode } from "react";
import { graphql, useLazyLoadQuery } from "react-relay";
import { Navigate, useLocation } from "react-router";
import { STORAGE_KEYS, writeItem } from "../../lib/storage.ts";
import { LoadingState } from "../../ui/StatusStates.tsx";
import { adminGuard, ownerHomePath } from "./guard.ts";
import { readAdminSession } from "./session.ts";
import type { AdminGuardOwnerHomeQuery } from "./__generated__/AdminGuardOwnerHomeQuery.graphql.ts";

/** Spec §6 guard on every /admin path. Navigation only: the server refuses the same operations. */
export function AdminGuard({ children }: { children: ReactNode }) {
  const location = useLocation();
  const decision = adminGuard(location.pathname, location.search, readAdminSession());
  if (decision.kind === "redirect") return <Navigate to={decision.to} replace />;
  if (decision.kind === "resolve-owner-home") {
    return (
      <Suspense fallback={<LoadingState label="Loading…" />}>
        <OwnerHome />
      </Suspense>
    );
  }
  return <>{children}</>;
}

/** A non-admin at /admin without a stored home: their first business, remembered for next time. */
function OwnerHome() {
  const data = useLazyLoadQuery<AdminGuardOwnerHomeQuery>(
    graphql`
      query AdminGuardOwnerHomeQuery {
        myBusinesses(first: 50) {
          edges {
            node {
              databaseId
            }
          }
        }
      }
    `,
    {},
    { fetchPolicy: "network-only" },
  );
  const home = ownerHomePath(data.myBusinesses.edges.map((e) => e.node.databaseId));
  useEffect(() => writeItem(STORAGE_KEYS.ownerHomePath, home), [home]);
  return <Navigate to={home} replace />;
}
