import { Suspense, useEffect, useMemo, useState } from "react";
import { Box, Button, HStack, Text } from "@chakra-ui/react";
import { graphql, useLazyLoadQuery } from "react-relay";
import { useParams, useSearchParams } from "react-router";
import type { PageDraft } from "../../features/admin/page-editor/draft.ts";
import { LivePagePreview } from "../../features/admin/page-editor/LivePagePreview.tsx";
import { readPreviewAccess } from "../../features/admin/page-editor/previewData.ts";
import { previewResponse } from "../../features/admin/page-editor/previewPage.ts";
import { STORAGE_KEYS } from "../../lib/storage.ts";
import { useDocumentTitle } from "../../lib/useDocumentTitle.ts";
import { ErrorBoundary } from "../../ui/ErrorBoundary.tsx";
import { ErrorState, LoadingState } from "../../ui/StatusStates.tsx";
import type { PagePreviewRouteQuery } from "./__generated__/PagePreviewRouteQuery.graphql.ts";

/** The phone the Mobile view shows the page at. */
const PHONE_WIDTH_PX = 390;

/**
 * /admin/preview/:slug: the editor's unsaved page, handed over through page_preview_data, rendered by the live
 * business page's own components. The Mobile view frames this same route (`?frame`, the page alone) at a phone's
 * width, so the page lays out by a phone's breakpoints rather than squeezed into a desktop's.
 */
export default function PagePreviewRoute() {
  const slug = useParams().slug ?? "";
  const framed = useSearchParams()[0].has("frame");
  useDocumentTitle("Preview");
  const [device, setDevice] = useState<"desktop" | "mobile">("desktop");
  const [access, setAccess] = useState(() => readPreviewAccess(slug));
  useEffect(() => {
    // The editor hands over every later change of the draft too: the open preview follows it.
    const onStorage = (e: StorageEvent) => {
      if (e.key === STORAGE_KEYS.pagePreviewData) setAccess(readPreviewAccess(slug));
    };
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  }, [slug]);
  const page = access.ok ? (
    <ErrorBoundary fallback={() => <ErrorState message="Failed to load preview data." />}>
      <Suspense fallback={<LoadingState label="Loading preview…" />}>
        <DraftPage slug={slug} draft={access.data.draft} />
      </Suspense>
    </ErrorBoundary>
  ) : (
    <Box p="4">
      <ErrorState message={access.message} />
    </Box>
  );
  if (framed) return page;
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
      <Box data-device={device} data-testid="preview-frame" bg={device === "mobile" ? undefined : "bg"} py={device === "mobile" ? "6" : undefined}>
        {device === "mobile" ? (
          <Box as="iframe" {...{ src: `?frame`, title: "Mobile preview" }} display="block" mx="auto" w={`${PHONE_WIDTH_PX}px`} maxW="full" h="calc(100dvh - 7rem)" bg="bg" borderWidth="1px" rounded="lg" shadow="md" />
        ) : (
          page
        )}
      </Box>
    </Box>
  );
}

/** The draft as the live page, with what only the server knows of the business (its saved page's today). */
function DraftPage({ slug, draft }: { slug: string; draft: PageDraft }) {
  const { business } = useLazyLoadQuery<PagePreviewRouteQuery>(
    graphql`
      query PagePreviewRouteQuery($slug: String!) {
        business(slug: $slug) {
          ...previewPage_business
        }
      }
    `,
    { slug },
  );
  const response = useMemo(() => previewResponse(slug, draft, business ?? null), [slug, draft, business]);
  return <LivePagePreview response={response} />;
}
