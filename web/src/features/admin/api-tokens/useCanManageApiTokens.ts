import { useEffect, useState } from "react";
import { fetchQuery, graphql, useRelayEnvironment } from "react-relay";
import type { useCanManageApiTokensQuery } from "./__generated__/useCanManageApiTokensQuery.graphql.ts";

/**
 * Whether the sidebar offers "API Tokens" for this business: administrators always, others when the server
 * says they may (owners). Navigation only: the screen and the API check the same permission again.
 */
export function useCanManageApiTokens(businessId: number | null, isAdmin: boolean): boolean {
  const environment = useRelayEnvironment();
  const [allowed, setAllowed] = useState<{ id: number; can: boolean } | null>(null);
  useEffect(() => {
    if (isAdmin || businessId === null || !Number.isSafeInteger(businessId)) return;
    const subscription = fetchQuery<useCanManageApiTokensQuery>(
      environment,
      graphql`
        query useCanManageApiTokensQuery($id: Int!) {
          adminBusiness(id: $id) {
            viewerCanManageApiTokens
          }
        }
      `,
      { id: businessId },
      { fetchPolicy: "store-or-network" },
    ).subscribe({
      next: (data) => setAllowed({ id: businessId, can: data.adminBusiness?.viewerCanManageApiTokens ?? false }),
      error: () => setAllowed({ id: businessId, can: false }),
    });
    return () => subscription.unsubscribe();
  }, [environment, businessId, isAdmin]);
  if (isAdmin) return businessId !== null;
  return allowed !== null && allowed.id === businessId && allowed.can;
}
