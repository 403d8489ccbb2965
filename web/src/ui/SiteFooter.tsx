import { Box, Container, Flex, HStack, Link, Text } from "@chakra-ui/react";
import { Link as RouterLink } from "react-router";

const LINKS = [
  { to: "/contact", label: "Contact" },
  { to: "/privacy-policy", label: "Privacy Policy" },
  { to: "/terms-of-use", label: "Terms of Use" },
  { to: "/refund-policy", label: "Refund Policy" },
];

export function SiteFooter() {
  return (
    <Box as="footer" bg="gray.900" color="gray.300" mt="auto">
      <Container maxW="6xl" py="8">
        <Flex direction={{ base: "column", md: "row" }} justify="space-between" align={{ base: "flex-start", md: "center" }} gap="4">
          <Text fontSize="sm">© {new Date().getFullYear()} Harvest &amp; Hearth Memberships. All rights reserved.</Text>
          <HStack as="nav" aria-label="Legal" gap="5" wrap="wrap">
            {LINKS.map((l) => (
              <Link key={l.to} asChild fontSize="sm" color="gray.300" _hover={{ color: "white" }}>
                <RouterLink to={l.to}>{l.label}</RouterLink>
              </Link>
            ))}
          </HStack>
        </Flex>
      </Container>
    </Box>
  );
}
