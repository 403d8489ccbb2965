import { Box } from "@chakra-ui/react";
import { LoadingState } from "../ui/StatusStates.tsx";

/**
 * A public page still loading (its chunk or its data) fills the screen below the header, so the site footer
 * waits below the fold instead of showing and then moving when the page arrives (layout shift, CLS). The
 * public pages' boundary (publicRoutes.tsx) and the routes' own boundaries use it alike.
 */
export function PageLoading({ label }: { label: string }) {
  return (
    <Box minH="100dvh">
      <LoadingState label={label} />
    </Box>
  );
}
