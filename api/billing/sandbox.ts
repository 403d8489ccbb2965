import { createHash, randomBytes } from "node:crypto";
import type { PrismaClient } from "../db.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { crashPoint } from "../shared/crash-points.ts";
import type { Clock } from "../shared/clock.ts";
import type {
  CardSummary,
  IntentStatus,
  PaymentIntentInfo,
  PaymentProvider,
  ProviderError,
  SavedCardCharge,
  SetupIntentInfo,
} from "./provider.ts";

/**
 * The sandbox payment provider: Stripe-shaped payment intents, setup intents, customers and cards, kept in our
 * own database (sandbox_objects), so checkout works offline and in tests. It accepts only Stripe's documented
 * test card numbers, with their documented outcomes; any other number is refused, so real card data has no
 * reason to reach this server.
 */

/** How a test card behaves (https://docs.stripe.com/testing). */
type CardBehavior =
  | "succeed"
  | "decline"
  | "insufficient_funds"
  | "expired_card"
  | "incorrect_cvc"
  /** Needs 3-D Secure on-session; later off-session charges of the saved card succeed. */
  | "authenticate_on_session"
  /** Needs 3-D Secure every time, off-session charges included. */
  | "authenticate_always"
  /** Can be saved, but every charge of the saved card is declined (renewal failures, dunning). */
  | "decline_after_attach";

interface TestCard {
  brand: string;
  behavior: CardBehavior;
}

export const TEST_CARDS: Record<string, TestCard> = {
  "4242424242424242": { brand: "visa", behavior: "succeed" },
  "4000056655665556": { brand: "visa", behavior: "succeed" },
  "5555555555554444": { brand: "mastercard", behavior: "succeed" },
  "2223003122003222": { brand: "mastercard", behavior: "succeed" },
  "378282246310005": { brand: "amex", behavior: "succeed" },
  "6011111111111117": { brand: "discover", behavior: "succeed" },
  "4000000000000002": { brand: "visa", behavior: "decline" },
  "4000000000009995": { brand: "visa", behavior: "insufficient_funds" },
  "4000000000000069": { brand: "visa", behavior: "expired_card" },
  "4000000000000127": { brand: "visa", behavior: "incorrect_cvc" },
  "4000002500003155": { brand: "visa", behavior: "authenticate_on_session" },
  "4000002760003184": { brand: "visa", behavior: "authenticate_always" },
  "4000000000000341": { brand: "visa", behavior: "decline_after_attach" },
};

const DECLINES: Record<string, ProviderError> = {
  decline: { code: "card_declined", message: "Your card was declined." },
  insufficient_funds: { code: "insufficient_funds", message: "Your card has insufficient funds." },
  expired_card: { code: "expired_card", message: "Your card has expired." },
  incorrect_cvc: { code: "incorrect_cvc", message: "Your card's security code is incorrect." },
  authentication_required: { code: "authentication_required", message: "Your card requires authentication." },
};

/** Card details as the sandbox card form sends them (the Stripe path never sends card data to us). */
export interface SandboxCardInput {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

export class SandboxCardError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

interface StoredIntent {
  kind: "payment_intent" | "setup_intent";
  clientSecret: string;
  status: IntentStatus;
  amountCents: number;
  currency: string;
  customerId: string | null;
  paymentMethodId: string | null;
  lastError: ProviderError | null;
  metadata: Record<string, string>;
  saveForFuture: boolean;
  /** Card waiting for a 3-D Secure challenge. */
  pendingCard?: { brand: string; last4: string; expMonth: number; expYear: number; behavior: CardBehavior };
  refundedCents?: number;
}

interface StoredCard {
  customerId: string | null;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  behavior: CardBehavior;
}

/**
 * How long an idempotency claim holds its key: far longer than the work it guards (a few statements, under a
 * second even on a loaded machine, and waiters give up after 10 s), so only a request that died loses it.
 */
export const IDEMPOTENCY_LEASE_MS = 60_000;

/** The database, or the transaction a keyed piece of work runs in. */
type Store = Pick<Prisma.TransactionClient, "sandboxObject">;

/** Our claim expired and another request recorded the key's object first. */
class LostClaim extends Error {}

const rid = (prefix: string) => `${prefix}_sbx_${randomBytes(12).toString("base64url")}`;

/** The sandbox_objects row that records which object an idempotency key created. */
const idempotencyRecordId = (key: string) => `idem_${createHash("sha256").update(key).digest("hex").slice(0, 40)}`;

/** An off-session charge of a saved card, as Stripe answers it for that test card. */
function savedCardIntent(id: string, args: SavedCardCharge, card: StoredCard | null): StoredIntent {
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
    clientSecret: `${id}_secret_${randomBytes(12).toString("base64url")}`,
    status,
    amountCents: args.amountCents,
    currency: args.currency,
    customerId: args.customerId,
    paymentMethodId: card ? args.paymentMethodId : null,
    lastError,
    metadata: args.metadata,
    saveForFuture: false,
    ...(status === "requires_action" && card ? { pendingCard: { ...card } } : {}),
  };
}

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export class SandboxProvider implements PaymentProvider {
  readonly name = "sandbox" as const;

  private readonly db: PrismaClient;
  private readonly clock: Clock;

  constructor(db: PrismaClient, clock: Clock) {
    this.db = db;
    this.clock = clock;
  }

  // ---- storage -------------------------------------------------------------------------------------------

  private async load<T>(id: string, kind: string, db: Store = this.db): Promise<T | null> {
    const row = await db.sandboxObject.findUnique({ where: { id } });
    return row && row.kind === kind ? (row.data as T) : null;
  }

  private async save(id: string, kind: string, data: object, db: Store = this.db): Promise<void> {
    await db.sandboxObject.upsert({ where: { id }, create: { id, kind, data }, update: { data } });
  }

  /**
   * Same idempotency key → same object, as Stripe's Idempotency-Key header guarantees. The key is claimed with a
   * lease before the work is done, so concurrent requests with one key (two server processes) run it once: the
   * others wait for the first one's result. A claim whose request died (a crash, a kill) expires after
   * IDEMPOTENCY_LEASE_MS and the next request with the key takes it over. The work and the record of its result
   * commit in one transaction, and only while the claim is still the worker's own, so the key's work is done once
   * even when a slow request outlives its lease.
   */
  private async idempotent<T>(key: string, create: (db: Store) => Promise<{ id: string; value: T }>, reload: (id: string) => Promise<T>): Promise<T> {
    const idemId = idempotencyRecordId(key);
    const claim = await this.claim(idemId);
    if ("objectId" in claim) return reload(claim.objectId);
    crashPoint("sandbox:claimed");
    try {
      return await this.db.$transaction(async (tx) => {
        const { id, value } = await create(tx);
        const recorded = await tx.$executeRaw`
          UPDATE sandbox_objects SET data = jsonb_build_object('objectId', ${id}::text), updated_at = ${this.clock.now()}::timestamp
           WHERE id = ${idemId} AND kind = 'idempotency' AND data->>'objectId' IS NULL AND data->>'leaseUntil' = ${claim.leaseUntil}`;
        if (recorded !== 1) throw new LostClaim();
        return value;
      });
    } catch (e) {
      // Our lease ran out and another request did the work: answer with its object.
      if (e instanceof LostClaim) return this.idempotent(key, create, reload);
      // Failed work does not hold the key: a retry runs it again, as with Stripe.
      await this.db.$executeRaw`
        DELETE FROM sandbox_objects
         WHERE id = ${idemId} AND kind = 'idempotency' AND data->>'objectId' IS NULL AND data->>'leaseUntil' = ${claim.leaseUntil}`.catch(() => {});
      throw e;
    }
  }

  /**
   * Takes the key's claim (a new one, or an expired one), or waits up to 10 s for the request holding it: returns
   * the lease taken, or the object that request made.
   */
  private async claim(idemId: string): Promise<{ leaseUntil: string } | { objectId: string }> {
    const lease = () => new Date(this.clock.now().getTime() + IDEMPOTENCY_LEASE_MS).toISOString();
    for (let waited = 0; ; waited += 50) {
      const leaseUntil = lease();
      const inserted = await this.db.$executeRaw`
        INSERT INTO sandbox_objects (id, kind, data, updated_at)
        VALUES (${idemId}, 'idempotency', jsonb_build_object('objectId', NULL, 'leaseUntil', ${leaseUntil}::text), ${this.clock.now()}::timestamp)
        ON CONFLICT (id) DO NOTHING`;
      if (inserted === 1) return { leaseUntil };
      const held = await this.load<{ objectId: string | null; leaseUntil?: string }>(idemId, "idempotency");
      if (held?.objectId) return { objectId: held.objectId };
      if (held && (!held.leaseUntil || new Date(held.leaseUntil) <= this.clock.now())) {
        // The request holding it died: take it over (of several retries, one wins).
        const taken = await this.db.$executeRaw`
          UPDATE sandbox_objects SET data = jsonb_build_object('objectId', NULL, 'leaseUntil', ${leaseUntil}::text), updated_at = ${this.clock.now()}::timestamp
           WHERE id = ${idemId} AND kind = 'idempotency' AND data->>'objectId' IS NULL
             AND data->>'leaseUntil' IS NOT DISTINCT FROM ${held.leaseUntil ?? null}::text`;
        if (taken === 1) return { leaseUntil };
        continue;
      }
      if (!held) continue; // released by a failed request: claim it anew
      if (waited >= 10_000) {
        throw new SandboxCardError("idempotency_key_in_use", "Another request with this idempotency key is still in progress.");
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  private intentInfo(id: string, i: StoredIntent): PaymentIntentInfo {
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
    };
  }

  private setupInfo(id: string, i: StoredIntent): SetupIntentInfo {
    return { id, clientSecret: i.clientSecret, status: i.status, customerId: i.customerId, paymentMethodId: i.paymentMethodId, lastError: i.lastError };
  }

  // ---- PaymentProvider -----------------------------------------------------------------------------------

  async ensureCustomer(args: { userId: number; email?: string | null; name?: string | null; existingId?: string | null }): Promise<string> {
    if (args.existingId && (await this.load(args.existingId, "customer"))) return args.existingId;
    const id = rid("cus");
    await this.save(id, "customer", { userId: args.userId, email: args.email ?? null, name: args.name ?? null });
    return id;
  }

  async createPaymentIntent(args: {
    customerId: string;
    amountCents: number;
    currency: string;
    idempotencyKey: string;
    metadata: Record<string, string>;
    saveForFuture: boolean;
  }): Promise<PaymentIntentInfo> {
    return this.idempotent(
      `pi:${args.idempotencyKey}`,
      async (db) => {
        const id = rid("pi");
        const intent: StoredIntent = {
          kind: "payment_intent",
          clientSecret: `${id}_secret_${randomBytes(12).toString("base64url")}`,
          status: "requires_payment_method",
          amountCents: args.amountCents,
          currency: args.currency,
          customerId: args.customerId,
          paymentMethodId: null,
          lastError: null,
          metadata: args.metadata,
          saveForFuture: args.saveForFuture,
        };
        await this.save(id, "payment_intent", intent, db);
        return { id, value: this.intentInfo(id, intent) };
      },
      (id) => this.retrievePaymentIntent(id),
    );
  }

  async retrievePaymentIntent(id: string): Promise<PaymentIntentInfo> {
    const i = await this.load<StoredIntent>(id, "payment_intent");
    if (!i) throw new SandboxCardError("resource_missing", `No such payment intent: ${id}`);
    return this.intentInfo(id, i);
  }

  async chargeSavedCard(args: SavedCardCharge): Promise<PaymentIntentInfo> {
    return this.idempotent(
      `charge:${args.idempotencyKey}`,
      async (db) => {
        const card = await this.load<StoredCard>(args.paymentMethodId, "payment_method", db);
        const id = rid("pi");
        const intent = savedCardIntent(id, args, card);
        await this.save(id, "payment_intent", intent, db);
        return { id, value: this.intentInfo(id, intent) };
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
    const cardIds = [...new Set(requests.map((r) => r.paymentMethodId))];
    const cards = new Map(
      (await this.db.$queryRaw<{ id: string; data: StoredCard }[]>`
        SELECT id, data FROM sandbox_objects WHERE id = ANY(${cardIds}::text[]) AND kind = 'payment_method'`).map((row) => [row.id, row.data]),
    );
    // One planned intent per distinct key: a key repeated within the batch answers with the same intent.
    const planned = new Map<string, { idemId: string; id: string; intent: StoredIntent }>();
    for (const r of requests) {
      if (planned.has(r.idempotencyKey)) continue;
      const id = rid("pi");
      planned.set(r.idempotencyKey, { idemId: idempotencyRecordId(`charge:${r.idempotencyKey}`), id, intent: savedCardIntent(id, r, cards.get(r.paymentMethodId) ?? null) });
    }
    const at = this.clock.now();
    const fresh = await this.db.$transaction(async (tx) => {
      const all = [...planned.values()];
      const claimed = await tx.$queryRaw<{ id: string }[]>`
        INSERT INTO sandbox_objects (id, kind, data, updated_at)
        SELECT v.id, 'idempotency', jsonb_build_object('objectId', v.object_id), ${at}::timestamp
          FROM unnest(${all.map((p) => p.idemId)}::text[], ${all.map((p) => p.id)}::text[]) AS v(id, object_id)
        ON CONFLICT (id) DO NOTHING
        RETURNING id`;
      const won = new Set(claimed.map((c) => c.id));
      const created = all.filter((p) => won.has(p.idemId));
      if (created.length) {
        await tx.$executeRaw`
          INSERT INTO sandbox_objects (id, kind, data, updated_at)
          SELECT v.id, 'payment_intent', v.data::jsonb, ${at}::timestamp
            FROM unnest(${created.map((p) => p.id)}::text[], ${created.map((p) => JSON.stringify(p.intent))}::text[]) AS v(id, data)`;
      }
      return won;
    });
    return Promise.allSettled(
      requests.map((r) => {
        const p = planned.get(r.idempotencyKey)!;
        return fresh.has(p.idemId) ? Promise.resolve(this.intentInfo(p.id, p.intent)) : this.chargeSavedCard(r);
      }),
    );
  }

  async createSetupIntent(args: { customerId: string; idempotencyKey: string }): Promise<SetupIntentInfo> {
    return this.idempotent(
      `seti:${args.idempotencyKey}`,
      async (db) => {
        const id = rid("seti");
        const intent: StoredIntent = {
          kind: "setup_intent",
          clientSecret: `${id}_secret_${randomBytes(12).toString("base64url")}`,
          status: "requires_payment_method",
          amountCents: 0,
          currency: "usd",
          customerId: args.customerId,
          paymentMethodId: null,
          lastError: null,
          metadata: {},
          saveForFuture: true,
        };
        await this.save(id, "setup_intent", intent, db);
        return { id, value: this.setupInfo(id, intent) };
      },
      (id) => this.retrieveSetupIntent(id),
    );
  }

  async retrieveSetupIntent(id: string): Promise<SetupIntentInfo> {
    const i = await this.load<StoredIntent>(id, "setup_intent");
    if (!i) throw new SandboxCardError("resource_missing", `No such setup intent: ${id}`);
    return this.setupInfo(id, i);
  }

  async describeCard(paymentMethodId: string): Promise<CardSummary> {
    const card = await this.load<StoredCard>(paymentMethodId, "payment_method");
    if (!card) throw new SandboxCardError("resource_missing", `No such payment method: ${paymentMethodId}`);
    return { id: paymentMethodId, customerId: card.customerId, brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear };
  }

  async refund(args: { paymentIntentId: string; amountCents: number; idempotencyKey: string }): Promise<{ id: string; status: string }> {
    return this.idempotent(
      `refund:${args.idempotencyKey}`,
      async (db) => {
        const intent = await this.load<StoredIntent>(args.paymentIntentId, "payment_intent", db);
        if (!intent || intent.status !== "succeeded") throw new SandboxCardError("charge_not_refundable", "Only a succeeded payment can be refunded.");
        const refunded = (intent.refundedCents ?? 0) + args.amountCents;
        if (args.amountCents <= 0 || refunded > intent.amountCents) throw new SandboxCardError("amount_too_large", "Refund exceeds the amount paid.");
        await this.save(args.paymentIntentId, "payment_intent", { ...intent, refundedCents: refunded }, db);
        const id = rid("re");
        await this.save(id, "refund", { paymentIntentId: args.paymentIntentId, amountCents: args.amountCents }, db);
        return { id, value: { id, status: "succeeded" } };
      },
      async (id) => ({ id, status: "succeeded" }),
    );
  }

  // ---- the client-side steps (what Stripe.js does in the browser) ----------------------------------------

  /** Validates card details like Stripe Elements would, and maps the number to its test behaviour. */
  readCard(input: SandboxCardInput): { brand: string; last4: string; expMonth: number; expYear: number; behavior: CardBehavior } {
    const number = input.number.replace(/[\s-]/g, "");
    if (!/^\d{12,19}$/.test(number) || !luhnValid(number)) throw new SandboxCardError("invalid_number", "Your card number is invalid.");
    const card = TEST_CARDS[number];
    if (!card) {
      throw new SandboxCardError(
        "sandbox_live_card",
        "The sandbox accepts only test card numbers, such as 4242 4242 4242 4242. Never enter a real card here.",
      );
    }
    const expYear = input.expYear < 100 ? 2000 + input.expYear : input.expYear;
    if (!Number.isInteger(input.expMonth) || input.expMonth < 1 || input.expMonth > 12) {
      throw new SandboxCardError("invalid_expiry_month", "Your card's expiration month is invalid.");
    }
    const now = this.clock.now();
    const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
    if (expYear * 12 + (input.expMonth - 1) < current) throw new SandboxCardError("invalid_expiry_year", "Your card's expiration year is in the past.");
    if (!/^\d{3,4}$/.test(input.cvc) || (card.brand === "amex" ? input.cvc.length !== 4 : input.cvc.length !== 3)) {
      throw new SandboxCardError("invalid_cvc", "Your card's security code is invalid.");
    }
    return { brand: card.brand, last4: number.slice(-4), expMonth: input.expMonth, expYear, behavior: card.behavior };
  }

  private async attachCard(customerId: string | null, card: Omit<StoredCard, "customerId">): Promise<string> {
    const id = rid("pm");
    await this.save(id, "payment_method", { ...card, customerId } satisfies StoredCard);
    return id;
  }

  private intentIdFromSecret(clientSecret: string): string {
    const m = /^((?:pi|seti)_sbx_[A-Za-z0-9_-]+?)_secret_/.exec(clientSecret);
    if (!m) throw new SandboxCardError("invalid_client_secret", "Invalid client secret.");
    return m[1];
  }

  /** stripe.confirmCardPayment: charge the card now; 3-D Secure cards answer requires_action. */
  async confirmPaymentIntent(clientSecret: string, cardInput: SandboxCardInput): Promise<PaymentIntentInfo> {
    const id = this.intentIdFromSecret(clientSecret);
    const intent = await this.load<StoredIntent>(id, "payment_intent");
    if (!intent || intent.clientSecret !== clientSecret) throw new SandboxCardError("invalid_client_secret", "Invalid client secret.");
    if (intent.status === "succeeded") return this.intentInfo(id, intent);
    const card = this.readCard(cardInput);
    let next: StoredIntent;
    if (card.behavior === "authenticate_on_session" || card.behavior === "authenticate_always") {
      next = { ...intent, status: "requires_action", lastError: null, pendingCard: card };
    } else if (card.behavior === "succeed" || card.behavior === "decline_after_attach") {
      const pm = await this.attachCard(intent.saveForFuture ? intent.customerId : null, card);
      next = { ...intent, status: "succeeded", lastError: null, paymentMethodId: pm };
    } else {
      next = { ...intent, status: "requires_payment_method", lastError: DECLINES[card.behavior] ?? DECLINES.decline };
    }
    await this.save(id, "payment_intent", next);
    return this.intentInfo(id, next);
  }

  /** The simulated 3-D Secure challenge: the customer completes or fails it. */
  async completeChallenge(clientSecret: string, outcome: "complete" | "fail"): Promise<PaymentIntentInfo> {
    const intentId = this.intentIdFromSecret(clientSecret);
    const intent = await this.load<StoredIntent>(intentId, "payment_intent");
    if (!intent || intent.clientSecret !== clientSecret) throw new SandboxCardError("invalid_client_secret", "Invalid client secret.");
    if (intent.status !== "requires_action" || !intent.pendingCard) return this.intentInfo(intentId, intent);
    let next: StoredIntent;
    if (outcome === "complete") {
      const pm = intent.paymentMethodId ?? (await this.attachCard(intent.saveForFuture ? intent.customerId : null, intent.pendingCard));
      next = { ...intent, status: "succeeded", lastError: null, paymentMethodId: pm, pendingCard: undefined };
    } else {
      next = {
        ...intent,
        status: "requires_payment_method",
        pendingCard: undefined,
        lastError: { code: "payment_intent_authentication_failure", message: "We are unable to authenticate your payment method." },
      };
    }
    await this.save(intentId, "payment_intent", next);
    return this.intentInfo(intentId, next);
  }

  /** stripe.confirmCardSetup: save a card for the customer without charging it. */
  async confirmSetupIntent(clientSecret: string, cardInput: SandboxCardInput): Promise<SetupIntentInfo> {
    const id = this.intentIdFromSecret(clientSecret);
    const intent = await this.load<StoredIntent>(id, "setup_intent");
    if (!intent || intent.clientSecret !== clientSecret) throw new SandboxCardError("invalid_client_secret", "Invalid client secret.");
    if (intent.status === "succeeded") return this.setupInfo(id, intent);
    const card = this.readCard(cardInput);
    let next: StoredIntent;
    if (card.behavior === "decline" || card.behavior === "insufficient_funds" || card.behavior === "expired_card" || card.behavior === "incorrect_cvc") {
      next = { ...intent, status: "requires_payment_method", lastError: DECLINES[card.behavior] };
    } else {
      const pm = await this.attachCard(intent.customerId, card);
      next = { ...intent, status: "succeeded", lastError: null, paymentMethodId: pm };
    }
    await this.save(id, "setup_intent", next);
    return this.setupInfo(id, next);
  }
}
