import { Box, Button, Field, Flex, Heading, HStack, Input, Stack, Text } from "@chakra-ui/react";
import { useRef, useState } from "react";
import { graphql, useFragment, useRelayEnvironment } from "react-relay";
import type { ReviewStepStartMutation } from "./__generated__/ReviewStepStartMutation.graphql.ts";
import type { ReviewStepCompleteMutation } from "./__generated__/ReviewStepCompleteMutation.graphql.ts";
import type { ReviewStepFragment_quote$key } from "./__generated__/ReviewStepFragment_quote.graphql.ts";
import type { ReviewStepFragment_paymentConfig$key } from "./__generated__/ReviewStepFragment_paymentConfig.graphql.ts";
import { CardPaymentForm, PaymentFlowError } from "../payments/CardPaymentForm.tsx";
import { monthDayOrdinal } from "../../lib/dates.ts";
import { commitAsync } from "../../lib/mutations.ts";
import { formatCents } from "@shared/money.ts";
import { MODE_LABELS, toModeCode } from "@shared/fulfillment.ts";
import { chosenPoint, type MembershipSelection, type SelectionAddress } from "../../lib/selection.ts";
import { POINT_LABEL } from "../business-page/points.ts";

/** The server's price as the review box, the pay button and the payment intent's expected total use it. */
const QuoteFragment = graphql`
  fragment ReviewStepFragment_quote on CheckoutQuote {
    planName
    planAmountCents
    addons {
      ref
      name
      amountCents
    }
    couponCode
    totalCents
    nextBillingDate
    fulfillmentPoint
  }
`;

/** The card form's provider. */
const PaymentConfigFragment = graphql`
  fragment ReviewStepFragment_paymentConfig on PaymentConfig {
    ...CardPaymentFormFragment_paymentConfig
  }
`;

// The payment intent for the card form: nothing in the store shows it.
const StartMutation = graphql`
  mutation ReviewStepStartMutation($input: StartCheckoutInput!) {
    startCheckout(input: $input) {
      __typename
      ... on StartCheckoutSuccess {
        data {
          clientSecret
          paymentIntentId
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

// The success panel shows the charge, the card that paid, where the receipt went and the order from this payload;
// the new membership comes back in the portal card's shape, so the portal renders it from the store.
const CompleteMutation = graphql`
  mutation ReviewStepCompleteMutation($paymentIntentId: String!) {
    completeCheckout(paymentIntentId: $paymentIntentId) {
      __typename
      ... on CompleteCheckoutSuccess {
        data {
          chargedCents
          createdAt
          nextBillingDate
          card {
            brand
            last4
          }
          receiptEmail
          order {
            id
            databaseId
          }
          membership {
            ...SubscriptionCardFragment_membership
          }
        }
      }
      ... on Error {
        message
        reason
      }
    }
  }
`;

export interface CheckoutResult {
  orderId: number;
  createdAt: string;
  chargedCents: number;
  nextBillingDate: string;
  message: string | null;
  /** The card that paid (null for a free period). */
  card: { brand: string; last4: string } | null;
  /** Where the receipt was sent ("" when the member has no email address). */
  receiptEmail: string;
}

/** The pay button text of spec §2, from the server's quote. */
export function payButtonLabel(totalCents: number, nextBillingDate: string): string {
  const total = formatCents(totalCents);
  return `Pay ${total} now and it renews at ${total} every month on ${monthDayOrdinal(nextBillingDate)}`;
}

interface Props {
  selection: MembershipSelection;
  quote: ReviewStepFragment_quote$key | null;
  refusal: string | null;
  couponError: string | null;
  email: string;
  isGift: boolean;
  /** Sent and shown only for a gift. */
  giftMessage: string;
  address: SelectionAddress;
  fulfillmentDetails: string;
  couponCode: string;
  onApplyCoupon: (code: string) => void;
  paymentConfig: ReviewStepFragment_paymentConfig$key;
  onBack: () => void;
  onSuccess: (result: CheckoutResult) => void;
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Flex justify="space-between" gap="4" py="1.5" borderBottomWidth="1px" borderColor="border.muted" fontSize="sm" direction={{ base: "column", sm: "row" }}>
      <Text color="fg.muted">{label}</Text>
      <Box textAlign={{ sm: "end" }} fontWeight="medium">
        {children}
      </Box>
    </Flex>
  );
}

/** Step 2 'Review & Payment': review box, coupon, the card form and the payment flow. */
export function ReviewStep({ selection, quote: quoteKey, refusal, couponError, email, isGift, giftMessage, address, fulfillmentDetails, couponCode, onApplyCoupon, paymentConfig, onBack, onSuccess }: Props) {
  const quote = useFragment(QuoteFragment, quoteKey);
  const config = useFragment(PaymentConfigFragment, paymentConfig);
  const environment = useRelayEnvironment();
  const [coupon, setCoupon] = useState(couponCode);
  // One idempotency key per checkout attempt: a retry after a decline reuses the same payment intent; any change
  // to what is bought (selection, coupon, address, email, gift, total) is a new attempt with a new key, since the
  // server refuses a key reused for another purchase.
  const attempt = useRef<{ key: string; request: string } | null>(null);
  const paymentIntentId = useRef<string | null>(null);
  const mode = selection.mode;
  const showAddress = mode === "shipping" || mode === "delivery";

  async function prepare(): Promise<string> {
    if (!quote) throw new PaymentFlowError("Failed to initialize payment");
    const input = {
      selection: {
        businessSlug: selection.businessSlug,
        planRef: selection.chosenItemId,
        addonRefs: selection.chosenAddonIds,
        mode: toModeCode(mode),
        fulfillmentPoint: chosenPoint(selection) || undefined,
        couponCode: quote.couponCode || undefined,
      },
      email,
      isGift,
      giftMessage: isGift && giftMessage ? giftMessage : undefined,
      // Instructions are for the driver: kept with a delivery address only.
      address: mode === "delivery" ? address : { ...address, instructions: undefined },
      expectedTotalCents: quote.totalCents,
    };
    const request = JSON.stringify(input);
    if (attempt.current?.request !== request) attempt.current = { key: crypto.randomUUID(), request };
    const res = await commitAsync<ReviewStepStartMutation>(environment, StartMutation, {
      input: { ...input, idempotencyKey: attempt.current.key },
    }).catch(() => {
      throw new PaymentFlowError("Payment submission failed");
    });
    const r = res.startCheckout;
    if (!r.data) throw new PaymentFlowError(("message" in r && r.message) || "Failed to initialize payment");
    paymentIntentId.current = r.data.paymentIntentId;
    return r.data.clientSecret;
  }

  async function complete(): Promise<void> {
    const res = await commitAsync<ReviewStepCompleteMutation>(environment, CompleteMutation, { paymentIntentId: paymentIntentId.current! }).catch(() => {
      throw new PaymentFlowError("Failed to save order");
    });
    const r = res.completeCheckout;
    if (!r.data) throw new PaymentFlowError(("message" in r && (r.message || r.reason)) || "Failed to save order");
    attempt.current = null;
    const { order, createdAt, chargedCents, nextBillingDate, card, receiptEmail } = r.data;
    // A paid checkout always has its first order (only a next-month sign-up has none).
    if (!order) throw new PaymentFlowError("Failed to save order");
    onSuccess({ orderId: order.databaseId, createdAt, chargedCents, nextBillingDate, message: null, card: card ? { brand: card.brand, last4: card.last4 } : null, receiptEmail });
  }

  return (
    <Stack gap="6">
      <Heading as="h2" size="lg">
        Review &amp; Payment
      </Heading>
      <Box p="4" rounded="lg" borderWidth="1px" bg="bg" aria-label="Review" as="section">
        <Row label="Package">{quote?.planName ?? selection.chosenItemName}</Row>
        <Row label="Price">{quote ? `${formatCents(quote.planAmountCents)} / month` : selection.chosenItemPrice}</Row>
        <Row label="Selected item">{selection.chosenVariationName ? `${selection.chosenItemName} (${selection.chosenVariationName})` : selection.chosenItemName}</Row>
        <Row label="Fulfillment">
          {MODE_LABELS[mode]}
          {fulfillmentDetails && !quote?.fulfillmentPoint ? `: ${fulfillmentDetails}` : ""}
        </Row>
        {quote?.fulfillmentPoint && (
          <Row label={POINT_LABEL[mode]}>
            <Text data-testid="review-point">{quote.fulfillmentPoint}</Text>
          </Row>
        )}
        {(quote?.addons ?? selection.chosenAddons.map((a) => ({ ref: a.id, name: a.name, amountCents: a.amountCents }))).map((a) => (
          <Row key={a.ref} label="Add-on">
            {a.name} ({formatCents(a.amountCents)})
          </Row>
        ))}
        <Row label="Contact email">{email}</Row>
        {showAddress && (
          <Row label={mode === "shipping" ? "Ship to" : "Deliver to"}>
            {address.fullName && <Text>{address.fullName}</Text>}
            <Text>
              {address.street}
              {address.apt ? `, ${address.apt}` : ""}
            </Text>
            <Text>{[address.city, address.state, address.zip].filter(Boolean).join(", ")}</Text>
          </Row>
        )}
        {mode === "delivery" && address.instructions?.trim() && (
          <Row label="Delivery instructions">
            <Text whiteSpace="pre-line">{address.instructions.trim()}</Text>
          </Row>
        )}
        {isGift && giftMessage && (
          <Row label="Gift message">
            <Text whiteSpace="pre-line" data-testid="review-gift-message">{giftMessage}</Text>
          </Row>
        )}
        {quote?.couponCode && <Row label="Coupon code">{quote.couponCode}</Row>}
      </Box>

      <Field.Root invalid={!!couponError}>
        <Field.Label>Coupon code</Field.Label>
        <HStack w="full">
          <Input value={coupon} onChange={(e) => setCoupon(e.target.value.toUpperCase())} textTransform="uppercase" placeholder="WELCOME10" bg="bg" />
          <Button variant="outline" onClick={() => onApplyCoupon(coupon.trim())}>
            Apply
          </Button>
        </HStack>
        {couponError ? <Field.ErrorText>{couponError}</Field.ErrorText> : <Field.HelperText>Have a discount code? Enter it here to apply it to your order</Field.HelperText>}
      </Field.Root>

      {refusal ? (
        <Box role="alert" p="4" rounded="lg" bg="orange.50" borderWidth="1px" borderColor="orange.200" color="orange.900">
          {refusal}
        </Box>
      ) : (
        <Box>
          <Heading as="h3" size="md" mb="3">
            Card details
          </Heading>
          <CardPaymentForm
            config={config}
            submitLabel={quote ? payButtonLabel(quote.totalCents, quote.nextBillingDate) : "Pay now"}
            disabled={!quote}
            prepare={prepare}
            onSucceeded={complete}
          />
        </Box>
      )}
      <Box>
        <Button variant="outline" onClick={onBack}>
          Back
        </Button>
      </Box>
    </Stack>
  );
}
