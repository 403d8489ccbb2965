import type { ReactNode } from "react";
import { graphql } from "react-relay";
import type { ApiTokensNavGateQuery } from "./__generated__/ApiTokensNavGateQuery.graphql.ts";
import { useRouteQuery } from "../../../lib/routeQuery.ts";

/** The router preloads it with the pages of a business for members who are not administrators (routes/adminRoutes.tsx). */
const Query = graphql`
  query ApiTokensNavGateQuery($id: Int!) {
    adminBusiness(id: $id) {
      viewerCanManageApiTokens
    }
  }
`;

/**
 * Shows the sidebar's "API Tokens" entry (`children`) when the server says the viewer may manage the business's
 * tokens (owners; administrators always see it without asking). Navigation only: the screen and the API check
 * the same permission again.
 */
export function ApiTokensNavGate({ businessId, children }: { businessId: number; children: ReactNode }) {
  const data = useRouteQuery<ApiTokensNavGateQuery>(Query, { id: businessId });
  return data.adminBusiness?.viewerCanManageApiTokens ? children : null;
}
