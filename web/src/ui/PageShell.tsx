import { createContext, Suspense, useContext, useEffect, useState, type ReactNode } from "react";
import { Box, Container, Flex } from "@chakra-ui/react";
import { Outlet } from "react-router";
import { SiteFooter } from "./SiteFooter.tsx";
import { SiteHeader } from "./SiteHeader.tsx";
import { LoadingState } from "./StatusStates.tsx";

/** Tells the shell a page draws its own footer (a business page), so the site footer steps aside. */
const OwnFooterContext = createContext<(own: boolean) => void>(() => undefined);

/** While `active`, the page's own footer replaces the site footer: one footer per page. */
export function useOwnFooter(active: boolean) {
  const setOwn = useContext(OwnFooterContext);
  useEffect(() => {
    if (!active) return;
    setOwn(true);
    return () => setOwn(false);
  }, [active, setOwn]);
}

/** Header, content and footer around every public route. */
export function PageShell() {
  const [ownFooter, setOwnFooter] = useState(false);
  return (
    <Flex direction="column" minH="100dvh">
      <SiteHeader />
      <Box as="main" flex="1">
        <OwnFooterContext.Provider value={setOwnFooter}>
          <Suspense fallback={<LoadingState label="Loading…" />}>
            <Outlet />
          </Suspense>
        </OwnFooterContext.Provider>
      </Box>
      {!ownFooter && <SiteFooter />}
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
