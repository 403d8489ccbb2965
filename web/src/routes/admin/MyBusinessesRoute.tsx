import { graphql } from "react-relay";
import { MyBusinessesList } from "../../features/admin/businesses/MyBusinessesList.tsx";
import { useRouteQuery } from "../../lib/routeQuery.ts";
import { AdminPage } from "../../ui/admin/AdminPage.tsx";
import { EmptyMessage } from "../../ui/StatusStates.tsx";
import type { MyBusinessesRouteQuery } from "./__generated__/MyBusinessesRouteQuery.graphql.ts";

/** /admin/my: the businesses the viewer is attached to. */
export default function MyBusinessesRoute() {
  const query = useRouteQuery<MyBusinessesRouteQuery>(
    graphql`
      query MyBusinessesRouteQuery {
        ...MyBusinessesListFragment_query
      }
    `,
    {},
    { fetchPolicy: "store-and-network" },
  );
  return (
    <AdminPage title="My Businesses" description="Businesses you own. Select one to edit its page or view the live site.">
      <MyBusinessesList query={query} empty={<EmptyMessage title="No businesses found" description="You don't have access to any businesses yet. Contact an administrator to get access." />} />
    </AdminPage>
  );
}
