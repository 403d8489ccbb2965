import { Box, Code, Text } from "@chakra-ui/react";
import { graphql, useFragment } from "react-relay";
import type { MyBusinessCardFragment_business$key } from "./__generated__/MyBusinessCardFragment_business.graphql.ts";
import { BusinessLinks } from "./BusinessActions.tsx";

const MyBusinessCardFragment = graphql`
  fragment MyBusinessCardFragment_business on Business {
    databaseId
    name
    slug
  }
`;

/** My Businesses' card of one business: its name, number and slug, and its Dashboard, Edit Page and View Site links. */
export function MyBusinessCard({ business }: { business: MyBusinessCardFragment_business$key }) {
  const b = useFragment(MyBusinessCardFragment, business);
  return (
    <Box bg="bg" borderWidth="1px" borderColor="orange.100" rounded="xl" p="4" data-testid="my-business">
      <Text fontWeight="semibold" fontSize="lg">
        {b.name}
      </Text>
      <Text fontSize="sm" color="fg.muted" mb="3">
        ID {b.databaseId} · <Code>{b.slug}</Code>
      </Text>
      <BusinessLinks business={b} />
    </Box>
  );
}
