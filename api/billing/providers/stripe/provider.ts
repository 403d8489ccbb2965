import Stripe from "stripe";
import type {
  AccountBalance,
  BalanceTransactionInfo,
  CardSummary,
  ChargeRoute,
  ConnectedAccountInfo,
  IntentStatus,
  PaymentIntentInfo,
  PaymentIntentRequest,
  PageRequest,
  PaymentProvider,
  PayoutInfo,
  PayoutStatus,
  ProviderError,
  RefundRequest,
  SavedCardCharge,
  SetupIntentInfo,
} from "../provider.ts";
import { IdempotencyKeyReused, isoDay, pageLimit, settleEach } from "../provider.ts";

/**
 * The Stripe provider: PaymentIntents for charges (on-session at checkout, off-session for renewals), SetupIntents
 * for card updates, Customers for saved cards. Every creating call carries an idempotency key, so a retried
 * request never creates a second object or charge. Card details never reach this server: the browser confirms
 * intents with Stripe Elements.
 */

/** Off-session renewal charges in flight at once (Stripe's test mode allows about 25 requests per second). */
export const RENEWAL_CHARGE_CONCURRENCY = 8;

export interface StripeOptions {
  secretKey: string;
  /** Another API base (stripe-mock, or the tests' local double), e.g. http://127.0.0.1:12111. */
  apiBase?: string;
}

export function createStripeClient(opts: StripeOptions): Stripe {
  const base = opts.apiBase ? new URL(opts.apiBase) : null;
  return new Stripe(opts.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(base
      ? { host: base.hostname, port: Number(base.port || (base.protocol === "https:" ? 443 : 80)), protocol: base.protocol.replace(":", "") as "http" | "https" }
      : {}),
  });
}

const errorOf = (e: Stripe.PaymentIntent.LastPaymentError | Stripe.SetupIntent.LastSetupError | null | undefined): ProviderError | null =>
  e ? { code: e.decline_code ?? e.code ?? "payment_failed", message: e.message ?? "Payment failed" } : null;

const idOf = (v: string | { id: string } | null | undefined): string | null => (v == null ? null : typeof v === "string" ? v : v.id);

function paymentIntentInfo(pi: Stripe.PaymentIntent): PaymentIntentInfo {
  return {
    id: pi.id,
    clientSecret: pi.client_secret ?? "",
    status: pi.status as IntentStatus,
    amountCents: pi.amount,
    currency: pi.currency,
    customerId: idOf(pi.customer),
    paymentMethodId: idOf(pi.payment_method),
    lastError: errorOf(pi.last_payment_error),
    metadata: { ...(pi.metadata ?? {}) },
    route: pi.transfer_data
      ? { destination: idOf(pi.transfer_data.destination) ?? "", applicationFeeCents: pi.application_fee_amount ?? 0, descriptorSuffix: pi.statement_descriptor_suffix ?? "" }
      : null,
  };
}

/** A destination charge's parameters: the transfer, the application fee, the business on the card statement. */
function routeParams(route: ChargeRoute | undefined) {
  if (!route) return {};
  return {
    transfer_data: { destination: route.destination },
    application_fee_amount: route.applicationFeeCents,
    // Stripe allows 22 characters for the whole descriptor; the suffix is cut to fit beside the platform's prefix.
    statement_descriptor_suffix: route.descriptorSuffix.slice(0, 22),
  };
}

/** A Stripe account (retrieved, or an `account.updated` event's object) as the provider boundary describes it. */
export function connectedAccountInfo(a: Stripe.Account): ConnectedAccountInfo {
  const due = [...(a.requirements?.currently_due ?? []), ...(a.requirements?.past_due ?? [])];
  return {
    id: a.id,
    detailsSubmitted: a.details_submitted ?? false,
    chargesEnabled: a.charges_enabled ?? false,
    payoutsEnabled: a.payouts_enabled ?? false,
    requirementsDue: [...new Set(due)],
  };
}

/**
 * When a connected account's balance is paid out: every Monday, what has been available for two days (Stripe's
 * `settings.payouts.schedule`, set when the account is created).
 */
const PAYOUT_SCHEDULE = { interval: "weekly", weekly_anchor: "monday", delay_days: 2 } as const;

const dateOf = (unixSeconds: number) => new Date(unixSeconds * 1000);

/** The USD part of a balance's funds (one entry per currency). */
const usdCents = (funds: Stripe.Balance.Available[] | Stripe.Balance.Pending[]) => funds.filter((f) => f.currency === "usd").reduce((sum, f) => sum + f.amount, 0);

/** A Stripe payout (listed, or a Connect payout event's object) as the provider boundary describes it. */
export function payoutInfo(p: Stripe.Payout): PayoutInfo {
  return {
    id: p.id,
    amountCents: p.amount,
    status: p.status as PayoutStatus,
    arrivalDate: isoDay(dateOf(p.arrival_date)),
    failureCode: p.failure_code ?? null,
    failureMessage: p.failure_message ?? null,
    createdAt: dateOf(p.created),
  };
}

/** A balance transaction's source as the boundary names it: a charge by its payment intent, anything else by its own id. */
function sourceOf(source: Stripe.BalanceTransaction["source"]): string {
  if (source == null) return "";
  if (typeof source === "string") return source;
  if (source.object === "charge") return idOf(source.payment_intent) ?? source.id;
  return source.id;
}

/**
 * The charge (ch_…), refund or payment intent a transaction follows, as its expanded source names it: an application
 * fee's and a transfer's charge (still to be turned into its payment intent), a reversal's refund, a refund's intent.
 */
function followed(source: Stripe.BalanceTransaction["source"]): { charge: string } | { refund: string } | { intent: string } | null {
  if (source == null || typeof source === "string") return null;
  if (source.object === "refund") return idOf(source.payment_intent) ? { intent: idOf(source.payment_intent)! } : null;
  if (source.object === "application_fee") return idOf(source.charge) ? { charge: idOf(source.charge)! } : null;
  if (source.object === "transfer") return idOf(source.source_transaction) ? { charge: idOf(source.source_transaction)! } : null;
  if (source.object === "transfer_reversal") return idOf(source.source_refund) ? { refund: idOf(source.source_refund)! } : null;
  return null;
}

function balanceTransactionInfo(t: Stripe.BalanceTransaction, intentOfCharge: ReadonlyMap<string, string>): BalanceTransactionInfo {
  const follows = followed(t.source);
  return {
    id: t.id,
    type: t.type,
    amountCents: t.amount,
    feeCents: t.fee,
    netCents: t.net,
    source: sourceOf(t.source),
    origin: follows === null ? null : "refund" in follows ? follows.refund : "intent" in follows ? follows.intent : (intentOfCharge.get(follows.charge) ?? null),
    availableOn: dateOf(t.available_on),
    createdAt: dateOf(t.created),
  };
}

function setupIntentInfo(si: Stripe.SetupIntent): SetupIntentInfo {
  return {
    id: si.id,
    clientSecret: si.client_secret ?? "",
    status: si.status as IntentStatus,
    customerId: idOf(si.customer),
    paymentMethodId: idOf(si.payment_method),
    lastError: errorOf(si.last_setup_error),
  };
}

/** Stripe's refusal of a key reused with other parameters, as the provider boundary names it. */
function keyReused(e: unknown): never {
  if (e instanceof Stripe.errors.StripeIdempotencyError) throw new IdempotencyKeyReused(e.message);
  throw e;
}

export class StripeProvider implements PaymentProvider {
  readonly name = "stripe" as const;

  private readonly stripe: Stripe;

  constructor(stripe: Stripe) {
    this.stripe = stripe;
  }

  async ensureCustomer(args: { userId: number; email?: string | null; name?: string | null; existingId?: string | null }): Promise<string> {
    if (args.existingId) return args.existingId;
    const customer = await this.stripe.customers.create(
      { email: args.email ?? undefined, name: args.name ?? undefined, metadata: { user_id: String(args.userId) } },
      { idempotencyKey: `customer:${args.userId}` },
    );
    return customer.id;
  }

  async createPaymentIntent(args: PaymentIntentRequest): Promise<PaymentIntentInfo> {
    try {
      const pi = await this.stripe.paymentIntents.create(
        {
          amount: args.amountCents,
          currency: args.currency,
          customer: args.customerId,
          metadata: args.metadata,
          ...routeParams(args.route),
          ...(args.saveForFuture ? { setup_future_usage: "off_session" as const } : {}),
          automatic_payment_methods: { enabled: true, allow_redirects: "never" },
        },
        { idempotencyKey: args.idempotencyKey },
      );
      return paymentIntentInfo(pi);
    } catch (e) {
      return keyReused(e);
    }
  }

  async retrievePaymentIntent(id: string): Promise<PaymentIntentInfo> {
    return paymentIntentInfo(await this.stripe.paymentIntents.retrieve(id));
  }

  async chargeSavedCard(args: SavedCardCharge): Promise<PaymentIntentInfo> {
    try {
      const pi = await this.stripe.paymentIntents.create(
        {
          amount: args.amountCents,
          currency: args.currency,
          customer: args.customerId,
          payment_method: args.paymentMethodId,
          off_session: true,
          confirm: true,
          metadata: args.metadata,
          ...routeParams(args.route),
        },
        { idempotencyKey: args.idempotencyKey },
      );
      return paymentIntentInfo(pi);
    } catch (e) {
      // A decline or an authentication request comes back as a card error carrying the payment intent.
      if (e instanceof Stripe.errors.StripeCardError && e.payment_intent) {
        const info = paymentIntentInfo(e.payment_intent);
        return { ...info, lastError: info.lastError ?? { code: e.decline_code ?? e.code ?? "card_declined", message: e.message } };
      }
      return keyReused(e);
    }
  }

  /**
   * Stripe has no batch charge endpoint: one off-session payment intent per request, at most
   * RENEWAL_CHARGE_CONCURRENCY in flight (well inside Stripe's rate limits; the SDK retries a 429 with backoff),
   * each with its own idempotency key.
   */
  async chargeSavedCards(requests: SavedCardCharge[]): Promise<PromiseSettledResult<PaymentIntentInfo>[]> {
    return settleEach(requests, RENEWAL_CHARGE_CONCURRENCY, (r) => this.chargeSavedCard(r));
  }

  async createSetupIntent(args: { customerId: string; idempotencyKey: string }): Promise<SetupIntentInfo> {
    const si = await this.stripe.setupIntents.create(
      { customer: args.customerId, usage: "off_session", automatic_payment_methods: { enabled: true, allow_redirects: "never" } },
      { idempotencyKey: args.idempotencyKey },
    );
    return setupIntentInfo(si);
  }

  async retrieveSetupIntent(id: string): Promise<SetupIntentInfo> {
    return setupIntentInfo(await this.stripe.setupIntents.retrieve(id));
  }

  async describeCard(paymentMethodId: string): Promise<CardSummary> {
    const pm = await this.stripe.paymentMethods.retrieve(paymentMethodId);
    return {
      id: pm.id,
      customerId: idOf(pm.customer),
      brand: pm.card?.brand ?? pm.type,
      last4: pm.card?.last4 ?? "",
      expMonth: pm.card?.exp_month ?? 0,
      expYear: pm.card?.exp_year ?? 0,
    };
  }

  async refund(args: RefundRequest): Promise<{ id: string; status: string }> {
    const refund = await this.stripe.refunds.create(
      {
        payment_intent: args.paymentIntentId,
        amount: args.amountCents,
        ...(args.reverseTransfer ? { reverse_transfer: true, refund_application_fee: true } : {}),
      },
      { idempotencyKey: args.idempotencyKey },
    );
    return { id: refund.id, status: refund.status ?? "pending" };
  }

  /**
   * An Express-style account by controller properties: the platform collects the fees and bears the losses (it
   * stays merchant of record), and the business has Stripe's Express Dashboard for its payouts, paid weekly
   * (PAYOUT_SCHEDULE).
   */
  async createConnectedAccount(args: { businessId: number; name: string; email?: string | null; idempotencyKey: string }): Promise<ConnectedAccountInfo> {
    const account = await this.stripe.accounts.create(
      {
        controller: { fees: { payer: "application" }, losses: { payments: "application" }, stripe_dashboard: { type: "express" } },
        capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
        business_profile: { name: args.name },
        settings: { payouts: { schedule: PAYOUT_SCHEDULE } },
        ...(args.email ? { email: args.email } : {}),
        metadata: { business_id: String(args.businessId) },
      },
      { idempotencyKey: args.idempotencyKey },
    );
    return connectedAccountInfo(account);
  }

  async createOnboardingLink(args: { accountId: string; refreshUrl: string; returnUrl: string }): Promise<{ url: string; expiresAt: Date }> {
    const link = await this.stripe.accountLinks.create({ account: args.accountId, refresh_url: args.refreshUrl, return_url: args.returnUrl, type: "account_onboarding" });
    return { url: link.url, expiresAt: new Date(link.expires_at * 1000) };
  }

  async createDashboardLink(accountId: string): Promise<{ url: string }> {
    const link = await this.stripe.accounts.createLoginLink(accountId);
    return { url: link.url };
  }

  async retrieveAccount(accountId: string): Promise<ConnectedAccountInfo> {
    return connectedAccountInfo(await this.stripe.accounts.retrieve(accountId));
  }

  async retrieveBalance(accountId: string): Promise<AccountBalance> {
    const balance = await this.stripe.balance.retrieve({}, { stripeAccount: accountId });
    return { availableCents: usdCents(balance.available), pendingCents: usdCents(balance.pending) };
  }

  async listPayouts(accountId: string, opts: PageRequest = {}): Promise<{ payouts: PayoutInfo[]; hasMore: boolean }> {
    const page = await this.stripe.payouts.list(
      { limit: pageLimit(opts.limit), ...(opts.after ? { starting_after: opts.after } : {}) },
      { stripeAccount: accountId },
    );
    return { payouts: page.data.map(payoutInfo), hasMore: page.has_more };
  }

  /**
   * The platform's own balance transactions (no Stripe-Account), their sources expanded so that a charge is
   * named by its payment intent. Stripe counts `created` in whole seconds: [from, to) becomes
   * gte ⌈from⌉, lt ⌈to⌉.
   */
  async listBalanceTransactions(opts: { from: Date; to: Date } & PageRequest): Promise<{ transactions: BalanceTransactionInfo[]; hasMore: boolean }> {
    const page = await this.stripe.balanceTransactions.list({
      created: { gte: Math.ceil(opts.from.getTime() / 1000), lt: Math.ceil(opts.to.getTime() / 1000) },
      limit: pageLimit(opts.limit),
      ...(opts.after ? { starting_after: opts.after } : {}),
      expand: ["data.source"],
    });
    // A fee's or transfer's charge named by its payment intent: from the page's own charges, else asked for (a
    // charge on the previous page).
    const intentOfCharge = new Map<string, string>();
    for (const t of page.data) {
      if (t.source && typeof t.source !== "string" && t.source.object === "charge" && idOf(t.source.payment_intent)) intentOfCharge.set(t.source.id, idOf(t.source.payment_intent)!);
    }
    for (const t of page.data) {
      const follows = followed(t.source);
      if (follows && "charge" in follows && !intentOfCharge.has(follows.charge)) {
        const charge = await this.stripe.charges.retrieve(follows.charge);
        if (idOf(charge.payment_intent)) intentOfCharge.set(charge.id, idOf(charge.payment_intent)!);
      }
    }
    return { transactions: page.data.map((t) => balanceTransactionInfo(t, intentOfCharge)), hasMore: page.has_more };
  }
}
