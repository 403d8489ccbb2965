/**
 * Memberships (the Subscription model): loading the member's own, the member's change and the business's cancel
 * (spec §2 member portal and admin memberships, §4 states); skips and pauses are ./skips.ts, the member's own
 * cancel ./cancellation.ts, the restart ./restart.ts. Calendar rules live in api/rules/dates.ts, a business's timing and "today" in ./timing.ts, the
 * lists in ./memberships-list.ts and ./portal.ts.
 */
import { z } from "zod";
import type { ServiceContext } from "../context.ts";
import type { FulfillmentMode, Prisma } from "../generated/prisma/client.ts";
import { assertCan, requireMember } from "../auth/policy.ts";
import { priceScheduledChange, type PriceBreakdown } from "../rules/pricing.ts";
import { itemiseQuote, type ItemisedPrice } from "../billing/breakdown.ts";
import { assertPlaceAvailable, heldSelections } from "../catalog/capacity.ts";
import { eventActorOf, writeEvents, type NewEvent } from "../events/outbox.ts";
import { ordinal } from "../shared/calendar.ts";
import { ConflictError, ForbiddenError, NotFoundError, RuleViolationError, ValidationError } from "../shared/errors.ts";
import { globalId } from "../shared/global-id.ts";
import { parseInput } from "../shared/validation.ts";
import { choosePoint, isOffered, pointInDetails } from "../rules/fulfillment-point.ts";
import { firstChargedPeriod, nextBillingPeriod, windowState, type DayWindow, type WindowState } from "../rules/dates.ts";
import { timingOf, timingSelect, todayIn } from "./timing.ts";

export function outsideWindowMessage(action: string, window: DayWindow, state: WindowState): string {
  const next = new Date(Date.UTC(state.opensOn.year, state.opensOn.month - 1, state.opensOn.day));
  const month = next.toLocaleString("en-US", { month: "long", timeZone: "UTC" });
  return (
    `You can ${action} only from the ${ordinal(window.startDay)} to the ${ordinal(window.endDay)} of each month. ` +
    `The next window opens on ${month} ${ordinal(state.opensOn.day)}.`
  );
}

// ---------------------------------------------------------------------------------------------------------
// Loading and authorising

/** The page settings of the cancel flow (./cancellation.ts). */
const cancellationSelect = { cancellationPolicy: true, retentionOffers: true, retentionDiscountPercent: true, supportPhone: true } as const satisfies Prisma.PageSelect;

const subscriptionForRules = {
  include: {
    business: { select: { id: true, slug: true, name: true, timeZone: true, page: { select: { ...timingSelect, pickupEnabled: true, shippingEnabled: true, deliveryEnabled: true, addonLimit: true, pickupPoints: true, deliveryAreas: true, pauseMaxMonths: true, ...cancellationSelect } } } },
    addons: { select: { addonId: true } },
    skips: { select: { yearMonth: true } },
  },
} as const satisfies Prisma.SubscriptionDefaultArgs;

export type SubscriptionForRules = Prisma.SubscriptionGetPayload<typeof subscriptionForRules>;

async function loadSubscription(ctx: ServiceContext, id: number): Promise<SubscriptionForRules> {
  const sub = await ctx.db.subscription.findUnique({ where: { id }, ...subscriptionForRules });
  if (!sub) throw new NotFoundError("Subscription");
  return sub;
}

/** The member acting on their own subscription, with a session of that business (tenant check). */
export async function ownSubscription(ctx: ServiceContext, id: number): Promise<SubscriptionForRules> {
  const sub = await loadSubscription(ctx, id);
  const actor = requireMember(ctx, sub.business.slug);
  if (sub.userId !== actor.user.id) throw new ForbiddenError("This subscription belongs to another member.", "not_owner");
  return sub;
}

export function requireActive(sub: { status: string }, action: string): void {
  if (sub.status !== "ACTIVE") throw new RuleViolationError(`Only an active subscription can be ${action}.`, "not_active");
}

/**
 * A member's writes to one membership (skip, pause, unskip, change) one at a time: the membership's row locked for the rest of the
 * transaction, and its status read again under the lock (a cancel may have committed since it was read). A skip
 * and a change sent at once (two tabs, a double tap) then see each other's result: the change's effective month
 * counts the new skip, the skip moves the change it finds.
 */
export async function lockActiveMembership(tx: Prisma.TransactionClient, id: number, action: string): Promise<void> {
  const [row] = await tx.$queryRaw<{ status: string }[]>`SELECT status::text AS status FROM subscriptions WHERE id = ${id} FOR UPDATE`;
  requireActive(row ?? { status: "GONE" }, action);
}

/** Writes a membership's event in the transaction of its change, as the request's actor, at the clock's now. */
export function membershipEvent<E extends NewEvent>(ctx: ServiceContext, tx: Prisma.TransactionClient, sub: { id: number; businessId: number }, event: Pick<E, "type" | "payload">) {
  const full = { ...event, businessId: sub.businessId, objectId: globalId("Membership", sub.id) } as NewEvent;
  return writeEvents(tx, { at: ctx.clock.now(), actor: eventActorOf(ctx.actor) }, [full]);
}

export const SubscriptionIdInput = z.object({ subscriptionId: z.number().int().positive("Missing subscription id") });

// ---------------------------------------------------------------------------------------------------------
// Change

const ChangeInput = z.object({
  subscriptionId: z.number().int().positive("Missing subscription id"),
  planId: z.number().int().positive("Please choose a package"),
  mode: z.enum(["PICKUP", "SHIPPING", "DELIVERY"]),
  addonIds: z.array(z.number().int().positive()).max(100).default([]),
  /** The pickup point or delivery area; omitted: the current one when still offered for the mode (or the only one). */
  fulfillmentPoint: z.string().max(500).optional(),
  /** The spec selection's free text (REST): the point only when it names one exactly. */
  fulfillmentDetails: z.string().max(2000).optional(),
});
type ChangeRequest = { subscriptionId: number; planId: number; mode: FulfillmentMode; addonIds?: number[]; fulfillmentPoint?: string; fulfillmentDetails?: string };

/** The point a membership keeps (restart, or a change that names none) when still offered, else the one chosen now. */
export function pointFor(sub: SubscriptionForRules, mode: FulfillmentMode, chosen: string | undefined, details?: string): string {
  const page = sub.business.page ?? { pickupPoints: [], deliveryAreas: [] };
  const given = chosen?.trim() || pointInDetails(page, mode, details);
  if (!given && mode === sub.mode && isOffered(page, mode, sub.fulfillmentPoint)) return sub.fulfillmentPoint;
  return choosePoint(page, mode, given);
}

/**
 * The catalogue checks of a new selection at the membership's business (listed package with a price for an
 * enabled mode, listed add-ons within the limit), shared by changeSubscription and quoteChange.
 */
async function resolveChange(ctx: ServiceContext, sub: SubscriptionForRules, data: z.output<typeof ChangeInput>) {
  const page = sub.business.page;
  const plan = await ctx.db.plan.findFirst({
    where: { id: data.planId, businessId: sub.businessId, listed: true, archivedAt: null },
    select: { id: true, name: true, variations: { where: { mode: { in: [data.mode, "PICKUP"] } }, select: { mode: true, amountCents: true } } },
  });
  if (!plan) throw new ValidationError("This package is not available", [{ path: "planId", message: "This package is not available" }]);
  const enabled = { PICKUP: page?.pickupEnabled ?? true, SHIPPING: page?.shippingEnabled ?? false, DELIVERY: page?.deliveryEnabled ?? false };
  const variation = plan.variations.find((v) => v.mode === data.mode);
  if (!enabled[data.mode] || !variation) {
    throw new ValidationError("This fulfillment mode is not available for this package", [{ path: "mode", message: "This fulfillment mode is not available" }]);
  }
  const addonIds = [...new Set(data.addonIds)];
  const addons = await ctx.db.addon.findMany({ where: { id: { in: addonIds }, businessId: sub.businessId, listed: true, archivedAt: null }, select: { id: true, name: true, amountCents: true }, orderBy: [{ position: "asc" }, { id: "asc" }] });
  if (addons.length !== addonIds.length) throw new ValidationError("An add-on is not available", [{ path: "addonIds", message: "An add-on is not available" }]);
  const limit = page?.addonLimit ?? 0;
  if (limit > 0 && addonIds.length > limit) {
    throw new ValidationError(`You can choose at most ${limit} add-on${limit === 1 ? "" : "s"}`, [{ path: "addonIds", message: "Too many add-ons" }]);
  }
  const fulfillmentPoint = pointFor(sub, data.mode, data.fulfillmentPoint, data.fulfillmentDetails);
  const pickupAmountCents = plan.variations.find((v) => v.mode === "PICKUP")?.amountCents ?? null;
  return { plan, variation, pickupAmountCents, addonIds, addons, fulfillmentPoint };
}

/**
 * The first month a change made today takes effect: the next period billed, past the months the member skipped
 * (a skipped month is neither charged nor changed), so the dialog, the card and the email name a month with a box.
 */
export function changeEffectivePeriod(ctx: ServiceContext, sub: SubscriptionForRules): string {
  const next = nextBillingPeriod(todayIn(ctx, sub.business.timeZone), sub.paidThroughPeriod);
  return firstChargedPeriod(next, sub.skips.map((s) => s.yearMonth));
}

export interface ChangeQuote {
  subscriptionId: number;
  /** The pickup point or delivery area the change takes. */
  fulfillmentPoint: string;
  price: PriceBreakdown;
  /** The same price as the lines a person reads. */
  breakdown: ItemisedPrice;
  /** First billing period (YYYY-MM) at this price. */
  effectivePeriod: string;
}

/**
 * What the change dialog quotes (spec §2: "no charge today"): the monthly price the new selection renews at,
 * tax included, priced by the same rule as the renewal that applies it (api/rules/pricing.ts priceScheduledChange).
 */
export async function quoteChange(ctx: ServiceContext, input: ChangeRequest): Promise<ChangeQuote> {
  const data = parseInput(ChangeInput, input);
  const sub = await ownSubscription(ctx, data.subscriptionId);
  const resolved = await resolveChange(ctx, sub, data);
  await assertPlaceAvailable(ctx.db, { planId: data.planId, mode: data.mode }, await placeHolder(ctx.db, sub), { lock: false });
  const { price, breakdown } = await priceChange(ctx, sub, data.mode, resolved);
  return { subscriptionId: sub.id, fulfillmentPoint: resolved.fulfillmentPoint, price, breakdown, effectivePeriod: changeEffectivePeriod(ctx, sub) };
}

/** A resolved change priced as its renewal will charge it (today's prices, the coupon while active, the business's tax). */
async function priceChange(ctx: ServiceContext, sub: SubscriptionForRules, mode: FulfillmentMode, resolved: Awaited<ReturnType<typeof resolveChange>>) {
  const [coupon, tax] = await Promise.all([
    sub.couponId ? ctx.db.coupon.findUnique({ where: { id: sub.couponId }, select: { code: true, type: true, value: true, active: true } }) : null,
    ctx.db.page.findUnique({ where: { businessId: sub.businessId }, select: { taxEnabled: true, taxRateBps: true } }),
  ]);
  const { plan, variation, pickupAmountCents, addons } = resolved;
  const price = priceScheduledChange({ planAmountCents: variation.amountCents, pickupAmountCents, addonAmountsCents: addons.map((a) => a.amountCents), coupon, tax });
  return { price, breakdown: itemiseQuote({ planName: plan.name, mode, price, addons, couponCode: coupon?.active ? coupon.code : null }) };
}

/** The membership as a capacity holder: the places its current selection and scheduled change already hold. */
async function placeHolder(db: Prisma.TransactionClient, sub: SubscriptionForRules) {
  const pendingChange = await db.subscriptionChange.findUnique({ where: { subscriptionId: sub.id }, select: { planId: true, mode: true } });
  return { id: sub.id, holds: heldSelections({ ...sub, pendingChange }) };
}

const sameSet = (a: number[], b: number[]) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

/**
 * Schedules a new selection (plan, fulfillment mode, point, add-ons) from the next billing period; nothing is
 * charged now (spec §2 change dialog). Choosing the current selection again withdraws a pending change.
 *
 * Only another pickup point or delivery area (same plan, mode and add-ons) changes no price, so it takes effect
 * at once (inside the change window like any change): the membership's point is updated, a pending change is
 * withdrawn, and the next order (and the packing list, until the month is frozen) goes to the new point.
 */
export async function changeSubscription(
  ctx: ServiceContext,
  input: ChangeRequest,
): Promise<{ subscriptionId: number; effectivePeriod: string | null; pointChanged: boolean }> {
  const data = parseInput(ChangeInput, input);
  const sub = await ownSubscription(ctx, data.subscriptionId);
  requireActive(sub, "changed");
  const timing = timingOf(sub.business.page);
  const today = todayIn(ctx, sub.business.timeZone);
  const window = windowState(today, timing.changeWindow);
  if (!window.open) throw new RuleViolationError(outsideWindowMessage("change your box", timing.changeWindow, window), "outside_change_window");
  const resolved = await resolveChange(ctx, sub, data);
  const { plan, addonIds, fulfillmentPoint } = resolved;

  const unchanged = plan.id === sub.planId && data.mode === sub.mode && sameSet(addonIds, sub.addons.map((a) => a.addonId));
  if (unchanged) {
    const pointChanged = fulfillmentPoint !== sub.fulfillmentPoint;
    await ctx.db.$transaction(async (tx) => {
      await lockActiveMembership(tx, sub.id, "changed");
      const withdrawn = await tx.subscriptionChange.deleteMany({ where: { subscriptionId: sub.id } });
      if (pointChanged) await tx.subscription.update({ where: { id: sub.id }, data: { fulfillmentPoint } });
      else if (withdrawn.count === 0) throw new RuleViolationError("Your selection has not changed.", "no_change");
      if (withdrawn.count > 0) await membershipEvent(ctx, tx, sub, { type: "membership.change_withdrawn.v1", payload: { membershipId: sub.id, userId: sub.userId } });
    });
    return { subscriptionId: sub.id, effectivePeriod: null, pointChanged };
  }
  // The monthly price the email names: what the renewal of effectivePeriod will charge if prices stay as they are.
  const { price } = await priceChange(ctx, sub, data.mode, resolved);
  const effectivePeriod = await ctx.db.$transaction(async (tx) => {
    await lockActiveMembership(tx, sub.id, "changed");
    // The months skipped as of now, under the lock: a skip committed since the membership was read counts.
    const skips = await tx.skip.findMany({ where: { subscriptionId: sub.id }, select: { yearMonth: true } });
    const effectivePeriod = changeEffectivePeriod(ctx, { ...sub, skips });
    const change = { planId: plan.id, mode: data.mode, fulfillmentPoint, addonIds, effectivePeriod };
    // A new plan or mode takes a place there from now (api/catalog/capacity.ts); the same one takes none.
    await assertPlaceAvailable(tx, { planId: plan.id, mode: data.mode }, await placeHolder(tx, sub), { lock: true });
    await tx.subscriptionChange.upsert({ where: { subscriptionId: sub.id }, create: { subscriptionId: sub.id, ...change }, update: { ...change, createdAt: ctx.clock.now() } });
    const { fulfillmentPoint: _point, ...announced } = change;
    await membershipEvent(ctx, tx, sub, { type: "membership.changed.v1", payload: { membershipId: sub.id, userId: sub.userId, ...announced, totalCents: price.totalCents } });
    return effectivePeriod;
  });
  return { subscriptionId: sub.id, effectivePeriod, pointChanged: false };
}

// ---------------------------------------------------------------------------------------------------------
// Cancel

const CancelInput = z.object({ subscriptionId: z.number().int().positive("Missing subscription id"), mode: z.literal("NOW").default("NOW") });

/**
 * Spec §2 'Cancel immediately': ends access at once, no automatic refund; a scheduled change is dropped.
 * Business owners (in their business) and administrators only: members cancel by phone (spec §1), or, where the
 * business offers it, schedule their own cancel (./cancellation.ts).
 */
export async function cancelSubscription(ctx: ServiceContext, input: { subscriptionId: number; mode?: "NOW" }): Promise<{ subscriptionId: number }> {
  const { subscriptionId } = parseInput(CancelInput, input);
  const sub = await ctx.db.subscription.findUnique({ where: { id: subscriptionId }, select: { id: true, businessId: true, userId: true, status: true } });
  if (!sub) throw new NotFoundError("Subscription");
  await assertCan(ctx, sub.businessId, "cancelMemberships");
  const already = new ConflictError("This subscription is already canceled", "already_canceled");
  if (sub.status === "CANCELED") throw already;
  await ctx.db.$transaction(async (tx) => {
    // Conditional update: of two concurrent cancels, one wins and the other reports the conflict.
    const { count } = await tx.subscription.updateMany({
      where: { id: sub.id, status: { not: "CANCELED" } },
      data: { status: "CANCELED", canceledAt: ctx.clock.now(), cancelAfterPeriod: null },
    });
    if (count === 0) throw already;
    await tx.subscriptionChange.deleteMany({ where: { subscriptionId: sub.id } });
    // A cancel the member had scheduled is carried out now, by the business (its reason stays "business").
    await tx.cancellationRequest.updateMany({ where: { subscriptionId: sub.id, outcome: "CANCEL_SCHEDULED" }, data: { outcome: "CANCELED", decidedAt: ctx.clock.now() } });
    await membershipEvent(ctx, tx, sub, { type: "membership.canceled.v1", payload: { membershipId: sub.id, userId: sub.userId, reason: "business" } });
  });
  return { subscriptionId: sub.id };
}
