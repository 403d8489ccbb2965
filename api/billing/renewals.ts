import type { ServiceContext } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { variationFor } from "../catalog/service.ts";
import { discountCents } from "../coupons/service.ts";
import { localDate, yearMonthOf } from "../shared/calendar.ts";
import { priceSelection } from "./pricing.ts";
import { chargeForPeriod } from "./service.ts";

/**
 * The billing clock: on its billing day (1–28, in the business's time zone) each active or past-due membership
 * is charged for the month, unless the month is skipped or already paid; a change scheduled for the month is
 * applied first. Safe to run from several server processes at once and to re-run for the same period:
 * a run claims each membership with a short lease, the charge's idempotency key is fixed per period and attempt,
 * and the order is unique per membership and period.
 *
 * Dunning: a declined renewal leaves the membership PAST_DUE; it is retried 1, 3 and 7 days after the first
 * decline (at once when the member saves a new card), and canceled when the last retry fails.
 */

/** Days after the first declined attempt at which the period is tried again. */
export const RETRY_SCHEDULE_DAYS = [1, 3, 7] as const;
export const MAX_ATTEMPTS = RETRY_SCHEDULE_DAYS.length + 1;
const DAY_MS = 24 * 60 * 60 * 1000;
const LEASE_MS = 5 * 60 * 1000;
const BATCH = 200;

type BillingContext = Pick<ServiceContext, "db" | "clock" | "config" | "log">;

export interface RenewalReport {
  /** Memberships that were due and looked at. */
  due: number;
  charged: number;
  /** Due, but their month is skipped. */
  skipped: number;
  /** Claimed by another run at the same time. */
  busy: number;
  /** Declined or needing the member (3-D Secure, no saved card): now past due. */
  failed: number;
  /** Canceled after the last allowed attempt. */
  canceled: number;
  /** Past due, next retry not yet scheduled. */
  waiting: number;
  changesApplied: number;
}

const dueSelect = {
  id: true,
  status: true,
  paidThroughPeriod: true,
  businessId: true,
  pendingChange: true,
  couponId: true,
  coupon: { select: { type: true, value: true, active: true } },
} satisfies Prisma.SubscriptionSelect;

/** Runs one pass of the billing clock over every business (or one), as of the clock's now. */
export async function runRenewals(ctx: BillingContext, opts: { businessId?: number } = {}): Promise<RenewalReport> {
  const report: RenewalReport = { due: 0, charged: 0, skipped: 0, busy: 0, failed: 0, canceled: 0, waiting: 0, changesApplied: 0 };
  const businesses = await ctx.db.business.findMany({
    where: opts.businessId ? { id: opts.businessId } : {},
    select: { id: true, timeZone: true, page: { select: { taxEnabled: true, taxRateBps: true } } },
    orderBy: { id: "asc" },
  });
  for (const business of businesses) {
    const today = localDate(ctx.clock.now(), business.timeZone);
    const period = yearMonthOf(today);
    const unpaid: Prisma.SubscriptionWhereInput = {
      businessId: business.id,
      status: { in: ["ACTIVE", "PAST_DUE"] },
      billingDay: { lte: today.day },
      OR: [{ paidThroughPeriod: null }, { paidThroughPeriod: { lt: period } }],
    };
    report.skipped += await ctx.db.subscription.count({ where: { ...unpaid, skips: { some: { yearMonth: period } } } });

    let afterId = 0;
    for (;;) {
      const batch = await ctx.db.subscription.findMany({
        where: { ...unpaid, skips: { none: { yearMonth: period } }, id: { gt: afterId } },
        select: { id: true },
        orderBy: { id: "asc" },
        take: BATCH,
      });
      if (batch.length === 0) break;
      afterId = batch[batch.length - 1].id;
      for (const { id } of batch) {
        report.due++;
        await renewOne(ctx, id, period, business.page, report);
      }
    }
  }
  return report;
}

async function renewOne(
  ctx: BillingContext,
  subscriptionId: number,
  period: string,
  page: { taxEnabled: boolean; taxRateBps: number } | null,
  report: RenewalReport,
  opts: { retryNow?: boolean } = {},
): Promise<void> {
  const now = ctx.clock.now();
  const claim = await ctx.db.subscription.updateMany({
    where: { id: subscriptionId, OR: [{ renewalLeaseUntil: null }, { renewalLeaseUntil: { lt: now } }] },
    data: { renewalLeaseUntil: new Date(now.getTime() + LEASE_MS) },
  });
  if (claim.count === 0) {
    report.busy++;
    return;
  }
  try {
    const sub = await ctx.db.subscription.findUniqueOrThrow({ where: { id: subscriptionId }, select: dueSelect });
    // Another run finished this period between our query and our claim.
    if (sub.paidThroughPeriod && sub.paidThroughPeriod >= period) return;

    const keyPrefix = `renewal:${sub.id}:${period}:`;
    const attempts = await ctx.db.payment.findMany({
      where: { subscriptionId: sub.id, idempotencyKey: { startsWith: keyPrefix }, status: { not: "SUCCEEDED" } },
      select: { createdAt: true },
      orderBy: { createdAt: "asc" },
    });
    if (attempts.length > 0 && !opts.retryNow) {
      const retryAt = attempts[0].createdAt.getTime() + RETRY_SCHEDULE_DAYS[Math.min(attempts.length, RETRY_SCHEDULE_DAYS.length) - 1] * DAY_MS;
      if (now.getTime() < retryAt) {
        report.waiting++;
        return;
      }
    }

    if (sub.pendingChange && sub.pendingChange.effectivePeriod <= period) {
      await applyScheduledChange(ctx, sub, page);
      report.changesApplied++;
    }

    const outcome = await chargeForPeriod(ctx, {
      subscriptionId: sub.id,
      period,
      kind: "RENEWAL",
      idempotencyKey: `${keyPrefix}${attempts.length + 1}`,
    });
    if (outcome.outcome === "paid") {
      report.charged++;
      return;
    }
    const lastAttempt = attempts.length + 1 >= MAX_ATTEMPTS;
    await ctx.db.subscription.update({
      where: { id: sub.id },
      data: lastAttempt ? { status: "CANCELED", canceledAt: now } : { status: "PAST_DUE" },
    });
    if (lastAttempt) report.canceled++;
    else report.failed++;
    ctx.log.warn({ subscriptionId: sub.id, period, attempt: attempts.length + 1, outcome: outcome.outcome }, "renewal not paid");
  } finally {
    await ctx.db.subscription.update({ where: { id: subscriptionId }, data: { renewalLeaseUntil: null } });
  }
}

/**
 * After a member saves a new card: try their past-due memberships at once instead of waiting for the next
 * scheduled retry. Returns what happened, per the billing clock's report.
 */
export async function retryPastDue(ctx: BillingContext, userId: number): Promise<RenewalReport> {
  const report: RenewalReport = { due: 0, charged: 0, skipped: 0, busy: 0, failed: 0, canceled: 0, waiting: 0, changesApplied: 0 };
  const pastDue = await ctx.db.subscription.findMany({
    where: { userId, status: "PAST_DUE" },
    select: { id: true, business: { select: { timeZone: true, page: { select: { taxEnabled: true, taxRateBps: true } } } } },
  });
  for (const sub of pastDue) {
    report.due++;
    const period = yearMonthOf(localDate(ctx.clock.now(), sub.business.timeZone));
    await renewOne(ctx, sub.id, period, sub.business.page, report, { retryNow: true });
  }
  return report;
}

/** The selection scheduled by changeSubscription takes effect: new plan, mode and add-ons at today's prices. */
async function applyScheduledChange(
  ctx: BillingContext,
  sub: Prisma.SubscriptionGetPayload<{ select: typeof dueSelect }>,
  page: { taxEnabled: boolean; taxRateBps: number } | null,
): Promise<void> {
  const change = sub.pendingChange!;
  const plan = await ctx.db.plan.findUniqueOrThrow({ where: { id: change.planId }, include: { variations: true } });
  const addons = await ctx.db.addon.findMany({ where: { id: { in: change.addonIds }, businessId: sub.businessId } });
  const variation = variationFor(plan, change.mode);
  if (!variation) {
    // The plan lost its price for that mode after the change was scheduled: keep the current selection.
    await ctx.db.subscriptionChange.delete({ where: { id: change.id } });
    ctx.log.warn({ subscriptionId: sub.id, planId: plan.id, mode: change.mode }, "scheduled change dropped: no price for the mode");
    return;
  }
  const coupon = sub.coupon?.active ? sub.coupon : null;
  const price = priceSelection({
    planAmountCents: variation.amountCents,
    addonAmountsCents: addons.map((a) => a.amountCents),
    discountFor: coupon ? (subtotal) => discountCents(coupon, subtotal) : undefined,
    taxRateBps: page?.taxEnabled ? page.taxRateBps : null,
  });
  await ctx.db.$transaction([
    ctx.db.subscriptionAddon.deleteMany({ where: { subscriptionId: sub.id } }),
    ctx.db.subscription.update({
      where: { id: sub.id },
      data: {
        planId: plan.id,
        mode: change.mode,
        planAmountCents: price.planAmountCents,
        addonsAmountCents: price.addonsAmountCents,
        discountCents: price.discountCents,
        taxCents: price.taxCents,
        totalCents: price.totalCents,
        taxRateBps: price.taxRateBps,
        couponId: coupon ? sub.couponId : null,
        addons: { create: addons.map((a) => ({ addonId: a.id, amountCents: a.amountCents })) },
      },
    }),
    ctx.db.subscriptionChange.delete({ where: { id: change.id } }),
  ]);
}

/** Runs the billing clock every `intervalMs` inside the server process; returns a stop function. */
export function startBillingClock(ctx: BillingContext, intervalMs: number): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = runRenewals(ctx)
      .then((report) => {
        if (report.due || report.skipped) ctx.log.info({ report }, "billing clock ran");
      })
      .catch((err) => ctx.log.error({ err }, "billing clock failed"));
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  // First pass shortly after start, not in the middle of start-up.
  const first = setTimeout(tick, Math.min(intervalMs, 10_000));
  first.unref();
  return async () => {
    clearInterval(timer);
    clearTimeout(first);
    await running;
  };
}
