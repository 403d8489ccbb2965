import { Suspense, useState, type ReactNode } from "react";
import { Box, Button, CloseButton, Drawer, Flex, HStack, IconButton, Link, Portal, Stack, Text } from "@chakra-ui/react";
import { Link as RouterLink, matchPath, NavLink, useLocation } from "react-router";
import { BrandMark } from "../BrandMark.tsx";
import { ErrorBoundary } from "../ErrorBoundary.tsx";

interface AdminNavItem {
  to: string;
  label: string;
  /** Only this exact path marks it current (index routes). */
  end?: boolean;
  /** Paths of pages inside this entry's section (route patterns, e.g. a list's detail pages): it is current there too. */
  currentOn?: string[];
  /**
   * Wraps the entry in what decides whether it shows (an element rendering it or nothing); that may load data
   * (suspend): the entry appears once it has, and stays away when the load fails.
   */
  gate?: (entry: ReactNode) => ReactNode;
}

export interface AdminNavSection {
  title?: string;
  items: AdminNavItem[];
}

/** An entry of the sidebar, marked current (aria-current="page") on its own path and on the pages of its section. */
function NavEntry({ item, onNavigate }: { item: AdminNavItem; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  const inSection = item.currentOn?.some((pattern) => matchPath(pattern, pathname) !== null) ?? false;
  return (
    <Link asChild px="3" py="2" rounded="md" color="fg" _hover={{ bg: "orange.50", textDecoration: "none" }} css={{ "&[aria-current=page]": { bg: "orange.100", color: "orange.900", fontWeight: "semibold" } }}>
      {inSection ? (
        <RouterLink to={item.to} aria-current="page" onClick={onNavigate}>
          {item.label}
        </RouterLink>
      ) : (
        <NavLink to={item.to} end={item.end} onClick={onNavigate}>
          {item.label}
        </NavLink>
      )}
    </Link>
  );
}

function NavList({ sections, onNavigate }: { sections: AdminNavSection[]; onNavigate?: () => void }) {
  return (
    <Stack as="nav" aria-label="Admin" gap="5">
      {sections.map((section, i) => (
        <Stack key={section.title ?? i} gap="1">
          {section.title && (
            <Text fontSize="xs" fontWeight="semibold" textTransform="uppercase" letterSpacing="wide" color="fg.muted" px="3" truncate>
              {section.title}
            </Text>
          )}
          {section.items.map((item) => {
            const link = <NavEntry key={item.to} item={item} onNavigate={onNavigate} />;
            if (!item.gate) return link;
            return (
              <ErrorBoundary key={item.to} fallback={() => null}>
                <Suspense fallback={null}>{item.gate(link)}</Suspense>
              </ErrorBoundary>
            );
          })}
        </Stack>
      ))}
    </Stack>
  );
}

function Brand() {
  return (
    <Link asChild _hover={{ textDecoration: "none" }} color="fg" fontWeight="semibold">
      <RouterLink to="/" aria-label="Admin · Harvest & Hearth home">
        <BrandMark />
        <Text as="span" fontFamily="heading">
          Admin
        </Text>
      </RouterLink>
    </Link>
  );
}

/** The admin layout (spec §2): a sidebar on wide screens, a hamburger drawer on phones, and Logout. */
export function AdminShell({ sections, onLogout, children }: { sections: AdminNavSection[]; onLogout: () => void; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <Flex minH="100dvh" bg="#fffaf5">
      <Box as="aside" className="admin-chrome" hideBelow="md" w="60" flexShrink={0} borderRightWidth="1px" borderColor="orange.100" bg="bg" position="sticky" top="0" h="100dvh" overflowY="auto">
        <Stack p="4" gap="6" h="full">
          <Brand />
          <Box flex="1">
            <NavList sections={sections} />
          </Box>
          <Button variant="outline" onClick={onLogout}>
            Logout
          </Button>
        </Stack>
      </Box>
      <Flex direction="column" flex="1" minW="0">
        <HStack className="admin-chrome" hideFrom="md" justify="space-between" px="4" py="2" borderBottomWidth="1px" borderColor="orange.100" bg="bg" position="sticky" top="0" zIndex="sticky">
          <Drawer.Root open={open} onOpenChange={(e) => setOpen(e.open)} placement="start">
            <Drawer.Trigger asChild>
              <IconButton aria-label="Open menu" variant="ghost">
                <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true">
                  <path d="M3 6h18M3 12h18M3 18h18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
                </svg>
              </IconButton>
            </Drawer.Trigger>
            <Portal>
              <Drawer.Backdrop />
              <Drawer.Positioner>
                <Drawer.Content maxW="72">
                  <Drawer.Header>
                    <Brand />
                  </Drawer.Header>
                  <Drawer.Body>
                    <NavList sections={sections} onNavigate={() => setOpen(false)} />
                  </Drawer.Body>
                  <Drawer.Footer>
                    <Button variant="outline" w="full" onClick={onLogout}>
                      Logout
                    </Button>
                  </Drawer.Footer>
                  <Drawer.CloseTrigger asChild>
                    <CloseButton size="sm" aria-label="Close menu" />
                  </Drawer.CloseTrigger>
                </Drawer.Content>
              </Drawer.Positioner>
            </Portal>
          </Drawer.Root>
          <Brand />
          <Button size="sm" variant="outline" onClick={onLogout}>
            Logout
          </Button>
        </HStack>
        <Box as="main" flex="1" px={{ base: "4", md: "8" }} py={{ base: "5", md: "8" }} maxW="7xl" w="full">
          {children}
        </Box>
      </Flex>
    </Flex>
  );
}
