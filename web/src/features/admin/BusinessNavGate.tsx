import type { ReactNode } from "react";
import { graphql } from "react-relay";
import type { BusinessNavGateQuery } from "./__generated__/BusinessNavGateQuery.graphql.ts";
import { useRouteQuery } from "../../lib/routeQuery.ts";

/** The router preloads it with the pages of a business for members who are not administrators (routes/adminRoutes.tsx). */
const Query = graphql`
  query BusinessNavGateQuery($id: Int!) {
    adminBusiness(id: $id) {
      viewerCanEdit
      viewerCanManageApiTokens
      viewerCanManagePayouts
    }
  }
`;

/** The sidebar entries of a business that only some of its members may open, by the permission the server reports. */
export type GatedBusinessEntry = "coupons" | "apiTokens" | "payouts";

/**
 * Shows a sidebar entry (`children`: "Coupons" for owners and editors, "API Tokens" and "Payouts" for owners) when
 * the server says the viewer may use it (administrators always see them without asking). One query for every gated entry. Navigation only: the screens and
 * the API check the same permission again.
 */
export function BusinessNavGate({ businessId, entry, children }: { businessId: number; entry: GatedBusinessEntry; children: ReactNode }) {
  const business = useRouteQuery<BusinessNavGateQuery>(Query, { id: businessId }).adminBusiness;
  const allowed = { coupons: business?.viewerCanEdit, apiTokens: business?.viewerCanManageApiTokens, payouts: business?.viewerCanManagePayouts }[entry];
  return allowed ? children : null;
}
