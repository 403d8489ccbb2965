import { Box, Button, Container, Grid, HStack, Heading, Stack, Text } from "@chakra-ui/react";
import { Suspense, useEffect, useMemo, useState, useTransition } from "react";
import { graphql } from "react-relay";
import { Navigate, useLocation, useNavigate, useParams, useSearchParams } from "react-router";
import type { CheckoutRouteQuery, CheckoutRouteQuery$data } from "./__generated__/CheckoutRouteQuery.graphql.ts";
import { AddressStep, EMPTY_ADDRESS, profileAddress } from "../features/checkout/AddressStep.tsx";
import { ContactStep, type ContactValues } from "../features/checkout/ContactStep.tsx";
import { OrderSummary } from "../features/checkout/OrderSummary.tsx";
import { ReviewStep, type CheckoutResult } from "../features/checkout/ReviewStep.tsx";
import { SuccessPanel } from "../features/checkout/SuccessPanel.tsx";
import { checkoutQueryVariables, clearSelection, readSelection, updateSelection, type MembershipSelection, type SelectionAddress } from "../lib/selection.ts";
import { useRefetchKey, useRouteQuery } from "../lib/routeQuery.ts";
import { readSession, useSessionVersion } from "../lib/session.ts";
import { useDocumentTitle } from "../lib/useDocumentTitle.ts";
import { BusinessPrimary } from "../ui/BusinessPrimary.tsx";
import { primaryButtonColors } from "../lib/color.ts";
import { ErrorBoundary } from "../ui/ErrorBoundary.tsx";
import { PageContent } from "../ui/PageShell.tsx";
import { ErrorState } from "../ui/StatusStates.tsx";
import { PageLoading } from "./PageLoading.tsx";

// The quote is the server's price of the selection (spec: never priced from the browser), with the coupon when one
// is entered; a refused coupon shows its message beside the price without it (`quoteWithoutCoupon`).
const CheckoutQuery = graphql`
  query CheckoutRouteQuery($slug: String!, $planRef: String!, $addonRefs: [String!]!, $mode: FulfillmentMode!, $fulfillmentPoint: String, $couponCode: String, $withCoupon: Boolean!) {
    business(slug: $slug) {
      name
      slug
      checkoutClosedMessage
      # Checkout is the business's surface, its primary buttons in the business's colour.
      page {
        theme {
          primary
          primaryText
          buttonBorder
        }
      }
    }
    viewer {
      username
      email
      ...AddressStepFragment_viewer
    }
    paymentConfig {
      ...ReviewStepFragment_paymentConfig
    }
    quote: checkoutQuote(selection: { businessSlug: $slug, planRef: $planRef, addonRefs: $addonRefs, mode: $mode, fulfillmentPoint: $fulfillmentPoint, couponCode: $couponCode }) {
      __typename
      ... on CheckoutQuoteSuccess {
        data {
          ...OrderSummaryFragment_quote
          ...ReviewStepFragment_quote
        }
      }
      ... on Error {
        message
        reason
      }
    }
    quoteWithoutCoupon: checkoutQuote(selection: { businessSlug: $slug, planRef: $planRef, addonRefs: $addonRefs, mode: $mode, fulfillmentPoint: $fulfillmentPoint }) @include(if: $withCoupon) {
      __typename
      ... on CheckoutQuoteSuccess {
        data {
          ...OrderSummaryFragment_quote
          ...ReviewStepFragment_quote
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

type Quote = NonNullable<CheckoutRouteQuery$data["quote"]["data"]>;

/**
 * What the summary and the review step show of the quote: the price, or why there is none (spec §7 'Failed to
 * initialize payment', or the server's refusal, e.g. past the cutoff). A refused coupon is the coupon field's
 * error, and the price without it stands, unless the selection itself is refused.
 */
function quoteOutcome(data: Pick<CheckoutRouteQuery$data, "quote" | "quoteWithoutCoupon">): { quote: Quote | null; refusal: string | null; couponError: string | null } {
  const q = data.quote;
  if (q.data) return { quote: q.data, refusal: null, couponError: null };
  const message = ("message" in q && q.message) || "Failed to initialize payment";
  const plain = data.quoteWithoutCoupon;
  if (plain && !("reason" in q && q.reason === "past_cutoff")) {
    if (plain.data) return { quote: plain.data, refusal: null, couponError: message };
    return { quote: null, refusal: ("message" in plain && plain.message) || message, couponError: message };
  }
  return { quote: null, refusal: message, couponError: null };
}

const STEPS = ["Contact & Account", "Address", "Review & Payment"];
/** Spec §9: redirect after checkout success. */
const CHECKOUT_REDIRECT_MS = 2000;
/** Spec §7: checkout initialisation (the checkout query with its quote) times out after 30 s. */
const CHECKOUT_TIMEOUT_MS = 30_000;

/** /membership/checkout and /b/:slug/membership/checkout: the three checkout steps with the order summary. */
export default function CheckoutRoute() {
  useDocumentTitle("Checkout");
  const selection = useMemo(() => readSelection(), []);
  const [attempt, setAttempt] = useState(0);
  if (!selection) return <Navigate to="/membership" replace />;
  return (
    <ErrorBoundary key={attempt} fallback={(e) => <PageContent><ErrorState message={e instanceof CheckoutTimeout ? e.message : "Failed to load checkout. Please try again."} onRetry={() => setAttempt((n) => n + 1)} /></PageContent>}>
      <CheckoutFlow selection={selection} attempt={attempt} />
    </ErrorBoundary>
  );
}

class CheckoutTimeout extends Error {}

/** Checkout's loading box; spec §7: initialisation times out after 30 s, and the retry loads it again. */
function CheckoutLoading() {
  const [timedOut, setTimedOut] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => setTimedOut(true), CHECKOUT_TIMEOUT_MS);
    return () => clearTimeout(t);
  }, []);
  if (timedOut) throw new CheckoutTimeout("Payment setup timed out. Please try again.");
  return <PageLoading label="Loading checkout…" />;
}

function CheckoutFlow({ selection, attempt }: { selection: MembershipSelection; attempt: number }) {
  const [params] = useSearchParams();
  const resume = Number(params.get("resumeStep"));
  const [step, setStep] = useState(Number.isInteger(resume) && resume >= 0 && resume <= 2 ? resume : 0);
  const [contact, setContact] = useState<ContactValues>({ email: selection.email ?? "", username: "", password: "", isGift: !!selection.isGift, giftMessage: selection.giftMessage ?? "" });
  const [address, setAddress] = useState<SelectionAddress>(selection.address ?? EMPTY_ADDRESS);
  const [couponCode, setCouponCode] = useState(selection.couponCode ?? "");
  const [result, setResult] = useState<CheckoutResult | null>(null);
  const state = { step, setStep, contact, setContact, address, setAddress, couponCode, setCouponCode, result, setResult };
  // A sign-in from the contact step loads the checkout's viewer again.
  const sessionKey = useRefetchKey(useSessionVersion());
  // A retry loads the query again (the failed or timed-out load is not taken up again).
  const fetchKey = attempt ? `retry${attempt}:${sessionKey ?? ""}` : sessionKey;
  return (
    <Suspense fallback={<CheckoutLoading />}>
      <CheckoutBody selection={selection} state={state} fetchKey={fetchKey} />
    </Suspense>
  );
}

interface FlowState {
  step: number;
  setStep: (n: number) => void;
  contact: ContactValues;
  setContact: React.Dispatch<React.SetStateAction<ContactValues>>;
  address: SelectionAddress;
  setAddress: React.Dispatch<React.SetStateAction<SelectionAddress>>;
  couponCode: string;
  setCouponCode: (c: string) => void;
  result: CheckoutResult | null;
  setResult: (r: CheckoutResult) => void;
}

function CheckoutBody({ selection, state, fetchKey }: { selection: MembershipSelection; state: FlowState; fetchKey: string | undefined }) {
  const navigate = useNavigate();
  const location = useLocation();
  const { slug: pathSlug } = useParams();
  const { couponCode, setCouponCode } = state;
  // A new coupon prices the selection again; the current price stays on screen until the new one arrives.
  const [quoting, startQuoting] = useTransition();
  const data = useRouteQuery<CheckoutRouteQuery>(CheckoutQuery, checkoutQueryVariables(selection, couponCode), { fetchKey, fetchPolicy: "network-only" });
  // One login for every membership (in place of spec §4 "Session vs selection"): a session made at another
  // business checks out here as the same member.
  const viewer = data.viewer;
  const { quote, refusal, couponError } = quoteOutcome(data);
  const { step, setStep, contact, setContact, address, setAddress, result } = state;

  // Prefill from the profile once the viewer is known (empty fields only).
  useEffect(() => {
    if (!viewer) return;
    setContact((c) => ({ ...c, email: c.email || viewer.email || "" }));
    const saved = profileAddress(viewer);
    if (saved) setAddress((cur) => (cur.street ? cur : saved));
  }, [viewer, setContact, setAddress]);

  useEffect(() => {
    if (!result) return;
    // A next-month sign-up has no order yet: the portal then shows the membership without an order to point at.
    const to = result.orderId !== null ? `/membership?orderId=${result.orderId}&success=1` : "/membership?success=1";
    const t = setTimeout(() => void navigate(to), CHECKOUT_REDIRECT_MS);
    return () => clearTimeout(t);
  }, [result, navigate]);

  const base = pathSlug ? `/b/${pathSlug}` : "";
  const businessName = data.business?.name ?? selection.businessSlug;
  const loggedInUser = viewer ? { username: viewer.username, email: viewer.email ?? null } : null;
  // Spec §5/§8: past the cutoff the server refuses the checkout, so step 0 says so before anyone registers.
  const closedMessage = data.business?.checkoutClosedMessage ?? null;
  const pageTheme = data.business?.page?.theme;
  const theme = pageTheme ? { primary: pageTheme.primary, primaryText: pageTheme.primaryText, buttonBorder: pageTheme.buttonBorder } : null;
  // The steps done and the current one in the primary colour (the platform's orange without a page theme).
  const stepColors = theme ? primaryButtonColors(theme) : { bg: "orange.solid", color: "white" };

  return (
    <BusinessPrimary theme={theme}>
      <Container maxW="6xl" py={{ base: "6", md: "10" }}>
        <Stack gap="2" mb="6">
          <Heading as="h1" size={{ base: "xl", md: "2xl" }}>
            Checkout
          </Heading>
          <Box as="nav" aria-label="Checkout steps">
            <HStack as="ol" gap={{ base: "1", md: "3" }} wrap="wrap" listStyleType="none" fontSize={{ base: "xs", md: "sm" }}>
              {STEPS.map((label, i) => (
                <HStack as="li" key={label} gap="1.5" aria-current={i === step ? "step" : undefined}>
                  <Box as="span" w="6" h="6" rounded="full" display="inline-flex" alignItems="center" justifyContent="center" fontWeight="bold" bg={i <= step ? stepColors.bg : "gray.200"} color={i <= step ? stepColors.color : "gray.600"}>
                    {i + 1}
                  </Box>
                  <Text as="span" fontWeight={i === step ? "bold" : "normal"} color={i === step ? "fg" : "fg.muted"}>
                    {label}
                  </Text>
                  {i < STEPS.length - 1 && (
                    <Text as="span" color="fg.subtle" aria-hidden="true">
                      ›
                    </Text>
                  )}
                </HStack>
              ))}
            </HStack>
          </Box>
        </Stack>
        <Grid templateColumns={{ base: "1fr", lg: "minmax(0, 1fr) 360px" }} gap={{ base: "6", lg: "10" }} alignItems="start">
          <Box p={{ base: "4", md: "6" }} rounded="xl" bg="bg" borderWidth="1px" shadow="sm">
            {result ? (
              <SuccessPanel result={result} />
            ) : closedMessage && step < 2 ? (
              <Stack gap="4" data-testid="checkout-closed">
                <Heading as="h2" size="lg">
                  Contact &amp; Account Information
                </Heading>
                <Box role="alert" p="4" rounded="lg" bg="orange.50" borderWidth="1px" borderColor="orange.300" color="orange.900" fontWeight="medium">
                  {closedMessage}
                </Box>
                <Box>
                  <Button variant="outline" onClick={() => navigate(`${base || `/b/${selection.businessSlug}`}`)}>
                    ← Back to Selection
                  </Button>
                </Box>
              </Stack>
            ) : step === 0 ? (
              <ContactStep
                loggedInUser={loggedInUser}
                values={contact}
                onChange={(patch) => setContact((c) => ({ ...c, ...patch }))}
                onBack={() => navigate(`${base || `/b/${selection.businessSlug}`}`)}
                onContinue={() => {
                  updateSelection({ email: contact.email.trim(), isGift: contact.isGift, giftMessage: contact.isGift ? contact.giftMessage : "", account: { username: loggedInUser?.username ?? contact.username.trim() } });
                  setStep(1);
                }}
                loginPath={`${base}/membership?r=${encodeURIComponent(location.pathname)}`}
              />
            ) : step === 1 ? (
              <AddressStep
                address={address}
                mode={selection.mode}
                onChange={(patch) => setAddress((a) => ({ ...a, ...patch }))}
                loggedIn={!!viewer || !!readSession()}
                onBack={() => setStep(0)}
                onContinue={() => {
                  updateSelection({ address });
                  setStep(2);
                }}
              />
            ) : (
              <ReviewStep
                selection={selection}
                quote={quote}
                refusal={refusal}
                couponError={quoting ? null : couponError}
                email={contact.email.trim()}
                isGift={contact.isGift}
                giftMessage={contact.isGift ? contact.giftMessage.trim() : ""}
                address={address}
                fulfillmentDetails={selection.fulfillmentDetails}
                couponCode={couponCode}
                onApplyCoupon={(code) => {
                  // The same code again keeps its verdict (the quote is not asked again).
                  startQuoting(() => setCouponCode(code));
                  updateSelection({ couponCode: code });
                }}
                paymentConfig={data.paymentConfig}
                onBack={() => setStep(1)}
                onSuccess={(r) => {
                  clearSelection();
                  state.setResult(r);
                }}
              />
            )}
          </Box>
          <OrderSummary
            quote={quote}
            refusal={refusal}
            businessName={businessName}
            email={contact.email.trim()}
            isGift={contact.isGift}
            giftMessage={contact.isGift ? contact.giftMessage.trim() : ""}
            mode={selection.mode}
          />
        </Grid>
      </Container>
    </BusinessPrimary>
  );
}
