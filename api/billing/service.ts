import type { Actor, ServiceContext } from "../context.ts";
import type { PrismaClient } from "../db.ts";
import { eventActorOf, writeEvents } from "../events/outbox.ts";
import type { OrderKind, PaymentStatus, Prisma } from "../generated/prisma/client.ts";
import { globalId } from "../shared/global-id.ts";
import { chargeEntry, writeLedger, type ChargeFacts } from "../payouts/ledger.ts";
import { MODE_NAMES } from "../shared/fulfillment.ts";
import { formatCents } from "../shared/money.ts";
import type { IntentStatus, PaymentIntentInfo, PaymentProvider } from "./providers/provider.ts";
import type { Purchase } from "./checkout/purchase.ts";
import { SandboxProvider } from "./providers/sandbox/provider.ts";
import { createStripeClient, StripeProvider } from "./providers/stripe/provider.ts";

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

const PAYMENT_STATUS: Record<IntentStatus, PaymentStatus> = {
  requires_payment_method: "REQUIRES_PAYMENT_METHOD",
  requires_confirmation: "REQUIRES_PAYMENT_METHOD",
  requires_action: "REQUIRES_ACTION",
  processing: "PROCESSING",
  succeeded: "SUCCEEDED",
  canceled: "CANCELED",
};

/** A provider charge as the business's books read it (api/payouts/ledger.ts). */
export function chargeFactsOf(intent: PaymentIntentInfo): ChargeFacts {
  return { providerId: intent.id, amountCents: intent.amountCents, destination: intent.route?.destination ?? null, metadata: intent.metadata };
}

/** Our payment status for a provider intent: a declined one (an error, back to requires_payment_method) is FAILED. */
export function paymentStatusOf(intent: PaymentIntentInfo): PaymentStatus {
  return intent.lastError && intent.status === "requires_payment_method" ? "FAILED" : PAYMENT_STATUS[intent.status];
}

/**
 * Records (or updates) our row for a provider payment intent. A payment that becomes FAILED here (declined at
 * checkout or restart, reported by a webhook) announces payment.failed.v1 in the same transaction, once.
 */
export async function recordPayment(
  db: PrismaClient,
  intent: PaymentIntentInfo,
  link: {
    userId: number;
    /** The business it is taken for (null only for a payment recorded before payments named theirs). */
    businessId: number | null;
    subscriptionId?: number | null;
    orderId?: number | null;
    provider: string;
    idempotencyKey?: string;
    /** What the payment was created to buy (checkout, restart): settlement activates exactly this. */
    purchase?: Purchase;
    at: Date;
    /** Who the event of a failed payment names (absent: the system, e.g. a webhook). */
    actor?: Actor;
  },
) {
  const status = paymentStatusOf(intent);
  const common = {
    status,
    amountCents: intent.amountCents,
    currency: intent.currency.toUpperCase(),
    failureCode: intent.lastError?.code ?? null,
    failureMessage: intent.lastError?.message ?? null,
    destination: intent.route?.destination ?? null,
    applicationFeeCents: intent.route?.applicationFeeCents ?? 0,
    ...(link.orderId ? { orderId: link.orderId } : {}),
  };
  const record = () =>
    db.$transaction(async (tx) => {
      const before = status === "FAILED" || status === "SUCCEEDED" ? await tx.payment.findUnique({ where: { providerPaymentId: intent.id }, select: { status: true, paidAt: true } }) : null;
      // The first time it is recorded succeeded: the day reconciliation checks it on (see the column).
      const paidAt = status === "SUCCEEDED" ? { paidAt: before?.paidAt ?? link.at } : {};
      const payment = await tx.payment.upsert({
        where: { providerPaymentId: intent.id },
        create: {
          ...common,
          providerPaymentId: intent.id,
          provider: link.provider,
          userId: link.userId,
          businessId: link.businessId,
          subscriptionId: link.subscriptionId ?? null,
          idempotencyKey: link.idempotencyKey ?? null,
          ...(link.purchase ? { purchase: link.purchase as Prisma.InputJsonObject } : {}),
          // Domain time (the injectable clock), not the database's: retries are spaced by it.
          createdAt: link.at,
          ...paidAt,
        },
        update: { ...common, ...paidAt },
      });
      if (status === "FAILED" && before?.status !== "FAILED") await paymentFailedEvent(tx, payment, intent, link);
      // The business's books: a routed charge's row, once (whichever path sees it succeed first).
      if (status === "SUCCEEDED" && payment.businessId !== null) {
        const entry = chargeEntry(chargeFactsOf(intent), { businessId: payment.businessId, paymentId: payment.id, period: intent.metadata.period ?? "", at: link.at });
        if (entry) await writeLedger(tx, [entry]);
      }
      return payment;
    });
  try {
    return await record();
  } catch (e) {
    // Two requests recorded the same intent at once (a double submit): the row exists now, update it.
    if ((e as { code?: string }).code === "P2002") return record();
    throw e;
  }
}

async function paymentFailedEvent(
  tx: Prisma.TransactionClient,
  payment: { id: number; userId: number; subscriptionId: number | null; amountCents: number },
  intent: PaymentIntentInfo,
  link: { at: Date; actor?: Actor },
) {
  const sub = payment.subscriptionId ? await tx.subscription.findUnique({ where: { id: payment.subscriptionId }, select: { businessId: true } }) : null;
  await writeEvents(tx, { at: link.at, actor: eventActorOf(link.actor) }, [
    {
      type: "payment.failed.v1",
      businessId: sub?.businessId ?? null,
      objectId: sub ? globalId("Membership", payment.subscriptionId!) : globalId("User", payment.userId),
      payload: {
        paymentId: payment.id,
        membershipId: sub ? payment.subscriptionId : null,
        userId: payment.userId,
        amountCents: payment.amountCents,
        period: intent.metadata.period ?? null,
        code: intent.lastError?.code ?? null,
      },
    },
  ]);
}

/** What charging and settling a period reads of a subscription (the order snapshot, the customer). */
export const subscriptionForBilling = {
  include: {
    plan: { select: { ref: true, name: true } },
    addons: { include: { addon: { select: { ref: true, name: true } } } },
    coupon: { select: { code: true } },
    user: { select: { id: true, email: true, name: true, username: true, paymentCustomerId: true } },
  },
} satisfies Prisma.SubscriptionDefaultArgs;

export type BillableSubscription = Prisma.SubscriptionGetPayload<typeof subscriptionForBilling>;

/** The order-history snapshot of what a period bought (spec §3 Order.selection). */
function selectionSnapshot(sub: BillableSubscription) {
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
    chosenVariationName: MODE_NAMES[sub.mode],
    chosenItemPrice: formatCents(sub.planAmountCents),
    chosenItemAmountCents: sub.planAmountCents,
    chosenAddons,
    chosenAddonIds: chosenAddons.map((a) => a.id),
    chosenUpgrades: [],
    chosenUpgradeIds: [],
    // Spec §6: the pickup point of a pickup order (the point travels on the order itself as fulfillmentPoint).
    pickupAddress: sub.mode === "PICKUP" ? sub.fulfillmentPoint : "",
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
    fulfillmentPoint: sub.fulfillmentPoint,
    email: sub.email ?? sub.user.email,
    address: sub.address ?? undefined,
    selection: selectionSnapshot(sub),
    isGift: sub.isGift,
    couponId: sub.couponId,
    subtotalCents: sub.planAmountCents + sub.addonsAmountCents,
    modeSurchargeCents: sub.modeSurchargeCents,
    couponCode: sub.coupon?.code ?? null,
    discountCents: sub.discountCents,
    taxRateBps: sub.taxRateBps,
    taxCents: sub.taxCents,
    totalCents: sub.totalCents,
    createdAt: args.at,
  } satisfies Prisma.OrderUncheckedCreateInput;
}
