import { Box, Button, Code, Text } from "@chakra-ui/react";
import { graphql, useFragment } from "react-relay";
import { Link as RouterLink } from "react-router";
import type { NextBoxCardFragment_business$key } from "./__generated__/NextBoxCardFragment_business.graphql.ts";

const NextBoxCardFragment = graphql`
  fragment NextBoxCardFragment_business on Business {
    databaseId
    name
    slug
    nextBox {
      updatedAt
    }
  }
`;

/** Next Box Management's card of one business: its name, slug and when its note last changed, and its editor link. */
export function NextBoxCard({ business }: { business: NextBoxCardFragment_business$key }) {
  const b = useFragment(NextBoxCardFragment, business);
  return (
    <Box bg="bg" borderWidth="1px" borderColor="orange.100" rounded="xl" p="4">
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
  );
}
