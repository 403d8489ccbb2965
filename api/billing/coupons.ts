/**
 * A coupon attached to a membership between its charges (a staff action by its code, or a retention offer the member
 * accepted, api/subscriptions/cancellation.ts): redeemed through the one redemption function (api/coupons/redemption.ts:
 * its terms and limit enforced there), the membership's stored price takes the discount from its next charge, the
 * first one counted (renewals/pricing.ts spendCoupons counts from it). Those callers decide who may attach one.
 */
import type { Actor, ServiceContext } from "../context.ts";
import type { Coupon, Prisma } from "../generated/prisma/client.ts";
import { findCheckoutCoupon, redeemCoupon } from "../coupons/redemption.ts";
import { invalidCouponCode } from "../coupons/codes.ts";
import { priceStoredSelection } from "../rules/pricing.ts";
import { ConflictError, NotFoundError } from "../shared/errors.ts";
import { lockMember } from "./checkout/settlement.ts";

/** Attaches the coupon a code names (as checkout finds it) to a membership, in a transaction of its own. */
export async function attachCoupon(ctx: Pick<ServiceContext, "db" | "clock"> & { actor?: Actor }, args: { subscriptionId: number; code: string }): Promise<void> {
  const sub = await ctx.db.subscription.findUnique({ where: { id: args.subscriptionId }, include: { business: { select: { id: true, timeZone: true } } } });
  if (!sub) throw new NotFoundError("Membership");
  const now = ctx.clock.now();
  const coupon = await findCheckoutCoupon(ctx, args.code, { business: sub.business, planId: sub.planId, now });
  await ctx.db.$transaction(async (tx) => {
    if (!(await attachCouponIn(tx, { subscriptionId: sub.id, userId: sub.userId, business: sub.business, coupon, at: now, actor: ctx.actor }))) throw invalidCouponCode();
  });
}

/**
 * Attaches `coupon` to the membership inside the caller's transaction: the member's row locked first (as checkout
 * settlement does), refused with coupon_held when the membership holds a coupon already; false, changing nothing,
 * when the redemption function refuses it (its terms, its limit, or redeemed by this membership before).
 */
export async function attachCouponIn(
  tx: Prisma.TransactionClient,
  a: { subscriptionId: number; userId: number; business: { id: number; timeZone: string }; coupon: Coupon; at: Date; actor?: Actor },
): Promise<boolean> {
  await lockMember(tx, a.userId);
  const current = await tx.subscription.findUniqueOrThrow({ where: { id: a.subscriptionId } });
  if (current.couponId !== null) throw new ConflictError("This membership already has a coupon.", "coupon_held");
  const redemption = { couponId: a.coupon.id, subscriptionId: current.id, userId: current.userId, planId: current.planId, business: a.business, at: a.at, actor: a.actor };
  if (!(await redeemCoupon(tx, redemption))) return false;
  await tx.subscription.update({ where: { id: current.id }, data: { couponId: a.coupon.id, ...priceStoredSelection(current, a.coupon) } });
  return true;
}
