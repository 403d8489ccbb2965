import { Box, Button, CloseButton, Dialog, Portal, Text } from "@chakra-ui/react";
import { Suspense, useCallback, useEffect, useState } from "react";
import { graphql, useLazyLoadQuery, useMutation } from "react-relay";
import { useNavigate } from "react-router";
import type { ChangeConfirmDialogMutation } from "./__generated__/ChangeConfirmDialogMutation.graphql.ts";
import type { ChangeConfirmDialogQuoteQuery, ChangeSubscriptionInput } from "./__generated__/ChangeConfirmDialogQuoteQuery.graphql.ts";
import { toModeCode, type FulfillmentModeName } from "@shared/fulfillment.ts";
import { clearSelection } from "../../lib/selection.ts";
import { formatCents } from "@shared/money.ts";
import { monthYear } from "../../lib/dates.ts";
import { ErrorBoundary } from "../../ui/ErrorBoundary.tsx";
import { FormError } from "../../ui/FormError.tsx";
import { usePrimaryButton } from "../../ui/BusinessPrimary.tsx";
import { PriceBreakdown } from "../../ui/PriceBreakdown.tsx";

/** The server prices the new selection as the renewal will: tax (and the membership's coupon) included. */
const QuoteQuery = graphql`
  query ChangeConfirmDialogQuoteQuery($input: ChangeSubscriptionInput!) {
    changeQuote(input: $input) {
      __typename
      ... on ChangeQuoteSuccess {
        data {
          discountCents
          taxCents
          taxRatePercent
          totalCents
          # The first month charged at the new price (skipped months passed over): named as the server gives it.
          effectivePeriod
          breakdown {
            ...PriceBreakdownFragment_breakdown
          }
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

const QUOTE_FAILED = "Could not price this change";

/** "New monthly price: $48.65 / month (incl. $2.65 tax at 5.75%), from January 2027." */
function quoteText(q: { discountCents: number; taxCents: number; taxRatePercent: number; totalCents: number; effectivePeriod: string }): string {
  const parts: string[] = [];
  if (q.discountCents > 0) parts.push(`after ${formatCents(q.discountCents)} discount`);
  if (q.taxCents > 0) parts.push(`incl. ${formatCents(q.taxCents)} tax at ${q.taxRatePercent.toFixed(2)}%`);
  return `New monthly price: ${formatCents(q.totalCents)} / month${parts.length ? ` (${parts.join(", ")})` : ""}, from ${monthYear(q.effectivePeriod)}.`;
}

const ChangeMutation = graphql`
  mutation ChangeConfirmDialogMutation($input: ChangeSubscriptionInput!) {
    changeSubscription(input: $input) {
      __typename
      ... on ChangeSubscriptionSuccess {
        data {
          # The portal's card shows the scheduled change; the builder preselects it on the next visit.
          ...SubscriptionCardFragment_membership
          ...MembershipBuilderFragment_membership
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

type Phase = "idle" | "applying" | "done";

interface Props {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  membershipId: string;
  planId: string;
  addonIds: string[];
  mode: FulfillmentModeName;
  /** The chosen pickup point or delivery area ("" when the mode has none to choose). */
  fulfillmentPoint: string;
  /** Only the point changes: the server applies it at once (api/subscriptions/service.ts changeSubscription). */
  pointOnly: boolean;
  summary: string;
}

/**
 * Spec §4 change confirm dialog: open → 'Applying...' → 'Update scheduled' and back to /membership; errors stay in the
 * dialog. The builder passes the change as it stood when Update was pressed (its props do not follow the membership
 * the mutation updates, so the dialog's words and quote stay put until it navigates away).
 */
export function ChangeConfirmDialog({ open, onOpenChange, membershipId, planId, addonIds, mode, fulfillmentPoint, pointOnly, summary }: Props) {
  const primary = usePrimaryButton();
  const [commit] = useMutation<ChangeConfirmDialogMutation>(ChangeMutation);
  const [phase, setPhase] = useState<Phase>("idle");
  const [error, setError] = useState<string | null>(null);
  const navigate = useNavigate();
  const input: ChangeSubscriptionInput = { subscriptionId: membershipId, planId, addonIds, mode: toModeCode(mode), fulfillmentPoint: fulfillmentPoint || null };
  // The server's refusal of this change in its quote (e.g. "This box is sold out."): confirming would be refused alike.
  const inputKey = JSON.stringify(input);
  const [refusal, setRefusal] = useState<{ key: string; refused: boolean }>({ key: "", refused: false });
  const refused = !pointOnly && refusal.key === inputKey && refusal.refused;
  const answer = useCallback((r: boolean) => setRefusal((was) => (was.key === inputKey && was.refused === r ? was : { key: inputKey, refused: r })), [inputKey]);

  function apply() {
    setPhase("applying");
    setError(null);
    commit({
      variables: { input },
      onCompleted: (res) => {
        const r = res.changeSubscription;
        if (r.data) {
          setPhase("done");
          clearSelection();
          setTimeout(() => void navigate("/membership?changed=1"), 1200);
        } else {
          setPhase("idle");
          setError(("message" in r && r.message) || "Change failed");
        }
      },
      onError: (e) => {
        setPhase("idle");
        setError(e.message || "Change failed");
      },
    });
  }

  return (
    <Dialog.Root open={open} onOpenChange={(e) => phase !== "applying" && onOpenChange(e.open)} role="alertdialog" placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{phase === "done" ? (pointOnly ? "Update saved" : "Update scheduled") : "Update your membership?"}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text fontWeight="medium" mb="2">
                {summary}
              </Text>
              {open && !pointOnly && (
                <ErrorBoundary fallback={() => <QuoteLine failed>{QUOTE_FAILED}</QuoteLine>}>
                  <Suspense fallback={<QuoteLine>Calculating the new price…</QuoteLine>}>
                    <ChangeQuote input={input} onAnswer={answer} />
                  </Suspense>
                </ErrorBoundary>
              )}
              <Text color="fg.muted">
                {pointOnly
                  ? phase === "done"
                    ? "Your next box goes to the new place. Taking you to your membership…"
                    : "Your next box goes to the new place. There is no charge today."
                  : phase === "done"
                    ? "Your new box starts with your next billing cycle. Taking you to your membership…"
                    : "The change takes effect next billing cycle. There is no charge today."}
              </Text>
              <FormError mt="3">{error}</FormError>
            </Dialog.Body>
            <Dialog.Footer>
              {phase !== "done" && (
                <>
                  <Dialog.ActionTrigger asChild>
                    <Button variant="outline" disabled={phase === "applying"}>
                      Cancel
                    </Button>
                  </Dialog.ActionTrigger>
                  <Button {...primary} onClick={apply} disabled={phase === "applying" || refused}>
                    {phase === "applying" ? "Applying..." : "Confirm update"}
                  </Button>
                </>
              )}
            </Dialog.Footer>
            {phase !== "applying" && (
              <Dialog.CloseTrigger asChild>
                <CloseButton size="sm" aria-label="Close" />
              </Dialog.CloseTrigger>
            )}
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

/**
 * The server's price of the change, asked again each time the dialog opens. The quote of the same change asked
 * before (the dialog closed and opened again) stays on screen while the new answer comes ("store-and-network"),
 * instead of the line falling back to "Calculating…" and back; a change never quoted suspends once.
 * `onAnswer(true)` when the server refuses the change.
 */
function ChangeQuote({ input, onAnswer }: { input: ChangeSubscriptionInput; onAnswer: (refused: boolean) => void }) {
  const { changeQuote } = useLazyLoadQuery<ChangeConfirmDialogQuoteQuery>(QuoteQuery, { input }, { fetchPolicy: "store-and-network" });
  const refused = !changeQuote.data;
  useEffect(() => onAnswer(refused), [onAnswer, refused]);
  if (changeQuote.data) {
    return (
      <>
        <QuoteLine>{quoteText(changeQuote.data)}</QuoteLine>
        <Box mb="3" data-testid="change-breakdown">
          <PriceBreakdown breakdown={changeQuote.data.breakdown} totalLabel={`Monthly from ${monthYear(changeQuote.data.effectivePeriod)}`} />
        </Box>
      </>
    );
  }
  return <QuoteLine failed>{("message" in changeQuote && changeQuote.message) || QUOTE_FAILED}</QuoteLine>;
}

function QuoteLine({ failed = false, children }: { failed?: boolean; children: string }) {
  return (
    <Text mb="2" data-testid="change-quote" color={failed ? "red.600" : undefined}>
      {children}
    </Text>
  );
}
