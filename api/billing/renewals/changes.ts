import { SYSTEM_ACTOR, writeEvents } from "../../events/outbox.ts";
import { globalId } from "../../shared/global-id.ts";
import { priceScheduledChanges, type PricedChange } from "./pricing.ts";
import type { BillingContext, RenewalSubscription, TaxSettings } from "./types.ts";

/**
 * Pricing a renewal batch's scheduled changes (plan, mode, add-ons chosen in the change dialog) and writing the
 * memberships' new selection, before any of them is charged.
 */

/**
 * The selections scheduled by changeSubscription take effect: new plan, mode, point and add-ons at today's prices,
 * with the membership's coupon (if still active) and its business's tax (pricing.ts). One transaction for
 * the batch.
 */
export async function applyScheduledChanges(ctx: BillingContext, subs: RenewalSubscription[], tax: Map<number, TaxSettings>): Promise<void> {
  const priced = await priceScheduledChanges(ctx.db, subs.map((s) => ({ ...s, pendingChange: s.pendingChange! })), tax);
  const updates: { sub: RenewalSubscription; change: PricedChange }[] = [];
  for (const sub of subs) {
    const change = priced.get(sub.id);
    if (!change) {
      // The plan lost its price for that mode after the change was scheduled: keep the current selection.
      ctx.log.warn({ subscriptionId: sub.id, planId: sub.pendingChange!.planId, mode: sub.pendingChange!.mode }, "scheduled change dropped: no price for the mode");
      continue;
    }
    updates.push({ sub, change });
  }

  const now = ctx.clock.now();
  const column = <T>(pick: (u: (typeof updates)[number]) => T) => updates.map(pick);
  await ctx.db.$transaction(async (tx) => {
    if (updates.length) {
      const ids = column((u) => u.sub.id);
      await tx.subscriptionAddon.deleteMany({ where: { subscriptionId: { in: ids } } });
      await tx.$executeRaw`
        UPDATE subscriptions AS s
           SET plan_id = v.plan_id, mode = v.mode::"FulfillmentMode", fulfillment_point = v.point, plan_amount_cents = v.plan_cents,
               mode_surcharge_cents = v.surcharge_cents,
               addons_amount_cents = v.addons_cents, discount_cents = v.discount_cents, tax_cents = v.tax_cents,
               total_cents = v.total_cents, tax_rate_bps = v.tax_rate_bps, coupon_id = v.coupon_id, updated_at = ${now}::timestamp
          FROM unnest(${ids}::int[], ${column((u) => u.change.planId)}::int[], ${column((u) => u.change.mode)}::text[], ${column((u) => u.change.fulfillmentPoint)}::text[],
                      ${column((u) => u.change.price.planAmountCents)}::int[], ${column((u) => u.change.price.addonsAmountCents)}::int[],
                      ${column((u) => u.change.price.discountCents)}::int[], ${column((u) => u.change.price.taxCents)}::int[],
                      ${column((u) => u.change.price.totalCents)}::int[], ${column((u) => u.change.price.taxRateBps)}::int[],
                      ${column((u) => u.change.couponId)}::int[], ${column((u) => u.change.price.modeSurchargeCents)}::int[])
            AS v(id, plan_id, mode, point, plan_cents, addons_cents, discount_cents, tax_cents, total_cents, tax_rate_bps, coupon_id, surcharge_cents)
         WHERE s.id = v.id`;
      const rows = updates.flatMap((u) => u.change.addons.map((a) => ({ subscriptionId: u.sub.id, addonId: a.id, amountCents: a.amountCents })));
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
          planId: u.change.planId,
          mode: u.change.mode,
          addonIds: u.change.addons.map((a) => a.id),
          period: u.sub.pendingChange!.effectivePeriod,
          totalCents: u.change.price.totalCents,
        },
      })),
    );
  });
}
