import { Stack } from "@chakra-ui/react";
import { Suspense } from "react";
import { graphql } from "react-relay";
import { MyBusinessesList } from "../../features/admin/businesses/MyBusinessesList.tsx";
import { useRouteQuery } from "../../lib/routeQuery.ts";
import { AdminPage } from "../../ui/admin/AdminPage.tsx";
import { EmptyMessage, LoadingState } from "../../ui/StatusStates.tsx";
import type { NextBoxesRouteQuery } from "./__generated__/NextBoxesRouteQuery.graphql.ts";

/** /admin/next-boxes: one card per business with its Next Box editor link. */
export default function NextBoxesRoute() {
  return (
    <AdminPage title="Next Box Management" description="The note members see about their next box, per business.">
      <Suspense fallback={<LoadingState label="Loading businesses…" />}>
        <NextBoxCards />
      </Suspense>
    </AdminPage>
  );
}

function NextBoxCards() {
  const query = useRouteQuery<NextBoxesRouteQuery>(
    graphql`
      query NextBoxesRouteQuery {
        ...MyBusinessesListFragment_query @arguments(nextBoxes: true)
      }
    `,
    {},
    { fetchPolicy: "store-and-network" },
  );
  return (
    <Stack gap="4">
      <MyBusinessesList query={query} empty={<EmptyMessage title="No businesses found" />} />
    </Stack>
  );
}
