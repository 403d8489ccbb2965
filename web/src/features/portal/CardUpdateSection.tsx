import { Box, Button, Heading, HStack, Text } from "@chakra-ui/react";
import { useEffect, useEffectEvent, useRef, useState } from "react";
import { graphql, useFragment, useRelayEnvironment } from "react-relay";
import { useLocation, useNavigate } from "react-router";
import type { CardUpdateSectionFragment_card$key } from "./__generated__/CardUpdateSectionFragment_card.graphql.ts";
import type { CardUpdateSectionFragment_user$key } from "./__generated__/CardUpdateSectionFragment_user.graphql.ts";
import type { CardUpdateSectionFragment_paymentConfig$key } from "./__generated__/CardUpdateSectionFragment_paymentConfig.graphql.ts";
import type { CardUpdateSectionStartMutation } from "./__generated__/CardUpdateSectionStartMutation.graphql.ts";
import type { CardUpdateSectionConfirmMutation } from "./__generated__/CardUpdateSectionConfirmMutation.graphql.ts";
import type { CardUpdateSectionFinishMutation } from "./__generated__/CardUpdateSectionFinishMutation.graphql.ts";
import { CardPaymentForm, PaymentFlowError } from "../payments/CardPaymentForm.tsx";
import type { ConfirmResult } from "../payments/confirmation.ts";
import type { SandboxCard } from "../payments/cardInput.ts";
import { savedCardLabel } from "../../lib/cards.ts";
import { commitAsync } from "../../lib/mutations.ts";
import { FormError } from "../../ui/FormError.tsx";

const CardUpdateSectionFragment = graphql`
  fragment CardUpdateSectionFragment_user on User {
    id
    paymentMethod {
      ...CardUpdateSectionFragment_card
    }
  }
`;

/** The card form's provider, for the new card. */
const PaymentConfigFragment = graphql`
  fragment CardUpdateSectionFragment_paymentConfig on PaymentConfig {
    ...CardPaymentFormFragment_paymentConfig
  }
`;

/** The saved card line; finishCardUpdate returns the new card in the same shape. */
const SavedCardFragment = graphql`
  fragment CardUpdateSectionFragment_card on SavedCard {
    brand
    last4
    expMonth
    expYear
  }
`;

// The setup intent's secret for the card form: nothing in the store shows it.
const StartMutation = graphql`
  mutation CardUpdateSectionStartMutation {
    startCardUpdate {
      __typename
      ... on StartCardUpdateSuccess {
        data {
          clientSecret
          setupIntentId
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

// The sandbox's setup intent: its status decides whether the card is finished; no screen shows the intent.
const ConfirmMutation = graphql`
  mutation CardUpdateSectionConfirmMutation($clientSecret: String!, $card: SandboxCardInput!) {
    confirmSandboxSetup(clientSecret: $clientSecret, card: $card) {
      __typename
      ... on ConfirmSandboxSetupSuccess {
        data {
          id
          status
          lastError {
            code
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

// The new default card, in the saved card line's shape (the updater links it to the viewer).
const FinishMutation = graphql`
  mutation CardUpdateSectionFinishMutation($setupIntentId: String!) {
    finishCardUpdate(setupIntentId: $setupIntentId) {
      __typename
      ... on FinishCardUpdateSuccess {
        data {
          ...CardUpdateSectionFragment_card
        }
      }
      ... on Error {
        message
      }
    }
  }
`;

/** Spec §8 card update errors. */
export const CARD_UPDATE_ERRORS = {
  start: "Failed to start card update",
  validation: "Validation error",
  confirmation: "Confirmation failed",
  finish: "Failed to update card",
} as const;

const CARD_UPDATED_MESSAGE = "Card updated successfully.";
/** Spec §9: the form closes this long after 'Card updated successfully.'. */
const CARD_UPDATED_CLOSE_MS = 1500;
/** The past-due notice links here (/membership#card-update): the section opens its form on arrival. */
export const CARD_UPDATE_ANCHOR = "card-update";

/** What the sandbox provider said about a setup confirmation, in the card form's terms. */
export function setupOutcome(intent: { status: string; lastError: { message: string | null | undefined } | null | undefined }): ConfirmResult {
  if (intent.lastError) return { ok: false, message: intent.lastError.message || CARD_UPDATE_ERRORS.confirmation };
  if (intent.status !== "succeeded") return { ok: false, message: CARD_UPDATE_ERRORS.confirmation };
  return { ok: true };
}

type Phase = { name: "closed" } | { name: "starting" } | { name: "form"; clientSecret: string; setupIntentId: string } | { name: "updated" };

/**
 * The card renewals charge, and the card update of spec §4: start (a setup intent), show the card form, confirm,
 * finalize (the card becomes the default and past-due memberships are retried), then 'Card updated successfully.'
 * and close after 1.5 s.
 */
export function CardUpdateSection({ user, paymentConfig, onUpdated }: { user: CardUpdateSectionFragment_user$key; paymentConfig: CardUpdateSectionFragment_paymentConfig$key; onUpdated: () => void }) {
  const data = useFragment(CardUpdateSectionFragment, user);
  const config = useFragment(PaymentConfigFragment, paymentConfig);
  const environment = useRelayEnvironment();
  const location = useLocation();
  const navigate = useNavigate();
  const [phase, setPhase] = useState<Phase>({ name: "closed" });
  const [startError, setStartError] = useState<string | null>(null);
  const sectionRef = useRef<HTMLElement>(null);
  const notifyUpdated = useEffectEvent(onUpdated);

  function start() {
    setPhase({ name: "starting" });
    setStartError(null);
    void requestSetup();
  }

  /** Asks the provider for a setup intent and opens the form with it (the phase is "starting" meanwhile). */
  async function requestSetup() {
    try {
      const res = await commitAsync<CardUpdateSectionStartMutation>(environment, StartMutation, {});
      const r = res.startCardUpdate;
      if (!r.data) throw new Error(("message" in r && r.message) || CARD_UPDATE_ERRORS.start);
      setPhase({ name: "form", clientSecret: r.data.clientSecret, setupIntentId: r.data.setupIntentId });
    } catch {
      setStartError(CARD_UPDATE_ERRORS.start);
      setPhase({ name: "closed" });
    }
  }

  async function sandboxConfirm(clientSecret: string, card: SandboxCard): Promise<ConfirmResult> {
    try {
      const res = await commitAsync<CardUpdateSectionConfirmMutation>(environment, ConfirmMutation, { clientSecret, card });
      const r = res.confirmSandboxSetup;
      // A ValidationError carries the provider's own text about the card (number, expiry, CVC).
      if (!r.data) return { ok: false, message: ("message" in r && r.message) || CARD_UPDATE_ERRORS.validation };
      return setupOutcome(r.data);
    } catch {
      return { ok: false, message: CARD_UPDATE_ERRORS.confirmation };
    }
  }

  async function finish(setupIntentId: string) {
    const res = await commitAsync<CardUpdateSectionFinishMutation>(
      environment,
      FinishMutation,
      { setupIntentId },
      {
        // The new card shows at once; the memberships (a past-due one is retried) refresh when the form closes.
        updater: (store) => {
          const card = store.getRootField("finishCardUpdate")?.getLinkedRecord("data");
          const viewer = store.get(data.id);
          if (card && viewer) viewer.setLinkedRecord(card, "paymentMethod");
        },
      },
    ).catch(() => {
      throw new PaymentFlowError(CARD_UPDATE_ERRORS.finish);
    });
    if (!res.finishCardUpdate.data) throw new PaymentFlowError(CARD_UPDATE_ERRORS.finish);
    setPhase({ name: "updated" });
  }

  useEffect(() => {
    if (phase.name !== "updated") return;
    const t = setTimeout(() => {
      setPhase({ name: "closed" });
      notifyUpdated();
    }, CARD_UPDATED_CLOSE_MS);
    return () => clearTimeout(t);
  }, [phase.name]);

  // Arriving from the past-due notice: bring the section into view with its form open.
  const arrivedFromNotice = location.hash === `#${CARD_UPDATE_ANCHOR}`;
  if (arrivedFromNotice && phase.name === "closed") {
    setPhase({ name: "starting" });
    setStartError(null);
  }
  const openFromNotice = useEffectEvent(() => {
    sectionRef.current?.scrollIntoView({ block: "start" });
    void navigate({ search: location.search }, { replace: true });
    void requestSetup();
  });
  useEffect(() => {
    if (arrivedFromNotice) openFromNotice();
  }, [arrivedFromNotice]);

  const card = data.paymentMethod;
  const open = phase.name === "form" || phase.name === "updated";

  return (
    <Box as="section" ref={sectionRef} id={CARD_UPDATE_ANCHOR} aria-labelledby="card-update-heading" p={{ base: "4", md: "6" }} rounded="xl" bg="bg" borderWidth="1px" scrollMarginTop="20">
      <Heading as="h2" id="card-update-heading" size="lg" mb="2">
        Payment card
      </Heading>
      <Text color="fg.muted">Your card on file is charged each month on your billing day.</Text>
      <HStack mt="4" gap="3" p="3" rounded="lg" bg="bg.subtle" borderWidth="1px" maxW="md" data-testid="saved-card">
        <CardGlyph />
        <Text fontWeight="medium">{card ? <SavedCardLabel card={card} /> : "No card saved yet."}</Text>
      </HStack>

      <FormError mt="3">{startError}</FormError>

      {!open && (
        <Button mt="4" variant="outline" colorPalette="orange" loading={phase.name === "starting"} loadingText="Starting…" onClick={start}>
          {card ? "Update card" : "Add a card"}
        </Button>
      )}

      {phase.name === "form" && (
        <Box mt="5" maxW="md">
          <Heading as="h3" size="md" mb="3">
            New card
          </Heading>
          <CardPaymentForm
            config={config}
            intent="setup"
            submitLabel="Save card"
            errorTitle="Card not saved:"
            processingText="Saving your card… Please wait."
            prepare={async () => phase.clientSecret}
            sandboxConfirm={sandboxConfirm}
            onSucceeded={() => finish(phase.setupIntentId)}
          />
          <Button mt="3" variant="ghost" size="sm" onClick={() => setPhase({ name: "closed" })}>
            Cancel
          </Button>
        </Box>
      )}

      {phase.name === "updated" && (
        <Box role="status" mt="4" p="3" rounded="md" bg="green.50" borderWidth="1px" borderColor="green.200" color="green.900" maxW="md">
          {CARD_UPDATED_MESSAGE}
        </Box>
      )}
    </Box>
  );
}

function SavedCardLabel({ card }: { card: CardUpdateSectionFragment_card$key }) {
  const { brand, last4, expMonth, expYear } = useFragment(SavedCardFragment, card);
  return savedCardLabel({ brand, last4, expMonth, expYear });
}

function CardGlyph() {
  return (
    <svg width="28" height="20" viewBox="0 0 28 20" aria-hidden="true" fill="none">
      <rect x="0.75" y="0.75" width="26.5" height="18.5" rx="3" stroke="currentColor" strokeWidth="1.5" opacity="0.6" />
      <rect x="0.75" y="5" width="26.5" height="3.5" fill="currentColor" opacity="0.35" />
      <rect x="4" y="12.5" width="8" height="2.5" rx="1" fill="currentColor" opacity="0.5" />
    </svg>
  );
}
