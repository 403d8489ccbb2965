import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for the parts of Stripe's API the server calls (customers, payment intents with their
 * destination, setup intents, payment methods, refunds, connected accounts with their onboarding and login
 * links), so the real `stripe` SDK can be tested offline. It honours Idempotency-Key like Stripe: the same key
 * returns the first response, and a key reused with other parameters is refused (`idempotency_error`). Test cards
 * are referenced by Stripe's test payment method ids (pm_card_visa, pm_card_chargeDeclined,
 * pm_card_authenticationRequired).
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

export interface StripeDouble {
  url: string;
  requests: { method: string; path: string; idempotencyKey?: string; body: Obj }[];
  objects: Map<string, Obj>;
  /** What Stripe.js does in the browser: confirm an intent with a test card. */
  confirm(intentId: string, paymentMethod: keyof typeof CARDS): Obj;
  /** What stripe.confirmCardSetup does: the setup intent succeeds and the card is saved to its customer. */
  confirmSetup(intentId: string, paymentMethod: keyof typeof CARDS): Obj;
  /** What the owner's hosted onboarding does: the account takes charges and payouts, or still owes `requirementsDue`. */
  onboard(accountId: string, requirementsDue?: string[]): Obj;
  close(): Promise<void>;
}

export async function startStripeDouble(): Promise<StripeDouble> {
  const objects = new Map<string, Obj>();
  const idempotent = new Map<string, { status: number; body: Obj; params: string }>();
  const requests: StripeDouble["requests"] = [];
  let n = 0;
  const id = (prefix: string) => `${prefix}_dbl_${++n}`;

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

  function route(method: string, path: string, body: Obj): { status: number; body: Obj } {
    let m: RegExpExecArray | null;
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
      const refund = {
        id: id("re"),
        object: "refund",
        amount: Number(body.amount),
        payment_intent: pi.id,
        status: "succeeded",
        reverse_transfer: body.reverse_transfer === "true",
        refund_application_fee: body.refund_application_fee === "true",
      };
      objects.set(refund.id, refund);
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
      const path = (req.url ?? "").split("?")[0];
      const body = parseForm(raw);
      const key = req.headers["idempotency-key"] as string | undefined;
      requests.push({ method: req.method ?? "", path, idempotencyKey: key, body });
      const cacheKey = key ? `${req.method} ${path} ${key}` : null;
      const cached = cacheKey ? idempotent.get(cacheKey) : undefined;
      const params = JSON.stringify(body);
      const result =
        cached && cached.params !== params
          ? { status: 400, body: { error: { type: "idempotency_error", message: "Keys for idempotent requests can only be used with the same parameters they were first used with." } } }
          : (cached ?? route(req.method ?? "", path, body));
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
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
