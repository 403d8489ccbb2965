import { expect } from "vitest";
import type { PrismaClient } from "../../api/db.ts";

/** GraphQL operations of the payment flows, shared by the in-process and the multi-process payment tests. */
export const PAY = {
  START: `mutation($input: StartCheckoutInput!) { startCheckout(input: $input) {
    __typename ... on StartCheckoutSuccess { data { clientSecret paymentIntentId quote { totalCents } membership { databaseId } } } ... on Error { message reason } } }`,
  CONFIRM: `mutation($s: String!) { confirmSandboxPayment(clientSecret: $s, card: { number: "4242424242424242", expMonth: 12, expYear: 2031, cvc: "123" }) {
    __typename ... on ConfirmSandboxPaymentSuccess { data { status } } ... on Error { message } } }`,
  COMPLETE: `mutation($id: String!) { completeCheckout(paymentIntentId: $id) {
    __typename ... on CompleteCheckoutSuccess { data { chargedCents order { databaseId totalCents } } } ... on Error { message reason } } }`,
  RESTART: `mutation($id: ID!) { restartSubscription(input: { subscriptionId: $id }) {
    __typename ... on RestartSubscriptionSuccess { data { outcome orderId } } ... on Error { message reason } } }`,
} as const;

/** A saved sandbox card for `user` (customer + card at the provider, default card on our side), as after a checkout. */
export async function seedSavedCard(db: PrismaClient, user: { id: number }): Promise<string> {
  const customer = `cus_test_${user.id}`;
  const pm = `pm_test_${user.id}`;
  await db.sandboxObject.createMany({
    data: [
      { id: customer, kind: "customer", data: { userId: user.id, email: null, name: null } },
      { id: pm, kind: "payment_method", data: { customerId: customer, brand: "visa", last4: "4242", expMonth: 12, expYear: 2031, behavior: "succeed" } },
    ],
  });
  await db.user.update({ where: { id: user.id }, data: { paymentCustomerId: customer } });
  await db.paymentMethod.create({ data: { userId: user.id, provider: "sandbox", providerPaymentMethodId: pm, brand: "visa", last4: "4242", expMonth: 12, expYear: 2031 } });
  return pm;
}

interface SandboxIntent {
  status: string;
  amountCents: number;
  customerId: string | null;
  refundedCents?: number;
}

/**
 * The money invariants of one member at one business, checked from both sides (our rows and the provider's):
 * every charge the provider took is either the payment of exactly one order of the same amount, or refunded in
 * full with a recorded reason; never two open memberships; each month has at most one order.
 */
export async function expectMoneyBalanced(db: PrismaClient, userId: number, businessId: number) {
  // Every provider customer of the member (two concurrent first checkouts may each have made one).
  const customers = new Set(
    (await db.sandboxObject.findMany({ where: { kind: "customer" } })).filter((c) => (c.data as { userId?: number }).userId === userId).map((c) => c.id),
  );
  const intents = (await db.sandboxObject.findMany({ where: { kind: "payment_intent" } }))
    .map((o) => ({ id: o.id, ...(o.data as unknown as SandboxIntent) }))
    .filter((i) => i.customerId !== null && customers.has(i.customerId) && i.status === "succeeded");
  const payments = await db.payment.findMany({ where: { userId }, include: { order: true } });
  const byIntent = new Map(payments.map((p) => [p.providerPaymentId, p]));
  const kept: { orderId: number; amountCents: number }[] = [];
  for (const intent of intents) {
    const payment = byIntent.get(intent.id);
    expect(payment, `charge ${intent.id} has no payment row`).toBeTruthy();
    if (payment!.order) {
      expect(payment!.order.totalCents, `order ${payment!.order.id} total = its payment`).toBe(intent.amountCents);
      expect(intent.refundedCents ?? 0).toBe(0);
      kept.push({ orderId: payment!.order.id, amountCents: intent.amountCents });
    } else {
      expect(intent.refundedCents, `charge ${intent.id} kept without an order`).toBe(intent.amountCents);
      expect(payment!.refundedCents).toBe(intent.amountCents);
      expect(payment!.refundReason).toBeTruthy();
    }
  }
  expect(new Set(kept.map((k) => k.orderId)).size, "one payment per order").toBe(kept.length);
  const open = await db.subscription.count({ where: { userId, businessId, status: { in: ["INCOMPLETE", "ACTIVE", "PAST_DUE"] } } });
  expect(open).toBeLessThanOrEqual(1);
  const orders = await db.order.findMany({ where: { userId, businessId }, select: { period: true } });
  expect(new Set(orders.map((o) => o.period)).size, "one order per month at one business").toBe(orders.length);
  return { kept, refunded: intents.length - kept.length };
}
