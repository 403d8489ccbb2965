/**
 * Using a coupon: finding it at checkout (the business's own code first, then the platform's), redeeming it for a
 * membership (the one place its terms and its redemption limit are enforced) and counting the charges made with it.
 */
import type { Actor, ServiceContext } from "../context.ts";
import type { Coupon, Prisma } from "../generated/prisma/client.ts";
import { eventActorOf, writeEvents } from "../events/outbox.ts";
import { priceStoredSelection } from "../rules/pricing.ts";
import { couponChargeLimit } from "../shared/coupon-terms.ts";
import { globalId } from "../shared/global-id.ts";
import { expiredAt, invalidCouponCode, normalizeCode } from "./codes.ts";

type Tx = Prisma.TransactionClient;

interface Where {
  business: { id: number; timeZone: string };
  planId: number;
  now: Date;
}

/**
 * Why a coupon cannot be used for a plan at a business now (null: it can), its redemption limit aside (the
 * redemption decides that under its conditional update): inactive, another business's, past its expiry day (in the
 * business's time zone), or not for this plan.
 */
function refusalOf(coupon: Coupon, at: Where): string | null {
  if (!coupon.active) return "inactive";
  if (coupon.businessId !== null && coupon.businessId !== at.business.id) return "other_business";
  if (expiredAt(coupon, at.now, at.business)) return "expired";
  if (coupon.planIds.length > 0 && !coupon.planIds.includes(at.planId)) return "plan";
  return null;
}

/**
 * The coupon a checkout's code names: the business's own coupon with that code, else the platform's. Refused with
 * spec §4's one message when unknown, inactive, expired, for other plans, or used up (the last is advisory here:
 * redeemCoupon decides it when the payment settles). The quote and the checkout both price through here; so does
 * attaching a coupon by its code (api/billing/coupons.ts).
 */
export async function findCheckoutCoupon(ctx: Pick<ServiceContext, "db">, code: string, at: Where): Promise<Coupon> {
  const normalized = normalizeCode(code ?? "");
  if (!normalized) throw invalidCouponCode();
  // A retention coupon (kind RETENTION) is never found by a code: only an accepted retention offer attaches it.
  const found = await ctx.db.coupon.findMany({ where: { code: normalized, kind: "CODE", OR: [{ businessId: at.business.id }, { businessId: null }] } });
  const coupon = found.find((c) => c.businessId === at.business.id) ?? found.find((c) => c.businessId === null);
  if (!coupon || refusalOf(coupon, at) !== null) throw invalidCouponCode();
  if (coupon.maxRedemptions !== null && coupon.redemptionCount >= coupon.maxRedemptions) throw invalidCouponCode();
  return coupon;
}

export interface Redemption {
  couponId: number;
  subscriptionId: number;
  userId: number;
  business: { id: number; timeZone: string };
  planId: number;
  at: Date;
  actor?: Actor;
}

/**
 * Redeems a coupon for a membership, inside the transaction that activates it (checkout settlement, a next-month
 * sign-up) or attaches the coupon to it later. Checks the coupon's terms, then takes one of its redemptions with a
 * conditional UPDATE (raised only while below the limit; the row stays locked to the end of the transaction, so
 * concurrent checkouts on PostgreSQL never pass the limit), records the redemption (no charge counted yet: the
 * charges made with it count from the first one, countCouponCharges) and announces it. Returns false, changing
 * nothing, when the coupon cannot be redeemed, or was redeemed by this membership before (once per membership).
 */
export async function redeemCoupon(tx: Tx, r: Redemption): Promise<boolean> {
  const coupon = await tx.coupon.findUnique({ where: { id: r.couponId } });
  if (!coupon) return false;
  const already = await tx.couponRedemption.findUnique({ where: { couponId_subscriptionId: { couponId: r.couponId, subscriptionId: r.subscriptionId } }, select: { id: true } });
  if (already) return false;
  if (refusalOf(coupon, { business: r.business, planId: r.planId, now: r.at }) !== null) return false;
  const taken = await tx.$executeRaw`
    UPDATE coupons SET redemption_count = redemption_count + 1
     WHERE id = ${r.couponId} AND (max_redemptions IS NULL OR redemption_count < max_redemptions)`;
  if (taken === 0) return false;
  await tx.couponRedemption.create({
    data: { couponId: r.couponId, subscriptionId: r.subscriptionId, userId: r.userId, businessId: r.business.id, redeemedAt: r.at, chargesUsed: 0 },
  });
  await writeEvents(tx, { at: r.at, actor: eventActorOf(r.actor) }, [
    {
      type: "coupon.redeemed.v1",
      // The membership's business (its feed); the payload names the coupon's own (null: a platform coupon).
      businessId: r.business.id,
      objectId: globalId("Coupon", r.couponId),
      payload: { couponId: r.couponId, businessId: coupon.businessId, membershipId: r.subscriptionId, userId: r.userId },
    },
  ]);
  return true;
}

/**
 * Counts a charge made with the coupon for each order just made with one (set-based: one statement for a renewal
 * batch, whatever its size). Returns the memberships whose coupon has now discounted every charge it was for: their
 * next period is priced without it (billing's renewal pricing, api/billing/renewals/pricing.ts).
 */
export async function countCouponCharges(tx: Tx, orderIds: number[]): Promise<number[]> {
  if (orderIds.length === 0) return [];
  const counted = await tx.$queryRaw<{ subscription_id: number; charges_used: number; duration: "ONCE" | "REPEATING" | "FOREVER"; duration_months: number | null }[]>`
    UPDATE coupon_redemptions AS r SET charges_used = r.charges_used + 1
      FROM orders o, coupons c
     WHERE o.id = ANY(${orderIds}::int[]) AND r.subscription_id = o.subscription_id AND r.coupon_id = o.coupon_id AND c.id = r.coupon_id
    RETURNING r.subscription_id, r.charges_used, c.duration::text AS duration, c.duration_months`;
  return counted
    .filter((c) => {
      const limit = couponChargeLimit({ duration: c.duration, durationMonths: c.duration_months });
      return limit !== null && c.charges_used >= limit;
    })
    .map((c) => c.subscription_id);
}

/**
 * Memberships that no longer hold their coupon (it discounted every charge it was for, or it was deleted): from
 * their next period they are charged their stored selection without the discount (api/rules/pricing.ts), their
 * stored discount, tax and total updated and the coupon let go. Two statements whatever their number.
 */
export async function releaseCoupons(tx: Tx, subscriptionIds: number[], now: Date): Promise<void> {
  if (subscriptionIds.length === 0) return;
  const subs = await tx.subscription.findMany({
    where: { id: { in: subscriptionIds } },
    select: { id: true, planAmountCents: true, addonsAmountCents: true, taxRateBps: true },
  });
  const priced = subs.map((s) => ({ id: s.id, ...priceStoredSelection(s, null) }));
  const col = (pick: (p: (typeof priced)[number]) => number) => priced.map(pick);
  await tx.$executeRaw`
    UPDATE subscriptions AS s
       SET discount_cents = v.discount_cents, tax_cents = v.tax_cents, total_cents = v.total_cents, coupon_id = NULL, updated_at = ${now}::timestamp
      FROM unnest(${col((p) => p.id)}::int[], ${col((p) => p.discountCents)}::int[], ${col((p) => p.taxCents)}::int[], ${col((p) => p.totalCents)}::int[])
        AS v(id, discount_cents, tax_cents, total_cents)
     WHERE s.id = v.id`;
}
