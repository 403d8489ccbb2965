import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for the parts of Stripe's API the server calls (customers, payment intents with their
 * destination, setup intents, payment methods, refunds, connected accounts with their onboarding and login
 * links, balances, payouts and balance transactions), so the real `stripe` SDK can be tested offline. It honours
 * Idempotency-Key like Stripe: the same key returns the first response, and a key reused with other parameters is
 * refused (`idempotency_error`). Test cards are referenced by Stripe's test payment method ids (pm_card_visa,
 * pm_card_chargeDeclined, pm_card_authenticationRequired).
 *
 * Money moves as Stripe moves it for a destination charge with an application fee, by the double's own clock
 * (real time, whole seconds). On the platform's account (no Stripe-Account header): `charge` (+amount, fee 2.9 % +
 * 30¢ half up), `transfer` (−amount, to the destination) and `application_fee` (+the fee); a refund is `refund`
 * (−amount), and with reverse_transfer / refund_application_fee also `transfer_reversal` (+amount) and
 * `application_fee_refund` (−the fee in proportion, half up on the running refunded total). On the destination's
 * account (Stripe-Account: acct_…): `payment` (+amount − application fee), `payment_refund` (−what a reversing
 * refund takes back), `payout` (−amount) and `payout_failure` (+amount). Everything is available at once, unless a
 * test holds new charges' funds for some days first (`holdFunds`). A payout is refused above what is available.
 */

type Obj = Record<string, any>;

const CARDS: Record<string, { brand: string; last4: string; outcome: "succeed" | "decline" | "authenticate" }> = {
  pm_card_visa: { brand: "visa", last4: "4242", outcome: "succeed" },
  pm_card_mastercard: { brand: "mastercard", last4: "4444", outcome: "succeed" },
  pm_card_chargeDeclined: { brand: "visa", last4: "0002", outcome: "decline" },
  pm_card_authenticationRequired: { brand: "visa", last4: "3184", outcome: "authenticate" },
};

/** Parses Stripe's form encoding (a[b][c]=v) into nested objects. */
function parseForm(body: string): Obj {
  const out: Obj = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, "").split("[");
    let node = out;
    for (let i = 0; i < path.length - 1; i++) node = node[path[i]] ??= {};
    node[path[path.length - 1]] = value;
  }
  return out;
}

/** Stripe's events about a connected account's payout (what its Connect webhook receives). */
type PayoutEventType = "payout.created" | "payout.paid" | "payout.failed";

export interface StripeDouble {
  url: string;
  /** Every request: its body (a GET's query), its Idempotency-Key and its Stripe-Account header. */
  requests: { method: string; path: string; idempotencyKey?: string; stripeAccount?: string; body: Obj }[];
  objects: Map<string, Obj>;
  /** What Stripe.js does in the browser: confirm an intent with a test card. */
  confirm(intentId: string, paymentMethod: keyof typeof CARDS): Obj;
  /** What stripe.confirmCardSetup does: the setup intent succeeds and the card is saved to its customer. */
  confirmSetup(intentId: string, paymentMethod: keyof typeof CARDS): Obj;
  /** What the owner's hosted onboarding does: the account takes charges and payouts, or still owes `requirementsDue`. */
  onboard(accountId: string, requirementsDue?: string[]): Obj;
  /** Charges that succeed from now on are available `days` days after they are made (0: at once, the default). */
  holdFunds(days: number): void;
  /**
   * What Stripe does to a connected account's payout, as the event it sends (a Connect event, `account` set), ready
   * to be signed: `payout.paid` marks it paid; `payout.failed` marks it failed (`failureCode`, default
   * `no_account`) and gives its amount back to the account's balance; `payout.created` changes nothing.
   */
  payoutEvent(accountId: string, payoutId: string, type: PayoutEventType, failureCode?: string): Obj;
  close(): Promise<void>;
}

export async function startStripeDouble(): Promise<StripeDouble> {
  const objects = new Map<string, Obj>();
  const idempotent = new Map<string, { status: number; body: Obj; params: string }>();
  const requests: StripeDouble["requests"] = [];
  let n = 0;
  const id = (prefix: string) => `${prefix}_dbl_${++n}`;
  const nowSeconds = () => Math.floor(Date.now() / 1000);
  const DAY = 86_400;
  let holdDays = 0;

  // ---- balances: every balance transaction, newest last, each with the account it belongs to ----------------

  /** The platform's own account, where no Stripe-Account header is sent. */
  const PLATFORM = "platform";
  const ledger: { account: string; txn: Obj }[] = [];
  const payouts: { account: string; payout: Obj }[] = [];
  /** A charge's running total of refunds that reversed its transfer (the application fee is refunded in proportion to it). */
  const reversed = new Map<string, number>();
  const halfUp = (numerator: number, denominator: number) => Math.floor((2 * numerator + denominator) / (2 * denominator));

  function book(account: string, type: string, amount: number, source: Obj, opts: { fee?: number; availableInDays?: number } = {}): Obj {
    objects.set(source.id, source);
    const created = nowSeconds();
    const fee = opts.fee ?? 0;
    const txn = {
      id: id("txn"),
      object: "balance_transaction",
      amount,
      currency: "usd",
      fee,
      net: amount - fee,
      type,
      source: source.id,
      created,
      available_on: created + (opts.availableInDays ?? 0) * DAY,
    };
    ledger.push({ account, txn });
    return txn;
  }

  const withStatus = (txn: Obj) => ({ ...txn, status: txn.available_on <= nowSeconds() ? "available" : "pending" });

  function balanceOf(account: string): { available: number; pending: number } {
    let available = 0;
    let pending = 0;
    for (const entry of ledger.filter((e) => e.account === account)) {
      if (entry.txn.available_on <= nowSeconds()) available += entry.txn.net;
      else pending += entry.txn.net;
    }
    return { available, pending };
  }

  /** A payment intent has just succeeded: its charge, and for a destination charge the transfer and the application fee. */
  function charged(intent: Obj) {
    if (intent.latest_charge) return;
    const amount = intent.amount as number;
    const charge: Obj = { id: id("ch"), object: "charge", amount, currency: "usd", payment_intent: intent.id, created: nowSeconds(), transfer: null, application_fee: null };
    intent.latest_charge = charge.id;
    book(PLATFORM, "charge", amount, charge, { fee: halfUp(amount * 29, 1000) + 30, availableInDays: holdDays });
    const destination = intent.transfer_data?.destination as string | undefined;
    if (!destination) return;
    const feeAmount = (intent.application_fee_amount as number | null) ?? 0;
    const transfer = { id: id("tr"), object: "transfer", amount, currency: "usd", destination, source_transaction: charge.id };
    charge.transfer = transfer.id;
    book(PLATFORM, "transfer", -amount, transfer);
    book(destination, "payment", amount - feeAmount, { id: id("py"), object: "charge", amount, source_transfer: transfer.id }, { availableInDays: holdDays });
    if (feeAmount > 0) {
      const fee = { id: id("fee"), object: "application_fee", amount: feeAmount, amount_refunded: 0, account: destination, charge: charge.id };
      charge.application_fee = fee.id;
      book(PLATFORM, "application_fee", feeAmount, fee, { availableInDays: holdDays });
    }
  }

  /** A refund: its balance transaction, and the transfer's reversal and the application fee's refund when asked. */
  function refunded(refund: Obj, intent: Obj) {
    const charge = objects.get(intent.latest_charge as string)!;
    refund.charge = charge.id;
    refund.balance_transaction = book(PLATFORM, "refund", -refund.amount, refund).id;
    const transfer = charge.transfer ? objects.get(charge.transfer as string)! : null;
    if (!transfer || !refund.reverse_transfer) return;
    const before = reversed.get(charge.id) ?? 0;
    const after = before + (refund.amount as number);
    reversed.set(charge.id, after);
    book(PLATFORM, "transfer_reversal", refund.amount, { id: id("trr"), object: "transfer_reversal", amount: refund.amount, transfer: transfer.id, source_refund: refund.id });
    const fee = charge.application_fee ? objects.get(charge.application_fee as string)! : null;
    const feeBack = fee && refund.refund_application_fee ? halfUp(fee.amount * after, charge.amount) - halfUp(fee.amount * before, charge.amount) : 0;
    if (fee && feeBack > 0) {
      fee.amount_refunded += feeBack;
      book(PLATFORM, "application_fee_refund", -feeBack, { id: id("fr"), object: "fee_refund", amount: feeBack, fee: fee.id });
    }
    book(transfer.destination as string, "payment_refund", -(refund.amount - feeBack), { id: id("pyr"), object: "refund", amount: refund.amount - feeBack });
  }

  /** Stripe's list object: newest first, `starting_after` the last id of the previous page, `limit` (default 10). */
  function page(items: Obj[], query: Obj, url: string): Obj {
    const newest = [...items].reverse();
    const start = query.starting_after ? newest.findIndex((i) => i.id === query.starting_after) + 1 : 0;
    const limit = Number(query.limit ?? 10);
    const data = newest.slice(start, start + limit);
    return { object: "list", url, has_more: start + limit < newest.length, data };
  }

  /** Stripe's range filter on `created` (created[gte], created[lt], …). */
  function inRange(created: number, range: Obj | undefined): boolean {
    if (!range) return true;
    const bound = (k: string) => (range[k] === undefined ? null : Number(range[k]));
    const [gte, gt, lte, lt] = [bound("gte"), bound("gt"), bound("lte"), bound("lt")];
    return (gte === null || created >= gte) && (gt === null || created > gt) && (lte === null || created <= lte) && (lt === null || created < lt);
  }

  const paymentMethod = (pmId: string, customer: string | null) => {
    const card = CARDS[pmId];
    const pm = { id: pmId, object: "payment_method", type: "card", customer, card: { brand: card.brand, last4: card.last4, exp_month: 12, exp_year: 2031 } };
    objects.set(pmId, pm);
    return pm;
  };

  function confirmIntent(intent: Obj, pmId: string, offSession: boolean): { status: number; body: Obj } {
    const card = CARDS[pmId];
    intent.payment_method = pmId;
    if (card.outcome === "succeed") {
      intent.status = "succeeded";
      intent.last_payment_error = null;
      if (intent.object === "payment_intent") charged(intent);
      if (intent.setup_future_usage || intent.object === "setup_intent" || offSession) paymentMethod(pmId, intent.customer);
      else paymentMethod(pmId, null);
      return { status: 200, body: intent };
    }
    const error =
      card.outcome === "decline"
        ? { type: "card_error", code: "card_declined", decline_code: "generic_decline", message: "Your card was declined." }
        : { type: "card_error", code: "authentication_required", message: "Your card requires authentication." };
    intent.status = card.outcome === "decline" ? "requires_payment_method" : "requires_action";
    intent.last_payment_error = error;
    return offSession ? { status: 402, body: { error: { ...error, payment_intent: intent } } } : { status: 200, body: intent };
  }

  function route(method: string, path: string, body: Obj, stripeAccount: string | undefined): { status: number; body: Obj } {
    let m: RegExpExecArray | null;
    const account = stripeAccount ?? PLATFORM;
    if (method === "GET" && path === "/v1/balance") {
      const { available, pending } = balanceOf(account);
      const funds = (amount: number) => [{ amount, currency: "usd", source_types: { card: amount } }];
      return { status: 200, body: { object: "balance", livemode: false, available: funds(available), pending: funds(pending) } };
    }
    if (method === "GET" && path === "/v1/payouts") {
      return { status: 200, body: page(payouts.filter((p) => p.account === account).map((p) => p.payout), body, "/v1/payouts") };
    }
    if (method === "POST" && path === "/v1/payouts") {
      const amount = Number(body.amount);
      const { available } = balanceOf(account);
      if (!(amount > 0) || amount > available) {
        return { status: 400, body: { error: { type: "invalid_request_error", code: "balance_insufficient", message: "You have insufficient funds in your Stripe account for this payout." } } };
      }
      const created = nowSeconds();
      const payout: Obj = {
        id: id("po"),
        object: "payout",
        amount,
        currency: body.currency ?? "usd",
        arrival_date: created + 2 * DAY,
        created,
        automatic: false,
        method: "standard",
        type: "bank_account",
        destination: "ba_dbl_bank",
        status: "pending",
        failure_code: null,
        failure_message: null,
        metadata: body.metadata ?? {},
      };
      payout.balance_transaction = book(account, "payout", -amount, payout).id;
      payouts.push({ account, payout });
      return { status: 200, body: payout };
    }
    if (method === "GET" && path === "/v1/balance_transactions") {
      const expand = Object.values((body.expand ?? {}) as Obj).includes("data.source");
      const txns = ledger.filter((e) => e.account === account && inRange(e.txn.created, body.created)).map((e) => withStatus(e.txn));
      const list = page(txns, body, "/v1/balance_transactions");
      if (expand) list.data = list.data.map((t: Obj) => ({ ...t, source: objects.get(t.source) ?? t.source }));
      return { status: 200, body: list };
    }
    const chargePath = /^\/v1\/charges\/([^/]+)$/.exec(path);
    if (method === "GET" && chargePath && objects.get(chargePath[1])?.object === "charge") {
      return { status: 200, body: objects.get(chargePath[1])! };
    }
    if (method === "POST" && path === "/v1/customers") {
      const c = { id: id("cus"), object: "customer", email: body.email ?? null, name: body.name ?? null, metadata: body.metadata ?? {} };
      objects.set(c.id, c);
      return { status: 200, body: c };
    }
    if (method === "POST" && path === "/v1/payment_intents") {
      const pi: Obj = {
        id: id("pi"),
        object: "payment_intent",
        amount: Number(body.amount),
        currency: body.currency,
        customer: body.customer ?? null,
        metadata: body.metadata ?? {},
        setup_future_usage: body.setup_future_usage ?? null,
        transfer_data: body.transfer_data ? { destination: body.transfer_data.destination } : null,
        application_fee_amount: body.application_fee_amount === undefined ? null : Number(body.application_fee_amount),
        statement_descriptor_suffix: body.statement_descriptor_suffix ?? null,
        created: nowSeconds(),
        latest_charge: null,
        status: "requires_payment_method",
        payment_method: null,
        last_payment_error: null,
      };
      pi.client_secret = `${pi.id}_secret_dbl`;
      objects.set(pi.id, pi);
      if (body.confirm === "true" && body.payment_method) return confirmIntent(pi, body.payment_method, body.off_session === "true");
      return { status: 200, body: pi };
    }
    if (method === "POST" && path === "/v1/setup_intents") {
      const si: Obj = { id: id("seti"), object: "setup_intent", customer: body.customer ?? null, status: "requires_payment_method", payment_method: null, last_setup_error: null };
      si.client_secret = `${si.id}_secret_dbl`;
      objects.set(si.id, si);
      return { status: 200, body: si };
    }
    if (method === "POST" && path === "/v1/refunds") {
      const pi = objects.get(body.payment_intent);
      if (!pi || pi.status !== "succeeded") return { status: 400, body: { error: { type: "invalid_request_error", message: "Not refundable" } } };
      const refund: Obj = {
        id: id("re"),
        object: "refund",
        amount: Number(body.amount),
        payment_intent: pi.id,
        status: "succeeded",
        reverse_transfer: body.reverse_transfer === "true",
        refund_application_fee: body.refund_application_fee === "true",
      };
      objects.set(refund.id, refund);
      refunded(refund, pi);
      return { status: 200, body: refund };
    }
    if (method === "POST" && path === "/v1/accounts") {
      const account: Obj = {
        id: id("acct"),
        object: "account",
        controller: body.controller ?? null,
        capabilities: body.capabilities ?? {},
        business_profile: body.business_profile ?? {},
        email: body.email ?? null,
        metadata: body.metadata ?? {},
        settings: { payouts: { schedule: body.settings?.payouts?.schedule ?? { interval: "daily", delay_days: 2 } } },
        details_submitted: false,
        charges_enabled: false,
        payouts_enabled: false,
        requirements: { currently_due: ["external_account", "tos_acceptance.date"], past_due: [] },
      };
      objects.set(account.id, account);
      return { status: 200, body: account };
    }
    if (method === "POST" && path === "/v1/account_links") {
      if (!objects.has(body.account)) return { status: 404, body: { error: { type: "invalid_request_error", code: "resource_missing", message: `No such account: ${body.account}` } } };
      return { status: 200, body: { object: "account_link", url: `https://connect.stripe.test/setup/${body.account}`, expires_at: Math.floor(Date.now() / 1000) + 300, created: Math.floor(Date.now() / 1000) } };
    }
    if (method === "POST" && (m = /^\/v1\/accounts\/([^/]+)\/login_links$/.exec(path))) {
      if (!objects.has(m[1])) return { status: 404, body: { error: { type: "invalid_request_error", code: "resource_missing", message: `No such account: ${m[1]}` } } };
      return { status: 200, body: { object: "login_link", url: `https://connect.stripe.test/express/${m[1]}`, created: Math.floor(Date.now() / 1000) } };
    }
    if (method === "GET" && (m = /^\/v1\/(payment_intents|setup_intents|payment_methods|accounts)\/([^/?]+)$/.exec(path))) {
      const obj = objects.get(m[2]);
      return obj ? { status: 200, body: obj } : { status: 404, body: { error: { type: "invalid_request_error", code: "resource_missing", message: `No such object: ${m[2]}` } } };
    }
    return { status: 404, body: { error: { type: "invalid_request_error", message: `Unrecognized request URL (${method}: ${path})` } } };
  }

  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const [path, query = ""] = (req.url ?? "").split("?");
      const body = parseForm(req.method === "GET" ? query : raw);
      const key = req.headers["idempotency-key"] as string | undefined;
      const stripeAccount = req.headers["stripe-account"] as string | undefined;
      requests.push({ method: req.method ?? "", path, idempotencyKey: key, stripeAccount, body });
      const cacheKey = key ? `${req.method} ${path} ${key}` : null;
      const cached = cacheKey ? idempotent.get(cacheKey) : undefined;
      const params = JSON.stringify(body);
      const result =
        cached && cached.params !== params
          ? { status: 400, body: { error: { type: "idempotency_error", message: "Keys for idempotent requests can only be used with the same parameters they were first used with." } } }
          : (cached ?? route(req.method ?? "", path, body, stripeAccount));
      if (cacheKey && !cached) idempotent.set(cacheKey, { ...result, params });
      res.writeHead(result.status, { "content-type": "application/json", "request-id": `req_${n}` });
      res.end(JSON.stringify(result.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    objects,
    confirm(intentId, pm) {
      const intent = objects.get(intentId)!;
      return confirmIntent(intent, pm, false).body;
    },
    confirmSetup(intentId, pm) {
      const si = objects.get(intentId)!;
      paymentMethod(pm, si.customer);
      Object.assign(si, { status: "succeeded", payment_method: pm, last_setup_error: null });
      return si;
    },
    onboard(accountId, requirementsDue = []) {
      const account = objects.get(accountId)!;
      const ready = requirementsDue.length === 0;
      return Object.assign(account, { details_submitted: true, charges_enabled: ready, payouts_enabled: ready, requirements: { currently_due: requirementsDue, past_due: [] } });
    },
    holdFunds(days) {
      holdDays = days;
    },
    payoutEvent(accountId, payoutId, type, failureCode = "no_account") {
      const entry = payouts.find((p) => p.account === accountId && p.payout.id === payoutId);
      if (!entry) throw new Error(`No payout ${payoutId} at ${accountId}`);
      const payout = entry.payout;
      if (type === "payout.paid") payout.status = "paid";
      if (type === "payout.failed" && payout.status !== "failed") {
        Object.assign(payout, { status: "failed", failure_code: failureCode, failure_message: "The bank account details on file are probably incorrect." });
        payout.failure_balance_transaction = book(accountId, "payout_failure", payout.amount, payout).id;
      }
      return { id: id("evt"), object: "event", api_version: "2025-01-01", created: nowSeconds(), livemode: false, type, account: accountId, pending_webhooks: 1, request: { id: null, idempotency_key: null }, data: { object: { ...payout } } };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
