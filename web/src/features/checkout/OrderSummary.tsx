import { Box, Flex, Heading, Separator, Stack, Text } from "@chakra-ui/react";
import { graphql, useFragment } from "react-relay";
import { formatCents } from "@shared/money.ts";
import type { FulfillmentModeName } from "@shared/fulfillment.ts";
import { POINT_LABEL } from "../business-page/points.ts";
import type { OrderSummaryFragment_quote$key } from "./__generated__/OrderSummaryFragment_quote.graphql.ts";

/** The server's price for the selection (spec: never priced from the browser), as the summary lists it. */
const OrderSummaryFragment = graphql`
  fragment OrderSummaryFragment_quote on CheckoutQuote {
    planName
    planAmountCents
    addons {
      ref
      name
      amountCents
    }
    subtotalCents
    discountCents
    couponCode
    taxCents
    taxRatePercent
    totalCents
    fulfillmentPoint
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
      ) : !quote ? (
        <Text fontSize="sm" color="fg.muted">
          Calculating…
        </Text>
      ) : (
        <Stack gap="2" data-testid="order-summary">
          <Line label={quote.planName} value={formatCents(quote.planAmountCents)} />
          {quote.addons.map((a) => (
            <Line key={a.ref} label={`+ ${a.name}`} value={formatCents(a.amountCents)} muted />
          ))}
          <Separator my="1" />
          <Line label="Subtotal" value={formatCents(quote.subtotalCents)} />
          {quote.discountCents > 0 && <Line label={`Discount (${quote.couponCode})`} value={`-${formatCents(quote.discountCents)}`} />}
          <Line label="Email" value={email || "Not provided"} muted />
          {quote.fulfillmentPoint && <Line label={POINT_LABEL[mode]} value={quote.fulfillmentPoint} muted />}
          {isGift && <Line label="Gift" value="Yes, this is a gift" muted />}
          {isGift && giftMessage && <Line label="Gift message" value={giftMessage} muted />}
          {/* Only the code the server accepted: a refused one stays in the coupon field with its error. */}
          {quote.couponCode && <Line label="Coupon" value={quote.couponCode} muted />}
          {quote.taxCents > 0 && <Line label={`Tax (${quote.taxRatePercent.toFixed(2)}%)`} value={formatCents(quote.taxCents)} />}
          <Separator my="1" />
          <Line label="Total" value={formatCents(quote.totalCents)} strong />
          <Text fontSize="xs" color="fg.muted">
            {quote.taxCents > 0 ? "Monthly charge (tax included)" : "Monthly charge"}
          </Text>
        </Stack>
      )}
    </Box>
  );
}
