import { graphql } from "react-relay";
import { MembershipsPanel } from "../../features/admin/memberships/MembershipsPanel.tsx";
import { useRouteQuery } from "../../lib/routeQuery.ts";
import { AdminPage } from "../../ui/admin/AdminPage.tsx";
import type { MembershipsRouteQuery } from "./__generated__/MembershipsRouteQuery.graphql.ts";
import { businessFilterQuery } from "../../features/admin/BusinessFilter.tsx";
import type { BusinessFilterQuery } from "../../features/admin/__generated__/BusinessFilterQuery.graphql.ts";

/**
 * /admin/memberships (admins): every membership, with the business filter. The list and the business options
 * are two queries, started together by the router: in one request they cost more than the server allows.
 */
export default function MembershipsRoute() {
  const list = useRouteQuery<MembershipsRouteQuery>(
    graphql`
      query MembershipsRouteQuery {
        ...MembershipsPanelFragment_query @arguments(status: ANY)
      }
    `,
    {},
    { fetchPolicy: "store-and-network" },
  );
  const options = useRouteQuery<BusinessFilterQuery>(businessFilterQuery, {}, { fetchPolicy: "store-or-network" });
  return (
    <AdminPage title="Memberships" description="Every membership on the platform.">
      <MembershipsPanel query={list} businesses={options} />
    </AdminPage>
  );
}
