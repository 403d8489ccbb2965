import type { ReactNode } from "react";
import { Box, Heading, Stack, Text, Flex } from "@chakra-ui/react";
import { useDocumentTitle } from "../../lib/useDocumentTitle.ts";

/** Title row of an admin page: heading, optional description and actions on the right. */
export function AdminPage({ title, description, actions, children }: { title: string; description?: ReactNode; actions?: ReactNode; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <Stack gap="6">
      <Flex gap="4" justify="space-between" align={{ base: "stretch", sm: "flex-end" }} direction={{ base: "column", sm: "row" }}>
        <Box minW="0">
          <Heading as="h1" size={{ base: "xl", md: "2xl" }}>
            {title}
          </Heading>
          {description && (
            <Text color="fg.muted" mt="1">
              {description}
            </Text>
          )}
        </Box>
        {actions}
      </Flex>
      {children}
    </Stack>
  );
}

/** A white panel with an optional heading. */
export function Panel({ title, children, actions }: { title?: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <Box as="section" bg="bg" borderWidth="1px" borderColor="orange.100" rounded="xl" p={{ base: "4", md: "5" }} minW="0">
      {(title || actions) && (
        <Flex justify="space-between" align="center" mb="4" gap="3" wrap="wrap">
          {title && (
            <Heading as="h2" size="md">
              {title}
            </Heading>
          )}
          {actions}
        </Flex>
      )}
      {children}
    </Box>
  );
}

/** Quiet one-line empty state inside a panel ('No data yet', 'Nothing yet', …). */
export function EmptyLine({ children }: { children: ReactNode }) {
  return (
    <Text color="fg.muted" py="6" textAlign="center">
      {children}
    </Text>
  );
}
