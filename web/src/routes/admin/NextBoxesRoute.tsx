import { Box, Button, Code, SimpleGrid, Stack, Text } from "@chakra-ui/react";
import { Suspense } from "react";
import { graphql, usePaginationFragment } from "react-relay";
import { Link as RouterLink } from "react-router";
import { ADMIN_PAGE_SIZE, LoadMore } from "../../features/admin/LoadMore.tsx";
import { useRouteQuery } from "../../lib/routeQuery.ts";
import { AdminPage } from "../../ui/admin/AdminPage.tsx";
import { EmptyMessage, LoadingState } from "../../ui/StatusStates.tsx";
import type { NextBoxesRouteQuery } from "./__generated__/NextBoxesRouteQuery.graphql.ts";
import type { NextBoxesRouteFragment_query$key } from "./__generated__/NextBoxesRouteFragment_query.graphql.ts";
import type { NextBoxesRoutePaginationQuery } from "./__generated__/NextBoxesRoutePaginationQuery.graphql.ts";

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
        ...NextBoxesRouteFragment_query
      }
    `,
    {},
    { fetchPolicy: "store-and-network" },
  );
  const { data, loadNext, hasNext, isLoadingNext } = usePaginationFragment<NextBoxesRoutePaginationQuery, NextBoxesRouteFragment_query$key>(
    graphql`
      fragment NextBoxesRouteFragment_query on Query
      @refetchable(queryName: "NextBoxesRoutePaginationQuery")
      @argumentDefinitions(count: { type: "Int", defaultValue: 50 }, cursor: { type: "String" }) {
        myBusinesses(first: $count, after: $cursor) @connection(key: "NextBoxesRoute_myBusinesses") {
          edges {
            node {
              id
              databaseId
              name
              slug
              nextBox {
                updatedAt
              }
            }
          }
        }
      }
    `,
    query,
  );
  const businesses = data.myBusinesses.edges.map((e) => e.node);
  if (businesses.length === 0) return <EmptyMessage title="No businesses found" />;
  return (
    <Stack gap="4">
      <SimpleGrid columns={{ base: 1, md: 2, xl: 3 }} gap="4">
        {businesses.map((b) => (
          <Box key={b.id} bg="bg" borderWidth="1px" borderColor="orange.100" rounded="xl" p="4">
            <Text fontWeight="semibold" fontSize="lg">
              {b.name}
            </Text>
            <Text fontSize="sm" color="fg.muted" mb="3">
              <Code>{b.slug}</Code>
              {b.nextBox ? ` · updated ${new Date(b.nextBox.updatedAt).toLocaleDateString("en-US")}` : ""}
            </Text>
            <Button asChild size="sm" colorPalette="orange" variant="outline">
              <RouterLink to={`/admin/business/${b.databaseId}/next-box`} aria-label={`Edit Next Box of ${b.name}`}>
                Edit Next Box
              </RouterLink>
            </Button>
          </Box>
        ))}
      </SimpleGrid>
      <LoadMore shown={businesses.length} noun={["business", "businesses"]} hasNext={hasNext} isLoadingNext={isLoadingNext} onLoadMore={() => loadNext(ADMIN_PAGE_SIZE)} />
    </Stack>
  );
}
