import { Box, Button, Container, HStack, Link, Text } from "@chakra-ui/react";
import { Link as RouterLink, NavLink } from "react-router";
import { BrandMark } from "./BrandMark.tsx";

export function SiteHeader() {
  return (
    <Box as="header" borderBottomWidth="1px" borderColor="orange.100" bg="bg/80" backdropFilter="blur(8px)" position="sticky" top="0" zIndex="sticky">
      <Container maxW="6xl" py="3">
        <HStack justify="space-between" gap="4">
          <Link asChild _hover={{ textDecoration: "none" }} color="fg" fontWeight="semibold">
            <RouterLink to="/" aria-label="Harvest & Hearth home">
              <BrandMark />
              <Text as="span" fontFamily="heading" fontSize={{ base: "md", md: "lg" }} hideBelow="sm">
                Harvest &amp; Hearth
              </Text>
            </RouterLink>
          </Link>
          <HStack as="nav" gap={{ base: "1", md: "2" }} aria-label="Main">
            <Button asChild variant="ghost" size="sm">
              <NavLink to="/businesses">Businesses</NavLink>
            </Button>
            <Button asChild colorPalette="orange" size="sm">
              <RouterLink to="/membership">Login</RouterLink>
            </Button>
          </HStack>
        </HStack>
      </Container>
    </Box>
  );
}
