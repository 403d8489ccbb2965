import pino from "pino";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runRenewals } from "../../api/billing/renewals/clock.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";
import { startStripeDouble, type StripeDouble } from "../support/stripe-double.ts";

const WEBHOOK_SECRET = "whsec_test_secret";
let t: TestApp;
let f: Factories;
let stripe: StripeDouble;

const START = `mutation($input: StartCheckoutInput!) { startCheckout(input: $input) {
  __typename ... on StartCheckoutSuccess { data { paymentIntentId clientSecret membership { databaseId status } } } ... on Error { message } } }`;
const COMPLETE = `mutation($id: String!) { completeCheckout(paymentIntentId: $id) {
  __typename ... on CompleteCheckoutSuccess { data { order { databaseId } membership { status } } } ... on Error { message reason } } }`;

/** Posts an event to the webhook exactly as Stripe would: JSON body signed with the endpoint secret. */
async function deliver(event: object, secret = WEBHOOK_SECRET) {
  const payload = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret });
  return t.app.inject({ method: "POST", url: "/api/webhooks/stripe", headers: { "content-type": "application/json", "stripe-signature": signature }, payload });
}

let eventSeq = 0;
const event = (type: string, object: object) => ({ id: `evt_test_${++eventSeq}`, object: "event", type, data: { object }, api_version: "2025-01-01", created: 1 });

beforeAll(async () => {
  stripe = await startStripeDouble();
  t = await createTestApp({
    now: "2026-03-05T15:00:00Z",
    config: { paymentProvider: "stripe", stripe: { secretKey: "sk_test_double", webhookSecret: WEBHOOK_SECRET, apiBase: stripe.url, publishableKey: "pk_test_double" } },
  });
  f = factories(t);
  const business = await f.business({ slug: "roaster", page: { pickupEnabled: false, shippingEnabled: true, billingDay: 3 } });
  await f.plan(business, { prices: { SHIPPING: 2200 } });
});
afterAll(async () => {
  await t.close();
  await stripe.close();
});

async function checkout() {
  const user = await f.user({ email: "coffee@example.com" });
  const token = await f.session(user, "roaster");
  const plan = await t.db.prisma.plan.findFirstOrThrow({ where: { business: { slug: "roaster" } } });
  const input = { selection: { businessSlug: "roaster", planRef: plan.ref, mode: "SHIPPING", addonRefs: [] }, email: "coffee@example.com", idempotencyKey: `stripe-${user.id}-attempt` };
  const started = await t.gqlOk(START, { input }, { token, tenant: "roaster" });
  return { user, token, input, ...started.startCheckout.data };
}

describe("stripe provider", () => {
  it("opens checkouts with idempotency keys: a repeated submit reuses the payment intent", async () => {
    const { token, input, paymentIntentId, clientSecret } = await checkout();
    expect(clientSecret).toBe(`${paymentIntentId}_secret_dbl`);
    const again = await t.gqlOk(START, { input }, { token, tenant: "roaster" });
    expect(again.startCheckout.data.paymentIntentId).toBe(paymentIntentId);
    const creates = stripe.requests.filter((r) => r.method === "POST" && r.path === "/v1/payment_intents");
    expect(creates.every((r) => r.idempotencyKey)).toBe(true);
    const mine = creates.filter((r) => r.body.metadata?.subscription_id);
    expect(mine.at(-1)?.body).toMatchObject({ amount: "2200", currency: "usd", setup_future_usage: "off_session" });
    expect(stripe.requests.filter((r) => r.method === "POST" && r.path === "/v1/customers").every((r) => r.idempotencyKey)).toBe(true);
  });

  it("activates the membership from a signed payment_intent.succeeded webhook, once", async () => {
    const { token, paymentIntentId, membership } = await checkout();
    const pi = stripe.confirm(paymentIntentId, "pm_card_visa");
    const succeeded = event("payment_intent.succeeded", pi);
    const first = await deliver(succeeded);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ received: true, result: "processed" });

    const sub = await t.db.prisma.subscription.findUniqueOrThrow({ where: { id: membership.databaseId }, include: { orders: true } });
    expect(sub.status).toBe("ACTIVE");
    expect(sub.orders).toHaveLength(1);
    expect(sub.providerPaymentMethodId).toBe("pm_card_visa");
    // A destination charge to the roaster's account with both fees ($22.00: 5 % = 110, 2.9 % + 30¢ = 94), in its books.
    const account = await t.db.prisma.paymentAccount.findUniqueOrThrow({ where: { businessId: sub.businessId } });
    const created = stripe.requests.find((r) => r.method === "POST" && r.path === "/v1/payment_intents" && r.body.metadata?.subscription_id === String(sub.id));
    expect(created?.body).toMatchObject({ transfer_data: { destination: account.accountId }, application_fee_amount: "204", metadata: { platform_fee_cents: "110", processing_fee_cents: "94" } });
    expect(await t.db.prisma.ledgerEntry.findMany({ where: { providerId: paymentIntentId }, select: { kind: true, grossCents: true, platformFeeCents: true, processingFeeCents: true, netCents: true } })).toEqual([
      { kind: "CHARGE", grossCents: 2200, platformFeeCents: 110, processingFeeCents: 94, netCents: 1996 },
    ]);

    const redelivered = await deliver(succeeded);
    expect(redelivered.json()).toEqual({ received: true, result: "duplicate" });
    // The client's own completion after the webhook finds the same order.
    const done = await t.gqlOk(COMPLETE, { id: paymentIntentId }, { token });
    expect(done.completeCheckout.data.order.databaseId).toBe(sub.orders[0].id);
    expect(await t.db.prisma.order.count({ where: { subscriptionId: sub.id } })).toBe(1);
  });

  it("refuses webhooks with a bad signature and changes nothing", async () => {
    const { paymentIntentId, membership } = await checkout();
    const pi = stripe.confirm(paymentIntentId, "pm_card_visa");
    const forged = await deliver(event("payment_intent.succeeded", pi), "whsec_wrong");
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toEqual({ error: "Invalid signature" });
    const unsigned = await t.app.inject({ method: "POST", url: "/api/webhooks/stripe", headers: { "content-type": "application/json" }, payload: JSON.stringify(event("payment_intent.succeeded", pi)) });
    expect(unsigned.statusCode).toBe(400);
    expect((await t.db.prisma.subscription.findUniqueOrThrow({ where: { id: membership.databaseId } })).status).toBe("INCOMPLETE");
  });

  it("renews off-session with the saved card; a decline comes back as a past-due membership", async () => {
    const ok = await checkout();
    await deliver(event("payment_intent.succeeded", stripe.confirm(ok.paymentIntentId, "pm_card_visa")));
    const declined = await checkout();
    await deliver(event("payment_intent.succeeded", stripe.confirm(declined.paymentIntentId, "pm_card_visa")));
    // The second member's bank starts declining.
    await t.db.prisma.subscription.update({ where: { id: declined.membership.databaseId }, data: { providerPaymentMethodId: "pm_card_chargeDeclined" } });

    t.clock.set("2026-04-03T15:00:00Z");
    const business = await t.db.prisma.business.findUniqueOrThrow({ where: { slug: "roaster" } });
    const report = await runRenewals({ db: t.db.prisma, clock: t.clock, config: t.config, log: pino({ level: "silent" }) }, { businessId: business.id });
    expect(report).toMatchObject({ charged: 2, failed: 1 });
    const offSession = stripe.requests.filter((r) => r.path === "/v1/payment_intents" && r.body.off_session === "true");
    expect(offSession.every((r) => r.idempotencyKey?.startsWith("renewal:"))).toBe(true);
    expect((await t.db.prisma.subscription.findUniqueOrThrow({ where: { id: ok.membership.databaseId } })).paidThroughPeriod).toBe("2026-04");
    const failed = await t.db.prisma.subscription.findUniqueOrThrow({ where: { id: declined.membership.databaseId } });
    expect(failed.status).toBe("PAST_DUE");
    expect(await t.db.prisma.payment.findFirst({ where: { subscriptionId: failed.id, status: "FAILED" } })).toMatchObject({ failureCode: "generic_decline", failureMessage: "Your card was declined." });
  });

  it("records refunds reported by Stripe", async () => {
    const { paymentIntentId } = await checkout();
    const pi = stripe.confirm(paymentIntentId, "pm_card_visa");
    await deliver(event("payment_intent.succeeded", pi));
    const res = await deliver(event("charge.refunded", { id: "ch_1", object: "charge", payment_intent: paymentIntentId, amount_refunded: 500 }));
    expect(res.json().result).toBe("processed");
    expect((await t.db.prisma.payment.findUniqueOrThrow({ where: { providerPaymentId: paymentIntentId } })).refundedCents).toBe(500);
  });

  it("a second attempt paid after the first, reported by webhook, is refunded through Stripe once and the event is handled", async () => {
    const { user, token, input, paymentIntentId } = await checkout();
    const second = (await t.gqlOk(START, { input: { ...input, idempotencyKey: `${input.idempotencyKey}-tab-two` } }, { token, tenant: "roaster" })).startCheckout.data;
    expect(second.paymentIntentId).not.toBe(paymentIntentId);
    await deliver(event("payment_intent.succeeded", stripe.confirm(paymentIntentId, "pm_card_visa")));
    const late = event("payment_intent.succeeded", stripe.confirm(second.paymentIntentId, "pm_card_visa"));
    const handled = await deliver(late);
    expect(handled.statusCode).toBe(200);
    expect(handled.json()).toEqual({ received: true, result: "processed" });
    expect(await deliver(late).then((r) => r.json())).toEqual({ received: true, result: "duplicate" });
    const refunds = stripe.requests.filter((r) => r.method === "POST" && r.path === "/v1/refunds" && r.body.payment_intent === second.paymentIntentId);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ idempotencyKey: `refund:${second.paymentIntentId}`, body: { amount: "2200" } });
    expect(await t.db.prisma.payment.findUniqueOrThrow({ where: { providerPaymentId: second.paymentIntentId } })).toMatchObject({ refundedCents: 2200, refundReason: "duplicate", orderId: null });
    expect(await t.db.prisma.order.count({ where: { userId: user.id } })).toBe(1);
  });
});
