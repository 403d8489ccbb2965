import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import pino from "pino";
import { SandboxProvider } from "../../api/billing/providers/sandbox/provider.ts";
import { IDEMPOTENCY_LEASE_MS } from "../../api/billing/providers/sandbox/store.ts";
import { chargeForPeriod } from "../../api/billing/checkout/settlement.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";
import { expectMoneyBalanced, PAY, seedSavedCard } from "../support/payments.ts";

/**
 * Money under races and crashes, one step after another (the embedded database has one connection; the
 * same scenarios run concurrently on two server processes in payment-races.test.ts): each payment activates exactly
 * what it was created for, a payment that cannot be matched is refunded, and a claim left by a dead request expires.
 */

let t: TestApp;
let f: Factories;
let business: { id: number; slug: string };
let cheap: { ref: string; id: number };
let dear: { ref: string; id: number };
let honey: { ref: string; id: number };
let seq = 0;

const NOW = "2026-03-05T15:00:00Z";

beforeAll(async () => {
  t = await createTestApp({ now: NOW });
  f = factories(t);
  business = await f.business({ slug: "farm", page: { pickupEnabled: true, billingDay: 3, cutoffDay: 20 } });
  cheap = await f.plan(business, { name: "Small Box", prices: { PICKUP: 1000 } });
  dear = await f.plan(business, { name: "Large Box", prices: { PICKUP: 4000 } });
  honey = await f.addon(business, { name: "Honey", amountCents: 1000 });
});
afterAll(() => t.close());
beforeEach(() => t.clock.set(NOW));

async function member() {
  const user = await f.user({ username: `payer${++seq}`, email: `payer${seq}@example.com` });
  return { user, token: await f.session(user, "farm") };
}

async function gqlData(query: string, variables: Record<string, unknown>, token: string) {
  const res = await t.gql(query, variables, { token, tenant: "farm" });
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return res.data;
}

const start = (token: string, planRef: string, addonRefs: string[] = [], key = `attempt-${++seq}-key`) =>
  gqlData(PAY.START, { input: { selection: { businessSlug: "farm", planRef, mode: "PICKUP", addonRefs }, email: "pat@example.com", idempotencyKey: key } }, token).then(
    (d) => d.startCheckout,
  );
const pay = (token: string, started: { data: { clientSecret: string; paymentIntentId: string } }) =>
  gqlData(PAY.CONFIRM, { s: started.data.clientSecret }, token).then(() => gqlData(PAY.COMPLETE, { id: started.data.paymentIntentId }, token)).then((d) => d.completeCheckout);

async function membershipOf(userId: number) {
  return t.db.prisma.subscription.findFirstOrThrow({ where: { userId, status: "ACTIVE" }, include: { addons: true, orders: true } });
}

describe("a payment activates exactly what it was created for", () => {
  it("two checkout attempts paid crosswise: the cheap attempt's payment gets the cheap box, the dear one is refunded", async () => {
    const { user, token } = await member();
    const small = await start(token, cheap.ref);
    const large = await start(token, dear.ref, [honey.ref]); // replaces the unfinished membership's selection
    expect([small.data.quote.totalCents, large.data.quote.totalCents]).toEqual([1000, 5000]);

    const paidSmall = await pay(token, small);
    expect(paidSmall).toMatchObject({ __typename: "CompleteCheckoutSuccess", data: { chargedCents: 1000, order: { totalCents: 1000 } } });
    const sub = await membershipOf(user.id);
    expect(sub).toMatchObject({ planId: cheap.id, totalCents: 1000, addonsAmountCents: 0 });
    expect(sub.addons).toEqual([]);

    // The other tab pays the dear attempt: the month is paid already, so that payment is given back.
    const paidLarge = await pay(token, large);
    expect(paidLarge).toMatchObject({ __typename: "CompleteCheckoutSuccess", data: { chargedCents: 1000 } });
    const refunded = await t.db.prisma.payment.findUniqueOrThrow({ where: { providerPaymentId: large.data.paymentIntentId } });
    expect(refunded).toMatchObject({ refundedCents: 5000, refundReason: "duplicate", orderId: null });
    expect(await membershipOf(user.id)).toMatchObject({ planId: cheap.id, totalCents: 1000 });
    expect(await expectMoneyBalanced(t.db.prisma, user.id, business.id)).toMatchObject({ refunded: 1 });
  });

  it("the other way round: the dear attempt paid first is what the membership and its order hold", async () => {
    const { user, token } = await member();
    const large = await start(token, dear.ref, [honey.ref]);
    const small = await start(token, cheap.ref);
    const paidLarge = await pay(token, large);
    expect(paidLarge.data).toMatchObject({ chargedCents: 5000, order: { totalCents: 5000 } });
    const sub = await membershipOf(user.id);
    expect(sub).toMatchObject({ planId: dear.id, totalCents: 5000, addonsAmountCents: 1000 });
    expect(sub.addons.map((a) => a.addonId)).toEqual([honey.id]);
    const order = await t.db.prisma.order.findFirstOrThrow({ where: { subscriptionId: sub.id } });
    expect(order.selection).toMatchObject({ chosenItemName: "Large Box", chosenAddonIds: [honey.ref] });

    await pay(token, small);
    expect(await t.db.prisma.payment.findUniqueOrThrow({ where: { providerPaymentId: small.data.paymentIntentId } })).toMatchObject({ refundedCents: 1000 });
    await expectMoneyBalanced(t.db.prisma, user.id, business.id);
  });

  it("one idempotency key reused for another selection is refused, and nothing is written", async () => {
    const { user, token } = await member();
    const key = `reused-key-${++seq}`;
    const first = await start(token, cheap.ref, [], key);
    expect(first.__typename).toBe("StartCheckoutSuccess");
    const payments = await t.db.prisma.payment.count({ where: { userId: user.id } });
    const again = await start(token, dear.ref, [], key);
    expect(again).toEqual({ __typename: "ConflictError", reason: "idempotency_key_reused", message: "This checkout was started with another selection. Please review your order and pay again." });
    expect(await t.db.prisma.payment.count({ where: { userId: user.id } })).toBe(payments);
    // The same selection with the same key is the same checkout.
    expect((await start(token, cheap.ref, [], key)).data.paymentIntentId).toBe(first.data.paymentIntentId);
  });

  it("a key whose first payment was never recorded (a crash) and is reused for another selection is refused by the provider, and nothing is written", async () => {
    const { user, token } = await member();
    const key = `crashed-key-${++seq}`;
    // What a first attempt left at the provider before the crash: a payment intent under the key, for $10.00.
    const provider = new SandboxProvider(t.db.prisma, t.clock);
    const customerId = await provider.ensureCustomer({ userId: user.id });
    await t.db.prisma.user.update({ where: { id: user.id }, data: { paymentCustomerId: customerId } });
    await provider.createPaymentIntent({ customerId, amountCents: 1000, currency: "usd", idempotencyKey: `checkout:${user.id}:${key}`, metadata: {}, saveForFuture: true });
    const again = await start(token, dear.ref, [], key);
    expect(again).toEqual({ __typename: "ConflictError", reason: "idempotency_key_reused", message: "This checkout was started with another selection. Please review your order and pay again." });
    expect(await t.db.prisma.payment.count({ where: { userId: user.id } })).toBe(0);
  });
});

describe("restart and checkout of one business", () => {
  async function canceledMember() {
    const m = await member();
    await seedSavedCard(t.db.prisma, m.user);
    const sub = await f.subscription({ user: m.user, business, plan: cheap, status: "CANCELED", planAmountCents: 1000, paidThroughPeriod: "2026-01", canceledAt: "2026-02-10T15:00:00Z" });
    return { ...m, sub };
  }

  it("a restart wins over an unpaid checkout; paying that checkout afterwards is refunded with a clear answer", async () => {
    const { user, token, sub } = await canceledMember();
    const started = await start(token, dear.ref);
    const restart = await gqlData(PAY.RESTART, { id: String(sub.id) }, token);
    expect(restart.restartSubscription).toMatchObject({ __typename: "RestartSubscriptionSuccess", data: { outcome: "PAID" } });
    expect(await t.db.prisma.subscription.count({ where: { id: started.data.membership.databaseId } })).toBe(0);

    await gqlData(PAY.CONFIRM, { s: started.data.clientSecret }, token);
    const complete = (await gqlData(PAY.COMPLETE, { id: started.data.paymentIntentId }, token)).completeCheckout;
    expect(complete).toEqual({ __typename: "ConflictError", reason: "payment_refunded", message: "You already have a membership at this business. Your payment of $40.00 was refunded." });
    // Asking again (a retry, the webhook) refunds nothing more and answers the same.
    expect((await gqlData(PAY.COMPLETE, { id: started.data.paymentIntentId }, token)).completeCheckout.reason).toBe("payment_refunded");
    expect(await t.db.prisma.payment.findUniqueOrThrow({ where: { providerPaymentId: started.data.paymentIntentId } })).toMatchObject({ refundReason: "superseded", refundedCents: 4000 });
    expect(await membershipOf(user.id)).toMatchObject({ id: sub.id, totalCents: 1000 });
    expect(await expectMoneyBalanced(t.db.prisma, user.id, business.id)).toMatchObject({ kept: [{ amountCents: 1000 }], refunded: 1 });
  });

  it("a restart charged after a checkout was paid (the race) is refunded, and the membership stays canceled", async () => {
    const { user, token, sub } = await canceledMember();
    await pay(token, await start(token, dear.ref));
    // The restart's own check ran before that checkout was paid: its charge reaches settlement anyway.
    const ctx = { db: t.db.prisma, clock: t.clock, config: t.config, log: pino({ level: "silent" }) };
    const charge = await chargeForPeriod(ctx, { subscriptionId: sub.id, period: "2026-03", kind: "RESTART", idempotencyKey: `restart-race-${sub.id}` });
    expect(charge).toEqual({ outcome: "refunded", reason: "already_member", message: "You already have a membership at this business. Your payment of $10.00 was refunded." });
    expect(await t.db.prisma.subscription.findUniqueOrThrow({ where: { id: sub.id } })).toMatchObject({ status: "CANCELED" });
    expect(await expectMoneyBalanced(t.db.prisma, user.id, business.id)).toMatchObject({ kept: [{ amountCents: 4000 }], refunded: 1 });
    // Through the API the restart is refused before anything is charged.
    const refused = await gqlData(PAY.RESTART, { id: String(sub.id) }, token);
    expect(refused.restartSubscription).toMatchObject({ __typename: "ConflictError", reason: "already_member" });
  });
});

describe("idempotency claims of the sandbox provider", () => {
  it("a claim left by a request that died expires after its lease; the retry then makes the one intent", async () => {
    const provider = new SandboxProvider(t.db.prisma, t.clock);
    const customerId = await provider.ensureCustomer({ userId: 1 });
    const args = { customerId, amountCents: 1234, currency: "usd", idempotencyKey: `crashed-${++seq}`, metadata: {}, saveForFuture: true };
    // What a request killed after claiming the key leaves behind.
    const { createHash } = await import("node:crypto");
    const idemId = `idem_${createHash("sha256").update(`pi:${args.idempotencyKey}`).digest("hex").slice(0, 40)}`;
    const leaseUntil = new Date(t.clock.now().getTime() + IDEMPOTENCY_LEASE_MS).toISOString();
    await t.db.prisma.sandboxObject.create({ data: { id: idemId, kind: "idempotency", data: { objectId: null, leaseUntil } } });

    // Within the lease the key is still held (the request might be alive): refused, nothing made.
    await expect(provider.createPaymentIntent(args)).rejects.toMatchObject({ code: "idempotency_key_in_use" });
    const intents = () => t.db.prisma.sandboxObject.count({ where: { kind: "payment_intent" } });
    const before = await intents();

    t.clock.advance(IDEMPOTENCY_LEASE_MS + 1000);
    const [a, b] = await Promise.all([provider.createPaymentIntent(args), provider.createPaymentIntent(args)]);
    expect(a.id).toBe(b.id);
    expect(await intents()).toBe(before + 1);
    expect((await provider.createPaymentIntent(args)).id).toBe(a.id);
  }, 30_000);
});
