import { useState } from "react";
import { Box, Button, Container, HStack, Text } from "@chakra-ui/react";
import { useParams } from "react-router";
import { PagePreview } from "../../features/admin/page-editor/PagePreview.tsx";
import { readPreviewAccess } from "../../features/admin/page-editor/previewData.ts";
import { useDocumentTitle } from "../../lib/useDocumentTitle.ts";
import { ErrorState } from "../../ui/StatusStates.tsx";

/** /admin/preview/:slug: the editor's unsaved page, handed over through page_preview_data. */
export default function PagePreviewRoute() {
  const slug = useParams().slug ?? "";
  useDocumentTitle("Preview");
  const [device, setDevice] = useState<"desktop" | "mobile">("desktop");
  const [access] = useState(() => readPreviewAccess(slug));
  return (
    <Box minH="100dvh" bg="gray.100">
      <HStack bg="gray.900" color="white" px="4" py="2" justify="space-between" position="sticky" top="0" zIndex="sticky">
        <Text fontWeight="semibold" truncate>
          Preview<Text as="span" hideBelow="sm"> · {slug}</Text>
        </Text>
        <HStack>
          <HStack gap="1" role="group" aria-label="Device">
            {(["desktop", "mobile"] as const).map((d) => (
              <Button key={d} size="sm" variant={device === d ? "solid" : "ghost"} colorPalette={device === d ? "orange" : "gray"} color={device === d ? undefined : "white"} aria-pressed={device === d} onClick={() => setDevice(d)}>
                {d === "desktop" ? "Desktop" : "Mobile"}
              </Button>
            ))}
          </HStack>
          <Button size="sm" variant="subtle" onClick={() => window.close()}>
            Close
          </Button>
        </HStack>
      </HStack>
      <Container py="6" maxW={device === "mobile" ? "390px" : "6xl"} px={device === "mobile" ? "0" : "4"} data-device={device} data-testid="preview-frame">
        {access.ok ? <PagePreview draft={access.data.draft} compact={device === "mobile"} /> : <ErrorState message={access.message} />}
      </Container>
    </Box>
  );
}
