/**
 * A coupon attached to a membership between its charges, for the features that will offer it (a retention offer, a
 * staff action): redeemed through the one redemption function (api/coupons/redemption.ts: its terms and limit
 * enforced there), the membership's stored price takes the discount from its next charge, the first one counted
 * (renewals/pricing.ts spendCoupons counts from it). Those callers decide who may attach one.
 */
import type { Actor, ServiceContext } from "../context.ts";
import { findCheckoutCoupon, redeemCoupon } from "../coupons/redemption.ts";
import { invalidCouponCode } from "../coupons/codes.ts";
import { priceStoredSelection } from "../rules/pricing.ts";
import { ConflictError, NotFoundError } from "../shared/errors.ts";
import { lockMember } from "./checkout/settlement.ts";

export async function attachCoupon(ctx: Pick<ServiceContext, "db" | "clock"> & { actor?: Actor }, args: { subscriptionId: number; code: string }): Promise<void> {
  const sub = await ctx.db.subscription.findUnique({ where: { id: args.subscriptionId }, include: { business: { select: { id: true, timeZone: true } } } });
  if (!sub) throw new NotFoundError("Membership");
  const now = ctx.clock.now();
  const coupon = await findCheckoutCoupon(ctx, args.code, { business: sub.business, planId: sub.planId, now });
  await ctx.db.$transaction(async (tx) => {
    await lockMember(tx, sub.userId);
    const current = await tx.subscription.findUniqueOrThrow({ where: { id: sub.id } });
    if (current.couponId !== null) throw new ConflictError("This membership already has a coupon.", "coupon_held");
    const redeemed = await redeemCoupon(tx, { couponId: coupon.id, subscriptionId: sub.id, userId: sub.userId, planId: current.planId, business: sub.business, at: now, actor: ctx.actor });
    if (!redeemed) throw invalidCouponCode();
    await tx.subscription.update({ where: { id: sub.id }, data: { couponId: coupon.id, ...priceStoredSelection(current, coupon) } });
  });
}
