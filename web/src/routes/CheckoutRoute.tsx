import { Box, Button, Container, Grid, HStack, Heading, Stack, Text } from "@chakra-ui/react";
import { Suspense, useEffect, useMemo, useState } from "react";
import { fetchQuery, graphql, useRelayEnvironment } from "react-relay";
import { Navigate, useLocation, useNavigate, useParams, useSearchParams } from "react-router";
import type { CheckoutRouteQuery } from "./__generated__/CheckoutRouteQuery.graphql.ts";
import type { OrderSummaryQuoteQuery as QuoteQueryType } from "../features/checkout/__generated__/OrderSummaryQuoteQuery.graphql.ts";
import { AddressStep, EMPTY_ADDRESS, profileAddress } from "../features/checkout/AddressStep.tsx";
import { ContactStep, type ContactValues } from "../features/checkout/ContactStep.tsx";
import { OrderSummary, OrderSummaryQuoteQuery, type CheckoutQuote } from "../features/checkout/OrderSummary.tsx";
import { ReviewStep, type CheckoutResult } from "../features/checkout/ReviewStep.tsx";
import { SuccessPanel } from "../features/checkout/SuccessPanel.tsx";
import { toModeCode } from "@shared/fulfillment.ts";
import { clearSelection, readSelection, updateSelection, type MembershipSelection, type SelectionAddress } from "../lib/selection.ts";
import { useRefetchKey, useRouteQuery } from "../lib/routeQuery.ts";
import { readSession, useSessionVersion } from "../lib/session.ts";
import { useDocumentTitle } from "../lib/useDocumentTitle.ts";
import { ErrorBoundary } from "../ui/ErrorBoundary.tsx";
import { PageContent } from "../ui/PageShell.tsx";
import { ErrorState } from "../ui/StatusStates.tsx";
import { PageLoading } from "./PageLoading.tsx";

const CheckoutQuery = graphql`
  query CheckoutRouteQuery($slug: String!) {
    business(slug: $slug) {
      name
      slug
      checkoutClosedMessage
    }
    viewer {
      username
      email
      ...AddressStepFragment_viewer
    }
    paymentConfig {
      provider
      publishableKey
    }
  }
`;

const STEPS = ["Contact & Account", "Address", "Review & Payment"];
/** Spec §9: redirect after checkout success. */
const CHECKOUT_REDIRECT_MS = 2000;
/** Spec §7: checkout initialisation times out after 30 s (the summary never waits forever). */
const QUOTE_TIMEOUT_MS = 30_000;

/** /membership/checkout and /b/:slug/membership/checkout: the three checkout steps with the order summary. */
export default function CheckoutRoute() {
  useDocumentTitle("Checkout");
  const selection = useMemo(() => readSelection(), []);
  const [attempt, setAttempt] = useState(0);
  if (!selection) return <Navigate to="/membership" replace />;
  return (
    <ErrorBoundary key={attempt} fallback={() => <PageContent><ErrorState message="Failed to load checkout. Please try again." onRetry={() => setAttempt((n) => n + 1)} /></PageContent>}>
      <CheckoutFlow selection={selection} />
    </ErrorBoundary>
  );
}

function CheckoutFlow({ selection }: { selection: MembershipSelection }) {
  const [params] = useSearchParams();
  const resume = Number(params.get("resumeStep"));
  const [step, setStep] = useState(Number.isInteger(resume) && resume >= 0 && resume <= 2 ? resume : 0);
  const [contact, setContact] = useState<ContactValues>({ email: selection.email ?? "", username: "", password: "", isGift: !!selection.isGift });
  const [address, setAddress] = useState<SelectionAddress>(selection.address ?? EMPTY_ADDRESS);
  const [couponCode, setCouponCode] = useState(selection.couponCode ?? "");
  const [result, setResult] = useState<CheckoutResult | null>(null);
  const state = { step, setStep, contact, setContact, address, setAddress, couponCode, setCouponCode, result, setResult };
  // A sign-in from the contact step loads the checkout's viewer again.
  const refetchKey = useRefetchKey(useSessionVersion());
  return (
    <Suspense fallback={<PageLoading label="Loading checkout…" />}>
      <CheckoutBody selection={selection} state={state} fetchKey={refetchKey} />
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
  const environment = useRelayEnvironment();
  const navigate = useNavigate();
  const location = useLocation();
  const { slug: pathSlug } = useParams();
  const data = useRouteQuery<CheckoutRouteQuery>(CheckoutQuery, { slug: selection.businessSlug }, { fetchKey, fetchPolicy: "network-only" });
  // One login for every membership (issue 14 replaces spec §4 "Session vs selection"): a session made at another
  // business checks out here as the same member.
  const viewer = data.viewer;
  const [quote, setQuote] = useState<CheckoutQuote | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [couponError, setCouponError] = useState<string | null>(null);
  const { step, setStep, contact, setContact, address, setAddress, couponCode, setCouponCode, result } = state;

  // Prefill from the profile once the viewer is known (empty fields only).
  useEffect(() => {
    if (!viewer) return;
    setContact((c) => ({ ...c, email: c.email || viewer.email || "" }));
    const saved = profileAddress(viewer);
    if (saved) setAddress((cur) => (cur.street ? cur : saved));
  }, [viewer, setContact, setAddress]);

  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = (code: string | undefined) =>
      Promise.race([
        fetchQuery<QuoteQueryType>(environment, OrderSummaryQuoteQuery, { selection: { businessSlug: selection.businessSlug, planRef: selection.chosenItemId, addonRefs: selection.chosenAddonIds ?? [], mode: toModeCode(selection.mode), couponCode: code } }, { fetchPolicy: "network-only" }).toPromise(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error("Payment setup timed out. Please try again.")), QUOTE_TIMEOUT_MS);
        }),
      ]).finally(() => clearTimeout(timer));
    void (async () => {
      try {
        const res = await run(couponCode || undefined);
        if (cancelled) return;
        if (!res) {
          setRefusal("Failed to initialize payment");
          return;
        }
        const q = res.checkoutQuote;
        if (q.data) {
          setQuote(q.data);
          setRefusal(null);
          setCouponError(null);
          return;
        }
        const message = ("message" in q && q.message) || "Failed to initialize payment";
        if (couponCode && !("reason" in q && q.reason === "past_cutoff")) {
          setCouponError(message);
          const again = await run(undefined);
          const q2 = again?.checkoutQuote;
          if (!cancelled && q2?.data) setQuote(q2.data);
          else if (!cancelled && q2 && "message" in q2) setRefusal(q2.message ?? message);
          return;
        }
        setRefusal(message);
      } catch (e) {
        if (!cancelled) setRefusal((e as Error).message || "Failed to initialize payment");
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [environment, selection, couponCode]);

  useEffect(() => {
    if (!result) return;
    const t = setTimeout(() => void navigate(`/membership?orderId=${result.orderId}&success=1`), CHECKOUT_REDIRECT_MS);
    return () => clearTimeout(t);
  }, [result, navigate]);

  const base = pathSlug ? `/b/${pathSlug}` : "";
  const businessName = data.business?.name ?? selection.businessSlug;
  const loggedInUser = viewer ? { username: viewer.username, email: viewer.email ?? null } : null;
  // Spec §5/§8: past the cutoff the server refuses the checkout, so step 0 says so before anyone registers.
  const closedMessage = data.business?.checkoutClosedMessage ?? null;

  return (
    <Container maxW="6xl" py={{ base: "6", md: "10" }}>
      <Stack gap="2" mb="6">
        <Heading as="h1" size={{ base: "xl", md: "2xl" }}>
          Checkout
        </Heading>
        <Box as="nav" aria-label="Checkout steps">
          <HStack as="ol" gap={{ base: "1", md: "3" }} wrap="wrap" listStyleType="none" fontSize={{ base: "xs", md: "sm" }}>
            {STEPS.map((label, i) => (
              <HStack as="li" key={label} gap="1.5" aria-current={i === step ? "step" : undefined}>
                <Box as="span" w="6" h="6" rounded="full" display="inline-flex" alignItems="center" justifyContent="center" fontWeight="bold" bg={i <= step ? "orange.solid" : "gray.200"} color={i <= step ? "white" : "gray.600"}>
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
                updateSelection({ email: contact.email.trim(), isGift: contact.isGift, account: { username: loggedInUser?.username ?? contact.username.trim() } });
                setStep(1);
              }}
              loginPath={`${base}/membership?r=${encodeURIComponent(location.pathname)}`}
            />
          ) : step === 1 ? (
            <AddressStep
              address={address}
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
              couponError={couponError}
              email={contact.email.trim()}
              isGift={contact.isGift}
              address={address}
              fulfillmentDetails={selection.fulfillmentDetails}
              couponCode={couponCode}
              onApplyCoupon={(code) => {
                // The same code again keeps its verdict (the quote is not asked again).
                if (code !== couponCode) setCouponError(null);
                setCouponCode(code);
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
        <OrderSummary quote={quote} refusal={refusal} businessName={businessName} email={contact.email.trim()} isGift={contact.isGift} />
      </Grid>
    </Container>
  );
}
