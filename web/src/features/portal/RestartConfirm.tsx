import { Box, Button, Dialog, HStack, Spinner, Stack, Text } from "@chakra-ui/react";
import { Suspense, useCallback, useEffect, useState, type ReactNode } from "react";
import { graphql, useLazyLoadQuery } from "react-relay";
import type { RestartConfirmQuoteQuery } from "./__generated__/RestartConfirmQuoteQuery.graphql.ts";
import { monthName } from "@shared/calendar.ts";
import { formatCents } from "@shared/money.ts";
import { monthOnly } from "../../lib/dates.ts";
import { ErrorBoundary } from "../../ui/ErrorBoundary.tsx";
import { FormError } from "../../ui/FormError.tsx";
import { usePrimaryButton } from "../../ui/BusinessPrimary.tsx";
import { PriceBreakdown } from "../../ui/PriceBreakdown.tsx";

/** Spec §5: the restart confirmation, word for word; the amounts follow it. */
export const RESTART_CONFIRMATION = "Restart this subscription? You will be charged for the current period now.";

/** The server's amounts of a restart, asked each time the dialog opens (and again when the server says they changed). */
const QuoteQuery = graphql`
  query RestartConfirmQuoteQuery($subscriptionId: ID!) {
    restartQuote(subscriptionId: $subscriptionId) {
      __typename
      ... on RestartQuoteSuccess {
        data {
          todayCents
          period
          nextChargeDate
          nextChargeCents
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

const QUOTE_FAILED = "Could not load the amounts of this restart. Please try again.";

/**
 * "April 5" from "2026-04-05"; the year is added only when it is neither the year of `period` (the month the
 * restart pays for or is paid through: the server's "now") nor the next one.
 */
function chargeDay(iso: string, period: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  if (!m) return iso;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const nowYear = Number(period.slice(0, 4));
  const sameOrNext = year === nowYear || year === nowYear + 1 || !Number.isFinite(nowYear);
  return `${monthName(month)} ${day}${sameOrNext ? "" : `, ${year}`}`;
}

/**
 * The amounts under the §5 sentence, all the server's: "$37.35 today, then $37.35 on January 1.", or when the
 * current period is already paid "Nothing today (November is already paid), then $37.35 on December 1."
 */
export function restartAmountsText(q: { todayCents: number; period: string; nextChargeDate: string; nextChargeCents: number }): string {
  const then = `then ${formatCents(q.nextChargeCents)} on ${chargeDay(q.nextChargeDate, q.period)}.`;
  return q.todayCents > 0 ? `${formatCents(q.todayCents)} today, ${then}` : `Nothing today (${monthOnly(q.period)} is already paid), ${then}`;
}

interface Props {
  subscriptionId: string;
  /** A new key asks the server again (each opening, a retry, a refused amount). */
  quoteKey: number;
  /** The server refused the amount shown before (price_mismatch): its message, above the new amounts. */
  notice: string | null;
  /** The restart's own failure (spec §8), in the dialog. */
  error: string | null;
  busy: boolean;
  /** A question to answer first (a pickup point no longer offered): shown under the amounts. */
  children?: ReactNode;
  /** false while the question is unanswered. */
  ready: boolean;
  onCancel: () => void;
  /** Confirms today's amount as shown: the server refuses another (price_mismatch). */
  onConfirm: (todayCents: number) => void;
  onRetry: () => void;
}

/**
 * The restart dialog's body and buttons: the §5 sentence, then the server's amounts (loading, or its refusal, in
 * their place), and Restart, enabled once the amounts are on screen. Only the amounts wait for the server: the
 * sentence and the buttons stay put (the focus stays where it is when the amounts arrive).
 */
export function RestartConfirm({ subscriptionId, quoteKey, notice, error, busy, children, ready, onCancel, onConfirm, onRetry }: Props) {
  const primary = usePrimaryButton();
  // Today's amount of the quote on screen, for the key it was asked with (an older answer enables nothing).
  const [quoted, setQuoted] = useState<{ key: number; todayCents: number | null } | null>(null);
  const answer = useCallback((key: number, todayCents: number | null) => setQuoted((was) => (was?.key === key && was.todayCents === todayCents ? was : { key, todayCents })), []);
  const today = quoted?.key === quoteKey ? quoted.todayCents : null;
  return (
    <>
      <Dialog.Body>
        <Stack gap="4">
          <Text>{RESTART_CONFIRMATION}</Text>
          {notice && (
            <Box role="alert" p="3" rounded="md" bg="orange.50" borderWidth="1px" borderColor="orange.200" color="orange.900" fontSize="sm" data-testid="restart-amount-changed">
              {notice}
            </Box>
          )}
          <ErrorBoundary key={quoteKey} fallback={(e) => <QuoteFailed message={e.message || QUOTE_FAILED} onRetry={onRetry} />}>
            <Suspense fallback={<QuoteLoading />}>
              <Amounts subscriptionId={subscriptionId} quoteKey={quoteKey} onAnswer={answer} />
            </Suspense>
          </ErrorBoundary>
          {children}
          <FormError>{error}</FormError>
        </Stack>
      </Dialog.Body>
      <Dialog.Footer>
        <Button variant="outline" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button {...primary} onClick={() => today !== null && onConfirm(today)} loading={busy} disabled={today === null || !ready}>
          Restart
        </Button>
      </Dialog.Footer>
    </>
  );
}

/** The quote asked with `quoteKey`; tells the dialog today's amount (null when the server refuses the restart). */
function Amounts({ subscriptionId, quoteKey, onAnswer }: { subscriptionId: string; quoteKey: number; onAnswer: (key: number, todayCents: number | null) => void }) {
  const { restartQuote } = useLazyLoadQuery<RestartConfirmQuoteQuery>(QuoteQuery, { subscriptionId }, { fetchPolicy: "network-only", fetchKey: quoteKey });
  const q = restartQuote.data;
  const todayCents = q ? q.todayCents : null;
  useEffect(() => onAnswer(quoteKey, todayCents), [onAnswer, quoteKey, todayCents]);
  if (!q) return <FormError>{("message" in restartQuote && restartQuote.message) || QUOTE_FAILED}</FormError>;
  return (
    <Stack gap="3" data-testid="restart-quote">
      <Text fontWeight="semibold" data-testid="restart-amounts">
        {restartAmountsText(q)}
      </Text>
      <PriceBreakdown breakdown={q.breakdown} totalLabel="Each month" />
    </Stack>
  );
}

function QuoteLoading() {
  return (
    <HStack gap="2" color="fg.muted" role="status" aria-live="polite" data-testid="restart-amounts-loading">
      <Spinner size="sm" />
      <Text>Loading the amounts…</Text>
    </HStack>
  );
}

function QuoteFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <Stack gap="2" align="flex-start">
      <FormError>{message}</FormError>
      <Button size="sm" variant="outline" onClick={onRetry}>
        Try again
      </Button>
    </Stack>
  );
}
