/**
 * Next-month sign-ups: past its cutoff day, a business whose page takes them (afterCutoff NEXT_MONTH)
 * signs a visitor up for next month's box. Nothing is charged today: checkout saves the card with a setup intent,
 * and once the provider says it is saved the membership is ACTIVE with `first_period` next month and paid through
 * this one (nothing is owed for it), so the renewal run makes the first charge on that month's billing day (an
 * INITIAL order) and no box, skip, reminder or notice comes before it. The place is taken at sign-up, and the
 * coupon redeemed then (its first charge, the one it counts from, is that first renewal's).
 */
import type { Actor, ServiceContext } from "../../context.ts";
import { requireMember } from "../../auth/policy.ts";
import { assertPlaceAvailable, heldSelections } from "../../catalog/capacity.ts";
import { eventActorOf, writeEvents } from "../../events/outbox.ts";
import { addMonths, isoDate, parseYearMonth, yearMonthOf } from "../../shared/calendar.ts";
import { ConflictError, NotFoundError, RuleViolationError } from "../../shared/errors.ts";
import { globalId } from "../../shared/global-id.ts";
import { resumeDate } from "../../rules/dates.ts";
import { memberAddress } from "../../rules/member.ts";
import { saveDefaultCard } from "../cards.ts";
import type { CompletedCheckout } from "./complete.ts";
import type { SetupIntentInfo } from "../providers/provider.ts";
import { providerFor } from "../service.ts";
import { claimOpenMembership, lockMember } from "./settlement.ts";
import { redeemCoupon } from "../../coupons/redemption.ts";
import { COUPON_MESSAGES } from "../../coupons/codes.ts";

type SignupContext = Pick<ServiceContext, "db" | "clock" | "config" | "log"> & { actor?: Actor };

/** The setup intent that saves a next-month sign-up's card, remembered on its unfinished membership. */
export async function openSignupSetup(ctx: ServiceContext, args: { subscriptionId: number; customerId: string; idempotencyKey: string }): Promise<SetupIntentInfo> {
  const setup = await providerFor(ctx).createSetupIntent({ customerId: args.customerId, idempotencyKey: `signup:${args.idempotencyKey}` });
  await ctx.db.subscription.update({ where: { id: args.subscriptionId }, data: { signupSetupIntentId: setup.id } });
  return setup;
}

/** The member finishes a next-month sign-up once the card form saved the card (the checkout's last step). */
export async function completeSignup(ctx: ServiceContext, input: { setupIntentId: string }): Promise<CompletedCheckout> {
  const actor = requireMember(ctx);
  const sub = await ctx.db.subscription.findUnique({ where: { signupSetupIntentId: input.setupIntentId }, select: { id: true, userId: true } });
  if (!sub || sub.userId !== actor.user.id) throw new NotFoundError("Sign-up");
  return settleSignup(ctx, sub.id);
}

/**
 * Activates a next-month sign-up whose card the provider saved (the member's completion, or Stripe's
 * setup_intent.succeeded when the browser closed first). Safe to repeat: an active one answers as it is.
 */
export async function settleSignup(ctx: SignupContext, subscriptionId: number): Promise<CompletedCheckout> {
  const sub = await ctx.db.subscription.findUnique({ where: { id: subscriptionId }, include: { user: { select: { email: true } }, addons: true, business: { select: { timeZone: true } } } });
  if (!sub?.signupSetupIntentId || !sub.firstPeriod) throw new NotFoundError("Sign-up");
  const provider = providerFor(ctx);
  const setup = await provider.retrieveSetupIntent(sub.signupSetupIntentId);
  if (setup.status !== "succeeded" || !setup.paymentMethodId) {
    throw new RuleViolationError(setup.lastError?.message ?? "Your card was not saved. Please try again.", setup.lastError?.code ?? "card_not_saved");
  }
  const card = await provider.describeCard(setup.paymentMethodId);
  const firstPeriod = sub.firstPeriod;
  const now = ctx.clock.now();
  const activated = await ctx.db.$transaction(async (tx) => {
    await lockMember(tx, sub.userId);
    const current = await tx.subscription.findUnique({ where: { id: sub.id }, select: { status: true } });
    if (!current) throw new ConflictError("This sign-up gave way to another membership at this business.", "superseded");
    if (current.status !== "INCOMPLETE") return false;
    // The place is taken now, under the capacity lock, as a paid checkout takes it.
    await assertPlaceAvailable(tx, { planId: sub.planId, mode: sub.mode }, { id: sub.id, holds: heldSelections(sub) }, { lock: true });
    let couponRedeemed = true;
    const redeem = async () =>
      sub.couponId === null ||
      (couponRedeemed = await redeemCoupon(tx, {
        couponId: sub.couponId, subscriptionId: sub.id, userId: sub.userId, planId: sub.planId, business: { id: sub.businessId, timeZone: sub.business.timeZone }, at: now, actor: ctx.actor,
      }));
    if (!(await claimOpenMembership(tx, sub, redeem))) {
      if (!couponRedeemed) throw new ConflictError(`${COUPON_MESSAGES.invalidCode}. Please check out again.`, "coupon_unavailable");
      throw new ConflictError("You already have a membership at this business.", "already_member");
    }
    await tx.subscription.update({
      where: { id: sub.id },
      data: {
        status: "ACTIVE",
        startedAt: now,
        providerPaymentMethodId: setup.paymentMethodId,
        // Nothing is owed before the first period: the renewal run charges it on its billing day.
        paidThroughPeriod: yearMonthOf(addMonths(parseYearMonth(firstPeriod), -1)),
      },
    });
    await writeEvents(tx, { at: now, actor: eventActorOf(ctx.actor) }, [
      {
        type: "membership.signed_up.v1",
        businessId: sub.businessId,
        objectId: globalId("Membership", sub.id),
        payload: { membershipId: sub.id, userId: sub.userId, firstPeriod, planId: sub.planId, mode: sub.mode, totalCents: sub.totalCents },
      },
    ]);
    return true;
  });
  // The card renewals charge, as a checkout's saved card (a repeat finds it saved already).
  if (activated && card.customerId) await saveDefaultCard(ctx, provider.name, sub.userId, card);
  return {
    orderId: null,
    subscriptionId: sub.id,
    chargedCents: 0,
    nextBillingDate: isoDate(resumeDate(yearMonthOf(addMonths(parseYearMonth(firstPeriod), -1)), sub.billingDay)),
    createdAt: now,
    card: { brand: card.brand, last4: card.last4 },
    receiptEmail: memberAddress(sub),
    firstPeriod,
  };
}
