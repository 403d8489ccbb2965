import { Box, Button, Container, Flex, Heading, HStack, IconButton, Stack, Text } from "@chakra-ui/react";
import { useEffect, useState } from "react";
import { graphql, useFragment, useMutation } from "react-relay";
import { Link as RouterLink, useNavigate, useSearchParams } from "react-router";
import type { MemberPortalFragment_paymentConfig$key } from "./__generated__/MemberPortalFragment_paymentConfig.graphql.ts";
import type { MemberPortalFragment_viewer$key } from "./__generated__/MemberPortalFragment_viewer.graphql.ts";
import type { MemberPortalLogoutMutation } from "./__generated__/MemberPortalLogoutMutation.graphql.ts";
import { OrderHistory } from "./OrderHistory.tsx";
import { ProfileTab } from "./ProfileTab.tsx";
import { SubscriptionCard } from "./SubscriptionCard.tsx";
import { SupportPhone } from "./SupportPhone.tsx";
import { portalOrder } from "./portalOrder.ts";
import { cancellationNote, selfService } from "./cancellation.ts";
import { changeBoxPath, parsePortalLink, withoutPortalAction, type PortalTabParam } from "./portalLinks.ts";
import { longDate } from "../../lib/dates.ts";
import { clearSession } from "../../lib/session.ts";
import { RichHtml } from "../../ui/RichHtml.tsx";
import { EmptyMessage } from "../../ui/StatusStates.tsx";

/* What the portal reads: the route's query (routes/MembershipRoute.tsx) spreads these fragments. */
const ViewerFragment = graphql`
  fragment MemberPortalFragment_viewer on User {
    username
    subscriptions(onePerBusiness: true) {
      id
      # The portal links of the emails name a membership by its number (portalLinks.ts).
      databaseId
      status
      nextBoxDate
      skipWindow {
        closesOn
      }
      changeWindow {
        open
        closesOn
      }
      business {
        name
        slug
        page {
          supportPhone
          # The footer's line on cancelling: by phone only unless a card offers Cancel membership.
          cancellationPolicy
        }
        nextBox {
          contentHtml
        }
      }
      ...SubscriptionCardFragment_membership
    }
    ...OrderHistoryFragment_user
    ...ProfileTabFragment_user
  }
`;

const PaymentConfigFragment = graphql`
  fragment MemberPortalFragment_paymentConfig on PaymentConfig {
    ...SubscriptionCardFragment_paymentConfig
    ...ProfileTabFragment_paymentConfig
  }
`;

// Ends the server's session; nothing to show comes back (the session is cleared here and the login shows).
const LogoutMutation = graphql`
  mutation MemberPortalLogoutMutation {
    logout
  }
`;

const TABS = ["Next Box", "Subscriptions", "Order History", "Profile"] as const;
type Tab = (typeof TABS)[number];
/** ?tab= of the links in emails: which tab the portal opens on. */
const TAB_PARAMS: Record<PortalTabParam, Tab> = { "next-box": "Next Box", subscriptions: "Subscriptions", orders: "Order History", profile: "Profile" };

/**
 * The member portal once signed in (routes/MembershipRoute.tsx): the tabs of every membership the member holds,
 * the business of the URL first. A chunk of its own, loaded when a member is signed in: the login form, all a
 * visitor sees, does not carry the portal (its cards, dialogs, card form and order history).
 */
export function MemberPortal({ viewer: viewerRef, paymentConfig: paymentConfigRef, businessSlug, onRefresh }: {
  viewer: MemberPortalFragment_viewer$key;
  paymentConfig: MemberPortalFragment_paymentConfig$key;
  businessSlug: string | null;
  onRefresh: () => void;
}) {
  const viewer = useFragment(ViewerFragment, viewerRef);
  const paymentConfig = useFragment(PaymentConfigFragment, paymentConfigRef);
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const link = parsePortalLink(params);
  const [tab, setTab] = useState<Tab>(() => (link.tab ? TAB_PARAMS[link.tab] : "Next Box"));
  // A link's request for one membership (the pre-charge notice's Skip and Change links), kept after the
  // URL drops it. A query that changes while the portal is shown (a login's redirect `r`) is read again.
  // `seq` tells a link followed again (the same email link opened twice) from the one already taken.
  const [linkRequest, setLinkRequest] = useState(link.action && { ...link.action, seq: 0 });
  const search = params.toString();
  const [readSearch, setReadSearch] = useState(search);
  if (search !== readSearch) {
    setReadSearch(search);
    if (link.tab) setTab(TAB_PARAMS[link.tab]);
    if (link.action) setLinkRequest({ ...link.action, seq: (linkRequest?.seq ?? 0) + 1 });
  }
  const [menuOpen, setMenuOpen] = useState(false);
  const [commitLogout] = useMutation<MemberPortalLogoutMutation>(LogoutMutation);

  const subs = portalOrder(viewer.subscriptions.filter((s) => s.status !== "INCOMPLETE"), businessSlug);
  const first = subs.find((s) => s.status === "ACTIVE" || s.status === "PAST_DUE") ?? subs[0] ?? null;
  const orderId = Number(params.get("orderId")) || null;
  // Whether each current membership may be canceled from its card (an active one at a SELF_SERVICE business).
  const cancelFromCard = subs.filter((s) => s.status === "ACTIVE" || s.status === "PAST_DUE").map((s) => s.status === "ACTIVE" && selfService(s.business.page?.cancellationPolicy));
  const linked = linkRequest ? (subs.find((s) => s.databaseId === linkRequest.membershipId) ?? null) : null;
  // "Change box" of the linked membership when its card offers it (a current membership inside the change window).
  const linkedChangePath = linkRequest?.open === "change" && linked && (linked.status === "ACTIVE" || linked.status === "PAST_DUE") && linked.changeWindow.open ? changeBoxPath(linked.business.slug) : null;

  useEffect(() => {
    // "open=change" goes where the card's Change box goes, in place of the link (Back does not come here again).
    if (linkedChangePath) {
      void navigate(linkedChangePath, { replace: true });
      return;
    }
    // The request is taken: a reload, or the portal loading again after a restart, does not open the dialog again.
    const rest = withoutPortalAction(params);
    if (rest) setParams(rest, { replace: true });
  }, [linkedChangePath, navigate, params, setParams]);

  /** The member's own choice of tab: a link's request is done with (its card does not open the dialog again). */
  function showTab(t: Tab) {
    setTab(t);
    setLinkRequest(null);
  }

  function logout() {
    commitLogout({ variables: {}, onCompleted: () => undefined, onError: () => undefined });
    clearSession();
    void navigate(businessSlug ? `/b/${businessSlug}` : "/membership");
  }

  const tabButton = (t: Tab, vertical = false) => (
    <Button
      key={t}
      role="tab"
      aria-selected={tab === t}
      variant={tab === t ? "solid" : "ghost"}
      colorPalette={tab === t ? "orange" : "gray"}
      justifyContent={vertical ? "flex-start" : "center"}
      w={vertical ? "full" : "auto"}
      onClick={() => {
        showTab(t);
        setMenuOpen(false);
      }}
    >
      {t}
    </Button>
  );

  return (
    <Container maxW="5xl" py={{ base: "6", md: "10" }}>
      <Flex justify="space-between" align="center" gap="3" mb="6">
        <Stack gap="0">
          <Heading as="h1" size={{ base: "xl", md: "2xl" }}>
            My membership
          </Heading>
          <Text color="fg.muted">Signed in as {viewer.username}</Text>
        </Stack>
        <IconButton aria-label={menuOpen ? "Close menu" : "Open menu"} aria-expanded={menuOpen} aria-controls="portal-menu" variant="outline" hideFrom="md" onClick={() => setMenuOpen((o) => !o)}>
          <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            {menuOpen ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
          </svg>
        </IconButton>
      </Flex>
      {params.get("success") && orderId && (
        <Box role="status" mb="4" p="4" rounded="lg" bg="green.50" borderWidth="1px" borderColor="green.200" color="green.900">
          Thank you! Your membership is active. Order #{orderId} is in your order history.
        </Box>
      )}
      {params.get("changed") && (
        <Box role="status" mb="4" p="4" rounded="lg" bg="blue.50" borderWidth="1px" borderColor="blue.200" color="blue.900">
          Your change is scheduled and takes effect next billing cycle.
        </Box>
      )}
      {menuOpen && (
        <Stack id="portal-menu" hideFrom="md" gap="1" mb="4" p="2" rounded="lg" borderWidth="1px" bg="bg">
          {/* A tablist holds tabs only: Log Out sits beside it, not in it. */}
          <Stack role="tablist" aria-label="Membership" aria-orientation="vertical" gap="1">
            {TABS.map((t) => tabButton(t, true))}
          </Stack>
          <Button variant="ghost" justifyContent="flex-start" onClick={logout}>
            Log Out
          </Button>
        </Stack>
      )}
      <HStack gap="1" mb="6" hideBelow="md" borderBottomWidth="1px" pb="2">
        <HStack role="tablist" aria-label="Membership" gap="1">
          {TABS.map((t) => tabButton(t))}
        </HStack>
        <Box flex="1" />
        <Button variant="outline" onClick={logout}>
          Log Out
        </Button>
      </HStack>

      <Box role="tabpanel" aria-label={tab}>
        {tab === "Next Box" &&
          (subs.length > 0 ? (
            <Stack gap="4">
              {subs.map((s) => (
                <Box key={s.id} as="section" aria-label={s.business.name} data-testid="next-box-group" p={{ base: "4", md: "6" }} rounded="xl" bg="bg" borderWidth="1px">
                  <Flex justify="space-between" align="baseline" gap="3" wrap="wrap">
                    <Text color="fg.muted" fontWeight="medium">
                      {s.business.name}
                    </Text>
                    <Button asChild variant="plain" size="sm" px="0" color="orange.700">
                      <RouterLink to={`/b/${s.business.slug}`}>Visit page</RouterLink>
                    </Button>
                  </Flex>
                  <Heading as="h2" size="xl" mt="1">
                    {s.status === "CANCELED" ? "No upcoming box" : `Your next box: ${longDate(s.nextBoxDate)}`}
                  </Heading>
                  {s.status !== "CANCELED" && s.business.nextBox?.contentHtml && <RichHtml mt="4" html={s.business.nextBox.contentHtml} data-testid="next-box-content" />}
                </Box>
              ))}
            </Stack>
          ) : (
            <EmptyMessage title="No active subscriptions yet.">
              <Button asChild colorPalette="orange">
                <RouterLink to="/businesses">Browse businesses</RouterLink>
              </Button>
            </EmptyMessage>
          ))}
        {tab === "Subscriptions" &&
          (subs.length === 0 ? (
            <EmptyMessage title="No active subscriptions yet." />
          ) : (
            <Stack gap="4">
              {subs.length > 1 && (
                <Text color="fg.muted" data-testid="membership-count">
                  You have memberships at {subs.length} businesses.
                </Text>
              )}
              {subs.map((s) => (
                <SubscriptionCard key={s.id} membership={s} paymentConfig={paymentConfig} onChanged={onRefresh} onOpenProfile={() => showTab("Profile")} linked={linked && linkRequest && linked.id === s.id ? linkRequest : null} />
              ))}
            </Stack>
          ))}
        {tab === "Order History" && <OrderHistory user={viewer} highlightOrderId={orderId} />}
        {tab === "Profile" && <ProfileTab user={viewer} paymentConfig={paymentConfig} onCardUpdated={onRefresh} />}
      </Box>

      {/* Spec §2's note for a member of one business; with several, each card names its own windows and line. */}
      {first && (
        <Text fontSize="sm" color="fg.muted" mt="10" borderTopWidth="1px" pt="4" data-testid="portal-note">
          {subs.length > 1 ? (
            "Each membership's dates and phone are on its card. "
          ) : (
            <>
              Skipping closes {longDate(first.skipWindow.closesOn)} and changes close {longDate(first.changeWindow.closesOn)}. After that, call {first.business.name} at{" "}
              <SupportPhone phone={first.business.page?.supportPhone} /> to make changes.{" "}
            </>
          )}
          {cancellationNote(cancelFromCard)}
        </Text>
      )}
    </Container>
  );
}
