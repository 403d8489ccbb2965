import { Button, Field, HStack, Input, SimpleGrid, Spinner, Stack, Text } from "@chakra-ui/react";
import { lazy, Suspense, useCallback, useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { graphql, readInlineData, useFragment, useRelayEnvironment } from "react-relay";
import type { CardPaymentFormFragment_paymentConfig$key } from "./__generated__/CardPaymentFormFragment_paymentConfig.graphql.ts";
import type { CardPaymentFormFragment_intent$key } from "./__generated__/CardPaymentFormFragment_intent.graphql.ts";
import type { CardPaymentFormConfirmMutation } from "./__generated__/CardPaymentFormConfirmMutation.graphql.ts";
import type { CardPaymentFormChallengeMutation } from "./__generated__/CardPaymentFormChallengeMutation.graphql.ts";
import type { CardPaymentFormSetupMutation } from "./__generated__/CardPaymentFormSetupMutation.graphql.ts";
import type { CardConfirmer, ConfirmResult } from "./confirmation.ts";
import { formatCardNumber, formatExpiry, parseCard, type SandboxCard } from "./cardInput.ts";
import { PaymentErrorBox } from "./PaymentErrorBox.tsx";
import { commitAsync } from "../../lib/mutations.ts";
import { lazyDialog } from "../../ui/lazyDialog.tsx";
import { usePrimaryButton } from "../../ui/BusinessPrimary.tsx";

const StripeCardForm = lazy(() => import("./StripeCardForm.tsx"));
const SandboxChallengeDialog = lazyDialog(() => import("./SandboxChallengeDialog.tsx").then((m) => m.SandboxChallengeDialog));

/** Which card form to show: Stripe Elements with the publishable key, or the sandbox form. */
const PaymentConfigFragment = graphql`
  fragment CardPaymentFormFragment_paymentConfig on PaymentConfig {
    provider
    publishableKey
  }
`;

// The sandbox's payment intent, before and after a 3-D Secure challenge: its status and error decide the flow's
// next step; no screen shows the intent.
const IntentFragment = graphql`
  fragment CardPaymentFormFragment_intent on PaymentIntent @inline {
    status
    lastError {
      message
    }
  }
`;

const ConfirmMutation = graphql`
  mutation CardPaymentFormConfirmMutation($clientSecret: String!, $card: SandboxCardInput!) {
    confirmSandboxPayment(clientSecret: $clientSecret, card: $card) {
      __typename
      ... on ConfirmSandboxPaymentSuccess {
        data {
          ...CardPaymentFormFragment_intent
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

const ChallengeMutation = graphql`
  mutation CardPaymentFormChallengeMutation($clientSecret: String!, $succeed: Boolean!) {
    completeSandboxChallenge(clientSecret: $clientSecret, succeed: $succeed) {
      __typename
      ... on CompleteSandboxChallengeSuccess {
        data {
          ...CardPaymentFormFragment_intent
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

// The sandbox's setup intent (what stripe.confirmCardSetup does): a card saved, nothing charged (a next-month
// sign-up's checkout). Its status and error decide the flow's next step; no screen shows the intent.
const SetupMutation = graphql`
  mutation CardPaymentFormSetupMutation($clientSecret: String!, $card: SandboxCardInput!) {
    confirmSandboxSetup(clientSecret: $clientSecret, card: $card) {
      __typename
      ... on ConfirmSandboxSetupSuccess {
        data {
          status
          lastError {
            message
          }
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

/** What the sandbox said about a setup confirmation, in the card form's terms. */
export function sandboxSetupOutcome(intent: { status: string; lastError: { message: string | null | undefined } | null | undefined }): ConfirmResult {
  if (intent.lastError) return { ok: false, message: intent.lastError.message || "Your card was not saved" };
  if (intent.status !== "succeeded") return { ok: false, message: "Your card was not saved" };
  return { ok: true };
}

/** Thrown by prepare/onSucceeded with a message meant for the Payment Error box. */
export class PaymentFlowError extends Error {}

interface Props {
  config: CardPaymentFormFragment_paymentConfig$key;
  /** Pay button text. */
  submitLabel: string;
  disabled?: boolean;
  /** Creates the payment (or setup) intent: returns its client secret. */
  prepare: () => Promise<string>;
  /** Runs once the provider reports success (e.g. completeCheckout). */
  onSucceeded: (clientSecret: string) => Promise<void>;
  /** Sandbox confirm for setups (card update); without it a setup uses confirmSandboxSetup, a payment confirmSandboxPayment. */
  sandboxConfirm?: (clientSecret: string, card: SandboxCard) => Promise<ConfirmResult>;
  /** What the client secret belongs to: a payment (confirmCardPayment) or a card setup (confirmCardSetup). */
  intent?: "payment" | "setup";
  errorTitle?: string;
  /** Shown beside the spinner while the flow runs. */
  processingText?: string;
}

type Phase = "idle" | "processing" | "success" | "error";

/** How long Stripe.js may take to load before the sandbox form is used (it cannot load offline and may hang). */
const STRIPE_LOAD_TIMEOUT_MS = 8000;

/**
 * The card form: Stripe Elements when a publishable key is configured and Stripe.js loads in time, otherwise the
 * sandbox card form. Both run the same flow: prepare → confirm (3-D Secure when asked) → onSucceeded.
 */
export function CardPaymentForm(props: Props) {
  const config = useFragment(PaymentConfigFragment, props.config);
  const publishableKey = config.provider === "stripe" ? config.publishableKey : null;
  const [stripeFailed, setStripeFailed] = useState(false);
  const onUnavailable = useCallback(() => setStripeFailed(true), []);
  if (publishableKey && !stripeFailed) {
    return (
      <Suspense fallback={<SettingUp />}>
        <StripeCardForm publishableKey={publishableKey} intent={props.intent ?? "payment"} timeoutMs={STRIPE_LOAD_TIMEOUT_MS} onUnavailable={onUnavailable}>
          {(confirm, ready) => <PaymentFlow {...props} confirmer={confirm} ready={ready} fields={null} />}
        </StripeCardForm>
      </Suspense>
    );
  }
  return <SandboxCardForm {...props} />;
}

function SettingUp() {
  return (
    <HStack gap="2" color="fg.muted" role="status">
      <Spinner size="sm" />
      <Text>Setting up payment form...</Text>
    </HStack>
  );
}

function SandboxCardForm(props: Props) {
  const environment = useRelayEnvironment();
  const [number, setNumber] = useState("");
  const [expiry, setExpiry] = useState("");
  const [cvc, setCvc] = useState("");
  const [challenge, setChallenge] = useState<{ resolve: (ok: boolean) => void } | null>(null);

  const confirmer: CardConfirmer = async (clientSecret) => {
    const card = parseCard(number, expiry, cvc);
    if ("error" in card) return { ok: false, message: card.error };
    if (props.sandboxConfirm) return props.sandboxConfirm(clientSecret, card);
    if (props.intent === "setup") {
      const res = await commitAsync<CardPaymentFormSetupMutation>(environment, SetupMutation, { clientSecret, card });
      const r = res.confirmSandboxSetup;
      // A ValidationError carries the provider's own text about the card (number, expiry, CVC).
      if (!r.data) return { ok: false, message: ("message" in r && r.message) || "Your card was not saved" };
      return sandboxSetupOutcome(r.data);
    }
    const res = await commitAsync<CardPaymentFormConfirmMutation>(environment, ConfirmMutation, { clientSecret, card });
    const r = res.confirmSandboxPayment;
    if (!r.data) return { ok: false, message: ("message" in r && r.message) || "Payment confirmation failed" };
    let intent = readInlineData<CardPaymentFormFragment_intent$key>(IntentFragment, r.data);
    if (intent.status === "requires_action") {
      const completed = await new Promise<boolean>((resolve) => setChallenge({ resolve }));
      setChallenge(null);
      const ch = await commitAsync<CardPaymentFormChallengeMutation>(environment, ChallengeMutation, { clientSecret, succeed: completed });
      const cr = ch.completeSandboxChallenge;
      if (!cr.data) return { ok: false, message: ("message" in cr && cr.message) || "Payment confirmation failed" };
      intent = readInlineData<CardPaymentFormFragment_intent$key>(IntentFragment, cr.data);
    }
    if (intent.lastError) return { ok: false, message: intent.lastError.message || "Payment failed" };
    if (intent.status !== "succeeded") return { ok: false, message: "Payment was not completed" };
    return { ok: true };
  };

  const fields = (
    <Stack gap="3">
      <Field.Root required>
        <Field.Label>Card number</Field.Label>
        <Input inputMode="numeric" autoComplete="cc-number" placeholder="1234 1234 1234 1234" value={number} onChange={(e) => setNumber(formatCardNumber(e.target.value))} bg="bg" />
      </Field.Root>
      <SimpleGrid columns={2} gap="3">
        <Field.Root required>
          <Field.Label>Expiry</Field.Label>
          <Input inputMode="numeric" autoComplete="cc-exp" placeholder="MM / YY" value={expiry} onChange={(e) => setExpiry(formatExpiry(e.target.value))} bg="bg" />
        </Field.Root>
        <Field.Root required>
          <Field.Label>CVC</Field.Label>
          <Input inputMode="numeric" autoComplete="cc-csc" placeholder="123" maxLength={4} value={cvc} onChange={(e) => setCvc(e.target.value.replace(/\D/g, ""))} bg="bg" />
        </Field.Root>
      </SimpleGrid>
      <Text fontSize="xs" color="fg.muted">
        Test mode: use 4242 4242 4242 4242 with any future date and CVC.
      </Text>
    </Stack>
  );
  return (
    <>
      <PaymentFlow {...props} confirmer={confirmer} ready fields={fields} />
      <SandboxChallengeDialog open={!!challenge} onResult={(ok) => challenge?.resolve(ok)} />
    </>
  );
}

function PaymentFlow({ submitLabel, disabled, prepare, onSucceeded, confirmer, ready, fields, errorTitle, processingText = "Processing your payment… Please wait." }: Props & { confirmer: CardConfirmer; ready: boolean; fields: ReactNode }) {
  const primary = usePrimaryButton();
  const [phase, setPhase] = useState<Phase>("idle");
  const [error, setError] = useState<string | null>(null);
  // Blocks a second success handling while one runs (spec §4); reset on failure.
  const processing = useRef(false);
  useEffect(() => () => void (processing.current = false), []);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (processing.current) return;
    processing.current = true;
    setPhase("processing");
    setError(null);
    try {
      const clientSecret = await prepare();
      const result = await confirmer(clientSecret);
      if (!result.ok) throw new PaymentFlowError(result.message);
      await onSucceeded(clientSecret);
      setPhase("success");
    } catch (err) {
      processing.current = false;
      setPhase("error");
      setError(err instanceof PaymentFlowError ? err.message : "An unexpected error occurred");
    }
  }

  if (phase === "success") return null;
  return (
    <form onSubmit={submit} aria-label="Card payment" noValidate>
      <Stack gap="4">
        {fields}
        {phase === "error" && error && (
          <PaymentErrorBox
            title={errorTitle}
            message={error}
            onRetry={() => {
              setError(null);
              setPhase("idle");
            }}
          />
        )}
        {phase === "processing" && (
          <HStack gap="2" color="fg.muted" role="status" aria-live="polite">
            <Spinner size="sm" />
            <Text>{processingText}</Text>
          </HStack>
        )}
        <Button type="submit" size="lg" {...primary} disabled={!ready || disabled || phase === "processing" || phase === "error"} whiteSpace="normal" h="auto" minH="12" py="3">
          {phase === "processing" ? "Processing..." : submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
