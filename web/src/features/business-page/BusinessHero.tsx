import { Badge, Box, Button, Container, HStack, Heading, SimpleGrid, Stack, Text } from "@chakra-ui/react";
import { graphql, useFragment } from "react-relay";
import { Link as RouterLink } from "react-router";
import type { BusinessHeroFragment_business$key } from "./__generated__/BusinessHeroFragment_business.graphql.ts";
import { BusinessGallery } from "./BusinessGallery.tsx";
import { BusinessLogo } from "../businesses/BusinessLogo.tsx";
import { memberCountLabel } from "../businesses/memberCount.ts";
import { pageSurface } from "../../lib/color.ts";
import { RichHtml } from "../../ui/RichHtml.tsx";

const BusinessHeroFragment = graphql`
  fragment BusinessHeroFragment_business on Business {
    name
    logoUrl
    description
    memberCount
    page {
      descriptionHtml
      brand {
        name
        logoUrl
      }
      theme {
        pageBg
      }
      gallery {
        __typename
      }
      ...BusinessGalleryFragment_page
    }
  }
`;

/**
 * The top of a business page: brand row, description, gallery and the member's way in: "Member login", or for a
 * signed-in member "My Membership" (one login reaches every business's portal).
 */
export function BusinessHero({ business, portalPath, signedIn = false }: { business: BusinessHeroFragment_business$key; portalPath: string; signedIn?: boolean }) {
  const data = useFragment(BusinessHeroFragment, business);
  const page = data.page;
  const surface = pageSurface(page?.theme.pageBg ?? "#ffffff");
  const dark = surface.light;
  // On a page whose muted text falls back to the main colour (a mid-tone background), links take it too.
  const plainLinks = dark || surface.muted === surface.text;
  const name = data.name;
  const hasGallery = (page?.gallery.length ?? 0) > 0;
  return (
    <Box as="section">
      <Container maxW="6xl" pt={{ base: "6", md: "12" }} pb={{ base: "4", md: "8" }}>
        <SimpleGrid columns={{ base: 1, lg: hasGallery ? 2 : 1 }} gap={{ base: "6", lg: "12" }} alignItems="center">
          <Stack gap="5" order={{ base: 2, lg: 1 }}>
            <HStack gap={{ base: "4", md: "5" }} align="center" data-testid="brand-row">
              <BusinessLogo name={name} logoUrl={page?.brand.logoUrl ?? data.logoUrl} size="2xl" />
              <Heading as="h1" size={{ base: "2xl", md: "4xl" }} lineHeight="shorter">
                {name}
              </Heading>
            </HStack>
            {page?.descriptionHtml ? (
              <RichHtml fontSize="lg" color={surface.muted} css={plainLinks ? { "& a": { color: "inherit" } } : undefined} html={page.descriptionHtml} data-testid="business-description" />
            ) : (
              <Text color={surface.muted} fontSize="lg">
                {data.description || `Monthly membership boxes from ${name}.`}
              </Text>
            )}
            <HStack gap="3" wrap="wrap">
              <Badge colorPalette={dark ? "gray" : "orange"} variant="subtle" size="lg" rounded="full">
                {memberCountLabel(data.memberCount)}
              </Badge>
              <Button asChild variant="outline" size="sm" bg={dark ? "transparent" : "bg"} color="inherit">
                <RouterLink to={portalPath}>{signedIn ? "My Membership" : "Member login"}</RouterLink>
              </Button>
            </HStack>
          </Stack>
          {page && hasGallery && (
            <Box order={{ base: 1, lg: 2 }}>
              <BusinessGallery page={page} />
            </Box>
          )}
        </SimpleGrid>
      </Container>
    </Box>
  );
}
