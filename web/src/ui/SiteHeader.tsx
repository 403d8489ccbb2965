import { Box, Button, Container, HStack, Link, Text } from "@chakra-ui/react";
import { graphql, useMutation } from "react-relay";
import { Link as RouterLink, NavLink, useLocation, useNavigate } from "react-router";
import type { SiteHeaderLogoutMutation } from "./__generated__/SiteHeaderLogoutMutation.graphql.ts";
import { BrandMark } from "./BrandMark.tsx";
import { clearSession, readSession, useSessionVersion } from "../lib/session.ts";
import { tenantFromPath } from "../lib/tenant.ts";

/** The member portal's paths (/membership, /b/{slug}/membership), whose Log Out tab is the portal's one logout. */
const PORTAL_PATH = /^(\/b\/[^/]+)?\/membership\/?$/i;

// Ends the server's session; nothing to show comes back (the session is cleared here and the page leaves).
const LogoutMutation = graphql`
  mutation SiteHeaderLogoutMutation {
    logout
  }
`;

export function SiteHeader() {
  useSessionVersion(); // re-render on login and logout, in this tab or another
  const session = readSession();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [commitLogout] = useMutation<SiteHeaderLogoutMutation>(LogoutMutation);
  // One login for every membership: the portal lists them all, so "My Membership" keeps the business
  // being browsed (its portal shows that business first) and is the main portal elsewhere.
  const browsing = tenantFromPath(pathname);
  const portalPath = browsing ? `/b/${browsing}/membership` : "/membership";
  // In the portal its own Log Out tab (spec §2) is the one logout control.
  const inPortal = PORTAL_PATH.test(pathname);

  function logout() {
    commitLogout({ variables: {}, onCompleted: () => undefined, onError: () => undefined });
    clearSession();
    void navigate(browsing ? `/b/${browsing}` : "/");
  }

  return (
    <Box as="header" borderBottomWidth="1px" borderColor="orange.100" bg="bg/80" backdropFilter="blur(8px)" position="sticky" top="0" zIndex="sticky">
      <Container maxW="6xl" py="3">
        <HStack justify="space-between" gap="4">
          <Link asChild _hover={{ textDecoration: "none" }} color="fg" fontWeight="semibold">
            <RouterLink to="/" aria-label="Harvest & Hearth home">
              <BrandMark />
              <Text as="span" fontFamily="heading" fontSize={{ base: "md", md: "lg" }} hideBelow="sm">
                Harvest &amp; Hearth
              </Text>
            </RouterLink>
          </Link>
          <HStack as="nav" gap={{ base: "1", md: "2" }} aria-label="Main">
            <Button asChild variant="ghost" size="sm" px={{ base: "2", md: "3" }}>
              <NavLink to="/businesses">Businesses</NavLink>
            </Button>
            {session ? (
              <>
                {session.user?.username && (
                  <Text as="span" fontSize="sm" color="fg.muted" hideBelow="md" data-testid="header-username">
                    {session.user.username}
                  </Text>
                )}
                <Button asChild colorPalette="orange" size="sm" px={{ base: "2", md: "3" }}>
                  <RouterLink to={portalPath}>My Membership</RouterLink>
                </Button>
                {!inPortal && (
                  <Button variant="ghost" size="sm" px={{ base: "2", md: "3" }} onClick={logout}>
                    Log out
                  </Button>
                )}
              </>
            ) : (
              <Button asChild colorPalette="orange" size="sm">
                <RouterLink to="/membership">Login</RouterLink>
              </Button>
            )}
          </HStack>
        </HStack>
      </Container>
    </Box>
  );
}
