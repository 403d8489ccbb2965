import { randomUUID } from "node:crypto";
import type { Actor, ServiceContext } from "../context.ts";
import { eventActorOf, writeEvents } from "../events/outbox.ts";
import { requireUser } from "../auth/policy.ts";
import { ConflictError, NotFoundError, RuleViolationError } from "../shared/errors.ts";
import { globalId } from "../shared/global-id.ts";
import type { CardSummary } from "./providers/provider.ts";
import { providerFor } from "./service.ts";
import { retryPastDue } from "./renewals/clock.ts";

/**
 * Saved cards: the member's default card is what renewals charge. Cards come from a confirmed checkout
 * payment (saved automatically), from a promoted payment (legacy clients), or from the card update form
 * (a setup intent).
 */

/**
 * Makes `card` the user's default and the card of their open memberships. A card that was not the default yet
 * announces card.updated.v1 in the same transaction (saving the same card again announces nothing).
 */
export async function saveDefaultCard(ctx: Pick<ServiceContext, "db" | "clock"> & { actor?: Actor }, provider: string, userId: number, card: CardSummary) {
  return ctx.db.$transaction(async (tx) => {
    const before = await tx.paymentMethod.findUnique({ where: { providerPaymentMethodId: card.id }, select: { isDefault: true } });
    await tx.paymentMethod.updateMany({ where: { userId, provider, NOT: { providerPaymentMethodId: card.id } }, data: { isDefault: false } });
    const saved = await tx.paymentMethod.upsert({
      where: { providerPaymentMethodId: card.id },
      create: { userId, provider, providerPaymentMethodId: card.id, brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear, isDefault: true },
      update: { isDefault: true },
    });
    await tx.subscription.updateMany({
      where: { userId, status: { in: ["INCOMPLETE", "ACTIVE", "PAST_DUE"] } },
      data: { providerPaymentMethodId: card.id },
    });
    if (!before?.isDefault) {
      await writeEvents(tx, { at: ctx.clock.now(), actor: eventActorOf(ctx.actor) }, [
        {
          type: "card.updated.v1",
          businessId: null,
          objectId: globalId("User", userId),
          payload: { userId, brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear },
        },
      ]);
    }
    return saved;
  });
}

async function customerOf(ctx: ServiceContext, userId: number): Promise<string> {
  const provider = providerFor(ctx);
  const user = await ctx.db.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true, name: true, paymentCustomerId: true } });
  const customerId = await provider.ensureCustomer({ userId, email: user.email, name: user.name, existingId: user.paymentCustomerId });
  if (customerId !== user.paymentCustomerId) await ctx.db.user.update({ where: { id: userId }, data: { paymentCustomerId: customerId } });
  return customerId;
}

/** Card update, step 1: a setup intent the card form confirms with the new card. */
export async function startCardUpdate(ctx: ServiceContext): Promise<{ clientSecret: string; setupIntentId: string }> {
  const actor = requireUser(ctx);
  const customerId = await customerOf(ctx, actor.user.id);
  const intent = await providerFor(ctx).createSetupIntent({ customerId, idempotencyKey: `card-update:${actor.user.id}:${randomUUID()}` });
  return { clientSecret: intent.clientSecret, setupIntentId: intent.id };
}

/**
 * Card update, step 2: once the setup intent succeeded, the new card becomes the default for renewals, and
 * past-due memberships are retried with it at once.
 */
export async function finishCardUpdate(ctx: ServiceContext, input: { setupIntentId: string }) {
  const actor = requireUser(ctx);
  const provider = providerFor(ctx);
  const user = await ctx.db.user.findUniqueOrThrow({ where: { id: actor.user.id }, select: { paymentCustomerId: true } });
  const intent = await provider.retrieveSetupIntent(input.setupIntentId).catch(() => null);
  if (!intent || !user.paymentCustomerId || intent.customerId !== user.paymentCustomerId) throw new NotFoundError("Card update");
  if (intent.status !== "succeeded" || !intent.paymentMethodId) {
    throw new RuleViolationError(intent.lastError?.message ?? "Confirmation failed", intent.lastError?.code ?? "setup_incomplete");
  }
  const saved = await saveDefaultCard(ctx, provider.name, actor.user.id, await provider.describeCard(intent.paymentMethodId));
  await retryPastDue(ctx, actor.user.id);
  return saved;
}

/** The card saved for the user's renewals, or null: the signed-in user's as read with the session (api/auth/sessions.ts). */
export async function defaultCardOf(ctx: ServiceContext, userId: number) {
  if (ctx.actor.kind === "user" && ctx.actor.user.id === userId && ctx.actor.card !== undefined) return ctx.actor.card;
  return ctx.db.paymentMethod.findFirst({ where: { userId, isDefault: true, provider: providerFor(ctx).name }, orderBy: { createdAt: "desc" } });
}

/** Refusal when a paid card cannot be kept: the client asks for the card once more with a setup intent. */
export class SingleUsePaymentMethodError extends ConflictError {
  readonly setupIntentClientSecret: string;
  constructor(setupIntentClientSecret: string) {
    super("Please re-enter your card once more so we can save it for automatic renewals.", "single_use_payment_method");
    this.setupIntentClientSecret = setupIntentClientSecret;
  }
}

/**
 * Legacy clients' "promote" step after a successful payment: keep its card for renewals. A card that cannot
 * be saved (single use) is refused with a setup intent to collect it again (spec §7, 409).
 */
export async function promotePaymentMethod(ctx: ServiceContext, input: { paymentIntentId: string }) {
  const actor = requireUser(ctx);
  const payment = await ctx.db.payment.findUnique({ where: { providerPaymentId: input.paymentIntentId } });
  if (!payment || payment.userId !== actor.user.id) throw new NotFoundError("Payment");
  const provider = providerFor(ctx);
  const intent = await provider.retrievePaymentIntent(input.paymentIntentId);
  if (intent.status !== "succeeded" || !intent.paymentMethodId) throw new RuleViolationError("Payment was not completed", "payment_incomplete");
  const card = await provider.describeCard(intent.paymentMethodId);
  const customerId = await customerOf(ctx, actor.user.id);
  if (card.customerId !== customerId) {
    const setup = await provider.createSetupIntent({ customerId, idempotencyKey: `promote:${intent.id}` });
    throw new SingleUsePaymentMethodError(setup.clientSecret);
  }
  return saveDefaultCard(ctx, provider.name, actor.user.id, card);
}
