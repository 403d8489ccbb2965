/**
 * The member's own cancel (issue 40; GraphQL only: the spec's REST has no member cancel route). Where the business's
 * page says SELF_SERVICE (cancellationPolicy; PHONE, the default, refuses all but a withdrawal: cancel_by_phone), a
 * member gives a reason (requestCancellation) and is answered with the retention offers this membership can take
 * now; taking one (acceptRetentionOffer) runs the existing action and keeps the membership; confirming
 * (confirmCancellation) schedules the end after the paid-through month, whose box still ships; "Keep my membership"
 * (withdrawCancellation) takes the schedule back. On the next billing day the renewal run cancels the membership
 * instead of charging it (api/billing/renewals/records.ts, reason "member"); until then it is a member like any other.
 *
 * Each request is a cancellation_requests row: reason and note, the offers shown, the one taken, and its outcome.
 */
import { z } from "zod";
import type { ServiceContext } from "../context.ts";
import type { CancellationReason, RetentionOffer } from "../generated/prisma/enums.ts";
import { attachCouponIn } from "../billing/coupons.ts";
import { lockMember } from "../billing/checkout/settlement.ts";
import { retentionCoupon } from "../coupons/retention.ts";
import { eventActorOf } from "../events/outbox.ts";
import { addMonths, isoDate, monthName, parseYearMonth, yearMonthOf } from "../shared/calendar.ts";
import { NotFoundError, RuleViolationError, ValidationError } from "../shared/errors.ts";
import { parseInput } from "../shared/validation.ts";
import { resumeDate, windowState } from "../rules/dates.ts";
import { changeEffectivePeriod, lockActiveMembership, membershipEvent, ownSubscription, requireActive, SubscriptionIdInput, type SubscriptionForRules } from "./service.ts";
import { pauseMembership, skipMonth, skipTargetOf } from "./skips.ts";
import { timingOf, todayIn } from "./timing.ts";
import { CANCELLATION_NOTE_MAX } from "../shared/cancellation.ts";

/** One offer as the cancel flow shows it. */
export interface RetentionOfferView {
  offer: RetentionOffer;
  /** SKIP and PAUSE: the month a skip now pauses (the pause's first). DISCOUNT: the month charged at the discount. */
  month: string | null;
  /** SKIP: ISO date payments resume after the skipped month. */
  resumeDate: string | null;
  /** PAUSE: the longest pause, in months (the page's pauseMaxMonths). */
  maxMonths: number | null;
  /** DISCOUNT: percent off that month's charge. */
  percent: number | null;
}

interface CancellationSchedule {
  /** The last month with a box ("YYYY-MM"): the paid-through month. */
  afterPeriod: string;
  /** ISO date the membership ends: its billing day in the month after, when the renewal run cancels instead of charging. */
  endsOn: string;
}

export interface RequestResult extends CancellationSchedule {
  requestId: number;
  subscriptionId: number;
  offers: RetentionOfferView[];
}

const monthLabel = (ym: string) => `${monthName(parseYearMonth(ym).month)} ${parseYearMonth(ym).year}`;

/** ISO date a cancel after `afterPeriod` takes effect: the membership's billing day in the month after (Membership.endsOn). */
export const cancelEndsOn = (afterPeriod: string, billingDay: number): string => isoDate(resumeDate(afterPeriod, billingDay));

/** When a confirmed cancel would take effect: after the paid-through month (nothing paid: the month before this one). */
function scheduleOf(ctx: Pick<ServiceContext, "clock">, sub: { paidThroughPeriod: string | null; billingDay: number; business: { timeZone: string } }): CancellationSchedule {
  const afterPeriod = sub.paidThroughPeriod ?? yearMonthOf(addMonths(todayIn(ctx, sub.business.timeZone), -1));
  return { afterPeriod, endsOn: cancelEndsOn(afterPeriod, sub.billingDay) };
}

type Page = NonNullable<SubscriptionForRules["business"]["page"]>;
/** A membership of a business whose saved page takes cancellations from the membership page. */
type Cancelable = SubscriptionForRules & { business: { page: Page } };

/** The member's own current membership at a SELF_SERVICE business, not already ending (the checks every step but a withdrawal shares). */
async function ownCancelable(ctx: ServiceContext, subscriptionId: number): Promise<Cancelable> {
  const sub = await ownSubscription(ctx, subscriptionId);
  const page = sub.business.page;
  // A membership Stripe invoices (imported) ends only where Stripe bills it: the business cancels it.
  if (page?.cancellationPolicy !== "SELF_SERVICE" || sub.providerSubscriptionId) {
    const phone = page?.supportPhone.trim();
    throw new RuleViolationError(`${sub.business.name} takes cancellations by phone${phone ? ` at ${phone}` : ""}.`, "cancel_by_phone");
  }
  requireActive(sub, "canceled");
  if (sub.cancelAfterPeriod) throw new RuleViolationError(`Your membership already ends after your ${monthLabel(sub.cancelAfterPeriod)} box.`, "cancel_scheduled");
  return sub as Cancelable;
}

/** Whether the membership took a retention discount in the last 12 months (the offer comes back once a year at most). */
async function discountTakenRecently(ctx: ServiceContext, subscriptionId: number): Promise<boolean> {
  const since = new Date(ctx.clock.now());
  since.setUTCFullYear(since.getUTCFullYear() - 1);
  return (await ctx.db.couponRedemption.count({ where: { subscriptionId, coupon: { kind: "RETENTION" }, redeemedAt: { gt: since } } })) > 0;
}

/**
 * The offers the membership can take now, of those its page lists: SKIP when a skip would be accepted (skipTarget);
 * PAUSE likewise, when the page allows a pause at all; SWITCH_PLAN inside the change window when a listed plan of the
 * business costs less in the membership's mode; DISCOUNT when no coupon is in force and none was taken in 12 months.
 */
async function offersFor(ctx: ServiceContext, sub: Cancelable): Promise<RetentionOfferView[]> {
  const page = sub.business.page;
  const listed = new Set(page.retentionOffers);
  const none = { month: null, resumeDate: null, maxMonths: null, percent: null };
  const offers: RetentionOfferView[] = [];
  const target = skipTargetOf(ctx, sub);
  if (listed.has("SKIP") && target.allowed) offers.push({ ...none, offer: "SKIP", month: target.month, resumeDate: target.resumeDate });
  if (listed.has("PAUSE") && target.allowed && page.pauseMaxMonths > 0) offers.push({ ...none, offer: "PAUSE", month: target.month, maxMonths: page.pauseMaxMonths });
  if (listed.has("SWITCH_PLAN") && windowState(todayIn(ctx, sub.business.timeZone), timingOf(page).changeWindow).open) {
    const cheaper = await ctx.db.plan.count({
      where: { businessId: sub.businessId, listed: true, archivedAt: null, id: { not: sub.planId }, variations: { some: { mode: sub.mode, amountCents: { lt: sub.planAmountCents } } } },
    });
    if (cheaper > 0) offers.push({ ...none, offer: "SWITCH_PLAN" });
  }
  if (listed.has("DISCOUNT") && sub.couponId === null && !(await discountTakenRecently(ctx, sub.id))) {
    offers.push({ ...none, offer: "DISCOUNT", month: changeEffectivePeriod(ctx, sub), percent: page.retentionDiscountPercent });
  }
  return offers;
}

const REASONS = ["TOO_EXPENSIVE", "TOO_MUCH", "MOVING", "QUALITY", "DELIVERY", "TAKING_A_BREAK", "OTHER"] as const satisfies readonly CancellationReason[];
const OFFERS = ["SKIP", "PAUSE", "SWITCH_PLAN", "DISCOUNT"] as const satisfies readonly RetentionOffer[];

const RequestInput = SubscriptionIdInput.extend({
  reason: z.enum(REASONS, { error: "Choose a reason" }),
  note: z
    .string()
    .trim()
    .max(CANCELLATION_NOTE_MAX, `Please keep your note to ${CANCELLATION_NOTE_MAX} characters`)
    .nullish()
    .transform((n) => n ?? ""),
});

/**
 * Stores the member's reason and answers the offers this membership can take now (none: the member goes on to
 * confirming), with when a confirmed cancel would take effect.
 */
export async function requestCancellation(ctx: ServiceContext, input: { subscriptionId: number; reason: string; note?: string | null }): Promise<RequestResult> {
  const { subscriptionId, reason, note } = parseInput(RequestInput, input);
  const sub = await ownCancelable(ctx, subscriptionId);
  const offers = await offersFor(ctx, sub);
  const request = await ctx.db.cancellationRequest.create({
    data: { subscriptionId: sub.id, userId: sub.userId, businessId: sub.businessId, reason, note, offersShown: offers.map((o) => o.offer), createdAt: ctx.clock.now() },
    select: { id: true },
  });
  return { requestId: request.id, subscriptionId: sub.id, offers, ...scheduleOf(ctx, sub) };
}

/** The member's own OPEN request and its membership (still cancelable). */
async function openRequest(ctx: ServiceContext, requestId: number) {
  const request = await ctx.db.cancellationRequest.findUnique({ where: { id: requestId } });
  if (!request) throw new NotFoundError("Cancellation request");
  const sub = await ownCancelable(ctx, request.subscriptionId);
  if (request.outcome !== "OPEN") throw new RuleViolationError("This cancellation request was already answered. Please start again.", "request_closed");
  return { request, sub };
}

const requestClosed = () => new RuleViolationError("This cancellation request was already answered. Please start again.", "request_closed");

const AcceptInput = z.object({
  requestId: z.number().int().positive("Missing cancellation request id"),
  offer: z.enum(OFFERS, { error: "Choose an offer" }),
  months: z.number().int().nullish(),
});

export interface AcceptResult {
  requestId: number;
  subscriptionId: number;
  offer: RetentionOffer;
}

/**
 * Takes one of the offers the request answered with, and keeps the membership (outcome RETAINED): SKIP and PAUSE run
 * skipMonth and pauseMembership (with their own refusals; PAUSE takes `months`); SWITCH_PLAN only records the choice
 * (the member changes the box in the change flow); DISCOUNT attaches the business's retention coupon through the one
 * redemption function, so the next charge is discounted once, in one transaction with the request's outcome.
 */
export async function acceptRetentionOffer(ctx: ServiceContext, input: { requestId: number; offer: string; months?: number | null }): Promise<AcceptResult> {
  const { requestId, offer, months } = parseInput(AcceptInput, input);
  const { request, sub } = await openRequest(ctx, requestId);
  const notAvailable = new RuleViolationError("This offer is not available for your membership.", "offer_not_available");
  if (!request.offersShown.includes(offer)) throw notAvailable;
  const now = ctx.clock.now();
  const retained = { outcome: "RETAINED" as const, offerAccepted: offer, decidedAt: now };
  if (offer === "DISCOUNT") {
    if (sub.couponId !== null || (await discountTakenRecently(ctx, sub.id))) throw notAvailable;
    const percent = sub.business.page.retentionDiscountPercent;
    await ctx.db.$transaction(async (tx) => {
      // Lock order of every membership write: the member's row, the membership's, then the request's.
      await lockMember(tx, sub.userId);
      await lockActiveMembership(tx, sub.id, "kept");
      const { count } = await tx.cancellationRequest.updateMany({ where: { id: request.id, outcome: "OPEN" }, data: retained });
      if (count === 0) throw requestClosed();
      const coupon = await retentionCoupon(tx, { businessId: sub.businessId, percent, at: now, actor: eventActorOf(ctx.actor) });
      const business = { id: sub.businessId, timeZone: sub.business.timeZone };
      if (!(await attachCouponIn(tx, { subscriptionId: sub.id, userId: sub.userId, business, coupon, at: now, actor: ctx.actor }))) throw notAvailable;
    });
    return { requestId, subscriptionId: sub.id, offer };
  }
  if (offer === "PAUSE") {
    if (months == null) throw new ValidationError("Choose how many months to pause", [{ path: "months", message: "Choose how many months to pause" }]);
    await pauseMembership(ctx, { subscriptionId: sub.id, months });
  } else if (offer === "SKIP") {
    await skipMonth(ctx, { subscriptionId: sub.id });
  }
  // After the action (it has its own refusals): a request answered meanwhile in another tab keeps that answer.
  await ctx.db.cancellationRequest.updateMany({ where: { id: request.id, outcome: "OPEN" }, data: retained });
  return { requestId, subscriptionId: sub.id, offer };
}

const RequestIdInput = z.object({ requestId: z.number().int().positive("Missing cancellation request id") });

export interface ConfirmResult extends CancellationSchedule {
  requestId: number;
  subscriptionId: number;
}

/**
 * The member declines the offers and cancels: the membership ends after its paid-through month (that box still
 * ships), on its next billing day, when the renewal run cancels it instead of charging. Until then it stays ACTIVE
 * and holds its place; withdrawCancellation keeps it.
 */
export async function confirmCancellation(ctx: ServiceContext, input: { requestId: number }): Promise<ConfirmResult> {
  const { requestId } = parseInput(RequestIdInput, input);
  const { request, sub } = await openRequest(ctx, requestId);
  const schedule = scheduleOf(ctx, sub);
  await ctx.db.$transaction(async (tx) => {
    await lockActiveMembership(tx, sub.id, "canceled");
    const { count } = await tx.cancellationRequest.updateMany({ where: { id: request.id, outcome: "OPEN" }, data: { outcome: "CANCEL_SCHEDULED", decidedAt: ctx.clock.now() } });
    if (count === 0) throw requestClosed();
    const scheduled = await tx.subscription.updateMany({ where: { id: sub.id, cancelAfterPeriod: null }, data: { cancelAfterPeriod: schedule.afterPeriod } });
    if (scheduled.count === 0) throw new RuleViolationError("Your membership is already set to end.", "cancel_scheduled");
    await membershipEvent(ctx, tx, sub, {
      type: "membership.cancel_scheduled.v1",
      payload: { membershipId: sub.id, userId: sub.userId, afterPeriod: schedule.afterPeriod, reason: request.reason },
    });
  });
  return { requestId, subscriptionId: sub.id, ...schedule };
}

/**
 * "Keep my membership": takes back a scheduled cancel while the membership is still ACTIVE (before the renewal run
 * carried it out); it renews as before. Allowed whatever the page's policy: keeping a membership needs no phone call.
 */
export async function withdrawCancellation(ctx: ServiceContext, input: { subscriptionId: number }): Promise<{ subscriptionId: number }> {
  const { subscriptionId } = parseInput(SubscriptionIdInput, input);
  const sub = await ownSubscription(ctx, subscriptionId);
  requireActive(sub, "kept");
  const notEnding = () => new RuleViolationError("Your membership is not set to end.", "not_ending");
  if (!sub.cancelAfterPeriod) throw notEnding();
  await ctx.db.$transaction(async (tx) => {
    await lockActiveMembership(tx, sub.id, "kept");
    const { count } = await tx.subscription.updateMany({ where: { id: sub.id, cancelAfterPeriod: { not: null } }, data: { cancelAfterPeriod: null } });
    if (count === 0) throw notEnding();
    await tx.cancellationRequest.updateMany({ where: { subscriptionId: sub.id, outcome: "CANCEL_SCHEDULED" }, data: { outcome: "WITHDRAWN", decidedAt: ctx.clock.now() } });
    await membershipEvent(ctx, tx, sub, { type: "membership.cancel_withdrawn.v1", payload: { membershipId: sub.id, userId: sub.userId } });
  });
  return { subscriptionId: sub.id };
}
