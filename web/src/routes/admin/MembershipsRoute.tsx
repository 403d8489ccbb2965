import { graphql } from "react-relay";
import { MembershipsPanel } from "../../features/admin/memberships/MembershipsPanel.tsx";
import { useRouteQuery } from "../../lib/routeQuery.ts";
import { AdminPage } from "../../ui/admin/AdminPage.tsx";
import type { MembershipsRouteQuery } from "./__generated__/MembershipsRouteQuery.graphql.ts";

/** /admin/memberships (admins): every membership, with the business filter. */
export default function MembershipsRoute() {
  const data = useRouteQuery<MembershipsRouteQuery>(
    graphql`
      query MembershipsRouteQuery {
        myBusinesses(first: 500) {
          edges {
            node {
              databaseId
              name
            }
          }
        }
      }
    `,
    {},
    { fetchPolicy: "store-or-network" },
  );
  return (
    <AdminPage title="Memberships" description="Every membership on the platform.">
      <MembershipsPanel businessOptions={data.myBusinesses.edges.map((e) => e.node)} />
    </AdminPage>
  );
}
