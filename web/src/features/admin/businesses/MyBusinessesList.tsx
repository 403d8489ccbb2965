import { SimpleGrid } from "@chakra-ui/react";
import type { ReactNode } from "react";
import { graphql, usePaginationFragment } from "react-relay";
import type { MyBusinessesListFragment_query$key } from "./__generated__/MyBusinessesListFragment_query.graphql.ts";
import type { MyBusinessesListPaginationQuery } from "./__generated__/MyBusinessesListPaginationQuery.graphql.ts";
import { ADMIN_PAGE_SIZE, LoadMore } from "../LoadMore.tsx";
import { MyBusinessCard } from "./MyBusinessCard.tsx";
import { NextBoxCard } from "./NextBoxCard.tsx";

// `nextBoxes`: the cards of Next Box Management (each with its note's date and editor link) in place of My
// Businesses' (each with its links). Each card asks for what it shows, and only the page's cards are fetched.
const MyBusinessesListFragment = graphql`
  fragment MyBusinessesListFragment_query on Query
  @refetchable(queryName: "MyBusinessesListPaginationQuery")
  @argumentDefinitions(
    count: { type: "Int", defaultValue: 50 }
    cursor: { type: "String" }
    nextBoxes: { type: "Boolean", defaultValue: false }
  ) {
    myBusinesses(first: $count, after: $cursor) @connection(key: "MyBusinessesList_myBusinesses") {
      edges {
        node {
          id
          ...MyBusinessCardFragment_business @skip(if: $nextBoxes) @alias(as: "myBusinessCard")
          ...NextBoxCardFragment_business @include(if: $nextBoxes) @alias(as: "nextBoxCard")
        }
      }
    }
  }
`;

/**
 * The businesses the viewer is attached to (admin/my, admin/next-boxes), fifty at a time: a grid of cards and Load
 * more, or `empty` when there are none. The page's query chooses the cards (`@arguments(nextBoxes: true)`).
 */
export function MyBusinessesList({ query, empty }: { query: MyBusinessesListFragment_query$key; empty: ReactNode }) {
  const { data, loadNext, hasNext, isLoadingNext } = usePaginationFragment<MyBusinessesListPaginationQuery, MyBusinessesListFragment_query$key>(MyBusinessesListFragment, query);
  const businesses = data.myBusinesses.edges.map((e) => e.node);
  if (businesses.length === 0) return empty;
  return (
    <>
      <SimpleGrid columns={{ base: 1, md: 2, xl: 3 }} gap="4">
        {businesses.map((b) => (b.nextBoxCard ? <NextBoxCard key={b.id} business={b.nextBoxCard} /> : b.myBusinessCard ? <MyBusinessCard key={b.id} business={b.myBusinessCard} /> : null))}
      </SimpleGrid>
      <LoadMore shown={businesses.length} noun={["business", "businesses"]} hasNext={hasNext} isLoadingNext={isLoadingNext} onLoadMore={() => loadNext(ADMIN_PAGE_SIZE)} />
    </>
  );
}
