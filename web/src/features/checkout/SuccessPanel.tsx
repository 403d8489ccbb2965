import { Box, Heading, Stack, Text } from "@chakra-ui/react";
import type { CheckoutResult } from "./ReviewStep.tsx";
import { signedUpNotice } from "./nextMonth.ts";
import { dateTime, longDate } from "../../lib/dates.ts";
import { formatCents } from "@shared/money.ts";

/** "VISA ending in 4242": the brand as the card names it. */
function cardName(card: { brand: string; last4: string }): string {
  return `${card.brand.toUpperCase()} ending in ${card.last4}`;
}

/**
 * Spec §2 success panel, with the card that paid and where the receipt went: both as the server's
 * completion answered them. A next-month sign-up was charged nothing: no order and no amount, the card
 * that was saved, and when the first box comes and what its first charge will be.
 */
export function SuccessPanel({ result }: { result: CheckoutResult }) {
  const updated = !!result.message && result.message.toLowerCase().includes("updated");
  const nextMonth = result.nextMonth;
  return (
    <Box role="status" p={{ base: "6", md: "8" }} rounded="xl" bg="green.50" borderWidth="1px" borderColor="green.200" color="green.900">
      <Stack gap="2">
        <Heading as="h2" size="xl">
          {updated ? "Subscription Updated!" : "Subscription Activated!"}
        </Heading>
        {result.orderId !== null && (
          <Text>
            <strong>Order ID:</strong> {result.orderId}
          </Text>
        )}
        <Text>
          <strong>{updated ? "Updated" : "Started"}:</strong> {dateTime(result.createdAt)}
        </Text>
        {result.chargedCents > 0 && (
          <Text>
            <strong>Amount charged:</strong> {formatCents(result.chargedCents)}
          </Text>
        )}
        {result.card && <Text data-testid="paid-with">{nextMonth ? `Card saved: ${cardName(result.card)}` : `Paid with ${cardName(result.card)}`}</Text>}
        {nextMonth ? (
          <Text data-testid="next-month-charge">{signedUpNotice({ totalCents: nextMonth.firstChargeCents, period: nextMonth.firstPeriod, firstChargeDate: result.nextBillingDate })}</Text>
        ) : (
          <Text>{result.message || (result.nextBillingDate ? `Your monthly subscription is now active. Next billing: ${longDate(result.nextBillingDate)}` : "You'll be charged on the 1st of each month.")}</Text>
        )}
        {result.receiptEmail && <Text data-testid="receipt-sent">{nextMonth ? `A confirmation was sent to ${result.receiptEmail}.` : `A receipt was sent to ${result.receiptEmail}.`}</Text>}
        <Text fontStyle="italic" color="green.700">
          Redirecting to your membership dashboard...
        </Text>
      </Stack>
    </Box>
  );
}
