import { Box, Heading, Stack, Text } from "@chakra-ui/react";
import { readSelection } from "../lib/selection.ts";
import { useDocumentTitle } from "../lib/useDocumentTitle.ts";
import { PageContent } from "../ui/PageShell.tsx";

/** /checkout (legacy): only displays the stored selection. */
export default function LegacyCheckoutRoute() {
  useDocumentTitle("Your selection");
  const sel = readSelection();
  return (
    <PageContent>
      <Box maxW="xl" mx="auto" p="6" rounded="xl" bg="bg" borderWidth="1px">
        <Heading as="h1" size="xl" mb="4">
          Your selection
        </Heading>
        {!sel ? (
          <Text>No selection found.</Text>
        ) : (
          <Stack gap="1">
            <Text><strong>Package:</strong> {sel.chosenItemName || sel.businessSlug}</Text>
            <Text><strong>Variation:</strong> {sel.chosenVariationName}</Text>
            <Text><strong>Fulfillment:</strong> {sel.fulfillmentMode || sel.mode}</Text>
            <Text><strong>Items:</strong> {[sel.chosenItemId, ...(sel.chosenAddonIds ?? [])].join(", ")}</Text>
          </Stack>
        )}
      </Box>
    </PageContent>
  );
}
