/**
 * The coupons lists: the platform's (administrators: GraphQL `coupons`, REST GET /admin/coupons), a business's own
 * (its owners and editors: `Business.coupons`) and a coupon's redemptions (who redeemed it, when, and the charges
 * made with it). Each decides who may read it; the adapters pass their selection and paging through.
 */
import type { ServiceContext } from "../context.ts";
import type { Coupon, CouponRedemption, Prisma } from "../generated/prisma/client.ts";
import { assertCan, requireAdmin } from "../auth/policy.ts";
import { UnauthenticatedError } from "../shared/errors.ts";

/** The caller's selection and paging (GraphQL passes its connection's `query` through; REST none). */
export type CouponPage = Pick<Prisma.CouponFindManyArgs, "select" | "include" | "take" | "skip" | "cursor">;
export type RedemptionPage = Pick<Prisma.CouponRedemptionFindManyArgs, "select" | "include" | "take" | "skip" | "cursor">;

const NEWEST_FIRST = [{ createdAt: "desc" }, { id: "desc" }] satisfies Prisma.CouponOrderByWithRelationInput[];

/** Platform coupons (valid at every business), newest first: administrators. */
export async function list(ctx: ServiceContext, page: CouponPage = {}): Promise<Coupon[]> {
  requireAdmin(ctx);
  return ctx.db.coupon.findMany({ ...page, where: { businessId: null }, orderBy: NEWEST_FIRST });
}

/** A business's own coupons (those with a code), newest first: its owners and editors (editContent), administrators. */
export async function listForBusiness(ctx: ServiceContext, businessId: number, page: CouponPage = {}): Promise<Coupon[]> {
  if (ctx.actor.kind === "anonymous") throw new UnauthenticatedError();
  await assertCan(ctx, businessId, "editContent");
  // The retention discount is the page's setting (api/coupons/retention.ts), not a coupon the owner manages here.
  return ctx.db.coupon.findMany({ ...page, where: { businessId, kind: "CODE" }, orderBy: NEWEST_FIRST });
}

/**
 * A coupon's redemptions, newest first: who manages the coupon reads them (a platform coupon's are across every
 * business, for administrators).
 */
export async function redemptions(ctx: ServiceContext, coupon: { id: number; businessId: number | null }, page: RedemptionPage = {}): Promise<CouponRedemption[]> {
  if (coupon.businessId === null) requireAdmin(ctx);
  else {
    if (ctx.actor.kind === "anonymous") throw new UnauthenticatedError();
    await assertCan(ctx, coupon.businessId, "editContent");
  }
  return ctx.db.couponRedemption.findMany({ ...page, where: { couponId: coupon.id }, orderBy: [{ redeemedAt: "desc" }, { id: "desc" }] });
}
