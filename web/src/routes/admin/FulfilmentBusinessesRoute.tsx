import { Stack, Text } from "@chakra-ui/react";
import { useNavigate } from "react-router";
import { BusinessFilter, businessFilterQuery } from "../../features/admin/BusinessFilter.tsx";
import { useRouteQuery } from "../../lib/routeQuery.ts";
import { AdminPage, Panel } from "../../ui/admin/AdminPage.tsx";
import type { BusinessFilterQuery } from "../../features/admin/__generated__/BusinessFilterQuery.graphql.ts";

/** /admin/fulfilment (administrators): the business filter of the admin lists, leading to that business's Fulfilment screen. */
export default function FulfilmentBusinessesRoute() {
  const navigate = useNavigate();
  const options = useRouteQuery<BusinessFilterQuery>(businessFilterQuery, {}, { fetchPolicy: "store-or-network" });
  return (
    <AdminPage title="Fulfilment" description="What each business packs in a month.">
      <Panel>
        <Stack gap="3">
          <Text>Choose a business to see its month: the preview, the packing lists and what changed after the freeze.</Text>
          <BusinessFilter businesses={options} value="" width="sm" onChange={(id) => id && void navigate(`/admin/business/${id}/fulfilment`)} />
        </Stack>
      </Panel>
    </AdminPage>
  );
}
