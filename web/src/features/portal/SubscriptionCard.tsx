import { Badge, Box, Button, Dialog, Flex, Heading, HStack, Link, Portal, Stack, Text } from "@chakra-ui/react";
import { useEffect, useRef, useState } from "react";
import { graphql, useFragment, useRelayEnvironment } from "react-relay";
import { Link as RouterLink, useLocation } from "react-router";
import type { SubscriptionCardFragment_membership$key } from "./__generated__/SubscriptionCardFragment_membership.graphql.ts";
import type { SubscriptionCardFragment_paymentConfig$key } from "./__generated__/SubscriptionCardFragment_paymentConfig.graphql.ts";
import type { SubscriptionCardSkipMutation } from "./__generated__/SubscriptionCardSkipMutation.graphql.ts";
import type { SubscriptionCardRestartMutation } from "./__generated__/SubscriptionCardRestartMutation.graphql.ts";
import type { SubscriptionCardCompleteMutation } from "./__generated__/SubscriptionCardCompleteMutation.graphql.ts";
import { CardPaymentForm, PaymentFlowError } from "../payments/CardPaymentForm.tsx";
import { CARD_UPDATE_ANCHOR } from "./CardUpdateSection.tsx";
import { longDate, monthDayOrdinal, monthOnly, monthYear } from "../../lib/dates.ts";
import { ChangeScheduledLine } from "./ChangeScheduledLine.tsx";
import { DeliveryAddressSection } from "./DeliveryAddressSection.tsx";
import { showsDeliveryAddress } from "./deliveryAddress.ts";
import { RestartConfirm } from "./RestartConfirm.tsx";
import { changeBoxPath, type PortalAction } from "./portalLinks.ts";
import { commitAsync } from "../../lib/mutations.ts";
import { formatCents } from "@shared/money.ts";
import { fromModeCode, MODE_LABELS } from "@shared/fulfillment.ts";
import { initialPoint, pointQuestion, pointsForMode, POINT_LABEL } from "../business-page/points.ts";
import { readFulfillment } from "../business-page/pageShapes.ts";
import { FormError } from "../../ui/FormError.tsx";
import { BusinessPrimary, primaryButtonProps } from "../../ui/BusinessPrimary.tsx";
import { SupportPhone } from "./SupportPhone.tsx";

const SubscriptionCardFragment = graphql`
  fragment SubscriptionCardFragment_membership on Membership {
    id
    status
    planName
    mode
    fulfillmentPoint
    isGift
    giftMessage
    totalCents
    nextBoxDate
    startedAt
    canceledAt
    business {
      name
      slug
      # Issue 20: a restart keeps the stored point only while the page still offers it.
      page {
        fulfillment {
          ...pageShapes_fulfillment
        }
        # Issue 34: the card is the business's surface (its primary colour) and names its own support line.
        supportPhone
        theme {
          primary
          primaryText
          buttonBorder
        }
      }
    }
    addons {
      name
      amountCents
    }
    skipWindow {
      open
      opensOn
      closesOn
    }
    skipTarget {
      month
      resumeDate
      skipped
      allowed
    }
    changeWindow {
      open
      opensOn
      closesOn
    }
    ...ChangeScheduledLineFragment_membership
    ...DeliveryAddressSectionFragment_membership
  }
`;

/** The card form's provider, for a restart that charges now. */
const PaymentConfigFragment = graphql`
  fragment SubscriptionCardFragment_paymentConfig on PaymentConfig {
    ...CardPaymentFormFragment_paymentConfig
  }
`;

const SkipMutation = graphql`
  mutation SubscriptionCardSkipMutation($input: SkipMonthInput!) {
    skipMonth(input: $input) {
      __typename
      ... on SkipMonthSuccess {
        data {
          resumeDate
          skippedMonth
          membership {
            ...SubscriptionCardFragment_membership
          }
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

const RestartMutation = graphql`
  mutation SubscriptionCardRestartMutation($input: RestartSubscriptionInput!) {
    restartSubscription(input: $input) {
      __typename
      ... on RestartSubscriptionSuccess {
        data {
          outcome
          clientSecret
          paymentIntentId
          chargedCents
          period
          nextBillingDate
          membership {
            ...SubscriptionCardFragment_membership
          }
        }
      }
      ... on ConflictError {
        reason
      }
      ... on Error {
        message
      }
    }
  }
`;

const CompleteMutation = graphql`
  mutation SubscriptionCardCompleteMutation($paymentIntentId: String!) {
    completeCheckout(paymentIntentId: $paymentIntentId) {
      __typename
      ... on CompleteCheckoutSuccess {
        data {
          chargedCents
          nextBillingDate
          membership {
            ...SubscriptionCardFragment_membership
          }
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

const STATUS_LABEL: Record<string, { label: string; palette: string }> = {
  ACTIVE: { label: "Active", palette: "green" },
  PAST_DUE: { label: "Past due", palette: "orange" },
  CANCELED: { label: "Canceled", palette: "gray" },
  INCOMPLETE: { label: "Incomplete", palette: "gray" },
};

/** The restart's refusal when the amount changed since it was shown (the month turned): the dialog shows the new one. */
const AMOUNT_CHANGED = "The amount of your restart has changed. Please review it and confirm again.";

/**
 * One membership: details, skip (inside the window), change box link, restart of a canceled one. `linked`: what a
 * portal link asks of this membership (issue 30): "skip" opens its Skip dialog when a skip is allowed; either brings
 * the card into view (the portal itself follows "change"). Each request (`seq`) is taken once.
 */
export function SubscriptionCard({ membership, paymentConfig, onChanged, onOpenProfile, linked = null }: {
  membership: SubscriptionCardFragment_membership$key;
  paymentConfig: SubscriptionCardFragment_paymentConfig$key;
  onChanged: () => void;
  onOpenProfile: () => void;
  linked?: { open: PortalAction; seq: number } | null;
}) {
  const m = useFragment(SubscriptionCardFragment, membership);
  const config = useFragment(PaymentConfigFragment, paymentConfig);
  const environment = useRelayEnvironment();
  const location = useLocation();
  const [dialog, setDialog] = useState<null | "skip" | "skipped" | "restart" | "restartPay" | "restarted">(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [skipMessage, setSkipMessage] = useState("");
  const [restartPayment, setRestartPayment] = useState<{ clientSecret: string; paymentIntentId: string } | null>(null);
  const [restarted, setRestarted] = useState<{ chargedCents: number; nextBillingDate: string | null } | null>(null);
  // The restart quote: asked again each time the dialog opens and when the server refuses the amount shown.
  const [quoteKey, setQuoteKey] = useState(0);
  const [amountNotice, setAmountNotice] = useState<string | null>(null);
  // Today's amount the member confirmed (the card form's button names it when the card must confirm the payment).
  const [confirmedCents, setConfirmedCents] = useState<number | null>(null);
  const cardRef = useRef<HTMLDivElement>(null);
  // A canceled membership whose point the page no longer lists chooses another before restarting.
  const offered = pointsForMode(readFulfillment(m.business.page?.fulfillment), fromModeCode(m.mode));
  const restartQuestion = offered.includes(m.fulfillmentPoint) ? null : pointQuestion(fromModeCode(m.mode), offered);
  const [restartPoint, setRestartPoint] = useState(() => initialPoint(offered, m.fulfillmentPoint));
  const status = STATUS_LABEL[m.status] ?? { label: m.status, palette: "gray" };
  const pageTheme = m.business.page?.theme;
  const theme = pageTheme ? { primary: pageTheme.primary, primaryText: pageTheme.primaryText, buttonBorder: pageTheme.buttonBorder } : null;
  const primary = primaryButtonProps(theme);
  const current = m.status === "ACTIVE" || m.status === "PAST_DUE";
  // Issue 31: a current shipping or delivery membership shows where its boxes go (with the delivery area) below.
  const withAddress = showsDeliveryAddress(m.status, m.mode);
  // The month "Skip a month" pauses is the server's (skipMonth applies the same rule): never guessed here.
  const skipMonthName = monthOnly(m.skipTarget.month);

  // A link's request, taken once: the Skip dialog opens only when the card would let the member open it.
  const [takenLink, setTakenLink] = useState<number | null>(null);
  if (linked && linked.seq !== takenLink) {
    setTakenLink(linked.seq);
    if (linked.open === "skip" && current && m.skipTarget.allowed && dialog === null) {
      setError(null);
      setDialog("skip");
    }
  }
  const linkedSeq = linked?.seq ?? null;
  useEffect(() => {
    if (linkedSeq !== null) cardRef.current?.scrollIntoView?.({ block: "center" });
  }, [linkedSeq]);

  function openRestart() {
    setError(null);
    setAmountNotice(null);
    setQuoteKey((k) => k + 1);
    setDialog("restart");
  }

  async function skip() {
    setBusy(true);
    setError(null);
    try {
      const res = await commitAsync<SubscriptionCardSkipMutation>(environment, SkipMutation, { input: { subscriptionId: m.id } });
      const r = res.skipMonth;
      if (!r.data) {
        setError(("message" in r && r.message) || "Failed to skip this month");
        return;
      }
      setSkipMessage(r.data.resumeDate ? `Payments paused until ${monthDayOrdinal(r.data.resumeDate)}` : "Payments paused successfully");
      setDialog("skipped");
    } catch (e) {
      setError((e as Error).message || "Failed to skip this month");
    } finally {
      setBusy(false);
    }
  }

  function closeRestarted() {
    setDialog(null);
    setRestarted(null);
    onChanged();
  }

  async function restart(todayCents: number) {
    setBusy(true);
    setError(null);
    setAmountNotice(null);
    try {
      // The amount the member saw: the server refuses another (price_mismatch) instead of charging it.
      const input = { subscriptionId: m.id, fulfillmentPoint: restartQuestion ? restartPoint : null, expectedTotalCents: todayCents };
      const res = await commitAsync<SubscriptionCardRestartMutation>(environment, RestartMutation, { input });
      const r = res.restartSubscription;
      if (!r.data) {
        if (r.__typename === "ConflictError" && "reason" in r && r.reason === "price_mismatch") {
          // Ask again and show the new amounts with the server's words; nothing was charged.
          setAmountNotice(r.message || AMOUNT_CHANGED);
          setQuoteKey((k) => k + 1);
          return;
        }
        setError(("message" in r && r.message) || "Failed to restart subscription");
        return;
      }
      setConfirmedCents(todayCents);
      if (r.data.outcome === "REQUIRES_ACTION" && r.data.clientSecret && r.data.paymentIntentId) {
        setRestartPayment({ clientSecret: r.data.clientSecret, paymentIntentId: r.data.paymentIntentId });
        setDialog("restartPay");
        return;
      }
      // Confirm what was charged (or that nothing was) before the portal refreshes.
      setRestarted({ chargedCents: r.data.chargedCents ?? 0, nextBillingDate: r.data.nextBillingDate ?? null });
      setDialog("restarted");
    } catch {
      setError("Failed to restart subscription");
    } finally {
      setBusy(false);
    }
  }

  return (
    <BusinessPrimary theme={theme}>
      <Box ref={cardRef} p={{ base: "4", md: "6" }} rounded="xl" bg="bg" borderWidth="1px" shadow="xs" data-testid="subscription-card">
        <Flex justify="space-between" align="flex-start" gap="3" wrap="wrap">
          <Stack gap="1">
            <Heading as="h3" size="lg">
              {m.business.name}
            </Heading>
            <Text color="fg.muted">
              {m.planName} · {MODE_LABELS[fromModeCode(m.mode)]} · {formatCents(m.totalCents)} / month
            </Text>
          </Stack>
          <Badge colorPalette={status.palette} size="lg" rounded="full">
            {status.label}
          </Badge>
        </Flex>
        {m.addons.length > 0 && (
          <Text fontSize="sm" mt="2">
            Add-ons: {m.addons.map((a) => `${a.name} (${formatCents(a.amountCents)})`).join(", ")}
          </Text>
        )}
        <Stack gap="1" mt="3" fontSize="sm">
          {m.fulfillmentPoint && !withAddress && (
            <Text data-testid="membership-point">
              {POINT_LABEL[fromModeCode(m.mode)]}: {m.fulfillmentPoint}
            </Text>
          )}
          {m.isGift && m.giftMessage && (
            <Text whiteSpace="pre-line" data-testid="membership-gift-message">
              Gift message: {m.giftMessage}
            </Text>
          )}
          {current && <Text>Next box: {longDate(m.nextBoxDate)}</Text>}
          <Text color="fg.muted">Member since {longDate(m.startedAt)}</Text>
          {m.canceledAt && <Text color="fg.muted">Canceled on {longDate(m.canceledAt)}</Text>}
          {current && m.skipTarget.skipped && (
            <Text color="orange.700" data-testid="skipped-month">
              Skipped: {monthYear(m.skipTarget.month)} · payments resume {monthDayOrdinal(m.skipTarget.resumeDate)}
            </Text>
          )}
          <ChangeScheduledLine membership={m} />
        </Stack>
        <DeliveryAddressSection membership={m} areas={offered} />
        {m.status === "PAST_DUE" && (
          <Box role="alert" mt="3" p="3" rounded="md" bg="orange.50" borderWidth="1px" borderColor="orange.200" color="orange.900" fontSize="sm">
            Your last payment did not go through.{" "}
            <Link asChild color="orange.900" textDecoration="underline" fontWeight="semibold">
              {/* Opens Profile with the card update form started (the section reads the anchor). */}
              <RouterLink to={{ search: location.search, hash: CARD_UPDATE_ANCHOR }} onClick={onOpenProfile}>
                Update your card
              </RouterLink>
            </Link>{" "}
            to keep your membership.
          </Box>
        )}
        {error && !dialog && (
          <Text role="alert" color="red.600" mt="3">
            {error}
          </Text>
        )}
        <HStack gap="2" mt="4" wrap="wrap">
          {current && (
            <>
              <Button size="sm" variant="outline" disabled={!m.skipTarget.allowed} onClick={() => { setError(null); setDialog("skip"); }}>
                Skip a month
              </Button>
              {m.changeWindow.open ? (
                <Button asChild size="sm" variant="outline">
                  <RouterLink to={changeBoxPath(m.business.slug)}>Change box</RouterLink>
                </Button>
              ) : (
                <Button size="sm" variant="outline" disabled>
                  Change box
                </Button>
              )}
            </>
          )}
          {m.status === "CANCELED" && (
            <Button size="sm" {...primary} onClick={openRestart}>
              Restart subscription
            </Button>
          )}
        </HStack>
        {current && (!m.skipWindow.open || !m.changeWindow.open) && (
          <Text fontSize="xs" color="fg.muted" mt="2">
            {!m.skipWindow.open && `Skipping opens ${longDate(m.skipWindow.opensOn)}. `}
            {!m.changeWindow.open && `Changes open ${longDate(m.changeWindow.opensOn)}.`}
          </Text>
        )}
        {/* Issue 34: this membership's own windows and its business's line (the portal's footer names them for one business only). */}
        <Text fontSize="xs" color="fg.muted" mt="2" data-testid="window-note">
          {current ? `Skip window closes ${longDate(m.skipWindow.closesOn)}; change window closes ${longDate(m.changeWindow.closesOn)}. After that, call ${m.business.name} at ` : `Questions? Call ${m.business.name} at `}
          <SupportPhone phone={m.business.page?.supportPhone} />
          {current ? " to make changes." : "."}
        </Text>

        <Dialog.Root open={dialog !== null} onOpenChange={(e) => !e.open && !busy && (dialog === "restarted" ? closeRestarted() : setDialog(null))} placement="center" role={dialog === "skip" || dialog === "restart" ? "alertdialog" : "dialog"}>
          <Portal>
            <Dialog.Backdrop />
            <Dialog.Positioner px="4">
              <Dialog.Content>
                {dialog === "skip" && (
                  <>
                    <Dialog.Header>
                      <Dialog.Title>Skip {skipMonthName}?</Dialog.Title>
                    </Dialog.Header>
                    <Dialog.Body>
                      <Text>
                        Your {m.business.name} box for {monthYear(m.skipTarget.month)} will be skipped and you won't be charged for it. Payments resume {monthDayOrdinal(m.skipTarget.resumeDate)}.
                      </Text>
                      <FormError mt="3">{error}</FormError>
                    </Dialog.Body>
                    <Dialog.Footer>
                      <Button variant="outline" onClick={() => setDialog(null)} disabled={busy}>
                        Keep my box
                      </Button>
                      <Button {...primary} onClick={skip} loading={busy}>
                        Skip month
                      </Button>
                    </Dialog.Footer>
                  </>
                )}
                {dialog === "skipped" && (
                  <>
                    <Dialog.Header>
                      <Dialog.Title>Month skipped</Dialog.Title>
                    </Dialog.Header>
                    <Dialog.Body>
                      <Text>{skipMessage}</Text>
                    </Dialog.Body>
                    <Dialog.Footer>
                      <Button {...primary} onClick={() => setDialog(null)}>
                        Done
                      </Button>
                    </Dialog.Footer>
                  </>
                )}
                {dialog === "restart" && (
                  <>
                    <Dialog.Header>
                      <Dialog.Title>Restart subscription</Dialog.Title>
                    </Dialog.Header>
                    <RestartConfirm
                      subscriptionId={m.id}
                      quoteKey={quoteKey}
                      notice={amountNotice}
                      error={error}
                      busy={busy}
                      ready={!restartQuestion || offered.includes(restartPoint)}
                      onCancel={() => setDialog(null)}
                      onConfirm={(todayCents) => void restart(todayCents)}
                      onRetry={() => setQuoteKey((k) => k + 1)}
                    >
                      {restartQuestion && (
                        <Stack as="fieldset" role="radiogroup" aria-label={restartQuestion} gap="1.5" data-testid="restart-point">
                          <Text fontWeight="medium">{restartQuestion}</Text>
                          {offered.map((p) => (
                            <HStack as="label" key={p} gap="2" cursor="pointer">
                              <input type="radio" name={`restart-point-${m.id}`} value={p} checked={restartPoint === p} onChange={() => setRestartPoint(p)} aria-label={p} />
                              <Text>{p}</Text>
                            </HStack>
                          ))}
                        </Stack>
                      )}
                    </RestartConfirm>
                  </>
                )}
                {dialog === "restarted" && restarted && (
                  <>
                    <Dialog.Header>
                      <Dialog.Title>Subscription restarted</Dialog.Title>
                    </Dialog.Header>
                    <Dialog.Body>
                      <Stack gap="2" data-testid="restart-confirmation">
                        <Text>
                          {restarted.chargedCents > 0
                            ? `You were charged ${formatCents(restarted.chargedCents)} for the current period. Your ${m.business.name} membership is active again.`
                            : `Your ${m.business.name} membership is active again. The current period was already paid, so nothing was charged today.`}
                        </Text>
                        {restarted.nextBillingDate && <Text fontWeight="medium">Next billing: {longDate(restarted.nextBillingDate)}</Text>}
                      </Stack>
                    </Dialog.Body>
                    <Dialog.Footer>
                      <Button {...primary} onClick={closeRestarted}>
                        Done
                      </Button>
                    </Dialog.Footer>
                  </>
                )}
                {dialog === "restartPay" && restartPayment && (
                  <>
                    <Dialog.Header>
                      <Dialog.Title>Confirm your card</Dialog.Title>
                    </Dialog.Header>
                    <Dialog.Body>
                      <Text mb="4">Enter your card to pay for the current period and restart your {m.business.name} membership.</Text>
                      <CardPaymentForm
                        config={config}
                        submitLabel={`Pay ${formatCents(confirmedCents ?? m.totalCents)} and restart`}
                        prepare={async () => restartPayment.clientSecret}
                        onSucceeded={async () => {
                          const res = await commitAsync<SubscriptionCardCompleteMutation>(environment, CompleteMutation, { paymentIntentId: restartPayment.paymentIntentId }).catch(() => {
                            throw new PaymentFlowError("Failed to restart subscription");
                          });
                          const r = res.completeCheckout;
                          if (!r.data) throw new PaymentFlowError(("message" in r && r.message) || "Failed to restart subscription");
                          setRestarted({ chargedCents: r.data.chargedCents, nextBillingDate: r.data.nextBillingDate });
                          setDialog("restarted");
                        }}
                      />
                    </Dialog.Body>
                  </>
                )}
              </Dialog.Content>
            </Dialog.Positioner>
          </Portal>
        </Dialog.Root>
      </Box>
    </BusinessPrimary>
  );
}

