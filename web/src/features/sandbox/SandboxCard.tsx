import type { ReactNode } from "react";
import { Badge, Card, Container, Heading, HStack } from "@chakra-ui/react";
import { useDocumentTitle } from "../../lib/useDocumentTitle.ts";

/**
 * The sandbox payment provider's stand-ins for the provider's own pages (hosted onboarding, the Express
 * dashboard): one centred card, marked as the sandbox, under the site's header.
 */
export function SandboxCard({ title, children }: { title: string; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <Container maxW="lg" py={{ base: "8", md: "16" }} px={{ base: "4", md: "6" }}>
      <Card.Root as="section" aria-labelledby="sandbox-card-title" shadow="sm">
        <Card.Header>
          <HStack justify="space-between" align="flex-start" gap="3" wrap="wrap">
            <Heading as="h1" size="xl" id="sandbox-card-title" wordBreak="break-word">
              {title}
            </Heading>
            <Badge colorPalette="purple">Sandbox</Badge>
          </HStack>
        </Card.Header>
        <Card.Body gap="4">{children}</Card.Body>
      </Card.Root>
    </Container>
  );
}
