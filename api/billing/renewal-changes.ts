import type { Addon, FulfillmentMode } from "../generated/prisma/client.ts";
import { SYSTEM_ACTOR, writeEvents } from "../events/outbox.ts";
import { globalId } from "../shared/global-id.ts";
import { variationFor } from "../catalog/service.ts";
import { priceScheduledChange, type PriceBreakdown } from "./pricing.ts";
import type { BillingContext, RenewalSubscription, TaxSettings } from "./renewal-types.ts";

/**
 * Pricing a renewal batch's scheduled changes (plan, mode, add-ons chosen in the change dialog) and writing the
 * memberships' new selection, before any of them is charged.
 */

/**
 * The selections scheduled by changeSubscription take effect: new plan, mode and add-ons at today's prices, with
 * the membership's coupon (if still active) and its business's tax. One transaction for the batch.
 */
export async function applyScheduledChanges(ctx: BillingContext, subs: RenewalSubscription[], tax: Map<number, TaxSettings>): Promise<void> {
  const planIds = [...new Set(subs.map((s) => s.pendingChange!.planId))];
  const addonIds = [...new Set(subs.flatMap((s) => s.pendingChange!.addonIds))];
  const plans = new Map((await ctx.db.plan.findMany({ where: { id: { in: planIds } }, include: { variations: true } })).map((p) => [p.id, p]));
  const addons = new Map((addonIds.length ? await ctx.db.addon.findMany({ where: { id: { in: addonIds } } }) : []).map((a) => [a.id, a]));
  const couponIds = [...new Set(subs.flatMap((s) => (s.couponId ? [s.couponId] : [])))];
  const coupons = new Map(
    (couponIds.length ? await ctx.db.coupon.findMany({ where: { id: { in: couponIds } }, select: { id: true, type: true, value: true, active: true } }) : []).map((c) => [c.id, c]),
  );

  const updates: { sub: RenewalSubscription; planId: number; mode: FulfillmentMode; price: PriceBreakdown; couponId: number | null; addons: Addon[] }[] = [];
  for (const sub of subs) {
    const change = sub.pendingChange!;
    const plan = plans.get(change.planId);
    const variation = plan ? variationFor(plan, change.mode) : null;
    if (!plan || !variation) {
      // The plan lost its price for that mode after the change was scheduled: keep the current selection.
      ctx.log.warn({ subscriptionId: sub.id, planId: change.planId, mode: change.mode }, "scheduled change dropped: no price for the mode");
      continue;
    }
    const chosen = [...new Set(change.addonIds)].flatMap((id) => {
      const addon = addons.get(id);
      return addon && addon.businessId === sub.businessId ? [addon] : [];
    });
    const coupon = sub.couponId && coupons.get(sub.couponId)?.active ? coupons.get(sub.couponId)! : null;
    // The same rule as the change dialog's quote (subscriptions.quoteChange).
    const price = priceScheduledChange({
      planAmountCents: variation.amountCents,
      addonAmountsCents: chosen.map((a) => a.amountCents),
      coupon,
      tax: tax.get(sub.businessId) ?? null,
    });
    updates.push({ sub, planId: plan.id, mode: change.mode, price, couponId: coupon ? sub.couponId : null, addons: chosen });
  }

  const now = ctx.clock.now();
  const column = <T>(pick: (u: (typeof updates)[number]) => T) => updates.map(pick);
  await ctx.db.$transaction(async (tx) => {
    if (updates.length) {
      const ids = column((u) => u.sub.id);
      await tx.subscriptionAddon.deleteMany({ where: { subscriptionId: { in: ids } } });
      await tx.$executeRaw`
        UPDATE subscriptions AS s
           SET plan_id = v.plan_id, mode = v.mode::"FulfillmentMode", plan_amount_cents = v.plan_cents,
               addons_amount_cents = v.addons_cents, discount_cents = v.discount_cents, tax_cents = v.tax_cents,
               total_cents = v.total_cents, tax_rate_bps = v.tax_rate_bps, coupon_id = v.coupon_id, updated_at = ${now}::timestamp
          FROM unnest(${ids}::int[], ${column((u) => u.planId)}::int[], ${column((u) => u.mode)}::text[],
                      ${column((u) => u.price.planAmountCents)}::int[], ${column((u) => u.price.addonsAmountCents)}::int[],
                      ${column((u) => u.price.discountCents)}::int[], ${column((u) => u.price.taxCents)}::int[],
                      ${column((u) => u.price.totalCents)}::int[], ${column((u) => u.price.taxRateBps)}::int[],
                      ${column((u) => u.couponId)}::int[])
            AS v(id, plan_id, mode, plan_cents, addons_cents, discount_cents, tax_cents, total_cents, tax_rate_bps, coupon_id)
         WHERE s.id = v.id`;
      const rows = updates.flatMap((u) => u.addons.map((a) => ({ subscriptionId: u.sub.id, addonId: a.id, amountCents: a.amountCents })));
      if (rows.length) await tx.subscriptionAddon.createMany({ data: rows });
    }
    await tx.subscriptionChange.deleteMany({ where: { id: { in: subs.map((s) => s.pendingChange!.id) } } });
    await writeEvents(
      tx,
      { at: now, actor: SYSTEM_ACTOR },
      updates.map((u) => ({
        type: "membership.change_applied.v1",
        businessId: u.sub.businessId,
        objectId: globalId("Membership", u.sub.id),
        payload: {
          membershipId: u.sub.id,
          userId: u.sub.userId,
          planId: u.planId,
          mode: u.mode,
          addonIds: u.addons.map((a) => a.id),
          period: u.sub.pendingChange!.effectivePeriod,
          totalCents: u.price.totalCents,
        },
      })),
    );
  });
}
