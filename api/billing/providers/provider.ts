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

/** A connected account's money at the provider, in USD cents. */
export interface AccountBalance {
  /** What a payout may take now. Below zero when refunds reversed more than the account held. */
  availableCents: number;
  /** Charges' transfers not yet available (the provider's hold, two days in the sandbox). */
  pendingCents: number;
}

/** Where a payout is (Stripe's statuses): `pending` → `in_transit` → `paid`, or `failed` (the money goes back) or `canceled`. */
export type PayoutStatus = "pending" | "in_transit" | "paid" | "failed" | "canceled";

/** A payout from a connected account to its bank account. */
export interface PayoutInfo {
  id: string;
  amountCents: number;
  status: PayoutStatus;
  /** The day the bank is expected to have it (YYYY-MM-DD, UTC). */
  arrivalDate: string;
  /** Why it failed (Stripe's payout failure codes, e.g. "no_account"); null unless failed. */
  failureCode: string | null;
  failureMessage: string | null;
  createdAt: Date;
}

/** A page of a list, newest first: `hasMore` says another page follows (ask with `after` = the last item's id). */
export interface PageRequest {
  /** The id of the last item of the previous page. */
  after?: string;
  /** At most this many (1 to 100, default 100). */
  limit?: number;
}

/**
 * What moved a balance (Stripe's balance transaction types). On the platform's account a destination charge is
 * `charge` (+amount, the provider's fee), `transfer` (−amount, to the business's account) and `application_fee`
 * (+the application fee, taken back from it): the platform keeps application fee − provider fee. A refund is
 * `refund` (−amount), and when it reverses the transfer also `transfer_reversal` (+amount) and
 * `application_fee_refund` (−the application fee in proportion). Other types may appear (Stripe's list grows).
 */
type BalanceTransactionType =
  | "charge"
  | "refund"
  | "application_fee"
  | "application_fee_refund"
  | "transfer"
  | "transfer_reversal"
  | "payout"
  | "adjustment"
  // Any other of Stripe's types (payment, payment_refund, payout_failure, …), the known ones still suggested.
  | (string & {});

/** One movement of the platform's balance, in USD cents. */
export interface BalanceTransactionInfo {
  id: string;
  type: BalanceTransactionType;
  /** Signed: money in is positive. */
  amountCents: number;
  /** The provider's fee on it (a charge's processing fee), positive. */
  feeCents: number;
  /** amountCents − feeCents. */
  netCents: number;
  /**
   * What it came from. For a `charge`, the payment intent's id (what payments.provider_payment_id holds), not the
   * charge's; for a `refund`, the refund's id (what the provider's refund call answered); for every other type, the
   * provider's object of that type (transfer tr_…, transfer reversal trr_…, application fee fee_…, fee refund fr_…,
   * payout po_…).
   */
  source: string;
  /**
   * What it follows, by the ids our records hold: a `refund`, and a charge's `transfer` and `application_fee`, the
   * charge's payment intent; a refund's `transfer_reversal` and `application_fee_refund`, the refund. Null for any other
   * type, or when the provider does not say (Stripe names no refund on a fee refund).
   */
  origin: string | null;
  /** When it is (or was) available to pay out. */
  availableOn: Date;
  createdAt: Date;
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
  /** A connected account's balance (USD): available to pay out, and still pending. */
  retrieveBalance(accountId: string): Promise<AccountBalance>;
  /** A connected account's payouts, newest first. */
  listPayouts(accountId: string, opts?: PageRequest): Promise<{ payouts: PayoutInfo[]; hasMore: boolean }>;
  /** The platform's balance transactions created in [from, to), newest first. */
  listBalanceTransactions(opts: { from: Date; to: Date } & PageRequest): Promise<{ transactions: BalanceTransactionInfo[]; hasMore: boolean }>;
}

/** A page's size as both providers take it: 1 to 100, 100 when not given (Stripe's bounds). */
export const pageLimit = (limit: number | undefined): number => Math.min(100, Math.max(1, Math.floor(limit ?? 100)));

/** A day as YYYY-MM-DD (UTC). */
export const isoDay = (at: Date): string => at.toISOString().slice(0, 10);

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
