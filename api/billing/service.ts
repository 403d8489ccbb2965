import type { ServiceContext } from "../context.ts";
import type { PrismaClient } from "../db.ts";
import type { OrderKind, PaymentStatus, Prisma } from "../generated/prisma/client.ts";
import { NotFoundError } from "../shared/errors.ts";
import { formatCents } from "../shared/money.ts";
import type { IntentStatus, PaymentIntentInfo, PaymentProvider } from "./provider.ts";
import { SandboxProvider } from "./sandbox.ts";
import { createStripeClient, StripeProvider } from "./stripe.ts";

const providers = new WeakMap<PrismaClient, PaymentProvider>();

/** The configured payment provider (PAYMENT_PROVIDER): sandbox by default. */
export function providerFor(ctx: Pick<ServiceContext, "db" | "clock" | "config">): PaymentProvider {
  let p = providers.get(ctx.db);
  if (!p) {
    p =
      ctx.config.paymentProvider === "stripe"
        ? new StripeProvider(createStripeClient({ secretKey: ctx.config.stripe.secretKey!, apiBase: ctx.config.stripe.apiBase }))
        : new SandboxProvider(ctx.db, ctx.clock);
    providers.set(ctx.db, p);
  }
  return p;
}

/** The sandbox provider, for its browser-side steps (confirming intents with a test card). */
export function sandboxFor(ctx: Pick<ServiceContext, "db" | "clock" | "config">): SandboxProvider {
  const p = providerFor(ctx);
  if (!(p instanceof SandboxProvider)) throw new Error("The sandbox card form is only available with PAYMENT_PROVIDER=sandbox.");
  return p;
}

export const PAYMENT_STATUS: Record<IntentStatus, PaymentStatus> = {
  requires_payment_method: "REQUIRES_PAYMENT_METHOD",
  requires_confirmation: "REQUIRES_PAYMENT_METHOD",
  requires_action: "REQUIRES_ACTION",
  processing: "PROCESSING",
  succeeded: "SUCCEEDED",
  canceled: "CANCELED",
};

/** Our payment status for a provider intent: a declined one (an error, back to requires_payment_method) is FAILED. */
export function paymentStatusOf(intent: PaymentIntentInfo): PaymentStatus {
  return intent.lastError && intent.status === "requires_payment_method" ? "FAILED" : PAYMENT_STATUS[intent.status];
}

/** Records (or updates) our row for a provider payment intent. */
export async function recordPayment(
  db: Prisma.TransactionClient | PrismaClient,
  intent: PaymentIntentInfo,
  link: { userId: number; subscriptionId?: number | null; orderId?: number | null; provider: string; idempotencyKey?: string; at: Date },
) {
  const status = paymentStatusOf(intent);
  const common = {
    status,
    amountCents: intent.amountCents,
    currency: intent.currency.toUpperCase(),
    failureCode: intent.lastError?.code ?? null,
    failureMessage: intent.lastError?.message ?? null,
    ...(link.orderId ? { orderId: link.orderId } : {}),
  };
  const upsert = () => db.payment.upsert({
    where: { providerPaymentId: intent.id },
    create: {
      ...common,
      providerPaymentId: intent.id,
      provider: link.provider,
      userId: link.userId,
      subscriptionId: link.subscriptionId ?? null,
      idempotencyKey: link.idempotencyKey ?? null,
      // Domain time (the injectable clock), not the database's: retries are spaced by it.
      createdAt: link.at,
    },
    update: common,
  });
  try {
    return await upsert();
  } catch (e) {
    // Two requests recorded the same intent at once (a double submit): the row exists now, update it.
    if ((e as { code?: string }).code === "P2002") return upsert();
    throw e;
  }
}

const MODE_NAME = { PICKUP: "Pickup", SHIPPING: "Shipping", DELIVERY: "Delivery" } as const;

/** What charging and settling a period reads of a subscription (the order snapshot, the customer). */
export const subscriptionForBilling = {
  include: {
    plan: { select: { ref: true, name: true } },
    addons: { include: { addon: { select: { ref: true, name: true } } } },
    user: { select: { id: true, email: true, name: true, username: true, paymentCustomerId: true } },
  },
} satisfies Prisma.SubscriptionDefaultArgs;

export type BillableSubscription = Prisma.SubscriptionGetPayload<typeof subscriptionForBilling>;

/** The order-history snapshot of what a period bought (spec §3 Order.selection). */
export function selectionSnapshot(sub: BillableSubscription) {
  const chosenAddons = sub.addons.map((a) => ({
    id: a.addon.ref,
    name: a.addon.name,
    price: formatCents(a.amountCents),
    amountCents: a.amountCents,
  }));
  return {
    mode: sub.mode.toLowerCase(),
    chosenItemId: sub.plan.ref,
    chosenItemName: sub.plan.name,
    chosenVariationName: MODE_NAME[sub.mode],
    chosenItemPrice: formatCents(sub.planAmountCents),
    chosenItemAmountCents: sub.planAmountCents,
    chosenAddons,
    chosenAddonIds: chosenAddons.map((a) => a.id),
    chosenUpgrades: [],
    chosenUpgradeIds: [],
  };
}

/** The order of a paid period: what the subscription buys now, as the member's order history shows it. */
export function periodOrder(sub: BillableSubscription, args: { period: string; kind: OrderKind; at: Date }) {
  return {
    subscriptionId: sub.id,
    userId: sub.userId,
    businessId: sub.businessId,
    kind: args.kind,
    period: args.period,
    mode: sub.mode,
    email: sub.email ?? sub.user.email,
    address: sub.address ?? undefined,
    selection: selectionSnapshot(sub),
    isGift: sub.isGift,
    couponId: sub.couponId,
    subtotalCents: sub.planAmountCents + sub.addonsAmountCents,
    discountCents: sub.discountCents,
    taxCents: sub.taxCents,
    totalCents: sub.totalCents,
    createdAt: args.at,
  } satisfies Prisma.OrderUncheckedCreateInput;
}

/** Turns a paid period into its order and moves the subscription forward, in one transaction. */
export async function settlePeriod(
  db: PrismaClient,
  sub: BillableSubscription,
  args: { period: string; kind: OrderKind; paymentId?: number; at: Date },
): Promise<number> {
  const settle = () => db.$transaction(async (tx) => {
    const existing = await tx.order.findUnique({ where: { subscriptionId_period: { subscriptionId: sub.id, period: args.period } } });
    const order =
      existing ??
      (await tx.order.create({ data: periodOrder(sub, args) }));
    if (args.paymentId) {
      // Two payments completing one period at once (two tabs, two server processes): the order row lock
      // serialises them and the first one linked keeps the charge; the caller refunds the one left unlinked.
      let paidByOther = null;
      if (existing) {
        await tx.$queryRaw`SELECT id FROM orders WHERE id = ${order.id} FOR UPDATE`;
        paidByOther = await tx.payment.findFirst({
          where: { orderId: order.id, status: "SUCCEEDED", refundedCents: 0, NOT: { id: args.paymentId } },
          select: { id: true },
        });
      }
      if (!paidByOther) await tx.payment.update({ where: { id: args.paymentId }, data: { orderId: order.id } });
    }
    const paidThrough = sub.paidThroughPeriod && sub.paidThroughPeriod > args.period ? sub.paidThroughPeriod : args.period;
    await tx.subscription.update({
      where: { id: sub.id },
      data: { status: "ACTIVE", canceledAt: null, paidThroughPeriod: paidThrough },
    });
    return order.id;
  });
  try {
    return await settle();
  } catch (e) {
    // Another process created the period's order between our read and write (unique subscription+period).
    if ((e as { code?: string }).code === "P2002") return settle();
    throw e;
  }
}

export type ChargeOutcome =
  | { outcome: "paid"; orderId: number }
  | { outcome: "requires_action"; clientSecret: string; paymentIntentId: string }
  | { outcome: "failed"; message: string; code: string };

/**
 * Charges one billing period of a subscription and, once paid, creates that period's order and marks the
 * subscription ACTIVE (canceledAt cleared, paidThroughPeriod advanced). Idempotent: a period that already
 * has an order is reported as paid without charging again, and the same idempotency key never charges twice.
 *
 * With a saved card the charge is off-session; without one (or when the bank asks for authentication) the
 * outcome is `requires_action` with a client secret the member confirms in the card form.
 */
export async function chargeForPeriod(
  ctx: Pick<ServiceContext, "db" | "clock" | "config">,
  args: { subscriptionId: number; period: string; kind: OrderKind; idempotencyKey: string },
): Promise<ChargeOutcome> {
  const sub = await ctx.db.subscription.findUnique({ where: { id: args.subscriptionId }, ...subscriptionForBilling });
  if (!sub) throw new NotFoundError("Subscription");
  const existing = await ctx.db.order.findUnique({
    where: { subscriptionId_period: { subscriptionId: sub.id, period: args.period } },
    select: { id: true },
  });
  if (existing) return { outcome: "paid", orderId: existing.id };

  const provider = providerFor(ctx);
  const customerId = await provider.ensureCustomer({
    userId: sub.userId,
    email: sub.user.email,
    name: sub.user.name,
    existingId: sub.user.paymentCustomerId,
  });
  if (customerId !== sub.user.paymentCustomerId) {
    await ctx.db.user.update({ where: { id: sub.userId }, data: { paymentCustomerId: customerId } });
  }
  const metadata = { subscription_id: String(sub.id), period: args.period, kind: args.kind, business_id: String(sub.businessId) };

  if (sub.totalCents === 0) {
    // Fully discounted: nothing to charge, the period is still delivered.
    return { outcome: "paid", orderId: await settlePeriod(ctx.db, sub, { period: args.period, kind: args.kind, at: ctx.clock.now() }) };
  }

  const savedMethod =
    sub.providerPaymentMethodId ??
    (await ctx.db.paymentMethod.findFirst({
      where: { userId: sub.userId, provider: provider.name, isDefault: true },
      orderBy: { createdAt: "desc" },
      select: { providerPaymentMethodId: true },
    }))?.providerPaymentMethodId;

  const intent = savedMethod
    ? await provider.chargeSavedCard({
        customerId,
        paymentMethodId: savedMethod,
        amountCents: sub.totalCents,
        currency: "usd",
        idempotencyKey: args.idempotencyKey,
        metadata,
      })
    : await provider.createPaymentIntent({
        customerId,
        amountCents: sub.totalCents,
        currency: "usd",
        idempotencyKey: args.idempotencyKey,
        metadata,
        saveForFuture: true,
      });
  const payment = await recordPayment(ctx.db, intent, {
    userId: sub.userId,
    subscriptionId: sub.id,
    provider: provider.name,
    idempotencyKey: args.idempotencyKey,
    at: ctx.clock.now(),
  });

  if (intent.status === "succeeded") {
    return { outcome: "paid", orderId: await settlePeriod(ctx.db, sub, { period: args.period, kind: args.kind, paymentId: payment.id, at: ctx.clock.now() }) };
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
