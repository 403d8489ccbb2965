import { Button, CloseButton, Dialog, Portal, Text } from "@chakra-ui/react";
import { useEffect, useState } from "react";
import { fetchQuery, graphql, useMutation, useRelayEnvironment } from "react-relay";
import { useNavigate } from "react-router";
import type { ChangeConfirmDialogMutation } from "./__generated__/ChangeConfirmDialogMutation.graphql.ts";
import type { ChangeConfirmDialogQuoteQuery } from "./__generated__/ChangeConfirmDialogQuoteQuery.graphql.ts";
import { toModeCode, type FulfillmentModeName } from "@shared/fulfillment.ts";
import { clearSelection } from "../../lib/selection.ts";
import { formatCents } from "@shared/money.ts";
import { monthYear } from "../../lib/dates.ts";

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
          effectivePeriod
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

type QuoteState = { status: "loading" } | { status: "error"; message: string } | { status: "ok"; discountCents: number; taxCents: number; taxRatePercent: number; totalCents: number; effectivePeriod: string };

/** "$48.65 / month (incl. $2.65 tax at 5.75%) from January 2027" */
function quoteText(q: Extract<QuoteState, { status: "ok" }>): string {
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
          id
          pendingChange {
            effectivePeriod
            mode
            plan {
              ref
              name
            }
            addons {
              ref
              name
            }
          }
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
  summary: string;
}

/** Spec §4 change confirm dialog: open → 'Applying...' → 'Update scheduled' and back to /membership; errors stay in the dialog. */
export function ChangeConfirmDialog({ open, onOpenChange, membershipId, planId, addonIds, mode, summary }: Props) {
  const [commit] = useMutation<ChangeConfirmDialogMutation>(ChangeMutation);
  const [phase, setPhase] = useState<Phase>("idle");
  const [error, setError] = useState<string | null>(null);
  const navigate = useNavigate();
  const environment = useRelayEnvironment();
  const [quote, setQuote] = useState<QuoteState>({ status: "loading" });
  const addonKey = addonIds.join(",");

  useEffect(() => {
    if (!open) return;
    setQuote({ status: "loading" });
    const input = { subscriptionId: membershipId, planId, addonIds: addonKey ? addonKey.split(",") : [], mode: toModeCode(mode) };
    const sub = fetchQuery<ChangeConfirmDialogQuoteQuery>(environment, QuoteQuery, { input }, { fetchPolicy: "network-only" }).subscribe({
      next: (res) => {
        const r = res.changeQuote;
        if (r.__typename === "ChangeQuoteSuccess" && "data" in r && r.data) setQuote({ status: "ok", ...r.data });
        else setQuote({ status: "error", message: ("message" in r && r.message) || "Could not price this change" });
      },
      error: () => setQuote({ status: "error", message: "Could not price this change" }),
    });
    return () => sub.unsubscribe();
  }, [open, environment, membershipId, planId, addonKey, mode]);

  function apply() {
    setPhase("applying");
    setError(null);
    commit({
      variables: { input: { subscriptionId: membershipId, planId, addonIds, mode: toModeCode(mode) } },
      onCompleted: (res) => {
        const r = res.changeSubscription;
        if (r.data) {
          setPhase("done");
          clearSelection();
          setTimeout(() => navigate("/membership?changed=1"), 1200);
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
              <Dialog.Title>{phase === "done" ? "Update scheduled" : "Update your membership?"}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text fontWeight="medium" mb="2">
                {summary}
              </Text>
              <Text mb="2" data-testid="change-quote" color={quote.status === "error" ? "red.600" : undefined}>
                {quote.status === "ok" ? quoteText(quote) : quote.status === "error" ? quote.message : "Calculating the new price…"}
              </Text>
              <Text color="fg.muted">
                {phase === "done" ? "Your new box starts with your next billing cycle. Taking you to your membership…" : "The change takes effect next billing cycle. There is no charge today."}
              </Text>
              {error && (
                <Text role="alert" color="red.600" mt="3">
                  {error}
                </Text>
              )}
            </Dialog.Body>
            <Dialog.Footer>
              {phase !== "done" && (
                <>
                  <Dialog.ActionTrigger asChild>
                    <Button variant="outline" disabled={phase === "applying"}>
                      Cancel
                    </Button>
                  </Dialog.ActionTrigger>
                  <Button colorPalette="blue" onClick={apply} disabled={phase === "applying"}>
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
