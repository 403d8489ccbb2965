import { Badge, Card, HStack, Heading, LinkBox, LinkOverlay, Text } from "@chakra-ui/react";
import { graphql, useFragment } from "react-relay";
import { Link as RouterLink } from "react-router";
import type { BusinessCardFragment_business$key } from "./__generated__/BusinessCardFragment_business.graphql.ts";
import { BusinessLogo } from "./BusinessLogo.tsx";
import { memberCountLabel } from "./memberCount.ts";

const BusinessCardFragment = graphql`
  fragment BusinessCardFragment_business on Business {
    slug
    name
    logoUrl
    description
    memberCount
  }
`;

/** One card of the businesses grid; the whole card opens the business page. */
export function BusinessCard({ business }: { business: BusinessCardFragment_business$key }) {
  const data = useFragment(BusinessCardFragment, business);
  return (
    <LinkBox asChild>
      <Card.Root
        as="article"
        variant="outline"
        rounded="2xl"
        h="full"
        transition="transform 0.15s ease, box-shadow 0.15s ease"
        _hover={{ transform: "translateY(-2px)", shadow: "lg", borderColor: "orange.300" }}
        _focusWithin={{ outline: "2px solid", outlineColor: "orange.500", outlineOffset: "2px" }}
        data-testid="business-card"
      >
        <Card.Body gap="4">
          <HStack gap="4" align="center">
            <BusinessLogo name={data.name} logoUrl={data.logoUrl} />
            <Heading as="h2" size="lg" lineHeight="short">
              <LinkOverlay asChild>
                <RouterLink to={`/b/${data.slug}`}>{data.name}</RouterLink>
              </LinkOverlay>
            </Heading>
          </HStack>
          <Text color="fg.muted" lineClamp={3}>
            {data.description || `Monthly membership boxes from ${data.name}.`}
          </Text>
        </Card.Body>
        <Card.Footer>
          <Badge colorPalette="orange" variant="subtle" size="md" rounded="full">
            {memberCountLabel(data.memberCount)}
          </Badge>
        </Card.Footer>
      </Card.Root>
    </LinkBox>
  );
}
