import type { PrismaClient } from "../../../db.ts";
import type { Clock } from "../../../shared/clock.ts";
import type {
  AccountBalance,
  BalanceTransactionInfo,
  CardSummary,
  ConnectedAccountInfo,
  PaymentIntentInfo,
  PaymentIntentRequest,
  PageRequest,
  PaymentProvider,
  PayoutInfo,
  RefundRequest,
  SavedCardCharge,
  SetupIntentInfo,
} from "../provider.ts";
import { accountInfo, completeOnboarding, describeLink, loadAccount, newAccount, newOnboardingLink } from "./accounts.ts";
import { createPayout, listBalanceTransactions, listPayouts, retrieveBalance, settlePayouts } from "./balances.ts";
import { readTestCard, SandboxCardError, type ReadCard, type SandboxCardInput, type StoredCard } from "./cards.ts";
import {
  completeChallenge,
  confirmPayment,
  confirmSetup,
  intentInfo,
  newPaymentIntent,
  newSetupIntent,
  savedCardIntent,
  setupInfo,
  type StoredIntent,
} from "./intents.ts";
import { rid, SandboxStore, type KeyedObject } from "./store.ts";

/**
 * The sandbox payment provider: Stripe-shaped payment intents, setup intents, customers and cards, kept in our
 * own database (sandbox_objects), so checkout works offline and in tests. This file is the PaymentProvider
 * face: the server-side calls, each keyed like Stripe's (store.ts), and the browser's steps handed on to
 * the intents (intents.ts). The test cards and their outcomes are in cards.ts.
 */
export class SandboxProvider implements PaymentProvider {
  readonly name = "sandbox" as const;

  private readonly store: SandboxStore;
  private readonly db: PrismaClient;
  private readonly clock: Clock;

  constructor(db: PrismaClient, clock: Clock) {
    this.store = new SandboxStore(db, clock);
    this.db = db;
    this.clock = clock;
  }

  // ---- PaymentProvider -----------------------------------------------------------------------------------

  async ensureCustomer(args: { userId: number; email?: string | null; name?: string | null; existingId?: string | null }): Promise<string> {
    if (args.existingId && (await this.store.load(args.existingId, "customer"))) return args.existingId;
    const id = rid("cus");
    await this.store.save(id, "customer", { userId: args.userId, email: args.email ?? null, name: args.name ?? null });
    return id;
  }

  async createPaymentIntent(args: PaymentIntentRequest): Promise<PaymentIntentInfo> {
    const { idempotencyKey, ...params } = args;
    return this.store.idempotent(
      `pi:${idempotencyKey}`,
      params,
      async (db) => {
        const id = rid("pi");
        const intent = newPaymentIntent(id, args);
        await this.store.save(id, "payment_intent", intent, db);
        return { id, value: intentInfo(id, intent) };
      },
      (id) => this.retrievePaymentIntent(id),
    );
  }

  async retrievePaymentIntent(id: string): Promise<PaymentIntentInfo> {
    const i = await this.store.load<StoredIntent>(id, "payment_intent");
    if (!i) throw new SandboxCardError("resource_missing", `No such payment intent: ${id}`);
    return intentInfo(id, i);
  }

  async chargeSavedCard(args: SavedCardCharge): Promise<PaymentIntentInfo> {
    const { idempotencyKey, ...params } = args;
    return this.store.idempotent(
      `charge:${idempotencyKey}`,
      params,
      async (db) => {
        const card = await this.store.load<StoredCard>(args.paymentMethodId, "payment_method", db);
        const id = rid("pi");
        const intent = savedCardIntent(id, args, card, this.clock.now());
        await this.store.save(id, "payment_intent", intent, db);
        return { id, value: intentInfo(id, intent) };
      },
      (id) => this.retrievePaymentIntent(id),
    );
  }

  /**
   * The billing clock's batch: the same outcomes as chargeSavedCard, written with a few multi-row statements. The
   * idempotency records are inserted with their intents in one transaction (a concurrent request with one of these
   * keys waits for it, then answers with our intent); a key recorded earlier (a repeated run) answers with its
   * first intent, through chargeSavedCard.
   */
  async chargeSavedCards(requests: SavedCardCharge[]): Promise<PromiseSettledResult<PaymentIntentInfo>[]> {
    if (requests.length === 0) return [];
    const cards = await this.store.loadMany<StoredCard>([...new Set(requests.map((r) => r.paymentMethodId))], "payment_method");
    const now = this.clock.now();
    // One planned intent per distinct key: a key repeated within the batch answers with the same intent.
    const planned = new Map<string, KeyedObject & { data: StoredIntent }>();
    for (const r of requests) {
      if (planned.has(r.idempotencyKey)) continue;
      const id = rid("pi");
      const { idempotencyKey, ...params } = r;
      planned.set(idempotencyKey, { key: `charge:${idempotencyKey}`, params, id, data: savedCardIntent(id, r, cards.get(r.paymentMethodId) ?? null, now) });
    }
    const fresh = await this.store.createOnce("payment_intent", [...planned.values()]);
    return Promise.allSettled(
      requests.map((r) => {
        const p = planned.get(r.idempotencyKey)!;
        return fresh.has(p.key) ? Promise.resolve(intentInfo(p.id, p.data)) : this.chargeSavedCard(r);
      }),
    );
  }

  async createSetupIntent(args: { customerId: string; idempotencyKey: string }): Promise<SetupIntentInfo> {
    return this.store.idempotent(
      `seti:${args.idempotencyKey}`,
      { customerId: args.customerId },
      async (db) => {
        const id = rid("seti");
        const intent = newSetupIntent(id, args.customerId);
        await this.store.save(id, "setup_intent", intent, db);
        return { id, value: setupInfo(id, intent) };
      },
      (id) => this.retrieveSetupIntent(id),
    );
  }

  async retrieveSetupIntent(id: string): Promise<SetupIntentInfo> {
    const i = await this.store.load<StoredIntent>(id, "setup_intent");
    if (!i) throw new SandboxCardError("resource_missing", `No such setup intent: ${id}`);
    return setupInfo(id, i);
  }

  async describeCard(paymentMethodId: string): Promise<CardSummary> {
    const card = await this.store.load<StoredCard>(paymentMethodId, "payment_method");
    if (!card) throw new SandboxCardError("resource_missing", `No such payment method: ${paymentMethodId}`);
    return { id: paymentMethodId, customerId: card.customerId, brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear };
  }

  async refund(args: RefundRequest): Promise<{ id: string; status: string }> {
    const { idempotencyKey, ...params } = args;
    return this.store.idempotent(
      `refund:${idempotencyKey}`,
      params,
      async (db) => {
        const intent = await this.store.load<StoredIntent>(args.paymentIntentId, "payment_intent", db);
        if (!intent || intent.status !== "succeeded") throw new SandboxCardError("charge_not_refundable", "Only a succeeded payment can be refunded.");
        const refunded = (intent.refundedCents ?? 0) + args.amountCents;
        if (args.amountCents <= 0 || refunded > intent.amountCents) throw new SandboxCardError("amount_too_large", "Refund exceeds the amount paid.");
        await this.store.save(args.paymentIntentId, "payment_intent", { ...intent, refundedCents: refunded }, db);
        const id = rid("re");
        const refund = { paymentIntentId: args.paymentIntentId, amountCents: args.amountCents, reverseTransfer: args.reverseTransfer ?? false, createdAt: this.clock.now().toISOString() };
        await this.store.save(id, "refund", refund, db);
        return { id, value: { id, status: "succeeded" } };
      },
      async (id) => ({ id, status: "succeeded" }),
    );
  }

  async createConnectedAccount(args: { businessId: number; name: string; email?: string | null; idempotencyKey: string }): Promise<ConnectedAccountInfo> {
    const { idempotencyKey, ...params } = args;
    return this.store.idempotent(
      `account:${idempotencyKey}`,
      params,
      async (db) => {
        const id = rid("acct");
        const account = newAccount(args);
        await this.store.save(id, "account", account, db);
        return { id, value: accountInfo(id, account) };
      },
      (id) => this.retrieveAccount(id),
    );
  }

  createOnboardingLink(args: { accountId: string; refreshUrl: string; returnUrl: string }): Promise<{ url: string; expiresAt: Date }> {
    return newOnboardingLink(this.store, this.clock.now(), args);
  }

  /** The sandbox has no dashboard of its own: the app's Payouts page stands in for it (a path on the app's host). */
  async createDashboardLink(accountId: string): Promise<{ url: string }> {
    await loadAccount(this.store, accountId);
    return { url: `/sandbox/connect/accounts/${encodeURIComponent(accountId)}` };
  }

  async retrieveAccount(accountId: string): Promise<ConnectedAccountInfo> {
    return accountInfo(accountId, await loadAccount(this.store, accountId));
  }

  /** Derived from the account's charges, refunds and payouts on the domain clock, or as it was `at` (balances.ts). */
  retrieveBalance(accountId: string, opts: { at?: Date } = {}): Promise<AccountBalance> {
    return retrieveBalance(this.store, this.db, accountId, opts.at ?? this.clock.now());
  }

  listPayouts(accountId: string, opts: PageRequest = {}): Promise<{ payouts: PayoutInfo[]; hasMore: boolean }> {
    return listPayouts(this.store, this.db, accountId, opts);
  }

  /** Derived in one statement from the intents, refunds and payouts (balances.ts), with a simulated Stripe fee. */
  listBalanceTransactions(opts: { from: Date; to: Date } & PageRequest): Promise<{ transactions: BalanceTransactionInfo[]; hasMore: boolean }> {
    return listBalanceTransactions(this.db, opts);
  }

  /** What the onboarding page shows (see accounts.ts). */
  describeOnboardingLink(linkId: string): Promise<{ accountId: string; businessName: string; usable: boolean }> {
    return describeLink(this.store, this.clock.now(), linkId);
  }

  /**
   * The owner's visit to the onboarding page (what Stripe's hosted onboarding does), with the bank account number
   * its payouts go to (`bankAccount`, a Stripe test number): see accounts.ts.
   */
  completeOnboarding(linkId: string, opts: { leaveRequirementsDue?: boolean; bankAccount?: string } = {}): Promise<{ account: ConnectedAccountInfo; returnUrl: string }> {
    return completeOnboarding(this.store, this.clock.now(), linkId, opts);
  }

  // ---- payouts (what Stripe's payout schedule and the banks do) -------------------------------------------

  /**
   * A payout from the account's available balance (at `at`, by default now on the domain clock) to its bank
   * account, in transit for two days; refused above what is available (`balance_insufficient`). See balances.ts.
   */
  createSandboxPayout(accountId: string, amountCents: number, opts: { at?: Date } = {}): Promise<PayoutInfo> {
    return createPayout(this.store, this.db, accountId, amountCents, opts.at ?? this.clock.now());
  }

  /**
   * The banks' answer to every payout whose arrival has come by `now`: paid, or failed (Stripe's failing test bank
   * numbers, e.g. 000111111116: `no_account`) with the amount back in the balance. Answers what it settled.
   */
  settlePayouts(now: Date = this.clock.now()): Promise<{ accountId: string; payout: PayoutInfo }[]> {
    return settlePayouts(this.db, now);
  }

  // ---- the client-side steps (what Stripe.js does in the browser) ----------------------------------------

  /** Validates card details like Stripe Elements would, and maps the number to its test behaviour. */
  readCard(input: SandboxCardInput): ReadCard {
    return readTestCard(input, this.clock.now());
  }

  /** stripe.confirmCardPayment: charge the card now; 3-D Secure cards answer requires_action. */
  confirmPaymentIntent(clientSecret: string, card: SandboxCardInput): Promise<PaymentIntentInfo> {
    return confirmPayment(this.store, this.clock, clientSecret, card);
  }

  /** The simulated 3-D Secure challenge: the customer completes or fails it. */
  completeChallenge(clientSecret: string, outcome: "complete" | "fail"): Promise<PaymentIntentInfo> {
    return completeChallenge(this.store, this.clock, clientSecret, outcome);
  }

  /** stripe.confirmCardSetup: save a card for the customer without charging it. */
  confirmSetupIntent(clientSecret: string, card: SandboxCardInput): Promise<SetupIntentInfo> {
    return confirmSetup(this.store, this.clock, clientSecret, card);
  }
}
