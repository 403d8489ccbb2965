import { Heading, SimpleGrid, Skeleton, SkeletonCircle, Stack, Text, HStack, Box } from "@chakra-ui/react";
import { Suspense, useState } from "react";
import { graphql } from "react-relay";
import type { BusinessesRouteQuery } from "./__generated__/BusinessesRouteQuery.graphql.ts";
import { BusinessGrid } from "../features/businesses/BusinessGrid.tsx";
import { ErrorBoundary } from "../ui/ErrorBoundary.tsx";
import { PageContent } from "../ui/PageShell.tsx";
import { ErrorState } from "../ui/StatusStates.tsx";
import { useRouteQuery } from "../lib/routeQuery.ts";
import { useDocumentTitle } from "../lib/useDocumentTitle.ts";

const BusinessesQuery = graphql`
  query BusinessesRouteQuery {
    ...BusinessGridFragment_query
  }
`;

/** /businesses: every partner business (spec §2), with the loading, error, empty and list states. */
export default function BusinessesRoute() {
  useDocumentTitle("Businesses");
  // Each Try Again remounts the boundary and refetches from the network.
  const [attempt, setAttempt] = useState(0);
  return (
    <PageContent>
      <Stack gap="2" mb="8">
        <Heading as="h1" size={{ base: "2xl", md: "3xl" }}>
          Choose a business
        </Heading>
        <Text color="fg.muted" fontSize="lg">
          Independent farms, roasters and bakers with a monthly box you can pick up, have shipped or delivered.
        </Text>
      </Stack>
      <ErrorBoundary key={attempt} fallback={() => <ErrorState message="Failed to load businesses. Please try again." onRetry={() => setAttempt((n) => n + 1)} />}>
        <Suspense fallback={<BusinessGridSkeleton />}>
          <BusinessesList fetchKey={attempt} />
        </Suspense>
      </ErrorBoundary>
    </PageContent>
  );
}

function BusinessesList({ fetchKey }: { fetchKey: number }) {
  const data = useRouteQuery<BusinessesRouteQuery>(BusinessesQuery, {}, { fetchKey: fetchKey || undefined, fetchPolicy: fetchKey ? "network-only" : "store-or-network" });
  return <BusinessGrid query={data} />;
}

function BusinessGridSkeleton() {
  return (
    <SimpleGrid columns={{ base: 1, sm: 2, lg: 3 }} gap="6" role="status" aria-label="Loading businesses">
      {[0, 1, 2].map((i) => (
        <Box key={i} borderWidth="1px" rounded="2xl" p="6" bg="bg">
          <HStack gap="4">
            <SkeletonCircle size="16" />
            <Skeleton height="6" flex="1" />
          </HStack>
          <Stack mt="5" gap="2">
            <Skeleton height="4" />
            <Skeleton height="4" width="80%" />
          </Stack>
        </Box>
      ))}
    </SimpleGrid>
  );
}
