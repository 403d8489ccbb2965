import { Dialog, HStack, Portal, Stack, Text } from "@chakra-ui/react";
import { useState } from "react";
import { graphql, useFragment, useRelayEnvironment } from "react-relay";
import type { RestartDialogFragment_membership$key } from "./__generated__/RestartDialogFragment_membership.graphql.ts";
import type { RestartDialogFragment_paymentConfig$key } from "./__generated__/RestartDialogFragment_paymentConfig.graphql.ts";
import type { RestartDialogMutation } from "./__generated__/RestartDialogMutation.graphql.ts";
import { RestartConfirm } from "./RestartConfirm.tsx";
import { RestartDone } from "./RestartDone.tsx";
import { RestartPayment, type RestartCharge } from "./RestartPayment.tsx";
import { commitAsync } from "../../lib/mutations.ts";
import { fromModeCode } from "@shared/fulfillment.ts";
import { initialPoint, pointQuestion } from "../business-page/points.ts";

const RestartDialogFragment = graphql`
  fragment RestartDialogFragment_membership on Membership {
    id
    mode
    fulfillmentPoint
    ...RestartPaymentFragment_membership
    ...RestartDoneFragment_membership
  }
`;

/** The card form's provider, for a restart that charges now. */
const PaymentConfigFragment = graphql`
  fragment RestartDialogFragment_paymentConfig on PaymentConfig {
    ...RestartPaymentFragment_paymentConfig
  }
`;

const RestartMutation = graphql`
  mutation RestartDialogMutation($input: RestartSubscriptionInput!) {
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
            # The card shows the membership active again.
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

/** The restart's refusal when the amount changed since it was shown (the month turned): the dialog shows the new one. */
const AMOUNT_CHANGED = "The amount of your restart has changed. Please review it and confirm again.";

/** Where the restart stands: asking (with the server's amounts), taking the card, or done. */
type Step = { kind: "confirm" } | ({ kind: "pay" } & RestartCharge) | { kind: "done"; chargedCents: number; nextBillingDate: string | null };

/**
 * "Restart subscription" of a canceled membership: the §5 confirmation with the server's amounts (and, when the
 * page no longer offers the membership's pickup point or delivery area, the choice of another), then the card
 * when today's payment needs it, then what was charged. A refusal stays in the dialog; closing it hands the
 * refusal to the card (`onClose`). Closing after the restart has gone through also reloads the portal (`onRestarted`).
 * `offered`: the points the page lists now for the membership's mode (the card reads the page's lists).
 */
export function RestartDialog({ membership, paymentConfig, offered, open, onClose, onRestarted }: {
  membership: RestartDialogFragment_membership$key;
  paymentConfig: RestartDialogFragment_paymentConfig$key;
  offered: string[];
  open: boolean;
  onClose: (error: string | null) => void;
  onRestarted: () => void;
}) {
  const m = useFragment(RestartDialogFragment, membership);
  const config = useFragment(PaymentConfigFragment, paymentConfig);
  const environment = useRelayEnvironment();
  const [step, setStep] = useState<Step>({ kind: "confirm" });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The restart quote: asked again (a new key) each time the dialog opens and when the server refuses the amount
  // shown, then with the server's words above the new amounts.
  const [quote, setQuote] = useState<{ key: number; notice: string | null }>({ key: 0, notice: null });
  // A restart keeps the stored point only while the page still offers it: else the member chooses another first.
  const restartQuestion = offered.includes(m.fulfillmentPoint) ? null : pointQuestion(fromModeCode(m.mode), offered);
  const [restartPoint, setRestartPoint] = useState(() => initialPoint(offered, m.fulfillmentPoint));

  function close() {
    onClose(error);
    setError(null);
    setQuote((q) => ({ key: q.key + 1, notice: null }));
    setStep({ kind: "confirm" });
  }

  function finish() {
    close();
    onRestarted();
  }

  async function restart(todayCents: number) {
    setBusy(true);
    setError(null);
    setQuote((q) => ({ ...q, notice: null }));
    try {
      // The amount the member saw: the server refuses another (price_mismatch) instead of charging it.
      const input = { subscriptionId: m.id, fulfillmentPoint: restartQuestion ? restartPoint : null, expectedTotalCents: todayCents };
      const res = await commitAsync<RestartDialogMutation>(environment, RestartMutation, { input });
      const r = res.restartSubscription;
      if (!r.data) {
        if (r.__typename === "ConflictError" && "reason" in r && r.reason === "price_mismatch") {
          // Ask again and show the new amounts with the server's words; nothing was charged.
          setQuote((q) => ({ key: q.key + 1, notice: r.message || AMOUNT_CHANGED }));
          return;
        }
        setError(("message" in r && r.message) || "Failed to restart subscription");
        return;
      }
      if (r.data.outcome === "REQUIRES_ACTION" && r.data.clientSecret && r.data.paymentIntentId) {
        setStep({ kind: "pay", clientSecret: r.data.clientSecret, paymentIntentId: r.data.paymentIntentId, amountCents: todayCents });
        return;
      }
      // Confirm what was charged (or that nothing was) before the portal refreshes.
      setStep({ kind: "done", chargedCents: r.data.chargedCents ?? 0, nextBillingDate: r.data.nextBillingDate ?? null });
    } catch {
      setError("Failed to restart subscription");
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog.Root open={open} onOpenChange={(e) => !e.open && !busy && (step.kind === "done" ? finish() : close())} placement="center" role={open && step.kind === "confirm" ? "alertdialog" : "dialog"}>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content>
            {open && step.kind === "confirm" && (
              <>
                <Dialog.Header>
                  <Dialog.Title>Restart subscription</Dialog.Title>
                </Dialog.Header>
                <RestartConfirm
                  subscriptionId={m.id}
                  quoteKey={quote.key}
                  notice={quote.notice}
                  error={error}
                  busy={busy}
                  ready={!restartQuestion || offered.includes(restartPoint)}
                  onCancel={close}
                  onConfirm={(todayCents) => void restart(todayCents)}
                  onRetry={() => setQuote((q) => ({ ...q, key: q.key + 1 }))}
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
            {open && step.kind === "pay" && (
              <RestartPayment membership={m} paymentConfig={config} charge={step} onPaid={(paid) => setStep({ kind: "done", ...paid })} />
            )}
            {open && step.kind === "done" && <RestartDone membership={m} chargedCents={step.chargedCents} nextBillingDate={step.nextBillingDate} onDone={finish} />}
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
