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
  /** Where a destination charge sends the money (null: it stays on the platform's account). */
  route: ChargeRoute | null;
}

/**
 * A destination charge: the platform charges the member's card (the platform stays merchant of record) and the
 * provider transfers the amount less the application fee to the business's connected account.
 */
export interface ChargeRoute {
  /** The connected account (acct_…). */
  destination: string;
  /** What the platform keeps: its fee and the processing fee it passes on, in cents. */
  applicationFeeCents: number;
  /** The business's name on the member's card statement, after the platform's. */
  descriptorSuffix: string;
}

/** A business's own account at the provider, as the provider describes it. */
export interface ConnectedAccountInfo {
  id: string;
  /** The business has sent what onboarding asks (it may still owe more). */
  detailsSubmitted: boolean;
  chargesEnabled: boolean;
  payoutsEnabled: boolean;
  /** What the provider still needs (its requirement codes, currently or past due), empty when nothing. */
  requirementsDue: string[];
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
  route?: ChargeRoute;
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
  route?: ChargeRoute;
}

export interface RefundRequest {
  paymentIntentId: string;
  amountCents: number;
  idempotencyKey: string;
  /** A destination charge's refund takes back the transfer and the application fee, in proportion. */
  reverseTransfer?: boolean;
}

/**
 * An idempotency key used again with other parameters (Stripe's `idempotency_error`): the request is not the one
 * the key was made for, and the provider did nothing.
 */
export class IdempotencyKeyReused extends Error {
  readonly code = "idempotency_error";
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
  refund(args: RefundRequest): Promise<{ id: string; status: string }>;
  /** A connected account for a business (Express: the platform pays the fees and bears the losses). */
  createConnectedAccount(args: { businessId: number; name: string; email?: string | null; idempotencyKey: string }): Promise<ConnectedAccountInfo>;
  /** Where the business's owner goes to give the provider what it needs; single use, short-lived. */
  createOnboardingLink(args: { accountId: string; refreshUrl: string; returnUrl: string }): Promise<{ url: string; expiresAt: Date }>;
  /** Where the owner sees the account's payouts and bank details. */
  createDashboardLink(accountId: string): Promise<{ url: string }>;
  retrieveAccount(accountId: string): Promise<ConnectedAccountInfo>;
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
