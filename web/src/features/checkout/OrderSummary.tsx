import { Box, Flex, Heading, Separator, Stack, Text } from "@chakra-ui/react";
import { graphql, useFragment } from "react-relay";
import { formatCents } from "@shared/money.ts";
import type { FulfillmentModeName } from "@shared/fulfillment.ts";
import { POINT_LABEL } from "../business-page/points.ts";
import { monthDay } from "../business-page/nextMonth.ts";
import { monthYear } from "../../lib/dates.ts";
import type { OrderSummaryFragment_quote$key } from "./__generated__/OrderSummaryFragment_quote.graphql.ts";

/**
 * The server's price for the selection (spec: never priced from the browser), line by line as the order's receipt
 * and the portal's order history show it: the plan at its base price, the mode's surcharge, the add-ons,
 * the coupon and the tax, each to the cent the server sent.
 */
const OrderSummaryFragment = graphql`
  fragment OrderSummaryFragment_quote on CheckoutQuote {
    breakdown {
      lines {
        kind
        label
        amountCents
      }
      subtotalCents
      couponCode
      totalCents
    }
    fulfillmentPoint
    startsNextMonth
    period
    firstChargeDate
  }
`;

function Line({ label, value, strong, muted }: { label: string; value: string; strong?: boolean; muted?: boolean }) {
  return (
    <Flex justify="space-between" gap="4" fontWeight={strong ? "bold" : "normal"} color={muted ? "fg.muted" : undefined} fontSize={strong ? "lg" : "sm"}>
      <Text>{label}</Text>
      <Text textAlign="end">{value}</Text>
    </Flex>
  );
}

/** Spec §2 Order Summary: package line, add-ons, subtotal, email, gift, coupon, tax with percent, total. */
interface Props {
  quote: OrderSummaryFragment_quote$key | null;
  refusal?: string | null;
  businessName: string;
  email: string;
  isGift: boolean;
  giftMessage: string;
  mode: FulfillmentModeName;
}

export function OrderSummary({ quote: quoteKey, refusal, businessName, email, isGift, giftMessage, mode }: Props) {
  const quote = useFragment(OrderSummaryFragment, quoteKey);
  const breakdown = quote?.breakdown;
  const lines = breakdown?.lines ?? [];
  const taxLines = lines.filter((l) => l.kind === "TAX");
  return (
    <Box as="aside" aria-labelledby="order-summary" p="5" rounded="xl" bg="bg" borderWidth="1px" shadow="sm" position={{ lg: "sticky" }} top="20">
      <Heading id="order-summary" as="h2" size="md" mb="1">
        Order Summary
      </Heading>
      <Text fontSize="sm" color="fg.muted" mb="4">
        {businessName}
      </Text>
      {!quote && refusal ? (
        // The server refused the selection (past the cutoff, a package gone…) or could not be reached: say so
        // instead of waiting.
        <Text role="alert" fontSize="sm" color="orange.800" data-testid="order-summary-refusal">
          {refusal}
        </Text>
      ) : !quote || !breakdown ? (
        <Text fontSize="sm" color="fg.muted">
          Calculating…
        </Text>
      ) : (
        <Stack gap="2" data-testid="order-summary">
          {/* Spec §9: the package line is the base price; the mode's surcharge and the add-ons follow it. */}
          {lines.filter((l) => l.kind === "PLAN").map((l, i) => (
            <Line key={`plan-${i}`} label={l.label} value={formatCents(l.amountCents)} />
          ))}
          {lines.filter((l) => l.kind === "SURCHARGE" || l.kind === "ADDON").map((l, i) => (
            <Line key={`extra-${i}`} label={`+ ${l.label}`} value={formatCents(l.amountCents)} muted />
          ))}
          <Separator my="1" />
          <Line label="Subtotal" value={formatCents(breakdown.subtotalCents)} />
          {lines.filter((l) => l.kind === "DISCOUNT").map((l, i) => (
            // The line's amount is negative already ("-$4.15").
            <Line key={`discount-${i}`} label={breakdown.couponCode ? `Discount (${breakdown.couponCode})` : "Discount"} value={formatCents(l.amountCents)} />
          ))}
          <Line label="Email" value={email || "Not provided"} muted />
          {quote.fulfillmentPoint && <Line label={POINT_LABEL[mode]} value={quote.fulfillmentPoint} muted />}
          {isGift && <Line label="Gift" value="Yes, this is a gift" muted />}
          {isGift && giftMessage && <Line label="Gift message" value={giftMessage} muted />}
          {/* Only the code the server accepted: a refused one stays in the coupon field with its error. */}
          {breakdown.couponCode && <Line label="Coupon" value={breakdown.couponCode} muted />}
          {/* "Tax (5.75%)": the server's label, spec §9's two decimals. */}
          {taxLines.map((l, i) => (
            <Line key={`tax-${i}`} label={l.label} value={formatCents(l.amountCents)} />
          ))}
          <Separator my="1" />
          <Line label="Total" value={formatCents(breakdown.totalCents)} strong />
          <Text fontSize="xs" color="fg.muted">
            {taxLines.length > 0 ? "Monthly charge (tax included)" : "Monthly charge"}
            {quote.startsNextMonth ? `, first charged on ${monthDay(quote.firstChargeDate)}` : ""}
          </Text>
          {/* Past the cutoff the sign-up is for next month's box, and today's charge is nothing. */}
          {quote.startsNextMonth && (
            <Stack gap="1" mt="1" data-testid="order-summary-next-month">
              <Line label="First box" value={monthYear(quote.period)} />
              <Line label="Due today" value={formatCents(0)} strong />
            </Stack>
          )}
        </Stack>
      )}
    </Box>
  );
}
