import { Box, Code, SimpleGrid, Text } from "@chakra-ui/react";
import { graphql, usePaginationFragment } from "react-relay";
import { BusinessLinks } from "../../features/admin/businesses/BusinessActions.tsx";
import { ADMIN_PAGE_SIZE, LoadMore } from "../../features/admin/LoadMore.tsx";
import { useRouteQuery } from "../../lib/routeQuery.ts";
import { AdminPage } from "../../ui/admin/AdminPage.tsx";
import { EmptyMessage } from "../../ui/StatusStates.tsx";
import type { MyBusinessesRouteQuery } from "./__generated__/MyBusinessesRouteQuery.graphql.ts";
import type { MyBusinessesRouteFragment_query$key } from "./__generated__/MyBusinessesRouteFragment_query.graphql.ts";
import type { MyBusinessesRoutePaginationQuery } from "./__generated__/MyBusinessesRoutePaginationQuery.graphql.ts";

/** /admin/my: the businesses the viewer is attached to. */
export default function MyBusinessesRoute() {
  const query = useRouteQuery<MyBusinessesRouteQuery>(
    graphql`
      query MyBusinessesRouteQuery {
        ...MyBusinessesRouteFragment_query
      }
    `,
    {},
    { fetchPolicy: "store-and-network" },
  );
  const { data, loadNext, hasNext, isLoadingNext } = usePaginationFragment<MyBusinessesRoutePaginationQuery, MyBusinessesRouteFragment_query$key>(
    graphql`
      fragment MyBusinessesRouteFragment_query on Query
      @refetchable(queryName: "MyBusinessesRoutePaginationQuery")
      @argumentDefinitions(count: { type: "Int", defaultValue: 50 }, cursor: { type: "String" }) {
        myBusinesses(first: $count, after: $cursor) @connection(key: "MyBusinessesRoute_myBusinesses") {
          edges {
            node {
              id
              databaseId
              name
              slug
            }
          }
        }
      }
    `,
    query,
  );
  const businesses = data.myBusinesses.edges.map((e) => e.node);
  return (
    <AdminPage title="My Businesses" description="Businesses you own. Select one to edit its page or view the live site.">
      {businesses.length === 0 ? (
        <EmptyMessage title="No businesses found" description="You don't have access to any businesses yet. Contact an administrator to get access." />
      ) : (
        <SimpleGrid columns={{ base: 1, md: 2, xl: 3 }} gap="4">
          {businesses.map((b) => (
            <Box key={b.id} bg="bg" borderWidth="1px" borderColor="orange.100" rounded="xl" p="4" data-testid="my-business">
              <Text fontWeight="semibold" fontSize="lg">
                {b.name}
              </Text>
              <Text fontSize="sm" color="fg.muted" mb="3">
                ID {b.databaseId} · <Code>{b.slug}</Code>
              </Text>
              <BusinessLinks business={b} />
            </Box>
          ))}
        </SimpleGrid>
      )}
      <LoadMore shown={businesses.length} noun={["business", "businesses"]} hasNext={hasNext} isLoadingNext={isLoadingNext} onLoadMore={() => loadNext(ADMIN_PAGE_SIZE)} />
    </AdminPage>
  );
}
