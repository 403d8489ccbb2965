import { graphql } from "react-relay";
import { useParams } from "react-router";
import { PayoutsPanel } from "../../features/admin/payouts/PayoutsPanel.tsx";
import { useRouteQuery } from "../../lib/routeQuery.ts";
import { AdminPage } from "../../ui/admin/AdminPage.tsx";
import { EmptyMessage } from "../../ui/StatusStates.tsx";
import type { PayoutsRouteQuery } from "./__generated__/PayoutsRouteQuery.graphql.ts";

/**
 * /admin/business/:id/payouts: the business's payout account, fees and monthly statement (owners and
 * administrators). Staff who may not manage payouts see the business without them, and are told so.
 */
export default function PayoutsRoute() {
  const id = Number(useParams().id);
  const data = useRouteQuery<PayoutsRouteQuery>(
    graphql`
      query PayoutsRouteQuery($id: Int!) {
        adminBusiness(id: $id) {
          name
          viewerCanManagePayouts
          ...PayoutsPanelFragment_business
        }
      }
    `,
    { id },
    { fetchPolicy: "store-and-network" },
  );
  const business = data.adminBusiness;
  if (!business) return <EmptyMessage title="No businesses found" description="This business does not exist, or you are not attached to it." />;
  if (!business.viewerCanManagePayouts) {
    return <EmptyMessage title="Owners only" description="Only the business's owners and administrators can manage its payouts." />;
  }
  return (
    <AdminPage title="Payouts" description={`${business.name} · where members' payments are paid out, the fees the platform keeps, and each month's statement.`}>
      <PayoutsPanel business={business} />
    </AdminPage>
  );
}
