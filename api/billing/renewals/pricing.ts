import DataLoader from "dataloader";
import type { Addon, FulfillmentMode, Prisma } from "../../generated/prisma/client.ts";
import type { PrismaClient } from "../../db.ts";
import { variationFor } from "../../catalog/service.ts";
import { countCouponCharges, releaseCoupons } from "../../coupons/redemption.ts";
import { priceScheduledChange, type PriceBreakdown } from "../../rules/pricing.ts";
import { itemiseQuote, membershipCouponTerms, type ItemisedPrice } from "../breakdown.ts";
import type { TaxSettings } from "./types.ts";

/**
 * What a renewal charges for a period: the membership's stored total, or, when a scheduled change takes effect
 * in that period, the new selection at today's prices with the membership's coupon (while still active and not
 * spent) and the business's tax. The renewal run (changes.ts, batch.ts), the fulfilment preview (api/packing/),
 * the portal's change preview and the pre-charge notice (api/mail/reminders.ts) all price through here, so none
 * of them can disagree with the charge.
 *
 * A coupon's months are the charges made with it (api/shared/coupon-terms.ts): each charge's order counts one
 * (spendCoupons, in the transaction that makes the orders), and once it has discounted every charge it was for,
 * the membership's stored price loses the discount from the next period and the coupon is let go. Every reader of
 * the stored price (the portal, the notice, the breakdowns, the next charge) then reads the full price.
 */

/**
 * Counts the charges just made (their orders, `orderIds`) against their memberships' coupons and prices the next
 * period of each membership whose coupon is now spent without it. Set-based: one statement, two more only when a
 * coupon is spent, whatever the number of orders (the renewal batch's write, records.ts, and checkout settlement).
 */
export async function spendCoupons(tx: Prisma.TransactionClient, orderIds: number[], now: Date): Promise<void> {
  const spent = await countCouponCharges(tx, orderIds);
  await releaseCoupons(tx, spent, now);
}

/** The scheduled change as a membership carries it (subscription_changes). */
export interface ScheduledChange {
  planId: number;
  mode: FulfillmentMode;
  fulfillmentPoint: string;
  addonIds: number[];
  effectivePeriod: string;
}

export interface ChangingMembership {
  id: number;
  businessId: number;
  couponId: number | null;
  pendingChange: ScheduledChange;
}

/** A scheduled change priced: the selection the membership renews with and what it costs per period. */
export interface PricedChange {
  planId: number;
  planName: string;
  mode: FulfillmentMode;
  fulfillmentPoint: string;
  price: PriceBreakdown;
  /** The coupon kept (null: none, or no longer active) and its code. */
  couponId: number | null;
  couponCode: string | null;
  addons: Addon[];
}

/** A change scheduled for `period` or earlier is applied by the renewal of `period`, before it is charged. */
export const changeTakesEffect = (change: Pick<ScheduledChange, "effectivePeriod"> | null | undefined, period: string): boolean =>
  !!change && change.effectivePeriod <= period;

/**
 * Prices the memberships' scheduled changes (three statements whatever their number). A change whose plan lost
 * its price for the mode since it was scheduled maps to null: the renewal keeps the current selection.
 */
export async function priceScheduledChanges(
  db: Pick<PrismaClient, "plan" | "addon" | "coupon">,
  subs: ChangingMembership[],
  tax: Map<number, TaxSettings>,
): Promise<Map<number, PricedChange | null>> {
  const priced = new Map<number, PricedChange | null>();
  if (!subs.length) return priced;
  const planIds = [...new Set(subs.map((s) => s.pendingChange.planId))];
  const addonIds = [...new Set(subs.flatMap((s) => s.pendingChange.addonIds))];
  const plans = new Map((await db.plan.findMany({ where: { id: { in: planIds } }, include: { variations: true } })).map((p) => [p.id, p]));
  const addons = new Map((addonIds.length ? await db.addon.findMany({ where: { id: { in: addonIds } } }) : []).map((a) => [a.id, a]));
  const couponIds = [...new Set(subs.flatMap((s) => (s.couponId ? [s.couponId] : [])))];
  const coupons = new Map(
    (couponIds.length ? await db.coupon.findMany({ where: { id: { in: couponIds } }, select: { id: true, code: true, type: true, value: true, active: true } }) : []).map((c) => [c.id, c]),
  );
  for (const sub of subs) {
    const change = sub.pendingChange;
    const plan = plans.get(change.planId);
    const variation = plan ? variationFor(plan, change.mode) : null;
    if (!plan || !variation) {
      priced.set(sub.id, null);
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
      pickupAmountCents: variationFor(plan, "PICKUP")?.amountCents ?? null,
      addonAmountsCents: chosen.map((a) => a.amountCents),
      coupon,
      tax: tax.get(sub.businessId) ?? null,
    });
    priced.set(sub.id, {
      planId: plan.id,
      planName: plan.name,
      mode: change.mode,
      fulfillmentPoint: change.fulfillmentPoint,
      price,
      couponId: coupon ? sub.couponId : null,
      couponCode: coupon?.code ?? null,
      addons: chosen,
    });
  }
  return priced;
}

/** What the renewal of a period charges: the priced change when one takes effect (and still has a price), else the stored total. */
export function renewalAmountCents(sub: { totalCents: number }, change: PricedChange | null | undefined): number {
  return change ? change.price.totalCents : sub.totalCents;
}

type ChangeToPrice = ScheduledChange & { subscriptionId: number };
type BreakdownDb = Pick<PrismaClient, "plan" | "addon" | "coupon" | "subscription" | "page">;

/** One loader per request context: the scheduled changes of a page of memberships are priced together. */
const breakdownLoaders = new WeakMap<object, DataLoader<ChangeToPrice, ItemisedPrice | null, number>>();

/**
 * A membership's scheduled change as its renewal will charge it, line by line (the card's "New monthly price"); null
 * when the plan lost its price for the mode since (the renewal then keeps the current selection). The changes asked
 * for together (a portal's memberships) are priced in a fixed number of statements whatever their number.
 */
export function scheduledChangeBreakdown(ctx: { db: BreakdownDb }, change: ChangeToPrice): Promise<ItemisedPrice | null> {
  let loader = breakdownLoaders.get(ctx);
  if (!loader) {
    loader = new DataLoader((changes: readonly ChangeToPrice[]) => priceBreakdowns(ctx.db, changes), { cacheKeyFn: (c) => c.subscriptionId });
    breakdownLoaders.set(ctx, loader);
  }
  return loader.load(change);
}

const couponTermsSelect = {
  coupon: { select: { id: true, type: true, value: true, duration: true, durationMonths: true } },
  couponRedemptions: { select: { couponId: true, chargesUsed: true } },
} as const;

async function priceBreakdowns(db: BreakdownDb, changes: readonly ChangeToPrice[]): Promise<(ItemisedPrice | null)[]> {
  const subs = await db.subscription.findMany({
    where: { id: { in: changes.map((c) => c.subscriptionId) } },
    select: { id: true, businessId: true, couponId: true, ...couponTermsSelect },
  });
  const businessIds = [...new Set(subs.map((s) => s.businessId))];
  const pages = await db.page.findMany({ where: { businessId: { in: businessIds } }, select: { businessId: true, taxEnabled: true, taxRateBps: true } });
  const tax = new Map(pages.map((p) => [p.businessId!, p]));
  const byId = new Map(subs.map((s) => [s.id, s]));
  const changing = changes.flatMap((c) => {
    const sub = byId.get(c.subscriptionId);
    return sub ? [{ ...sub, pendingChange: c }] : [];
  });
  const priced = await priceScheduledChanges(db, changing, tax);
  return changes.map((c) => {
    const p = priced.get(c.subscriptionId);
    const sub = byId.get(c.subscriptionId);
    const couponTerms = p?.couponId && sub ? membershipCouponTerms(sub.coupon, sub.couponRedemptions) : null;
    return p ? itemiseQuote({ planName: p.planName, mode: p.mode, price: p.price, addons: p.addons, couponCode: p.couponCode, couponTerms }) : null;
  });
}
