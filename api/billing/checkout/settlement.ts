/**
 * Settlement: what a succeeded payment buys. A member may open several checkout attempts at one business (a
 * cheap plan, then a dearer one), restart a canceled membership while a checkout is open, or pay one attempt
 * twice from two tabs. Each payment carries the purchase it was created for (`payments.purchase`), and one
 * transaction holding the member's row lock decides what it activates:
 *
 * - exactly that purchase: the membership takes its plan, mode, add-ons and prices, and the period's order is
 *   made from it, so the order always equals the payment;
 * - or nothing, when it cannot be matched: the period is already paid (`duplicate`), the member already has
 *   another membership at the business (`already_member`), the checkout it was made for gave way to a restart
 *   (`superseded`), the amount paid is not the purchase's total (`amount_mismatch`), the plan (or plan and
 *   mode) has no place left (`sold_out`, api/catalog/capacity.ts: the place is taken here, not when the checkout
 *   opened, so of 20 payments for the last place one activates and 19 are refunded), or its coupon can no longer be
 *   redeemed (`coupon_unavailable`: expired, deactivated or used up meanwhile; api/coupons/redemption.ts takes one of
 *   its redemptions here, so of 20 payments for its last redemption one activates). The reason is recorded
 *   in the same transaction and the payment is refunded after it commits (again on every retry or webhook,
 *   with one idempotency key, so it is refunded once).
 *
 * Every path that opens a membership (checkout start, settlement, reactivation) takes the same lock, so
 * concurrent requests of one member (two tabs, two server processes) are decided one after the other.
 */
import type { Actor, ServiceContext } from "../../context.ts";
import type { FulfillmentMode, OrderKind, Prisma } from "../../generated/prisma/client.ts";
import { MEMBER_STATUSES } from "../../rules/member.ts";
import { assertPlaceAvailable, heldSelections, SoldOutError, SOLD_OUT_MESSAGE } from "../../catalog/capacity.ts";
import { eventActorOf, writeEvents, type NewEvent } from "../../events/outbox.ts";
import { crashPoint } from "../../shared/crash-points.ts";
import { NotFoundError } from "../../shared/errors.ts";
import { globalId } from "../../shared/global-id.ts";
import { formatCents } from "../../shared/money.ts";
import type { PaymentIntentInfo } from "../providers/provider.ts";
import { PurchaseSchema, type Purchase } from "./purchase.ts";
import { requireRouting, routedRequest } from "../routing.ts";
import { refundEntry, writeLedger } from "../../payouts/ledger.ts";
import { periodOrder, providerFor, recordPayment, subscriptionForBilling } from "../service.ts";
import { redeemCoupon } from "../../coupons/redemption.ts";
import { COUPON_MESSAGES } from "../../coupons/codes.ts";
import { spendCoupons } from "../renewals/pricing.ts";

type Tx = Prisma.TransactionClient;
/** `actor`: who the events of a settlement name (absent: the system, e.g. a provider webhook). */
type SettleContext = Pick<ServiceContext, "db" | "clock" | "config" | "log"> & { actor?: Actor };

/** A membership's current selection as a purchase (a restart or a renewal buys what the membership holds). */
function purchaseOf(sub: {
  planId: number;
  mode: FulfillmentMode;
  fulfillmentPoint: string;
  planAmountCents: number;
  modeSurchargeCents: number;
  addonsAmountCents: number;
  discountCents: number;
  taxCents: number;
  totalCents: number;
  taxRateBps: number;
  couponId: number | null;
  billingDay: number;
  isGift: boolean;
  giftMessage: string;
  email: string | null;
  address: Prisma.JsonValue | null;
  addons: { addonId: number; amountCents: number }[];
}): Purchase {
  return {
    planId: sub.planId,
    mode: sub.mode,
    fulfillmentPoint: sub.fulfillmentPoint,
    planAmountCents: sub.planAmountCents,
    modeSurchargeCents: sub.modeSurchargeCents,
    addonsAmountCents: sub.addonsAmountCents,
    discountCents: sub.discountCents,
    taxCents: sub.taxCents,
    totalCents: sub.totalCents,
    taxRateBps: sub.taxRateBps,
    couponId: sub.couponId,
    billingDay: sub.billingDay,
    isGift: sub.isGift,
    giftMessage: sub.giftMessage,
    email: sub.email,
    address: sub.address && typeof sub.address === "object" && !Array.isArray(sub.address) ? (sub.address) : null,
    addons: sub.addons.map((a) => ({ addonId: a.addonId, amountCents: a.amountCents })),
  };
}

/** Key order does not matter; add-on order does not either. */
export function samePurchase(a: Purchase, b: Purchase): boolean {
  const canonical = (p: Purchase) =>
    JSON.stringify({ ...p, addons: [...p.addons].sort((x, y) => x.addonId - y.addonId) }, (_k, v) =>
      v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => x.localeCompare(y))) : v,
    );
  return canonical(a) === canonical(b);
}

/** The membership columns a purchase sets (its add-ons are rows of their own). */
function membershipColumns(p: Purchase) {
  const { addons: _addons, address, ...columns } = p;
  return { ...columns, address: (address ?? undefined) as Prisma.InputJsonValue | undefined };
}

/**
 * Serialises everything that opens or settles a membership of one member, across server processes: a row lock
 * on the member, held until the transaction ends.
 */
export async function lockMember(tx: Tx, userId: number): Promise<void> {
  await tx.$queryRaw`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`;
}

/**
 * Makes `sub` the member's one open membership at its business (under lockMember). Checkouts there that were
 * never paid give way: they are deleted, and a payment of theirs that succeeds later finds no membership and is
 * refunded. Returns false, changing nothing, when the member already has an active or past-due membership there.
 */
export async function claimOpenMembership(tx: Tx, sub: { id: number; userId: number; businessId: number }, beforeClaim?: () => Promise<boolean>): Promise<boolean> {
  const others = await tx.subscription.findMany({
    where: { userId: sub.userId, businessId: sub.businessId, id: { not: sub.id }, status: { in: ["INCOMPLETE", ...MEMBER_STATUSES] } },
    select: { id: true, status: true },
  });
  if (others.some((o) => o.status !== "INCOMPLETE")) return false;
  // The last refusal before anything changes (the coupon's redemption): false leaves the others as they are.
  if (beforeClaim && !(await beforeClaim())) return false;
  if (others.length) await tx.subscription.deleteMany({ where: { id: { in: others.map((o) => o.id) }, status: "INCOMPLETE" } });
  return true;
}

export type RefundReason = "duplicate" | "already_member" | "superseded" | "amount_mismatch" | "sold_out" | "coupon_unavailable";
const REFUND_REASONS: readonly RefundReason[] = ["duplicate", "already_member", "superseded", "amount_mismatch", "sold_out", "coupon_unavailable"];

export type Settlement =
  | { outcome: "settled"; orderId: number }
  /** Not activated: the payment is to be refunded (`orderId`: the period's order, when another payment paid it). */
  | { outcome: "refund"; reason: RefundReason; orderId: number | null };

/**
 * Settles a paid (or, with `paymentId` null, a free) period of a membership in one transaction under the
 * member's lock: activates exactly the payment's purchase and makes the period's order from it, or records why
 * the payment cannot be matched. Idempotent: a payment settled or refused before gets the same answer.
 */
export async function settlePaidPeriod(
  ctx: Pick<ServiceContext, "db" | "clock"> & { actor?: Actor },
  args: { userId: number; subscriptionId: number | null; paymentId: number | null; paidCents: number; period: string; kind: OrderKind },
): Promise<Settlement> {
  const settle = () =>
    ctx.db.$transaction(async (tx) => {
      await lockMember(tx, args.userId);
      const payment = args.paymentId
        ? await tx.payment.findUniqueOrThrow({ where: { id: args.paymentId }, select: { id: true, orderId: true, refundReason: true, purchase: true, subscriptionId: true } })
        : null;
      if (payment?.orderId) return { outcome: "settled" as const, orderId: payment.orderId };
      const existing = await (async () => {
        const subscriptionId = payment ? payment.subscriptionId : args.subscriptionId;
        return subscriptionId ? tx.order.findUnique({ where: { subscriptionId_period: { subscriptionId, period: args.period } }, select: { id: true } }) : null;
      })();
      const refuse = async (reason: RefundReason): Promise<Settlement> => {
        if (payment) await tx.payment.update({ where: { id: payment.id }, data: { refundReason: reason } });
        return { outcome: "refund", reason, orderId: existing?.id ?? null };
      };
      if (payment?.refundReason) return { outcome: "refund" as const, reason: refundReasonOf(payment.refundReason), orderId: existing?.id ?? null };

      // The membership it was made for (deleted when its checkout gave way to a restart).
      const subscriptionId = payment ? payment.subscriptionId : args.subscriptionId;
      const sub = subscriptionId ? await tx.subscription.findUnique({ where: { id: subscriptionId }, include: { addons: true, business: { select: { timeZone: true } } } }) : null;
      if (!sub) return refuse("superseded");
      const purchase = payment?.purchase ? PurchaseSchema.parse(payment.purchase) : purchaseOf(sub);
      if (purchase.totalCents !== args.paidCents) return refuse("amount_mismatch");
      if (existing) {
        if (!payment) return { outcome: "settled" as const, orderId: existing.id };
        const paidByOther = await tx.payment.findFirst({
          where: { orderId: existing.id, status: "SUCCEEDED", NOT: { id: payment.id } },
          select: { id: true },
        });
        if (paidByOther) return refuse("duplicate");
        await tx.payment.update({ where: { id: payment.id }, data: { orderId: existing.id } });
        return { outcome: "settled" as const, orderId: existing.id };
      }
      // The place is taken under the business's capacity lock, before anything of this member changes.
      const place = { planId: purchase.planId, mode: purchase.mode };
      const hasPlace = await assertPlaceAvailable(tx, place, { id: sub.id, holds: heldSelections(sub) }, { lock: true }).then(
        () => true,
        (e: unknown) => {
          if (e instanceof SoldOutError) return false;
          throw e;
        },
      );
      if (!hasPlace) return refuse("sold_out");
      // A checkout's coupon is redeemed with its first payment (a restart or renewal keeps the one redeemed then).
      const { couponId } = purchase;
      let couponRedeemed = true;
      const redeem = async () => {
        if (couponId === null || args.kind !== "INITIAL") return true;
        const redemption = { couponId, subscriptionId: sub.id, userId: sub.userId, planId: purchase.planId, at: ctx.clock.now(), actor: ctx.actor };
        return (couponRedeemed = await redeemCoupon(tx, { ...redemption, business: { id: sub.businessId, timeZone: sub.business.timeZone } }));
      };
      if (!(await claimOpenMembership(tx, sub, redeem))) return refuse(couponRedeemed ? "already_member" : "coupon_unavailable");

      if (payment?.purchase) {
        // What this payment bought, whatever a later checkout attempt wrote on the membership meanwhile.
        await tx.subscriptionAddon.deleteMany({ where: { subscriptionId: sub.id } });
        await tx.subscription.update({
          where: { id: sub.id },
          data: { ...membershipColumns(purchase), addons: { create: purchase.addons } },
        });
      }
      const billable = await tx.subscription.findUniqueOrThrow({ where: { id: sub.id }, ...subscriptionForBilling });
      const order = await tx.order.create({ data: periodOrder(billable, { period: args.period, kind: args.kind, at: ctx.clock.now() }), select: { id: true } });
      if (payment) await tx.payment.update({ where: { id: payment.id }, data: { orderId: order.id } });
      await spendCoupons(tx, [order.id], ctx.clock.now());
      const paidThrough = sub.paidThroughPeriod && sub.paidThroughPeriod > args.period ? sub.paidThroughPeriod : args.period;
      await tx.subscription.update({ where: { id: sub.id }, data: { status: "ACTIVE", canceledAt: null, paidThroughPeriod: paidThrough } });
      await writeEvents(tx, { at: ctx.clock.now(), actor: eventActorOf(ctx.actor) }, settledEvents(sub, billable, order.id, args));
      crashPoint("settle:before-commit");
      return { outcome: "settled" as const, orderId: order.id };
    });
  try {
    return await settle();
  } catch (e) {
    // The billing clock made the period's order between our read and write (unique membership + period): decide again.
    if ((e as { code?: string }).code === "P2002") return settle();
    throw e;
  }
}

/** What a settled period announces: its order, and the membership started, restarted or renewed. */
function settledEvents(
  sub: { id: number; userId: number; businessId: number },
  billable: { planId: number; mode: string; totalCents: number },
  orderId: number,
  args: { period: string; kind: OrderKind; paidCents: number },
): NewEvent[] {
  const membershipId = sub.id;
  const common = { businessId: sub.businessId, objectId: globalId("Membership", membershipId) };
  const base = { membershipId, userId: sub.userId };
  const membership: NewEvent =
    args.kind === "INITIAL"
      ? { ...common, type: "membership.started.v1", payload: { ...base, orderId, period: args.period, planId: billable.planId, mode: billable.mode, totalCents: billable.totalCents } }
      : args.kind === "RESTART"
        ? { ...common, type: "membership.restarted.v1", payload: { ...base, orderId, period: args.period, chargedCents: args.paidCents } }
        : { ...common, type: "membership.renewed.v1", payload: { ...base, orderId, period: args.period, totalCents: billable.totalCents } };
  return [
    {
      type: "order.created.v1",
      businessId: sub.businessId,
      objectId: globalId("Order", orderId),
      payload: { orderId, membershipId, userId: sub.userId, period: args.period, kind: args.kind, totalCents: billable.totalCents },
    },
    membership,
  ];
}

function refundReasonOf(value: string): RefundReason {
  return (REFUND_REASONS as readonly string[]).includes(value) ? (value as RefundReason) : "duplicate";
}

/** One key per payment intent for its full refund, whichever path refunds it: the provider refunds it once. */
const fullRefundKey = (paymentIntentId: string) => `refund:${paymentIntentId}`;

/** Gives back a payment that settlement could not match, records it, and logs why. */
export async function refundUnmatched(ctx: SettleContext, payment: { id: number }, intent: PaymentIntentInfo, reason: RefundReason): Promise<void> {
  // A destination charge's refund takes back the transfer and the platform's fee in proportion (the platform
  // absorbs the processor's own fee, which it paid).
  const refund = await providerFor(ctx).refund({
    paymentIntentId: intent.id,
    amountCents: intent.amountCents,
    idempotencyKey: fullRefundKey(intent.id),
    reverseTransfer: intent.route !== null,
  });
  await ctx.db.$transaction(async (tx) => {
    // Recorded (and announced) once, whichever path refunds it first.
    const { count } = await tx.payment.updateMany({ where: { id: payment.id, refundedCents: { not: intent.amountCents } }, data: { refundedCents: intent.amountCents } });
    if (count === 0) return;
    const entry = await refundEntry(tx, { paymentId: payment.id, refundId: refund.id, refundedTotalCents: intent.amountCents, at: ctx.clock.now() });
    if (entry) await writeLedger(tx, [entry]);
    const row = await tx.payment.findUniqueOrThrow({ where: { id: payment.id }, select: { userId: true, subscriptionId: true, subscription: { select: { businessId: true } } } });
    await writeEvents(tx, { at: ctx.clock.now(), actor: eventActorOf(ctx.actor) }, [
      {
        type: "payment.refunded.v1",
        businessId: row.subscription?.businessId ?? null,
        objectId: row.subscription ? globalId("Membership", row.subscriptionId!) : globalId("User", row.userId),
        payload: { paymentId: payment.id, membershipId: row.subscription ? row.subscriptionId : null, userId: row.userId, amountCents: intent.amountCents, reason },
      },
    ]);
  });
  ctx.log.warn(
    { paymentId: payment.id, paymentIntentId: intent.id, amountCents: intent.amountCents, reason },
    "payment refunded: it could not be matched to what it was created for",
  );
}

/** What the member is told when their payment was refunded instead of activating anything. */
export function refundedMessage(reason: RefundReason, amountCents: number): string {
  const refunded = `Your payment of ${formatCents(amountCents)} was refunded.`;
  switch (reason) {
    case "already_member":
    case "superseded":
      return `You already have a membership at this business. ${refunded}`;
    case "duplicate":
      return `This month is already paid. ${refunded}`;
    case "amount_mismatch":
      return `This payment does not match the order it was made for. ${refunded} Please check out again.`;
    case "sold_out":
      return `${SOLD_OUT_MESSAGE} ${refunded}`;
    case "coupon_unavailable":
      return `${COUPON_MESSAGES.invalidCode}. ${refunded} Please check out again.`;
  }
}

export type ChargeOutcome =
  | { outcome: "paid"; orderId: number }
  | { outcome: "requires_action"; clientSecret: string; paymentIntentId: string }
  | { outcome: "failed"; message: string; code: string }
  /** Charged, but the charge could not be matched (see settlePaidPeriod) and was refunded. */
  | { outcome: "refunded"; message: string; reason: RefundReason };

/**
 * Charges one billing period of a membership for what it holds now (a restart) and settles it (see
 * settlePaidPeriod). Idempotent: a period that already has an order is reported as paid without charging again,
 * and the same idempotency key never charges twice.
 *
 * With a saved card the charge is off-session; without one (or when the bank asks for authentication) the
 * outcome is `requires_action` with a client secret the member confirms in the card form, whose completion
 * settles the same purchase.
 */
export async function chargeForPeriod(
  ctx: SettleContext,
  args: { subscriptionId: number; period: string; kind: OrderKind; idempotencyKey: string },
): Promise<ChargeOutcome> {
  const sub = await ctx.db.subscription.findUnique({
    where: { id: args.subscriptionId },
    include: { ...subscriptionForBilling.include, addons: true, business: { select: { id: true, name: true } } },
  });
  if (!sub) throw new NotFoundError("Subscription");
  const existing = await ctx.db.order.findUnique({
    where: { subscriptionId_period: { subscriptionId: sub.id, period: args.period } },
    select: { id: true },
  });
  if (existing) return { outcome: "paid", orderId: existing.id };

  const settle = async (paymentId: number | null, paidCents: number) =>
    settlePaidPeriod(ctx, { userId: sub.userId, subscriptionId: sub.id, paymentId, paidCents, period: args.period, kind: args.kind });
  if (sub.totalCents === 0) {
    // Fully discounted: nothing to charge, the period is still delivered.
    const free = await settle(null, 0);
    return free.outcome === "settled" ? { outcome: "paid", orderId: free.orderId } : { outcome: "refunded", reason: free.reason, message: refundedMessage(free.reason, 0) };
  }

  // Routed by its period like every charge (refused before anything is charged when the business cannot take it).
  const routing = await requireRouting(ctx.db, sub.business, args.period, sub.totalCents);
  const provider = providerFor(ctx);
  const customerId = await provider.ensureCustomer({ userId: sub.userId, email: sub.user.email, name: sub.user.name, existingId: sub.user.paymentCustomerId });
  if (customerId !== sub.user.paymentCustomerId) {
    await ctx.db.user.update({ where: { id: sub.userId }, data: { paymentCustomerId: customerId } });
  }
  const routed = routedRequest(routing, { subscription_id: String(sub.id), period: args.period, kind: args.kind, business_id: String(sub.businessId) });
  const savedMethod =
    sub.providerPaymentMethodId ??
    (await ctx.db.paymentMethod.findFirst({
      where: { userId: sub.userId, provider: provider.name, isDefault: true },
      orderBy: { createdAt: "desc" },
      select: { providerPaymentMethodId: true },
    }))?.providerPaymentMethodId;
  const charge = { customerId, amountCents: sub.totalCents, currency: "usd", idempotencyKey: args.idempotencyKey, ...routed };
  const intent = savedMethod
    ? await provider.chargeSavedCard({ ...charge, paymentMethodId: savedMethod })
    : await provider.createPaymentIntent({ ...charge, saveForFuture: true });
  const payment = await recordPayment(ctx.db, intent, {
    userId: sub.userId,
    businessId: sub.businessId,
    subscriptionId: sub.id,
    provider: provider.name,
    idempotencyKey: args.idempotencyKey,
    purchase: purchaseOf(sub),
    at: ctx.clock.now(),
    actor: ctx.actor,
  });

  if (intent.status === "succeeded") {
    const settled = await settle(payment.id, intent.amountCents);
    if (settled.outcome === "settled") return { outcome: "paid", orderId: settled.orderId };
    await refundUnmatched(ctx, payment, intent, settled.reason);
    return { outcome: "refunded", reason: settled.reason, message: refundedMessage(settled.reason, intent.amountCents) };
  }
  if (intent.status === "requires_action" || (!savedMethod && intent.status === "requires_payment_method" && !intent.lastError)) {
    return { outcome: "requires_action", clientSecret: intent.clientSecret, paymentIntentId: intent.id };
  }
  return {
    outcome: "failed",
    code: intent.lastError?.code ?? "payment_failed",
    message: intent.lastError?.message ?? "Payment failed",
  };
}
