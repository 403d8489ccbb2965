import { Button, Center, SimpleGrid } from "@chakra-ui/react";
import { useTransition } from "react";
import { graphql, usePaginationFragment } from "react-relay";
import type { BusinessGridFragment_query$key } from "./__generated__/BusinessGridFragment_query.graphql.ts";
import { BusinessCard } from "./BusinessCard.tsx";
import { EmptyMessage } from "../../ui/StatusStates.tsx";

const BusinessGridFragment = graphql`
  fragment BusinessGridFragment_query on Query
  @argumentDefinitions(count: { type: "Int", defaultValue: 50 }, cursor: { type: "String" })
  @refetchable(queryName: "BusinessGridPaginationQuery") {
    businesses(first: $count, after: $cursor) @connection(key: "BusinessGrid_businesses") {
      edges {
        node {
          id
          ...BusinessCardFragment_business
        }
      }
    }
  }
`;

/** The businesses grid (spec §2): cards, or the empty state; more load on demand past the first 50. */
export function BusinessGrid({ query }: { query: BusinessGridFragment_query$key }) {
  const { data, hasNext, loadNext } = usePaginationFragment(BusinessGridFragment, query);
  const [isLoadingMore, startTransition] = useTransition();
  const edges = data.businesses.edges;

  if (edges.length === 0) {
    return <EmptyMessage title="No businesses available" description="Check back later for new membership opportunities." />;
  }
  return (
    <>
      <SimpleGrid columns={{ base: 1, sm: 2, lg: 3 }} gap="6">
        {edges.map((edge) => (
          <BusinessCard key={edge.node.id} business={edge.node} />
        ))}
      </SimpleGrid>
      {hasNext && (
        <Center mt="8">
          <Button variant="outline" loading={isLoadingMore} onClick={() => startTransition(() => void loadNext(50))}>
            Show more businesses
          </Button>
        </Center>
      )}
    </>
  );
}
