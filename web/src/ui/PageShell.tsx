import { Suspense, type ReactNode } from "react";
import { Box, Container, Flex } from "@chakra-ui/react";
import { Outlet } from "react-router";
import { SiteFooter } from "./SiteFooter.tsx";
import { SiteHeader } from "./SiteHeader.tsx";
import { LoadingState } from "./StatusStates.tsx";

/** Header, content and footer around every public route. */
export function PageShell() {
  return (
    <Flex direction="column" minH="100dvh">
      <SiteHeader />
      <Box as="main" flex="1">
        <Suspense fallback={<LoadingState label="Loading…" />}>
          <Outlet />
        </Suspense>
      </Box>
      <SiteFooter />
    </Flex>
  );
}

/** The centred content column of an ordinary page. */
export function PageContent({ children }: { children: ReactNode }) {
  return (
    <Container maxW="6xl" py={{ base: "8", md: "12" }}>
      {children}
    </Container>
  );
}
