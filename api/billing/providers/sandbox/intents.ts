import { randomBytes } from "node:crypto";
import type { Clock } from "../../../shared/clock.ts";
import type { IntentStatus, PaymentIntentInfo, PaymentIntentRequest, ProviderError, SavedCardCharge, SetupIntentInfo } from "../provider.ts";
import { DECLINES, readTestCard, SandboxCardError, type ReadCard, type SandboxCardInput, type StoredCard } from "./cards.ts";
import { rid, type SandboxStore } from "./store.ts";

/**
 * The sandbox's payment and setup intents: their stored shape, how each is born, and the steps that move them on
 * (the card form's confirmation, the 3-D Secure challenge, an off-session charge of a saved card), with the
 * outcome Stripe gives for each test card. The provider (provider.ts) creates and keys them.
 */

/** A stored intent: what the provider answers about it (the id is its row's), and what only the sandbox knows. */
export interface StoredIntent extends Omit<PaymentIntentInfo, "id"> {
  kind: "payment_intent" | "setup_intent";
  saveForFuture: boolean;
  /** Card waiting for a 3-D Secure challenge. */
  pendingCard?: ReadCard;
  refundedCents?: number;
  /** When it succeeded (ISO, on the domain clock): the charge's time in the balance (balances.ts). */
  succeededAt?: string;
}

const clientSecretOf = (id: string) => `${id}_secret_${randomBytes(12).toString("base64url")}`;

/** A payment intent waiting for the member's card. */
export function newPaymentIntent(
  id: string,
  args: Omit<PaymentIntentRequest, "idempotencyKey">,
): StoredIntent {
  return {
    kind: "payment_intent",
    clientSecret: clientSecretOf(id),
    status: "requires_payment_method",
    amountCents: args.amountCents,
    currency: args.currency,
    customerId: args.customerId,
    paymentMethodId: null,
    lastError: null,
    metadata: args.metadata,
    saveForFuture: args.saveForFuture,
    route: args.route ?? null,
  };
}

/** A setup intent: a card to save for the customer, charged nothing. */
export function newSetupIntent(id: string, customerId: string): StoredIntent {
  return {
    kind: "setup_intent",
    clientSecret: clientSecretOf(id),
    status: "requires_payment_method",
    amountCents: 0,
    currency: "usd",
    customerId,
    paymentMethodId: null,
    lastError: null,
    metadata: {},
    saveForFuture: true,
    route: null,
  };
}

/** An off-session charge of a saved card, as Stripe answers it for that test card. */
export function savedCardIntent(id: string, args: SavedCardCharge, card: StoredCard | null, now: Date): StoredIntent {
  let status: IntentStatus = "succeeded";
  let lastError: ProviderError | null = null;
  if (!card || card.customerId !== args.customerId) {
    status = "requires_payment_method";
    lastError = { code: "payment_method_missing", message: "The saved card is no longer available." };
  } else if (card.behavior === "decline_after_attach") {
    status = "requires_payment_method";
    lastError = DECLINES.decline;
  } else if (card.behavior === "authenticate_always") {
    status = "requires_action";
    lastError = DECLINES.authentication_required;
  }
  return {
    kind: "payment_intent",
    clientSecret: clientSecretOf(id),
    status,
    amountCents: args.amountCents,
    currency: args.currency,
    customerId: args.customerId,
    paymentMethodId: card ? args.paymentMethodId : null,
    lastError,
    metadata: args.metadata,
    saveForFuture: false,
    route: args.route ?? null,
    ...(status === "requires_action" && card ? { pendingCard: { ...card } } : {}),
    ...(status === "succeeded" ? { succeededAt: now.toISOString() } : {}),
  };
}

export function intentInfo(id: string, i: StoredIntent): PaymentIntentInfo {
  return {
    id,
    clientSecret: i.clientSecret,
    status: i.status,
    amountCents: i.amountCents,
    currency: i.currency,
    customerId: i.customerId,
    paymentMethodId: i.paymentMethodId,
    lastError: i.lastError,
    metadata: i.metadata,
    // Intents stored before charges were routed have no route: they stayed on the platform's account.
    route: i.route ?? null,
  };
}

export function setupInfo(id: string, i: StoredIntent): SetupIntentInfo {
  return { id, clientSecret: i.clientSecret, status: i.status, customerId: i.customerId, paymentMethodId: i.paymentMethodId, lastError: i.lastError };
}

// ---- the client-side steps (what Stripe.js does in the browser) ------------------------------------------

async function attachCard(store: SandboxStore, customerId: string | null, card: ReadCard): Promise<string> {
  const id = rid("pm");
  await store.save(id, "payment_method", { ...card, customerId } satisfies StoredCard);
  return id;
}

/** The intent a client secret opens; anything else is refused. */
async function intentOfSecret(store: SandboxStore, clientSecret: string, kind: StoredIntent["kind"]): Promise<{ id: string; intent: StoredIntent }> {
  const m = /^((?:pi|seti)_sbx_[A-Za-z0-9_-]+?)_secret_/.exec(clientSecret);
  if (!m) throw new SandboxCardError("invalid_client_secret", "Invalid client secret.");
  const id = m[1];
  const intent = await store.load<StoredIntent>(id, kind);
  if (!intent || intent.clientSecret !== clientSecret) throw new SandboxCardError("invalid_client_secret", "Invalid client secret.");
  return { id, intent };
}

/** stripe.confirmCardPayment: charge the card now; 3-D Secure cards answer requires_action. */
export async function confirmPayment(store: SandboxStore, clock: Clock, clientSecret: string, cardInput: SandboxCardInput): Promise<PaymentIntentInfo> {
  const { id, intent } = await intentOfSecret(store, clientSecret, "payment_intent");
  if (intent.status === "succeeded") return intentInfo(id, intent);
  const card = readTestCard(cardInput, clock.now());
  let next: StoredIntent;
  if (card.behavior === "authenticate_on_session" || card.behavior === "authenticate_always") {
    next = { ...intent, status: "requires_action", lastError: null, pendingCard: card };
  } else if (card.behavior === "succeed" || card.behavior === "decline_after_attach") {
    const pm = await attachCard(store, intent.saveForFuture ? intent.customerId : null, card);
    next = { ...intent, status: "succeeded", lastError: null, paymentMethodId: pm, succeededAt: clock.now().toISOString() };
  } else {
    next = { ...intent, status: "requires_payment_method", lastError: DECLINES[card.behavior] ?? DECLINES.decline };
  }
  await store.save(id, "payment_intent", next);
  return intentInfo(id, next);
}

/** The simulated 3-D Secure challenge: the customer completes or fails it. */
export async function completeChallenge(store: SandboxStore, clock: Clock, clientSecret: string, outcome: "complete" | "fail"): Promise<PaymentIntentInfo> {
  const { id, intent } = await intentOfSecret(store, clientSecret, "payment_intent");
  if (intent.status !== "requires_action" || !intent.pendingCard) return intentInfo(id, intent);
  let next: StoredIntent;
  if (outcome === "complete") {
    const pm = intent.paymentMethodId ?? (await attachCard(store, intent.saveForFuture ? intent.customerId : null, intent.pendingCard));
    next = { ...intent, status: "succeeded", lastError: null, paymentMethodId: pm, pendingCard: undefined, succeededAt: clock.now().toISOString() };
  } else {
    next = {
      ...intent,
      status: "requires_payment_method",
      pendingCard: undefined,
      lastError: { code: "payment_intent_authentication_failure", message: "We are unable to authenticate your payment method." },
    };
  }
  await store.save(id, "payment_intent", next);
  return intentInfo(id, next);
}

/** stripe.confirmCardSetup: save a card for the customer without charging it. */
export async function confirmSetup(store: SandboxStore, clock: Clock, clientSecret: string, cardInput: SandboxCardInput): Promise<SetupIntentInfo> {
  const { id, intent } = await intentOfSecret(store, clientSecret, "setup_intent");
  if (intent.status === "succeeded") return setupInfo(id, intent);
  const card = readTestCard(cardInput, clock.now());
  let next: StoredIntent;
  if (card.behavior === "decline" || card.behavior === "insufficient_funds" || card.behavior === "expired_card" || card.behavior === "incorrect_cvc") {
    next = { ...intent, status: "requires_payment_method", lastError: DECLINES[card.behavior] };
  } else {
    const pm = await attachCard(store, intent.customerId, card);
    next = { ...intent, status: "succeeded", lastError: null, paymentMethodId: pm };
  }
  await store.save(id, "setup_intent", next);
  return setupInfo(id, next);
}
