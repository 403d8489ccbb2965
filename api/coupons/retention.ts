/**
 * A business's retention discount: the cancel flow's DISCOUNT offer (api/subscriptions/cancellation.ts), kept as a
 * coupon of the business like any other (percent off, duration ONCE: the next charge only), so the renewal pricing,
 * the fulfilment preview, the pre-charge notice and the charge price it by the coupon rules they already share.
 *
 * No member can type it: its kind is RETENTION, which findCheckoutCoupon never looks at, and its code has lower-case
 * letters ("Stay20-2026"), which no typed or created code has (both are stored upper-case), so it neither answers
 * at checkout nor takes a code an owner may want. The coupons screens do not list or change it (reads.ts,
 * service.ts): the page's retentionDiscountPercent is its one setting.
 *
 * One coupon per business, percent and calendar year (UTC): a membership redeems a coupon once (redemption.ts), and
 * the offer comes back at most once in 12 months, so its next acceptance always falls in another year's coupon.
 */
import type { EventActor } from "../events/outbox.ts";
import type { Coupon, Prisma } from "../generated/prisma/client.ts";
import { writeEvents } from "../events/outbox.ts";
import { globalId } from "../shared/global-id.ts";

type Tx = Prisma.TransactionClient;

/** "Stay20-2026": the receipts' and breakdowns' name of the discount ("Coupon Stay20-2026 · 20 % off · 1 month left"). */
const retentionCouponCode = (percent: number, at: Date) => `Stay${percent}-${at.getUTCFullYear()}`;

/**
 * The business's retention coupon for `percent` as of `at`, made (with coupon.created.v1) the first time it is
 * needed, inside the caller's transaction. Two transactions making it at once make one: the second waits for the
 * first's row and takes it.
 */
export async function retentionCoupon(tx: Tx, a: { businessId: number; percent: number; at: Date; actor: EventActor }): Promise<Coupon> {
  const code = retentionCouponCode(a.percent, a.at);
  const [created] = await tx.$queryRaw<{ id: number }[]>`
    INSERT INTO coupons (business_id, code, type, value, active, duration, kind, created_at, updated_at)
    VALUES (${a.businessId}, ${code}, 'PERCENT'::"CouponType", ${a.percent}, true, 'ONCE'::"CouponDuration", 'RETENTION'::"CouponKind", ${a.at}::timestamp, ${a.at}::timestamp)
    ON CONFLICT (business_id, code) DO NOTHING
    RETURNING id`;
  const coupon = await tx.coupon.findUniqueOrThrow({ where: { businessId_code: { businessId: a.businessId, code } } });
  if (created) {
    const payload = { couponId: coupon.id, businessId: a.businessId, code, type: coupon.type, value: coupon.value, active: coupon.active };
    await writeEvents(tx, { at: a.at, actor: a.actor }, [{ type: "coupon.created.v1", businessId: a.businessId, objectId: globalId("Coupon", coupon.id), payload }]);
  }
  return coupon;
}
