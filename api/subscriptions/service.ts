/**
 * Memberships (the Subscription model): the member's skip / change / restart and the business's cancel
 * (spec §2 member portal and admin memberships, §4 states). Calendar rules live in ./rules.ts; "today" is the
 * local date in the business's time zone.
 */
import { z } from "zod";
import type { ServiceContext } from "../context.ts";
import { Prisma, type FulfillmentMode, type SubscriptionStatus } from "../generated/prisma/client.ts";
import { assertCan, businessesWhere, requireMember } from "../auth/policy.ts";
import { chargeForPeriod, claimOpenMembership, lockMember } from "../billing/settlement.ts";
import { priceScheduledChange, type PriceBreakdown } from "../billing/pricing.ts";
import { MEMBER_STATUSES } from "../businesses/service.ts";
import { isoDate, localDate, type LocalDate } from "../shared/calendar.ts";
import { ConflictError, ForbiddenError, NotFoundError, RuleViolationError, ValidationError } from "../shared/errors.ts";
import { parseInput, searchTerm } from "../shared/validation.ts";
import {
  currentPeriod,
  DEFAULT_BILLING_DAY,
  DEFAULT_WINDOW,
  nextBillingPeriod,
  nextBoxDate,
  ordinal,
  resumeDate,
  skipTargetMonth,
  windowState,
  type DayWindow,
  type WindowState,
} from "./rules.ts";

// ---------------------------------------------------------------------------------------------------------
// Timing of a business (page settings) and "today" there

/** The page settings that time a membership; select them wherever a membership's dates are computed. */
export const timingSelect = {
  billingDay: true,
  cutoffDay: true,
  boxReadyDay: true,
  skipWindowStart: true,
  skipWindowEnd: true,
  changeWindowStart: true,
  changeWindowEnd: true,
} as const satisfies Prisma.PageSelect;

export type PageTiming = Prisma.PageGetPayload<{ select: typeof timingSelect }>;

export interface Timing {
  billingDay: number;
  cutoffDay: number | null;
  boxReadyDay: number | null;
  skipWindow: DayWindow;
  changeWindow: DayWindow;
}

/** A business without a saved page uses the spec §3 defaults. */
export function timingOf(page: PageTiming | null | undefined): Timing {
  if (!page) return { billingDay: DEFAULT_BILLING_DAY, cutoffDay: null, boxReadyDay: null, skipWindow: { ...DEFAULT_WINDOW }, changeWindow: { ...DEFAULT_WINDOW } };
  return {
    billingDay: page.billingDay,
    cutoffDay: page.cutoffDay,
    boxReadyDay: page.boxReadyDay,
    skipWindow: { startDay: page.skipWindowStart, endDay: page.skipWindowEnd },
    changeWindow: { startDay: page.changeWindowStart, endDay: page.changeWindowEnd },
  };
}

export function todayIn(ctx: Pick<ServiceContext, "clock">, timeZone: string): LocalDate {
  return localDate(ctx.clock.now(), timeZone);
}

/** ACTIVE and PAST_DUE are members (spec §4 shows them as active); CANCELED and INCOMPLETE are not. */
export const isActiveStatus = (status: string) => (MEMBER_STATUSES as readonly string[]).includes(status);

/** The membership's next box (ISO date), per spec §4. */
export function nextBoxDateOf(
  ctx: Pick<ServiceContext, "clock">,
  sub: { status: string; startedAt: Date; skips: { yearMonth: string }[]; business: { timeZone: string; page: PageTiming | null } },
): string {
  const timing = timingOf(sub.business.page);
  return isoDate(
    nextBoxDate({
      today: todayIn(ctx, sub.business.timeZone),
      active: isActiveStatus(sub.status),
      boxReadyDay: timing.boxReadyDay,
      cutoffDay: timing.cutoffDay,
      skippedMonths: new Set(sub.skips.map((s) => s.yearMonth)),
      startedAt: localDate(sub.startedAt, sub.business.timeZone),
    }),
  );
}

export interface WindowView extends DayWindow {
  open: boolean;
  /** ISO dates. */
  opensOn: string;
  closesOn: string;
}

export function windowView(window: DayWindow, state: WindowState): WindowView {
  return { ...window, open: state.open, opensOn: isoDate(state.opensOn), closesOn: isoDate(state.closesOn) };
}

export function windowOf(
  ctx: Pick<ServiceContext, "clock">,
  business: { timeZone: string; page: PageTiming | null },
  which: "skipWindow" | "changeWindow",
): WindowView {
  const window = timingOf(business.page)[which];
  return windowView(window, windowState(todayIn(ctx, business.timeZone), window));
}

function outsideWindowMessage(action: string, window: DayWindow, state: WindowState): string {
  const next = new Date(Date.UTC(state.opensOn.year, state.opensOn.month - 1, state.opensOn.day));
  const month = next.toLocaleString("en-US", { month: "long", timeZone: "UTC" });
  return (
    `You can ${action} only from the ${ordinal(window.startDay)} to the ${ordinal(window.endDay)} of each month. ` +
    `The next window opens on ${month} ${ordinal(state.opensOn.day)}.`
  );
}

// ---------------------------------------------------------------------------------------------------------
// Loading and authorising

const subscriptionForRules = {
  include: {
    business: { select: { id: true, slug: true, timeZone: true, page: { select: { ...timingSelect, pickupEnabled: true, shippingEnabled: true, deliveryEnabled: true, addonLimit: true } } } },
    addons: { select: { addonId: true } },
  },
} as const satisfies Prisma.SubscriptionDefaultArgs;

type SubscriptionForRules = Prisma.SubscriptionGetPayload<typeof subscriptionForRules>;

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

function requireActive(sub: { status: string }, action: string): void {
  if (sub.status !== "ACTIVE") throw new RuleViolationError(`Only an active subscription can be ${action}.`, "not_active");
}

const SubscriptionIdInput = z.object({ subscriptionId: z.number().int().positive("Missing subscription id") });

// ---------------------------------------------------------------------------------------------------------
// Skip

export interface SkipResult {
  subscriptionId: number;
  /** The month paused ("YYYY-MM"). */
  skippedMonth: string;
  /** ISO date payments resume (spec §4 'Payments paused until …'). */
  resumeDate: string;
}

export interface SkipTarget {
  /** The month a skip now pauses ("YYYY-MM", rules.skipTargetMonth). */
  month: string;
  /** ISO date payments resume after that month. */
  resumeDate: string;
  /** That month is already skipped (a skip now is refused as a duplicate). */
  skipped: boolean;
  /** A skip now would be accepted: an ACTIVE membership, inside the skip window, month not yet skipped. */
  allowed: boolean;
}

/**
 * What "Skip a month" does today, the one rule the portal shows and skipMonth applies: the month it pauses,
 * when payments resume, whether that month is already skipped and whether a skip is allowed now.
 */
export function skipTargetOf(
  ctx: Pick<ServiceContext, "clock">,
  sub: { status: string; paidThroughPeriod: string | null; skips: { yearMonth: string }[]; business: { timeZone: string; page: PageTiming | null } },
): SkipTarget {
  const timing = timingOf(sub.business.page);
  const today = todayIn(ctx, sub.business.timeZone);
  const month = skipTargetMonth({ today, boxReadyDay: timing.boxReadyDay, cutoffDay: timing.cutoffDay, paidThroughPeriod: sub.paidThroughPeriod });
  const skipped = sub.skips.some((s) => s.yearMonth === month);
  const allowed = sub.status === "ACTIVE" && windowState(today, timing.skipWindow).open && !skipped;
  return { month, resumeDate: isoDate(resumeDate(month, timing.billingDay)), skipped, allowed };
}

/**
 * Skips the month of the next box (see rules.skipTargetMonth): no box and no charge that month. Allowed
 * only to the member, on an active subscription, inside the business's skip window.
 */
export async function skipMonth(ctx: ServiceContext, input: { subscriptionId: number }): Promise<SkipResult> {
  const { subscriptionId } = parseInput(SubscriptionIdInput, input);
  const sub = await ownSubscription(ctx, subscriptionId);
  requireActive(sub, "skipped");
  const timing = timingOf(sub.business.page);
  const today = todayIn(ctx, sub.business.timeZone);
  const window = windowState(today, timing.skipWindow);
  if (!window.open) throw new RuleViolationError(outsideWindowMessage("skip a month", timing.skipWindow, window), "outside_skip_window");

  const { month, resumeDate: resumesOn } = skipTargetOf(ctx, { ...sub, skips: [] });
  const already = new ConflictError("This month is already skipped", "already_skipped");
  if (await ctx.db.skip.findUnique({ where: { subscriptionId_yearMonth: { subscriptionId, yearMonth: month } } })) throw already;
  await ctx.db.skip.create({ data: { subscriptionId, yearMonth: month } }).catch((e: { code?: string }) => {
    if (e.code === "P2002") throw already; // a concurrent skip of the same month won
    throw e;
  });
  return { subscriptionId, skippedMonth: month, resumeDate: resumesOn };
}

// ---------------------------------------------------------------------------------------------------------
// Change

const ChangeInput = z.object({
  subscriptionId: z.number().int().positive("Missing subscription id"),
  planId: z.number().int().positive("Please choose a package"),
  mode: z.enum(["PICKUP", "SHIPPING", "DELIVERY"]),
  addonIds: z.array(z.number().int().positive()).max(100).default([]),
});

/**
 * The catalogue checks of a new selection at the membership's business (listed package with a price for an
 * enabled mode, listed add-ons within the limit), shared by changeSubscription and quoteChange.
 */
async function resolveChange(ctx: ServiceContext, sub: SubscriptionForRules, data: { planId: number; mode: FulfillmentMode; addonIds: number[] }) {
  const page = sub.business.page;
  const plan = await ctx.db.plan.findFirst({
    where: { id: data.planId, businessId: sub.businessId, listed: true, archivedAt: null },
    select: { id: true, variations: { where: { mode: data.mode }, select: { id: true, amountCents: true } } },
  });
  if (!plan) throw new ValidationError("This package is not available", [{ path: "planId", message: "This package is not available" }]);
  const enabled = { PICKUP: page?.pickupEnabled ?? true, SHIPPING: page?.shippingEnabled ?? false, DELIVERY: page?.deliveryEnabled ?? false };
  if (!enabled[data.mode] || plan.variations.length === 0) {
    throw new ValidationError("This fulfillment mode is not available for this package", [{ path: "mode", message: "This fulfillment mode is not available" }]);
  }
  const addonIds = [...new Set(data.addonIds)];
  const addons = await ctx.db.addon.findMany({ where: { id: { in: addonIds }, businessId: sub.businessId, listed: true, archivedAt: null }, select: { id: true, amountCents: true } });
  if (addons.length !== addonIds.length) throw new ValidationError("An add-on is not available", [{ path: "addonIds", message: "An add-on is not available" }]);
  const limit = page?.addonLimit ?? 0;
  if (limit > 0 && addonIds.length > limit) {
    throw new ValidationError(`You can choose at most ${limit} add-on${limit === 1 ? "" : "s"}`, [{ path: "addonIds", message: "Too many add-ons" }]);
  }
  return { plan, variation: plan.variations[0], addonIds, addons };
}

export interface ChangeQuote {
  subscriptionId: number;
  price: PriceBreakdown;
  /** First billing period (YYYY-MM) at this price. */
  effectivePeriod: string;
}

/**
 * What the change dialog quotes (spec §2: "no charge today"): the monthly price the new selection renews at,
 * tax included, priced by the same rule as the renewal that applies it (billing/pricing.priceScheduledChange).
 */
export async function quoteChange(ctx: ServiceContext, input: { subscriptionId: number; planId: number; mode: FulfillmentMode; addonIds?: number[] }): Promise<ChangeQuote> {
  const data = parseInput(ChangeInput, input);
  const sub = await ownSubscription(ctx, data.subscriptionId);
  const { variation, addons } = await resolveChange(ctx, sub, data);
  const [coupon, tax] = await Promise.all([
    sub.couponId ? ctx.db.coupon.findUnique({ where: { id: sub.couponId }, select: { type: true, value: true, active: true } }) : null,
    ctx.db.page.findUnique({ where: { businessId: sub.businessId }, select: { taxEnabled: true, taxRateBps: true } }),
  ]);
  const price = priceScheduledChange({ planAmountCents: variation.amountCents, addonAmountsCents: addons.map((a) => a.amountCents), coupon, tax });
  return { subscriptionId: sub.id, price, effectivePeriod: nextBillingPeriod(todayIn(ctx, sub.business.timeZone), sub.paidThroughPeriod) };
}

const sameSet = (a: number[], b: number[]) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

/**
 * Schedules a new selection (plan, fulfillment mode, add-ons) from the next billing period; nothing is
 * charged now (spec §2 change dialog). Choosing the current selection again withdraws a pending change.
 */
export async function changeSubscription(
  ctx: ServiceContext,
  input: { subscriptionId: number; planId: number; mode: FulfillmentMode; addonIds?: number[] },
): Promise<{ subscriptionId: number; effectivePeriod: string | null }> {
  const data = parseInput(ChangeInput, input);
  const sub = await ownSubscription(ctx, data.subscriptionId);
  requireActive(sub, "changed");
  const timing = timingOf(sub.business.page);
  const today = todayIn(ctx, sub.business.timeZone);
  const window = windowState(today, timing.changeWindow);
  if (!window.open) throw new RuleViolationError(outsideWindowMessage("change your box", timing.changeWindow, window), "outside_change_window");
  const { plan, addonIds } = await resolveChange(ctx, sub, data);

  const unchanged = plan.id === sub.planId && data.mode === sub.mode && sameSet(addonIds, sub.addons.map((a) => a.addonId));
  if (unchanged) {
    const withdrawn = await ctx.db.subscriptionChange.deleteMany({ where: { subscriptionId: sub.id } });
    if (withdrawn.count === 0) throw new RuleViolationError("Your selection has not changed.", "no_change");
    return { subscriptionId: sub.id, effectivePeriod: null };
  }
  const effectivePeriod = nextBillingPeriod(today, sub.paidThroughPeriod);
  const change = { planId: plan.id, mode: data.mode, addonIds, effectivePeriod };
  await ctx.db.subscriptionChange.upsert({ where: { subscriptionId: sub.id }, create: { subscriptionId: sub.id, ...change }, update: { ...change, createdAt: ctx.clock.now() } });
  return { subscriptionId: sub.id, effectivePeriod };
}

// ---------------------------------------------------------------------------------------------------------
// Cancel

const CancelInput = z.object({ subscriptionId: z.number().int().positive("Missing subscription id"), mode: z.literal("NOW").default("NOW") });

/**
 * Spec §2 'Cancel immediately': ends access at once, no automatic refund; a scheduled change is dropped.
 * Business owners (in their business) and administrators only: members cancel by phone (spec §1).
 */
export async function cancelSubscription(ctx: ServiceContext, input: { subscriptionId: number; mode?: "NOW" }): Promise<{ subscriptionId: number }> {
  const { subscriptionId } = parseInput(CancelInput, input);
  const sub = await ctx.db.subscription.findUnique({ where: { id: subscriptionId }, select: { id: true, businessId: true, status: true } });
  if (!sub) throw new NotFoundError("Subscription");
  await assertCan(ctx, sub.businessId, "cancelMemberships");
  const already = new ConflictError("This subscription is already canceled", "already_canceled");
  if (sub.status === "CANCELED") throw already;
  await ctx.db.$transaction(async (tx) => {
    // Conditional update: of two concurrent cancels, one wins and the other reports the conflict.
    const { count } = await tx.subscription.updateMany({
      where: { id: sub.id, status: { not: "CANCELED" } },
      data: { status: "CANCELED", canceledAt: ctx.clock.now() },
    });
    if (count === 0) throw already;
    await tx.subscriptionChange.deleteMany({ where: { subscriptionId: sub.id } });
  });
  return { subscriptionId: sub.id };
}

// ---------------------------------------------------------------------------------------------------------
// Restart

/** What a restart charged, for the portal's confirmation: the amount, the period it pays for, the next billing date. */
export interface RestartReceipt {
  chargedCents: number;
  /** YYYY-MM paid through. */
  period: string;
  /** ISO date of the next charge: the billing day after that period. */
  nextBillingDate: string;
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
export async function restartSubscription(ctx: ServiceContext, input: { subscriptionId: number }): Promise<RestartResult> {
  const { subscriptionId } = parseInput(SubscriptionIdInput, input);
  const sub = await ownSubscription(ctx, subscriptionId);
  if (sub.status !== "CANCELED") throw new ConflictError("Only a canceled subscription can be restarted", "not_canceled");
  // One membership per member and business: refuse before any charge is made. A checkout left unpaid there does
  // not stand in the way (settlement makes it give way); one opened meanwhile is decided by the settlement.
  const member = await ctx.db.subscription.count({
    where: { userId: sub.userId, businessId: sub.businessId, id: { not: sub.id }, status: { in: [...MEMBER_STATUSES] } },
  });
  if (member > 0) throw alreadyMember();
  const period = currentPeriod(todayIn(ctx, sub.business.timeZone));

  if (sub.paidThroughPeriod && sub.paidThroughPeriod >= period) {
    const reactivated = await ctx.db.$transaction(async (tx) => {
      await lockMember(tx, sub.userId);
      if (!(await claimOpenMembership(tx, sub))) return false;
      await tx.subscription.updateMany({ where: { id: sub.id, status: "CANCELED" }, data: { status: "ACTIVE", canceledAt: null } });
      return true;
    });
    if (!reactivated) throw alreadyMember();
    const paid = sub.paidThroughPeriod;
    return { outcome: "REACTIVATED", subscriptionId: sub.id, chargedCents: 0, period: paid, nextBillingDate: isoDate(resumeDate(paid, sub.billingDay)) };
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
      const nextBillingDate = isoDate(resumeDate(order.period, sub.billingDay));
      return { outcome: "PAID", subscriptionId: sub.id, orderId: charge.orderId, chargedCents: order.totalCents, period: order.period, nextBillingDate };
    }
    case "requires_action":
      return { outcome: "REQUIRES_ACTION", subscriptionId: sub.id, clientSecret: charge.clientSecret, paymentIntentId: charge.paymentIntentId };
    case "failed":
      throw new RuleViolationError(charge.message || "Failed to restart subscription", "payment_failed");
    case "refunded":
      throw new ConflictError(charge.message, "payment_refunded");
  }
}

const alreadyMember = () => new ConflictError("You already have a membership at this business.", "already_member");

// ---------------------------------------------------------------------------------------------------------
// Lists

export type StatusFilter = "ANY" | "ACTIVE" | "PAST_DUE" | "CANCELED";

/**
 * Status filter of the memberships lists (spec §2: any, active, canceled; plus past due, issue 14). "active"
 * means a current member: ACTIVE and PAST_DUE (a failed renewal still being retried); "past due" only the
 * latter, the members whose card needs attention. Checkouts that never completed (INCOMPLETE) are not
 * memberships and are listed under none of them.
 */
export function statusWhere(status: StatusFilter | null | undefined): Prisma.SubscriptionWhereInput {
  switch (status) {
    case "ACTIVE":
      return { status: { in: [...MEMBER_STATUSES] } };
    case "PAST_DUE":
      return { status: "PAST_DUE" };
    case "CANCELED":
      return { status: "CANCELED" };
    default:
      return { status: { not: "INCOMPLETE" } };
  }
}

/**
 * A member's own memberships as the portal lists them (spec §4), optionally at one business: every status but
 * INCOMPLETE (a checkout never paid is not a membership). GraphQL `User.subscriptions` and the REST portal
 * routes read through this one filter; `portalOrder` then orders them.
 */
export function portalMembershipsWhere(userId: number, businessSlug?: string | null): Prisma.SubscriptionWhereInput {
  return { userId, ...statusWhere("ANY"), ...(businessSlug ? { business: { slug: businessSlug.toLowerCase() } } : {}) };
}

/** Search by member username, name or email, or by business name or slug (case-insensitive contains). */
export function searchWhere(search: string | null | undefined): Prisma.SubscriptionWhereInput {
  const term = searchTerm(search);
  if (!term) return {};
  const contains = { contains: term, mode: "insensitive" as const };
  return {
    OR: [
      { user: { username: contains } },
      { user: { name: contains } },
      { user: { email: contains } },
      { email: contains },
      { business: { name: contains } },
      { business: { slug: contains } },
    ],
  };
}

export interface MembershipFilter {
  search?: string | null;
  status?: StatusFilter | null;
  businessId?: number | null;
}

/** Memberships the actor may read (admin: all; staff and partner tokens: their businesses), filtered. */
export function membershipsWhere(ctx: ServiceContext, filter: MembershipFilter): Prisma.SubscriptionWhereInput {
  return {
    AND: [
      { business: businessesWhere(ctx, "readMemberships") },
      filter.businessId != null ? { businessId: filter.businessId } : {},
      statusWhere(filter.status),
      searchWhere(filter.search),
    ],
  };
}

/** Newest first in admin tables. */
export const membershipOrder: Prisma.SubscriptionOrderByWithRelationInput[] = [{ startedAt: "desc" }, { id: "desc" }];

/**
 * statusWhere in SQL, on `subscriptions s`. Enum literals, not text parameters: with `status::text = $1`
 * PostgreSQL cannot estimate the filter and may sort the whole table instead of walking the index.
 */
function statusSql(status: StatusFilter | null | undefined): Prisma.Sql {
  switch (status) {
    case "ACTIVE":
      return Prisma.raw(`s.status IN (${MEMBER_STATUSES.map((m) => `'${m}'`).join(", ")})`);
    case "PAST_DUE":
      return Prisma.sql`s.status = 'PAST_DUE'`;
    case "CANCELED":
      return Prisma.sql`s.status = 'CANCELED'`;
    default:
      return Prisma.sql`s.status <> 'INCOMPLETE'`;
  }
}

/**
 * A page of the memberships list in the Prisma cursor form the Relay connections use: `take` rows (negative:
 * the rows before the cursor, for `last`/`before`), starting after row `cursorId` when given (`skip` 1: the
 * cursor row itself is never repeated).
 */
export interface MembershipPage {
  take: number;
  skip?: number;
  cursorId?: number | null;
}

/**
 * The ids of one page of `membershipsWhere(ctx, filter)` in `membershipOrder` (newest first), in one keyset
 * statement: the same rows as that Prisma filter with a Prisma cursor, which joins users three times and
 * businesses twice (one join per relation filter) and compares with the cursor row through subqueries. Here
 * the search joins each table once and the cursor is one row comparison, so PostgreSQL walks the
 * (started_at DESC, id DESC) index from the cursor and stops after the page. Callers load the rows by id
 * (`inIdOrder`). Search is case-insensitive contains, as Prisma's (whose pattern keeps `%` and `_` as wildcards).
 */
export async function membershipPageIds(ctx: ServiceContext, filter: MembershipFilter, page: MembershipPage): Promise<number[]> {
  const rows = await membershipPage<{ id: number }>(ctx, filter, page, Prisma.sql`s.id`, false);
  return rows.map((r) => r.id);
}

/** A row of the admin memberships table (the REST list): the membership with its member and business. */
export interface MembershipListRow {
  id: number;
  providerSubscriptionId: string | null;
  status: SubscriptionStatus;
  startedAt: Date;
  canceledAt: Date | null;
  userId: number;
  user: { publicId: string; username: string };
  business: { slug: string; name: string };
}

/** One page of the memberships list with the table's columns, in one statement (see membershipPageIds). */
export async function membershipListRows(ctx: ServiceContext, filter: MembershipFilter, page: MembershipPage): Promise<MembershipListRow[]> {
  type Flat = Omit<MembershipListRow, "user" | "business"> & { publicId: string; username: string; slug: string; businessName: string };
  const rows = await membershipPage<Flat>(
    ctx,
    filter,
    page,
    Prisma.sql`s.id, s.provider_subscription_id AS "providerSubscriptionId", s.status::text AS status, s.started_at AS "startedAt",
      s.canceled_at AS "canceledAt", s.user_id AS "userId", u.public_id AS "publicId", u.username, b.slug, b.name AS "businessName"`,
    true,
  );
  return rows.map(({ publicId, username, slug, businessName, ...m }) => ({ ...m, user: { publicId, username }, business: { slug, name: businessName } }));
}

/** The keyset statement behind both: `columns` of the page's rows, joining users (u) and businesses (b) when searching or asked. */
async function membershipPage<T>(ctx: ServiceContext, filter: MembershipFilter, page: MembershipPage, columns: Prisma.Sql, joined: boolean): Promise<T[]> {
  if (page.take === 0) return [];
  const conditions = [statusSql(filter.status)];
  // Who may read what stays in the policy: its business filter, resolved to ids unless it allows every business.
  const readable = businessesWhere(ctx, "readMemberships");
  if (Object.keys(readable).length > 0) {
    const ids = "id" in readable && typeof readable.id === "number" ? [readable.id] : (await ctx.db.business.findMany({ where: readable, select: { id: true } })).map((b) => b.id);
    if (ids.length === 0) return [];
    conditions.push(Prisma.sql`s.business_id IN (${Prisma.join(ids)})`);
  }
  if (filter.businessId != null) conditions.push(Prisma.sql`s.business_id = ${filter.businessId}`);
  const term = searchTerm(filter.search);
  const joins = term || joined ? Prisma.sql`JOIN users u ON u.id = s.user_id JOIN businesses b ON b.id = s.business_id` : Prisma.empty;
  if (term) {
    const like = (column: Prisma.Sql) => Prisma.sql`${column} ILIKE ('%' || ${term} || '%')`;
    conditions.push(
      Prisma.sql`(${Prisma.join([like(Prisma.sql`u.username`), like(Prisma.sql`u.name`), like(Prisma.sql`u.email`), like(Prisma.sql`s.email`), like(Prisma.sql`b.name`), like(Prisma.sql`b.slug`)], " OR ")})`,
    );
  }
  const backward = page.take < 0;
  if (page.cursorId == null && page.skip) throw new ValidationError("Unsupported page", [{ path: "skip", message: "Only the cursor row can be skipped" }]);
  if (page.cursorId != null) {
    const cursor = Prisma.sql`(SELECT c.started_at, c.id FROM subscriptions c WHERE c.id = ${page.cursorId})`;
    const skip = page.skip ?? 0;
    if (skip > 1) throw new ValidationError("Unsupported page", [{ path: "skip", message: "At most the cursor row can be skipped" }]);
    const op = backward ? (skip ? Prisma.raw(">") : Prisma.raw(">=")) : skip ? Prisma.raw("<") : Prisma.raw("<=");
    conditions.push(Prisma.sql`(s.started_at, s.id) ${op} ${cursor}`);
  }
  const direction = Prisma.raw(backward ? "ASC" : "DESC");
  const rows = await ctx.db.$queryRaw<T[]>`
    SELECT ${columns} FROM subscriptions s ${joins}
     WHERE ${Prisma.join(conditions, " AND ")}
     ORDER BY s.started_at ${direction}, s.id ${direction}
     LIMIT ${Math.abs(page.take)}`;
  return backward ? rows.reverse() : rows;
}

/** Rows loaded by id, in the order of `ids` (a findMany by id returns them in any order). */
export function inIdOrder<T extends { id: number }>(ids: number[], rows: T[]): T[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * Spec §4 'One subscription per business shown': prefer one with a payment-provider subscription id, then
 * an active one, then the latest start.
 */
export function compareForPortal(
  a: { providerSubscriptionId: string | null; status: string; startedAt: Date; id: number },
  b: typeof a,
): number {
  const rank = (s: typeof a) => [s.providerSubscriptionId ? 0 : 1, isActiveStatus(s.status) ? 0 : 1];
  const [ra, rb] = [rank(a), rank(b)];
  return ra[0] - rb[0] || ra[1] - rb[1] || b.startedAt.getTime() - a.startedAt.getTime() || b.id - a.id;
}

export function portalOrder<T extends Parameters<typeof compareForPortal>[0] & { businessId: number }>(subs: T[], onePerBusiness: boolean): T[] {
  const sorted = [...subs].sort(compareForPortal);
  if (!onePerBusiness) return sorted;
  const seen = new Set<number>();
  return sorted.filter((s) => !seen.has(s.businessId) && (seen.add(s.businessId), true));
}
