import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pino from "pino";
import { sandboxFor } from "../../api/billing/service.ts";
import { chargeForPeriod } from "../../api/billing/checkout/settlement.ts";
import { SandboxCardError } from "../../api/billing/providers/sandbox/cards.ts";
import { createTestApp, type TestApp } from "../support/app.ts";

let t: TestApp;
const ctx = () => ({ db: t.db.prisma, clock: t.clock, config: t.config, log: pino({ level: "silent" }) });
const card = (number: string, extra: Partial<{ expMonth: number; expYear: number; cvc: string }> = {}) => ({
  number,
  expMonth: 12,
  expYear: 2030,
  cvc: number.startsWith("37") ? "1234" : "123",
  ...extra,
});

async function makeSubscription(username: string, status: "ACTIVE" | "CANCELED" = "CANCELED") {
  const business = await t.db.prisma.business.upsert({ where: { slug: "farm" }, create: { slug: "farm", name: "Farm", collectsOnPlatform: true }, update: {} });
  const plan = await t.db.prisma.plan.upsert({
    where: { businessId_ref: { businessId: business.id, ref: "item_1" } },
    create: { businessId: business.id, ref: "item_1", name: "Veg Box", variations: { create: [{ mode: "PICKUP", amountCents: 2500 }] } },
    update: {},
  });
  const user = await t.db.prisma.user.create({ data: { username, passwordHash: "x", email: `${username}@example.com` } });
  return t.db.prisma.subscription.create({
    data: { userId: user.id, businessId: business.id, planId: plan.id, mode: "PICKUP", planAmountCents: 2500, totalCents: 2500, status, canceledAt: status === "CANCELED" ? t.clock.now() : null },
  });
}

beforeAll(async () => {
  t = await createTestApp({ now: "2026-03-05T15:00:00Z" });
});
afterAll(() => t.close());

describe("sandbox provider", () => {
  it("accepts only Stripe test cards and checks expiry and CVC", () => {
    const s = sandboxFor(ctx());
    expect(s.readCard(card("4242 4242 4242 4242"))).toMatchObject({ brand: "visa", last4: "4242", behavior: "succeed" });
    expect(() => s.readCard(card("4111111111111112"))).toThrow(SandboxCardError); // fails Luhn
    expect(() => s.readCard(card("4012888888881881"))).toThrow(/only test card numbers/); // a valid but non-test number
    expect(() => s.readCard(card("4242424242424242", { expYear: 2025 }))).toThrow(/expiration year is in the past/);
    expect(() => s.readCard(card("4242424242424242", { cvc: "12" }))).toThrow(/security code is invalid/);
  });

  it("confirms payment intents with the documented outcomes, once per idempotency key", async () => {
    const s = sandboxFor(ctx());
    const customer = await s.ensureCustomer({ userId: 1 });
    const pi = await s.createPaymentIntent({ customerId: customer, amountCents: 1000, currency: "usd", idempotencyKey: "k1", metadata: {}, saveForFuture: true });
    const again = await s.createPaymentIntent({ customerId: customer, amountCents: 1000, currency: "usd", idempotencyKey: "k1", metadata: {}, saveForFuture: true });
    expect(again.id).toBe(pi.id);

    const declined = await s.confirmPaymentIntent(pi.clientSecret, card("4000000000000002"));
    expect(declined).toMatchObject({ status: "requires_payment_method", lastError: { code: "card_declined", message: "Your card was declined." } });
    const funds = await s.confirmPaymentIntent(pi.clientSecret, card("4000000000009995"));
    expect(funds.lastError?.code).toBe("insufficient_funds");
    const challenged = await s.confirmPaymentIntent(pi.clientSecret, card("4000002500003155"));
    expect(challenged.status).toBe("requires_action");
    const done = await s.completeChallenge(pi.clientSecret, "complete");
    expect(done.status).toBe("succeeded");
    expect((await s.describeCard(done.paymentMethodId!)).last4).toBe("3155");
  });
});

describe("chargeForPeriod", () => {
  it("asks for a card when none is saved, then charges the saved card off-session and creates the order once", async () => {
    const sub = await makeSubscription("restarter");
    const first = await chargeForPeriod(ctx(), { subscriptionId: sub.id, period: "2026-03", kind: "RESTART", idempotencyKey: "r1" });
    expect(first.outcome).toBe("requires_action");
    if (first.outcome !== "requires_action") return;

    // The member confirms in the card form; the card is saved for renewals.
    const s = sandboxFor(ctx());
    const confirmed = await s.confirmPaymentIntent(first.clientSecret, card("4242424242424242"));
    expect(confirmed.status).toBe("succeeded");
    await t.db.prisma.paymentMethod.create({
      data: { userId: sub.userId, provider: "sandbox", providerPaymentMethodId: confirmed.paymentMethodId!, brand: "visa", last4: "4242", expMonth: 12, expYear: 2030 },
    });

    const paid = await chargeForPeriod(ctx(), { subscriptionId: sub.id, period: "2026-04", kind: "RENEWAL", idempotencyKey: "r2" });
    expect(paid.outcome).toBe("paid");
    const again = await chargeForPeriod(ctx(), { subscriptionId: sub.id, period: "2026-04", kind: "RENEWAL", idempotencyKey: "r3" });
    expect(again).toEqual(paid);
    const orders = await t.db.prisma.order.findMany({ where: { subscriptionId: sub.id } });
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ period: "2026-04", totalCents: 2500, kind: "RENEWAL" });
    expect(orders[0].selection).toMatchObject({ chosenItemName: "Veg Box", chosenVariationName: "Pickup", chosenItemPrice: "$25.00" });
    const after = await t.db.prisma.subscription.findUniqueOrThrow({ where: { id: sub.id } });
    expect(after).toMatchObject({ status: "ACTIVE", canceledAt: null, paidThroughPeriod: "2026-04" });
    const payments = await t.db.prisma.payment.findMany({ where: { subscriptionId: sub.id, status: "SUCCEEDED" } });
    expect(payments).toHaveLength(1);
  });

  it("reports a declined saved card as failed without creating an order", async () => {
    const sub = await makeSubscription("declined");
    const s = sandboxFor(ctx());
    const customer = await s.ensureCustomer({ userId: sub.userId });
    await t.db.prisma.user.update({ where: { id: sub.userId }, data: { paymentCustomerId: customer } });
    const seti = await s.createSetupIntent({ customerId: customer, idempotencyKey: "seti-declined" });
    const saved = await s.confirmSetupIntent(seti.clientSecret, card("4000000000000341"));
    await t.db.prisma.subscription.update({ where: { id: sub.id }, data: { providerPaymentMethodId: saved.paymentMethodId } });

    const result = await chargeForPeriod(ctx(), { subscriptionId: sub.id, period: "2026-03", kind: "RESTART", idempotencyKey: "d1" });
    expect(result).toMatchObject({ outcome: "failed", code: "card_declined", message: "Your card was declined." });
    expect(await t.db.prisma.order.count({ where: { subscriptionId: sub.id } })).toBe(0);
    expect((await t.db.prisma.subscription.findUniqueOrThrow({ where: { id: sub.id } })).status).toBe("CANCELED");
    expect((await t.db.prisma.payment.findFirstOrThrow({ where: { subscriptionId: sub.id } })).status).toBe("FAILED");
  });
});

describe("every documented card path", () => {
  const confirmWith = async (number: string) => {
    const s = sandboxFor(ctx());
    const customerId = await s.ensureCustomer({ userId: 999 });
    const pi = await s.createPaymentIntent({ customerId, amountCents: 1000, currency: "usd", idempotencyKey: `path-${number}-${Math.random()}`, metadata: {}, saveForFuture: true });
    return { s, pi, result: await s.confirmPaymentIntent(pi.clientSecret, card(number)) };
  };

  it.each([
    ["4242424242424242", "succeeded", null],
    ["5555555555554444", "succeeded", null],
    ["378282246310005", "succeeded", null],
    ["4000000000000002", "requires_payment_method", "card_declined"],
    ["4000000000009995", "requires_payment_method", "insufficient_funds"],
    ["4000000000000069", "requires_payment_method", "expired_card"],
    ["4000000000000127", "requires_payment_method", "incorrect_cvc"],
    ["4000002500003155", "requires_action", null],
    ["4000002760003184", "requires_action", null],
    ["4000000000000341", "succeeded", null],
  ])("checkout with %s → %s (%s)", async (number, status, code) => {
    const { result } = await confirmWith(number);
    expect(result.status).toBe(status);
    expect(result.lastError?.code ?? null).toBe(code);
  });

  it("a failed 3-D Secure challenge leaves the payment unpaid with the authentication error", async () => {
    const { s, pi } = await confirmWith("4000002500003155");
    const failed = await s.completeChallenge(pi.clientSecret, "fail");
    expect(failed).toMatchObject({ status: "requires_payment_method", lastError: { code: "payment_intent_authentication_failure" } });
  });

  it.each([
    ["4000002500003155", "paid"], // authenticated once on-session, then off-session charges go through
    ["4000002760003184", "requires_action"], // asks for authentication every time
    ["4000000000000341", "failed"], // saved fine, declined when charged
  ])("renewal with a saved %s → %s", async (number, outcome) => {
    const sub = await makeSubscription(`renew-${number}`, "ACTIVE");
    const s = sandboxFor(ctx());
    const customerId = await s.ensureCustomer({ userId: sub.userId });
    await t.db.prisma.user.update({ where: { id: sub.userId }, data: { paymentCustomerId: customerId } });
    const seti = await s.createSetupIntent({ customerId, idempotencyKey: `renew-setup-${number}` });
    const saved = await s.confirmSetupIntent(seti.clientSecret, card(number));
    await t.db.prisma.subscription.update({ where: { id: sub.id }, data: { providerPaymentMethodId: saved.paymentMethodId } });
    const result = await chargeForPeriod(ctx(), { subscriptionId: sub.id, period: "2026-04", kind: "RENEWAL", idempotencyKey: `renew-${number}` });
    expect(result.outcome).toBe(outcome);
  });
});
