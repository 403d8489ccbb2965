import { Box, HStack, Spinner, Text } from "@chakra-ui/react";
import { CardElement, Elements, useElements, useStripe } from "@stripe/react-stripe-js";
import { loadStripe, type Stripe } from "@stripe/stripe-js";
import { useEffect, useState, type ReactNode } from "react";
import type { CardConfirmer } from "./confirmation.ts";

type Render = (confirm: CardConfirmer, ready: boolean) => ReactNode;

/** Loads Stripe.js raced against a timeout (it cannot load offline and may hang); reports failure to fall back. */
export default function StripeCardForm({ publishableKey, intent = "payment", timeoutMs, onUnavailable, children }: { publishableKey: string; intent?: "payment" | "setup"; timeoutMs: number; onUnavailable: () => void; children: Render }) {
  const [stripe, setStripe] = useState<Stripe | null>(null);
  useEffect(() => {
    let cancelled = false;
    const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), timeoutMs));
    void Promise.race([loadStripe(publishableKey).catch(() => null), timeout]).then((s) => {
      if (cancelled) return;
      if (s) setStripe(s);
      else onUnavailable();
    });
    return () => {
      cancelled = true;
    };
  }, [publishableKey, timeoutMs, onUnavailable]);
  if (!stripe) {
    return (
      <HStack gap="2" color="fg.muted" role="status">
        <Spinner size="sm" />
        <Text>Setting up payment form...</Text>
      </HStack>
    );
  }
  return (
    <Elements stripe={stripe}>
      <StripeFields intent={intent}>{children}</StripeFields>
    </Elements>
  );
}

function StripeFields({ intent, children }: { intent: "payment" | "setup"; children: Render }) {
  const stripe = useStripe();
  const elements = useElements();
  const confirm: CardConfirmer = async (clientSecret) => {
    const card = elements?.getElement(CardElement);
    if (!stripe || !card) return { ok: false, message: "Failed to initialize payment" };
    if (intent === "setup") {
      // Card update (spec §8): the provider's message, else 'Validation error' / 'Confirmation failed'.
      const result = await stripe.confirmCardSetup(clientSecret, { payment_method: { card } });
      if (result.error) return { ok: false, message: result.error.message || (result.error.type === "validation_error" ? "Validation error" : "Confirmation failed") };
      if (result.setupIntent?.status !== "succeeded") return { ok: false, message: "Confirmation failed" };
      return { ok: true };
    }
    const result = await stripe.confirmCardPayment(clientSecret, { payment_method: { card } });
    if (result.error) return { ok: false, message: result.error.message || "Payment failed" };
    if (result.paymentIntent?.status !== "succeeded") return { ok: false, message: "Payment was not completed" };
    return { ok: true };
  };
  return (
    <>
      <Box p="3" borderWidth="1px" rounded="md" bg="bg" mb="4">
        <CardElement options={{ hidePostalCode: true }} />
      </Box>
      {children(confirm, !!stripe && !!elements)}
    </>
  );
}
