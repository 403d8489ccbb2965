/**
 * Completing a checkout (spec §4 "After payment success"): once the provider says the first payment succeeded, the
 * card is kept for renewals, the first period's order made and the membership activated (settlement.ts decides
 * what the payment buys). The member's completion and the provider's webhook both come here; a next-month sign-up
 * completes in ./next-month-signup.ts instead.
 */
import type { Actor, ServiceContext } from "../../context.ts";
import { requireMember } from "../../auth/policy.ts";
import { SoldOutError } from "../../catalog/capacity.ts";
import { addMonths, isoDate } from "../../shared/calendar.ts";
import { ConflictError, NotFoundError, RuleViolationError } from "../../shared/errors.ts";
import { memberAddress } from "../../rules/member.ts";
import { saveDefaultCard } from "../cards.ts";
import { providerFor, recordPayment } from "../service.ts";
import { refundedMessage, refundUnmatched, settlePaidPeriod } from "./settlement.ts";

export interface CompletedCheckout {
  /** The first period's order; null for a next-month sign-up (nothing charged yet). */
  orderId: number | null;
  /** The first month with a box (YYYY-MM). */
  firstPeriod: string;
  subscriptionId: number;
  chargedCents: number;
  nextBillingDate: string;
  createdAt: Date;
  /** The card that paid (null: a free period, or a provider that did not say). */
  card: { brand: string; last4: string } | null;
  /** Where the receipt goes ("" when the member has no address). */
  receiptEmail: string;
}

/**
 * Finishes a payment the member confirmed in the card form (a checkout, or a restart that needed the card)
 * once the provider says it succeeded: saves the card for renewals, creates the period's order and activates
 * the membership. Safe to call again (and from the provider's webhook): the order is created once. A second
 * successful payment for the same period is refunded at once.
 */
/** A completed paid checkout: its first period's order exists. */
export type PaidCheckout = CompletedCheckout & { orderId: number };

export async function completeCheckout(ctx: ServiceContext, input: { paymentIntentId: string }): Promise<PaidCheckout> {
  const actor = requireMember(ctx);
  const payment = await ctx.db.payment.findUnique({ where: { providerPaymentId: input.paymentIntentId } });
  // A payment whose checkout gave way to a restart has no membership any more: settling it refunds it.
  if (!payment || payment.userId !== actor.user.id) throw new NotFoundError("Payment");
  return settleCheckoutPayment(ctx, payment.id);
}

/**
 * The part of completion that needs no actor (shared with provider webhooks): settles the payment's own purchase
 * (api/billing/checkout/settlement.ts). A payment that cannot be matched is refunded: one for a period already paid
 * answers with that period's order (a double submit), any other is refused with the reason.
 */
export async function settleCheckoutPayment(ctx: Pick<ServiceContext, "db" | "clock" | "config" | "log"> & { actor?: Actor }, paymentId: number): Promise<PaidCheckout> {
  const payment = await ctx.db.payment.findUniqueOrThrow({ where: { id: paymentId } });
  const provider = providerFor(ctx);
  const intent = await provider.retrievePaymentIntent(payment.providerPaymentId);
  await recordPayment(ctx.db, intent, { userId: payment.userId, businessId: payment.businessId, subscriptionId: payment.subscriptionId, provider: provider.name, at: ctx.clock.now(), actor: ctx.actor });
  if (intent.status !== "succeeded") {
    throw new RuleViolationError(intent.lastError?.message ?? "Payment was not completed", intent.lastError?.code ?? "payment_incomplete");
  }
  const period = intent.metadata.period;
  const kind = intent.metadata.kind === "RESTART" || intent.metadata.kind === "RENEWAL" ? intent.metadata.kind : "INITIAL";
  const settled = await settlePaidPeriod(ctx, {
    userId: payment.userId,
    subscriptionId: payment.subscriptionId,
    paymentId: payment.id,
    paidCents: intent.amountCents,
    period,
    kind,
  });
  if (settled.outcome === "refund") {
    if (payment.refundedCents === 0) await refundUnmatched(ctx, payment, intent, settled.reason);
    const message = refundedMessage(settled.reason, intent.amountCents);
    if (settled.reason === "sold_out") throw new SoldOutError(message);
    if (settled.reason !== "duplicate" || settled.orderId === null) throw new ConflictError(message, "payment_refunded");
  }
  const card = intent.paymentMethodId ? await provider.describeCard(intent.paymentMethodId) : null;
  // A card that was saved to the customer becomes the one renewals charge.
  if (settled.outcome === "settled" && card?.customerId) await saveDefaultCard(ctx, provider.name, payment.userId, card);
  const order = await ctx.db.order.findUniqueOrThrow({
    where: { id: settled.orderId! },
    select: {
      id: true,
      subscriptionId: true,
      totalCents: true,
      createdAt: true,
      period: true,
      subscription: { select: { billingDay: true, email: true, user: { select: { email: true } } } },
    },
  });
  const [y, m] = order.period.split("-").map(Number);
  const next = addMonths({ year: y, month: m }, 1);
  return {
    orderId: order.id,
    subscriptionId: order.subscriptionId,
    chargedCents: order.totalCents,
    nextBillingDate: isoDate({ ...next, day: order.subscription.billingDay }),
    createdAt: order.createdAt,
    card: card ? { brand: card.brand, last4: card.last4 } : null,
    receiptEmail: memberAddress(order.subscription),
    firstPeriod: order.period,
  };
}

