import { graphql } from "react-relay";
import { useParams } from "react-router";
import { MembershipsPanel } from "../../features/admin/memberships/MembershipsPanel.tsx";
import { useRouteQuery } from "../../lib/routeQuery.ts";
import { AdminPage } from "../../ui/admin/AdminPage.tsx";
import { EmptyMessage } from "../../ui/StatusStates.tsx";
import type { BusinessMembershipsRouteQuery } from "./__generated__/BusinessMembershipsRouteQuery.graphql.ts";

/** /admin/business/:id/memberships: the members of one business. */
export default function BusinessMembershipsRoute() {
  const id = Number(useParams().id);
  const data = useRouteQuery<BusinessMembershipsRouteQuery>(
    graphql`
      query BusinessMembershipsRouteQuery($id: Int!) {
        adminBusiness(id: $id) {
          name
        }
        ...MembershipsPanelFragment_query @arguments(status: ANY, businessId: $id)
      }
    `,
    { id },
    { fetchPolicy: "store-and-network" },
  );
  if (!data.adminBusiness) return <EmptyMessage title="No businesses found" description="This business does not exist or you do not have access to it." />;
  return (
    <AdminPage title="Memberships" description={data.adminBusiness.name}>
      <MembershipsPanel query={data} businessId={id} />
    </AdminPage>
  );
}
