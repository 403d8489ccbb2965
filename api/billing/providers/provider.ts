/**
 * The payment provider boundary. Two implementations: `sandbox` (default; all state in our database, accepts
 * Stripe's documented test cards) and `stripe` (Stripe API). Shapes mirror Stripe's objects so the checkout
 * client runs the same steps against either.
 */

type ProviderName = "sandbox" | "stripe";

export type IntentStatus =
  | "requires_payment_method"
  | "requires_confirmation"
  | "requires_action"
  | "processing"
  | "succeeded"
  | "canceled";

export interface ProviderError {
  /** Stripe-style decline or error code, e.g. "card_declined", "insufficient_funds". */
  code: string;
  message: string;
}

export interface PaymentIntentInfo {
  id: string;
  clientSecret: string;
  status: IntentStatus;
  amountCents: number;
  currency: string;
  customerId: string | null;
  paymentMethodId: string | null;
  lastError: ProviderError | null;
  metadata: Record<string, string>;
}

export interface SetupIntentInfo {
  id: string;
  clientSecret: string;
  status: IntentStatus;
  customerId: string | null;
  paymentMethodId: string | null;
  lastError: ProviderError | null;
}

export interface CardSummary {
  id: string;
  /** Customer the card is saved to; null for a single-use card that cannot be charged again. */
  customerId: string | null;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export interface SavedCardCharge {
  customerId: string;
  paymentMethodId: string;
  amountCents: number;
  currency: string;
  idempotencyKey: string;
  metadata: Record<string, string>;
}

/** An on-session payment to open: who pays, how much, under which key, and whether the card is kept. */
export interface PaymentIntentRequest {
  customerId: string;
  amountCents: number;
  currency: string;
  idempotencyKey: string;
  metadata: Record<string, string>;
  /** Save the card for later off-session renewals. */
  saveForFuture: boolean;
}

export interface PaymentProvider {
  readonly name: ProviderName;
  /** Creates the provider customer for a user (or returns `existingId`). */
  ensureCustomer(args: { userId: number; email?: string | null; name?: string | null; existingId?: string | null }): Promise<string>;
  /** An on-session payment the client confirms with its card form (checkout, restart without a saved card). */
  createPaymentIntent(args: PaymentIntentRequest): Promise<PaymentIntentInfo>;
  retrievePaymentIntent(id: string): Promise<PaymentIntentInfo>;
  /** Off-session charge of a saved card (renewals, restart). Declines come back as status + lastError. */
  chargeSavedCard(args: SavedCardCharge): Promise<PaymentIntentInfo>;
  /**
   * Many off-session charges at once (the billing clock's batches): one result per request, in order. A request
   * that fails (network, provider error) is rejected on its own and the others still stand; each request keeps its
   * idempotency key, so repeating a request (after a lost answer or a crash) returns the first charge.
   */
  chargeSavedCards(requests: SavedCardCharge[]): Promise<PromiseSettledResult<PaymentIntentInfo>[]>;
  /** Card update: the client confirms a setup intent with the new card. */
  createSetupIntent(args: { customerId: string; idempotencyKey: string }): Promise<SetupIntentInfo>;
  retrieveSetupIntent(id: string): Promise<SetupIntentInfo>;
  describeCard(paymentMethodId: string): Promise<CardSummary>;
  refund(args: { paymentIntentId: string; amountCents: number; idempotencyKey: string }): Promise<{ id: string; status: string }>;
}

/**
 * Runs `fn` over `items` with at most `concurrency` calls in flight; one settled result per item, in order (a
 * rejection stays with its item).
 */
export async function settleEach<T, R>(items: readonly T[], concurrency: number, fn: (item: T) => Promise<R>): Promise<PromiseSettledResult<R>[]> {
  const results: PromiseSettledResult<R>[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) {
      try {
        results[i] = { status: "fulfilled", value: await fn(items[i]) };
      } catch (reason) {
        results[i] = { status: "rejected", reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}
