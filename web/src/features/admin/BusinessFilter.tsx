import { NativeSelect } from "@chakra-ui/react";
import { graphql } from "react-relay";
import type { BusinessFilterQuery$data } from "./__generated__/BusinessFilterQuery.graphql.ts";

/**
 * The filter's options, a route query of its own (Memberships, Sent mail; adminRoutes.tsx starts it). Its fields
 * are written here rather than in a fragment: a fragment spread counts as one more level in the server's cost
 * estimate, which 500 businesses would then exceed.
 */
export const businessFilterQuery = graphql`
  query BusinessFilterQuery {
    myBusinesses(first: 500) {
      edges {
        node {
          databaseId
          name
        }
      }
    }
  }
`;

/**
 * The business filter of the administrators' lists (Memberships, Sent mail) and their business picker (Fees):
 * "All businesses" (value "", or what `allLabel` calls it) or one of theirs (its databaseId), from
 * `businessFilterQuery`.
 */
export function BusinessFilter({ businesses, value, onChange, width, allLabel = "All businesses" }: { businesses: BusinessFilterQuery$data; value: string; onChange: (value: string) => void; width: string; allLabel?: string }) {
  return (
    <NativeSelect.Root width={{ md: width }}>
      <NativeSelect.Field aria-label="Business" value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        <option value="">{allLabel}</option>
        {businesses.myBusinesses.edges.map(({ node }) => (
          <option key={node.databaseId} value={node.databaseId}>
            {node.name}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}
