/**
 * Restarting a canceled membership (spec §5 restart confirmation): what it charges today and next (the quote the
 * dialog shows first), and the restart itself, which refuses an amount that changed since that quote.
 */
import { z } from "zod";
import type { ServiceContext } from "../context.ts";
import { chargeForPeriod, claimOpenMembership, lockMember } from "../billing/checkout/settlement.ts";
import { requireRouting } from "../billing/routing.ts";
import { itemiseMembership, membershipPriceSelect, type ItemisedPrice } from "../billing/breakdown.ts";
import { MEMBER_STATUSES } from "../rules/member.ts";
import { assertPlaceAvailable, SoldOutError } from "../catalog/capacity.ts";
import { isoDate, parseYearMonth } from "../shared/calendar.ts";
import { ConflictError, RuleViolationError } from "../shared/errors.ts";
import { parseInput } from "../shared/validation.ts";
import { currentPeriod, nextChargeDate } from "../rules/dates.ts";
import { membershipEvent, ownSubscription, pointFor, SubscriptionIdInput, type SubscriptionForRules } from "./service.ts";
import { todayIn } from "./timing.ts";

const RestartInput = SubscriptionIdInput.extend({
  fulfillmentPoint: z.string().max(500).optional(),
  /** What the member was shown as today's charge (restartQuote.todayCents); a different amount now refuses. */
  expectedTotalCents: z.number().int().nonnegative().optional(),
});

/** What a restart charged, for the portal's confirmation: the amount, the period it pays for, the next billing date. */
interface RestartReceipt {
  chargedCents: number;
  /** YYYY-MM paid through. */
  period: string;
  /** ISO date of the next charge: the billing day after that period. */
  nextBillingDate: string;
}

export interface RestartQuote {
  subscriptionId: number;
  /** Charged now: the membership's price for the current period, or 0 when that period is already paid. */
  todayCents: number;
  /** The period a restart now pays for, or is already paid through (YYYY-MM). */
  period: string;
  /** What each period costs, from the membership's stored prices (the amount a restart and its renewals charge). */
  breakdown: ItemisedPrice;
  /** ISO date of the first renewal after the restart (skipped months passed over) and what it charges. */
  nextChargeDate: string;
  nextChargeCents: number;
}

/** What restarting charges today and next, as restartSubscription will do it now. */
function restartTerms(ctx: ServiceContext, sub: SubscriptionForRules & { totalCents: number }) {
  const today = todayIn(ctx, sub.business.timeZone);
  const period = currentPeriod(today);
  const alreadyPaid = !!sub.paidThroughPeriod && sub.paidThroughPeriod >= period;
  const paidThrough = alreadyPaid ? sub.paidThroughPeriod! : period;
  const skippedMonths = new Set(sub.skips.map((s) => s.yearMonth));
  return {
    period: paidThrough,
    todayCents: alreadyPaid ? 0 : sub.totalCents,
    nextChargeDate: isoDate(nextChargeDate({ today, paidThroughPeriod: paidThrough, billingDay: sub.billingDay, skippedMonths })),
  };
}

/**
 * Restart's confirmation (spec §5 sentence, then the amounts): today's charge, what a period costs line by line, and
 * the next charge. Refuses what restartSubscription would refuse before charging (not canceled, already a member).
 */
export async function quoteRestart(ctx: ServiceContext, input: { subscriptionId: number }): Promise<RestartQuote> {
  const { subscriptionId } = parseInput(SubscriptionIdInput, input);
  const sub = await ownSubscription(ctx, subscriptionId);
  if (sub.status !== "CANCELED") throw new ConflictError("Only a canceled subscription can be restarted", "not_canceled");
  const member = await ctx.db.subscription.count({
    where: { userId: sub.userId, businessId: sub.businessId, id: { not: sub.id }, status: { in: [...MEMBER_STATUSES] } },
  });
  if (member > 0) throw alreadyMember();
  const priced = await ctx.db.subscription.findUniqueOrThrow({ where: { id: sub.id }, select: membershipPriceSelect });
  const terms = restartTerms(ctx, sub);
  await requireRouting(ctx.db, sub.business, terms.period, terms.todayCents);
  return {
    subscriptionId: sub.id,
    todayCents: terms.todayCents,
    period: terms.period,
    breakdown: itemiseMembership(priced),
    nextChargeDate: terms.nextChargeDate,
    // Renewals charge the membership's stored total (a restart drops no price and schedules no change).
    nextChargeCents: sub.totalCents,
  };
}

export type RestartResult =
  | ({ outcome: "PAID"; subscriptionId: number; orderId: number } & RestartReceipt)
  | ({ outcome: "REACTIVATED"; subscriptionId: number } & RestartReceipt)
  | { outcome: "REQUIRES_ACTION"; subscriptionId: number; clientSecret: string; paymentIntentId: string };

/**
 * Restarts a canceled subscription, charging the current period now (spec §5 restart confirmation).
 * chargeForPeriod creates the period's order and sets the subscription ACTIVE once paid (or refunds the charge
 * when a checkout at the same business was paid meanwhile); when the bank
 * asks for authentication the member confirms with the client secret and the payment's confirmation
 * activates it. A current period already paid for (canceled mid-period) reactivates without charging.
 */
export async function restartSubscription(ctx: ServiceContext, input: z.input<typeof RestartInput>): Promise<RestartResult> {
  const { subscriptionId, fulfillmentPoint: given, expectedTotalCents } = parseInput(RestartInput, input);
  const sub = await ownSubscription(ctx, subscriptionId);
  if (sub.status !== "CANCELED") throw new ConflictError("Only a canceled subscription can be restarted", "not_canceled");
  // A business that cannot take payments takes no member back (the charge would have nowhere to go).
  const terms = restartTerms(ctx, sub);
  await requireRouting(ctx.db, sub.business, terms.period, terms.todayCents);
  // The member confirmed an amount (restartQuote): a month that turned meanwhile changes it, so ask again.
  if (expectedTotalCents !== undefined && expectedTotalCents !== terms.todayCents) {
    throw new ConflictError("The amount of your restart has changed. Please review it and confirm again.", "price_mismatch");
  }
  // The stored point when the page still offers it, else the one chosen now (refused, naming fulfillmentPoint, when
  // none is given and the mode lists several): written before the charge, so the restart's order carries it.
  const fulfillmentPoint = pointFor(sub, sub.mode, given);
  if (fulfillmentPoint !== sub.fulfillmentPoint) await ctx.db.subscription.update({ where: { id: sub.id }, data: { fulfillmentPoint } });
  // One membership per member and business: refuse before any charge is made. A checkout left unpaid there does
  // not stand in the way (settlement makes it give way); one opened meanwhile is decided by the settlement.
  const member = await ctx.db.subscription.count({
    where: { userId: sub.userId, businessId: sub.businessId, id: { not: sub.id }, status: { in: [...MEMBER_STATUSES] } },
  });
  if (member > 0) throw alreadyMember();
  // Refused before any charge when its plan (or plan and mode) is full; the settlement decides under the lock.
  const place = { planId: sub.planId, mode: sub.mode };
  await assertPlaceAvailable(ctx.db, place, { id: sub.id, holds: [] }, { lock: false });
  const period = currentPeriod(todayIn(ctx, sub.business.timeZone));

  if (sub.paidThroughPeriod && sub.paidThroughPeriod >= period) {
    const reactivated = await ctx.db.$transaction(async (tx) => {
      await lockMember(tx, sub.userId);
      await assertPlaceAvailable(tx, place, { id: sub.id, holds: [] }, { lock: true });
      if (!(await claimOpenMembership(tx, sub))) return false;
      const { count } = await tx.subscription.updateMany({ where: { id: sub.id, status: "CANCELED" }, data: { status: "ACTIVE", canceledAt: null } });
      // A double submit finds it reactivated already: the same answer, one event.
      if (count > 0) await membershipEvent(ctx, tx, sub, {
        type: "membership.restarted.v1",
        payload: { membershipId: sub.id, userId: sub.userId, orderId: null, period: sub.paidThroughPeriod!, chargedCents: 0 },
      });
      return true;
    });
    if (!reactivated) throw alreadyMember();
    const paid = sub.paidThroughPeriod;
    return { outcome: "REACTIVATED", subscriptionId: sub.id, chargedCents: 0, period: paid, nextBillingDate: nextChargeAfter(sub, paid) };
  }
  // One key per attempt: a double submit reuses it (never two charges), a retry after a decline gets a new one.
  const failedAttempts = await ctx.db.payment.count({
    where: { subscriptionId: sub.id, status: "FAILED", createdAt: { gte: sub.canceledAt ?? sub.startedAt } },
  });
  const idempotencyKey = `restart:${sub.id}:${period}:${(sub.canceledAt ?? sub.startedAt).getTime()}:${failedAttempts}`;
  const charge = await chargeForPeriod(ctx, { subscriptionId: sub.id, period, kind: "RESTART", idempotencyKey });
  switch (charge.outcome) {
    case "paid": {
      const order = await ctx.db.order.findUniqueOrThrow({ where: { id: charge.orderId }, select: { totalCents: true, period: true } });
      const nextBillingDate = nextChargeAfter(sub, order.period);
      return { outcome: "PAID", subscriptionId: sub.id, orderId: charge.orderId, chargedCents: order.totalCents, period: order.period, nextBillingDate };
    }
    case "requires_action":
      return { outcome: "REQUIRES_ACTION", subscriptionId: sub.id, clientSecret: charge.clientSecret, paymentIntentId: charge.paymentIntentId };
    case "failed":
      throw new RuleViolationError(charge.message || "Failed to restart subscription", "payment_failed");
    case "refunded":
      if (charge.reason === "sold_out") throw new SoldOutError(charge.message);
      throw new ConflictError(charge.message, "payment_refunded");
  }
}

/** ISO date of the first charge after `paidThrough`, past the membership's skipped months. */
const nextChargeAfter = (sub: SubscriptionForRules, paidThrough: string): string =>
  isoDate(nextChargeDate({ today: { ...parseYearMonth(paidThrough), day: 1 }, paidThroughPeriod: paidThrough, billingDay: sub.billingDay, skippedMonths: new Set(sub.skips.map((s) => s.yearMonth)) }));

const alreadyMember = () => new ConflictError("You already have a membership at this business.", "already_member");
