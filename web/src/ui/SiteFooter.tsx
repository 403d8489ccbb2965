import { Box, Container, Flex, HStack, Text } from "@chakra-ui/react";
import { LegalLinks, SITE_LEGAL_LINKS } from "./LegalLinks.tsx";


export function SiteFooter() {
  return (
    <Box as="footer" bg="gray.900" color="gray.300" mt="auto">
      <Container maxW="6xl" py="8">
        <Flex direction={{ base: "column", md: "row" }} justify="space-between" align={{ base: "flex-start", md: "center" }} gap="4">
          <Text fontSize="sm">© {new Date().getFullYear()} Harvest &amp; Hearth Memberships. All rights reserved.</Text>
          <HStack as="nav" aria-label="Legal" gap="5" wrap="wrap">
            <LegalLinks links={SITE_LEGAL_LINKS} color="gray.300" _hover={{ color: "white" }} />
          </HStack>
        </Flex>
      </Container>
    </Box>
  );
}
