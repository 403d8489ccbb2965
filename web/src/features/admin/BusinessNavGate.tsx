import type { ReactNode } from "react";
import { graphql } from "react-relay";
import type { BusinessNavGateQuery } from "./__generated__/BusinessNavGateQuery.graphql.ts";
import { useRouteQuery } from "../../lib/routeQuery.ts";

/** The router preloads it with the pages of a business for members who are not administrators (routes/adminRoutes.tsx). */
const Query = graphql`
  query BusinessNavGateQuery($id: Int!) {
    adminBusiness(id: $id) {
      viewerCanManageApiTokens
      viewerCanManagePayouts
    }
  }
`;

/** The sidebar entries of a business that only some of its members may open, by the permission the server reports. */
export type GatedBusinessEntry = "apiTokens" | "payouts";

/**
 * Shows a sidebar entry (`children`: "API Tokens", "Payouts") when the server says the viewer may use it (owners;
 * administrators always see them without asking). One query for every gated entry. Navigation only: the screens and
 * the API check the same permission again.
 */
export function BusinessNavGate({ businessId, entry, children }: { businessId: number; entry: GatedBusinessEntry; children: ReactNode }) {
  const business = useRouteQuery<BusinessNavGateQuery>(Query, { id: businessId }).adminBusiness;
  const allowed = entry === "apiTokens" ? business?.viewerCanManageApiTokens : business?.viewerCanManagePayouts;
  return allowed ? children : null;
}
