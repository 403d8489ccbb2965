import { Button, Heading, Stack, Text } from "@chakra-ui/react";
import { Link as RouterLink } from "react-router";
import { useDocumentTitle } from "../lib/useDocumentTitle.ts";
import { PageContent } from "../ui/PageShell.tsx";

/** Any path no route matches. */
export default function NotFoundRoute() {
  useDocumentTitle("Page not found");
  return (
    <PageContent>
      <Stack align="center" textAlign="center" gap="4" py={{ base: "10", md: "20" }}>
        <Text fontSize="6xl" fontFamily="heading" fontWeight="bold" color="orange.600" lineHeight="1">
          404
        </Text>
        <Heading as="h1" size="2xl">
          Page not found
        </Heading>
        <Text color="fg.muted" maxW="md">
          The page you are looking for does not exist or has moved.
        </Text>
        <Stack direction={{ base: "column", sm: "row" }} gap="3" pt="2">
          <Button asChild colorPalette="orange">
            <RouterLink to="/">Back to Home</RouterLink>
          </Button>
          <Button asChild variant="outline">
            <RouterLink to="/businesses">Browse businesses</RouterLink>
          </Button>
        </Stack>
      </Stack>
    </PageContent>
  );
}
