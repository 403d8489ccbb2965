import { Badge, Box, Button, Container, HStack, Heading, Stack, Text } from "@chakra-ui/react";
import { graphql, useFragment } from "react-relay";
import { Link as RouterLink } from "react-router";
import type { BusinessHeroFragment_business$key } from "./__generated__/BusinessHeroFragment_business.graphql.ts";
import { BusinessLogo } from "../businesses/BusinessLogo.tsx";
import { memberCountLabel } from "../businesses/memberCount.ts";

const BusinessHeroFragment = graphql`
  fragment BusinessHeroFragment_business on Business {
    name
    slug
    memberCount
  }
`;

/** The top of a business page: brand row, description and membership call to action. */
export function BusinessHero({ business }: { business: BusinessHeroFragment_business$key }) {
  const data = useFragment(BusinessHeroFragment, business);
  return (
    <Box as="section" bgGradient="to-b" gradientFrom="orange.50" gradientTo="transparent" borderBottomWidth="1px" borderColor="orange.100">
      <Container maxW="6xl" py={{ base: "10", md: "16" }}>
        <Stack direction={{ base: "column", md: "row" }} gap={{ base: "6", md: "8" }} align={{ base: "flex-start", md: "center" }}>
          <BusinessLogo name={data.name} size="2xl" />
          <Stack gap="3" flex="1">
            <Heading as="h1" size={{ base: "3xl", md: "4xl" }} lineHeight="shorter">
              {data.name}
            </Heading>
            <Text color="fg.muted" fontSize="lg" maxW="2xl">
              Monthly membership boxes from {data.name}: choose a package, add extras and pick how you receive it.
            </Text>
            <HStack gap="3" wrap="wrap">
              <Badge colorPalette="orange" variant="subtle" size="lg" rounded="full">
                {memberCountLabel(data.memberCount)}
              </Badge>
            </HStack>
          </Stack>
        </Stack>
        <HStack mt="8" gap="3" wrap="wrap">
          <Button asChild colorPalette="orange" size="lg">
            <RouterLink to={`/b/${data.slug}/membership`}>Member login</RouterLink>
          </Button>
          <Button asChild variant="outline" size="lg">
            <RouterLink to="/businesses">All businesses</RouterLink>
          </Button>
        </HStack>
      </Container>
    </Box>
  );
}
