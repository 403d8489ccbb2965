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
import { nextMonthNotice, saveCardButtonLabel } from "./nextMonth.ts";
import { couponAppliedText } from "./coupon.ts";

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
    # The applied coupon's line shows the discount the server priced.
    breakdown {
      lines {
        kind
        amountCents
      }
    }
    totalCents
    # What the renewals charge once a coupon's months are used: the pay button says so.
    discountedRenewals
    fullTotalCents
    nextBillingDate
    fulfillmentPoint
    startsNextMonth
    period
    firstChargeDate
  }
`;

/** The card form's provider. */
const PaymentConfigFragment = graphql`
  fragment ReviewStepFragment_paymentConfig on PaymentConfig {
    ...CardPaymentFormFragment_paymentConfig
  }
`;

// The payment intent (or, for a next-month sign-up, the setup intent) for the card form: nothing in the store shows it.
const StartMutation = graphql`
  mutation ReviewStepStartMutation($input: StartCheckoutInput!) {
    startCheckout(input: $input) {
      __typename
      ... on StartCheckoutSuccess {
        data {
          clientSecret
          paymentIntentId
          intent
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

// The success panel shows the charge, the card that paid, where the receipt went and the order from this payload
// (a next-month sign-up: no charge and no order, its first month and the first charge's date); the new membership
// comes back in the portal card's shape, so the portal renders it from the store.
const CompleteMutation = graphql`
  mutation ReviewStepCompleteMutation($paymentIntentId: String, $setupIntentId: String) {
    completeCheckout(paymentIntentId: $paymentIntentId, setupIntentId: $setupIntentId) {
      __typename
      ... on CompleteCheckoutSuccess {
        data {
          chargedCents
          createdAt
          nextBillingDate
          firstPeriod
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
  /** The first period's order (null for a next-month sign-up: nothing is charged until its first month). */
  orderId: number | null;
  createdAt: string;
  chargedCents: number;
  nextBillingDate: string;
  message: string | null;
  /** The card that paid (null for a free period). */
  card: { brand: string; last4: string } | null;
  /** Where the receipt (a next-month sign-up: the welcome) was sent ("" when the member has no email address). */
  receiptEmail: string;
  /**
   * A next-month sign-up: the first month with a box and the first charge (the quoted total, on
   * nextBillingDate); null for a checkout paid today.
   */
  nextMonth: { firstPeriod: string; firstChargeCents: number } | null;
}

/** Thrown when the server's intent is not the one the button promised (the terms changed since the quote). */
const TERMS_CHANGED = "The terms of this sign-up changed since this page was loaded. Please reload the page to review them.";

/**
 * The pay button text of spec §2, from the server's quote. A coupon that ends (once, or for some months) says what
 * the renewals charge after it, so the button never promises the discounted price for good.
 */
export function payButtonLabel(
  totalCents: number,
  nextBillingDate: string,
  renewals: { discountedRenewals?: number | null; fullTotalCents: number } = { fullTotalCents: totalCents },
): string {
  const total = formatCents(totalCents);
  const full = formatCents(renewals.fullTotalCents);
  const day = monthDayOrdinal(nextBillingDate);
  const n = renewals.discountedRenewals ?? null;
  if (n === null || full === total) return `Pay ${total} now and it renews at ${total} every month on ${day}`;
  if (n === 0) return `Pay ${total} now and it renews at ${full} every month on ${day}`;
  return `Pay ${total} now and it renews at ${total} for ${n} more month${n === 1 ? "" : "s"}, then ${full}, every month on ${day}`;
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
  // The intent startCheckout answered: completeCheckout takes a payment intent's id, or a setup intent's.
  const started = useRef<{ id: string; setup: boolean } | null>(null);
  const mode = selection.mode;
  // Past the cutoff at a page that takes them, the card is saved today and first charged next month.
  const nextMonth = !!quote?.startsNextMonth;
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
    const setup = r.data.intent === "SETUP";
    // The button said what happens (pay now, or save the card for next month): never do the other.
    if (setup !== nextMonth) throw new PaymentFlowError(TERMS_CHANGED);
    started.current = { id: r.data.paymentIntentId, setup };
    return r.data.clientSecret;
  }

  async function complete(): Promise<void> {
    const intent = started.current;
    if (!intent || !quote) throw new PaymentFlowError("Failed to save order");
    const ids = intent.setup ? { setupIntentId: intent.id } : { paymentIntentId: intent.id };
    const res = await commitAsync<ReviewStepCompleteMutation>(environment, CompleteMutation, ids).catch(() => {
      throw new PaymentFlowError("Failed to save order");
    });
    const r = res.completeCheckout;
    if (!r.data) throw new PaymentFlowError(("message" in r && (r.message || r.reason)) || "Failed to save order");
    attempt.current = null;
    const { order, createdAt, chargedCents, nextBillingDate, firstPeriod, card, receiptEmail } = r.data;
    // A paid checkout always has its first order; a next-month sign-up has none (nothing is charged until its month).
    if (!order && !intent.setup) throw new PaymentFlowError("Failed to save order");
    onSuccess({
      orderId: order?.databaseId ?? null,
      createdAt,
      chargedCents,
      nextBillingDate,
      message: null,
      card: card ? { brand: card.brand, last4: card.last4 } : null,
      receiptEmail,
      nextMonth: intent.setup ? { firstPeriod, firstChargeCents: quote.totalCents } : null,
    });
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

      {quote?.couponCode ? (
        // The code the server accepted, with its discount; Remove prices the selection again without it.
        <Flex justify="space-between" align="center" gap="3" p="3" rounded="md" borderWidth="1px" borderColor="green.200" bg="green.50" color="green.900" data-testid="coupon-applied">
          <Text role="status" fontWeight="medium">
            {couponAppliedText(quote.couponCode, quote.breakdown.lines.filter((l) => l.kind === "DISCOUNT").reduce((sum, l) => sum + l.amountCents, 0))}
          </Text>
          <Button
            size="sm"
            variant="outline"
            bg="bg"
            onClick={() => {
              setCoupon("");
              onApplyCoupon("");
            }}
          >
            Remove
          </Button>
        </Flex>
      ) : (
        <Field.Root invalid={!!couponError}>
          <Field.Label>Coupon code</Field.Label>
          <HStack w="full">
            <Input value={coupon} onChange={(e) => setCoupon(e.target.value.toUpperCase())} textTransform="uppercase" placeholder="Discount code" _placeholder={{ textTransform: "none" }} bg="bg" />
            <Button variant="outline" onClick={() => onApplyCoupon(coupon.trim())}>
              Apply
            </Button>
          </HStack>
          {couponError ? <Field.ErrorText>{couponError}</Field.ErrorText> : <Field.HelperText>Have a discount code? Enter it here to apply it to your order</Field.HelperText>}
        </Field.Root>
      )}

      {refusal ? (
        <Box role="alert" p="4" rounded="lg" bg="orange.50" borderWidth="1px" borderColor="orange.200" color="orange.900">
          {refusal}
        </Box>
      ) : (
        <Box>
          <Heading as="h3" size="md" mb="3">
            Card details
          </Heading>
          {quote && nextMonth && (
            <Box p="3" mb="4" rounded="md" bg="blue.50" borderWidth="1px" borderColor="blue.200" color="blue.900" fontSize="sm" data-testid="next-month-terms">
              {nextMonthNotice({ totalCents: quote.totalCents, period: quote.period, firstChargeDate: quote.firstChargeDate })}
            </Box>
          )}
          {/* A next-month sign-up saves the card with a setup intent: nothing is charged today. */}
          <CardPaymentForm
            config={config}
            intent={nextMonth ? "setup" : "payment"}
            submitLabel={!quote ? "Pay now" : nextMonth ? saveCardButtonLabel(quote.totalCents, quote.firstChargeDate) : payButtonLabel(quote.totalCents, quote.nextBillingDate, quote)}
            errorTitle={nextMonth ? "Card not saved:" : undefined}
            processingText={nextMonth ? "Saving your card… Please wait." : undefined}
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
