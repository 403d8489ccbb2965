import { Badge, Box, Button, Container, HStack, Heading, Image, SimpleGrid, Stack, Text } from "@chakra-ui/react";
import { graphql, useFragment } from "react-relay";
import { Link as RouterLink } from "react-router";
import type { BusinessHeroFragment_business$key } from "./__generated__/BusinessHeroFragment_business.graphql.ts";
import { BusinessLogo } from "../businesses/BusinessLogo.tsx";
import { memberCountLabel } from "../businesses/memberCount.ts";

const BusinessHeroFragment = graphql`
  fragment BusinessHeroFragment_business on Business {
    name
    slug
    logoUrl
    description
    memberCount
    page {
      gallery {
        url
      }
    }
  }
`;

/** The top of a business page: brand row, description, primary gallery image and membership call to action. */
export function BusinessHero({ business }: { business: BusinessHeroFragment_business$key }) {
  const data = useFragment(BusinessHeroFragment, business);
  const primaryImage = data.page?.gallery[0]?.url;
  return (
    <Box as="section" bgGradient="to-b" gradientFrom="orange.50" gradientTo="transparent" borderBottomWidth="1px" borderColor="orange.100">
      <Container maxW="6xl" py={{ base: "10", md: "16" }}>
        <SimpleGrid columns={{ base: 1, lg: primaryImage ? 2 : 1 }} gap={{ base: "8", lg: "12" }} alignItems="center">
          <Stack gap="6">
            <HStack gap={{ base: "4", md: "6" }} align="center">
              <BusinessLogo name={data.name} logoUrl={data.logoUrl} size="2xl" />
              <Heading as="h1" size={{ base: "3xl", md: "4xl" }} lineHeight="shorter">
                {data.name}
              </Heading>
            </HStack>
            <Text color="fg.muted" fontSize="lg" maxW="2xl">
              {data.description || `Monthly membership boxes from ${data.name}: choose a package, add extras and pick how you receive it.`}
            </Text>
            <HStack gap="3" wrap="wrap">
              <Badge colorPalette="orange" variant="subtle" size="lg" rounded="full">
                {memberCountLabel(data.memberCount)}
              </Badge>
            </HStack>
            <HStack gap="3" wrap="wrap">
              <Button asChild colorPalette="orange" size="lg">
                <RouterLink to={`/b/${data.slug}/membership`}>Member login</RouterLink>
              </Button>
              <Button asChild variant="outline" size="lg" bg="bg">
                <RouterLink to="/businesses">All businesses</RouterLink>
              </Button>
            </HStack>
          </Stack>
          {primaryImage && <Image src={primaryImage} alt={`${data.name}`} rounded="2xl" shadow="md" w="full" aspectRatio={4 / 3} objectFit="cover" />}
        </SimpleGrid>
      </Container>
    </Box>
  );
}
