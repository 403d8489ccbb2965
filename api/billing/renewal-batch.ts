import type { Addon, FulfillmentMode, PaymentStatus, Prisma } from "../generated/prisma/client.ts";
import { variationFor } from "../catalog/service.ts";
import { priceScheduledChange, type PriceBreakdown } from "./pricing.ts";
import { settleEach, type PaymentIntentInfo, type SavedCardCharge } from "./provider.ts";
import type { BillingContext, DueList, RenewalReport, TaxSettings } from "./renewal-types.ts";
import { paymentStatusOf, periodOrder, providerFor, subscriptionForBilling } from "./service.ts";
import { refundUnmatched, settlePaidPeriod } from "./settlement.ts";

/**
 * Renewing one claimed batch of memberships (see renewals.ts): everything the batch needs is read in a few
 * statements, amounts come from the same pricing rules as one-by-one billing, the charges go to the provider
 * in one call, and payments, orders and memberships are written in one transaction that also releases the
 * leases. A batch costs the same number of statements for 5 memberships as for 500.
 */

/** Days after the first declined attempt at which the period is tried again. */
export const RETRY_SCHEDULE_DAYS = [1, 3, 7] as const;
export const MAX_ATTEMPTS = RETRY_SCHEDULE_DAYS.length + 1;

export const emptyReport = (): RenewalReport => ({ due: 0, charged: 0, skipped: 0, busy: 0, failed: 0, canceled: 0, waiting: 0, changesApplied: 0, errors: 0 });

const DAY_MS = 24 * 60 * 60 * 1000;
/** Provider calls made one by one (new customers, members without a saved card: rare) in flight at once. */
const SINGLE_CALL_CONCURRENCY = 4;

const renewalInclude = {
  ...subscriptionForBilling.include,
  pendingChange: true,
} satisfies Prisma.SubscriptionInclude;

type RenewalSubscription = Prisma.SubscriptionGetPayload<{ include: typeof renewalInclude }>;

interface Renewal {
  sub: RenewalSubscription;
  /** 1 for the period's first try, then one more per declined try. */
  attempt: number;
}

type Charge =
  /** `intent` null: nothing to charge (fully discounted), the period is still delivered. */
  | { kind: "paid"; intent: PaymentIntentInfo | null }
  | { kind: "unpaid"; intent: PaymentIntentInfo; outcome: "requires_action" | "failed" }
  | { kind: "error"; error: unknown };

/** The idempotency key of a renewal charge: fixed per membership, period and attempt. */
export const renewalKey = (subscriptionId: number, period: string, attempt: number) => `renewal:${subscriptionId}:${period}:${attempt}`;

/** When a past-due period may be tried again: 1, 3 and 7 days after its first declined attempt. */
export function nextRetryAt(attempts: Date[]): Date {
  return new Date(attempts[0].getTime() + RETRY_SCHEDULE_DAYS[Math.min(attempts.length, RETRY_SCHEDULE_DAYS.length) - 1] * DAY_MS);
}

/**
 * Renews the memberships this run has leased; returns what happened. Throws only before the batch's payments and
 * orders are written (its scheduled changes may be applied by then: they are, as always, before any charge).
 */
export async function renewClaimed(ctx: BillingContext, list: DueList, claimed: number[]): Promise<RenewalReport> {
  const { period } = list;
  const now = ctx.clock.now();
  const tally = emptyReport();
  const subs = await ctx.db.subscription.findMany({ where: { id: { in: claimed } }, include: renewalInclude, orderBy: { id: "asc" } });

  // Earlier attempts at this period (declined, or waiting for the member): they set the retry schedule and the key.
  const earlier = await ctx.db.payment.findMany({
    where: { subscriptionId: { in: claimed }, idempotencyKey: { startsWith: "renewal:" }, status: { not: "SUCCEEDED" } },
    select: { subscriptionId: true, idempotencyKey: true, createdAt: true },
    orderBy: { createdAt: "asc" },
  });
  const attemptsOf = new Map<number, Date[]>();
  for (const p of earlier) {
    if (!p.subscriptionId || !p.idempotencyKey!.startsWith(`renewal:${p.subscriptionId}:${period}:`)) continue;
    attemptsOf.set(p.subscriptionId, [...(attemptsOf.get(p.subscriptionId) ?? []), p.createdAt]);
  }
  const renewals: Renewal[] = [];
  for (const sub of subs) {
    const attempts = attemptsOf.get(sub.id) ?? [];
    if (attempts.length > 0 && !list.retryNow && now < nextRetryAt(attempts)) tally.waiting++;
    else renewals.push({ sub, attempt: attempts.length + 1 });
  }

  const changing = renewals.filter((r) => r.sub.pendingChange && r.sub.pendingChange.effectivePeriod <= period);
  if (changing.length) {
    await applyScheduledChanges(ctx, changing.map((r) => r.sub), list.tax);
    tally.changesApplied += changing.length;
    const changed = new Map(
      (await ctx.db.subscription.findMany({ where: { id: { in: changing.map((r) => r.sub.id) } }, include: renewalInclude })).map((s) => [s.id, s]),
    );
    for (const r of changing) r.sub = changed.get(r.sub.id)!;
  }

  const charges = await chargeRenewals(ctx, renewals, period);
  await recordRenewals(ctx, { period, claimed, renewals, charges }, tally);
  return tally;
}

/** Charges each renewal's period: saved cards in one provider batch, the rare rest one by one. */
async function chargeRenewals(ctx: BillingContext, renewals: Renewal[], period: string): Promise<Charge[]> {
  const provider = providerFor(ctx);
  const charges: Charge[] = renewals.map(() => ({ kind: "paid", intent: null }));
  const billable = renewals.map((r, i) => ({ ...r, i })).filter((r) => r.sub.totalCents > 0);

  // A provider customer per member (checkout creates it; older memberships may lack one).
  const customerOf = new Map(billable.filter((r) => r.sub.user.paymentCustomerId).map((r) => [r.sub.userId, r.sub.user.paymentCustomerId!]));
  const newCustomers = [...new Map(billable.filter((r) => !customerOf.has(r.sub.userId)).map((r) => [r.sub.userId, r.sub.user])).values()];
  const created = await settleEach(newCustomers, SINGLE_CALL_CONCURRENCY, async (user) => {
    const id = await provider.ensureCustomer({ userId: user.id, email: user.email, name: user.name });
    await ctx.db.user.update({ where: { id: user.id }, data: { paymentCustomerId: id } });
    return id;
  });
  const customerError = new Map<number, unknown>();
  newCustomers.forEach((user, i) => {
    const result = created[i];
    if (result.status === "fulfilled") customerOf.set(user.id, result.value);
    else customerError.set(user.id, result.reason);
  });

  // The membership's card, else the member's newest default card.
  const withoutCard = [...new Set(billable.filter((r) => !r.sub.providerPaymentMethodId).map((r) => r.sub.userId))];
  const defaultCard = new Map<number, string>();
  if (withoutCard.length) {
    const cards = await ctx.db.paymentMethod.findMany({
      where: { userId: { in: withoutCard }, provider: provider.name, isDefault: true },
      orderBy: { createdAt: "desc" },
      select: { userId: true, providerPaymentMethodId: true },
    });
    for (const c of cards) if (!defaultCard.has(c.userId)) defaultCard.set(c.userId, c.providerPaymentMethodId);
  }

  const saved: { i: number; request: SavedCardCharge }[] = [];
  const onSession: { i: number; customerId: string; r: Renewal }[] = [];
  for (const r of billable) {
    const customerId = customerOf.get(r.sub.userId);
    if (!customerId) {
      charges[r.i] = { kind: "error", error: customerError.get(r.sub.userId) };
      continue;
    }
    const card = r.sub.providerPaymentMethodId ?? defaultCard.get(r.sub.userId);
    if (!card) {
      onSession.push({ i: r.i, customerId, r });
      continue;
    }
    saved.push({
      i: r.i,
      request: {
        customerId,
        paymentMethodId: card,
        amountCents: r.sub.totalCents,
        currency: "usd",
        idempotencyKey: renewalKey(r.sub.id, period, r.attempt),
        metadata: metadataOf(r.sub, period),
      },
    });
  }

  const savedResults = await provider
    .chargeSavedCards(saved.map((s) => s.request))
    .catch((reason: unknown) => saved.map((): PromiseSettledResult<PaymentIntentInfo> => ({ status: "rejected", reason })));
  saved.forEach((s, k) => (charges[s.i] = chargeOf(savedResults[k], true)));

  // No saved card: an on-session payment the member can confirm in the card form; until then the membership is past due.
  const onSessionResults = await settleEach(onSession, SINGLE_CALL_CONCURRENCY, ({ customerId, r }) =>
    provider.createPaymentIntent({
      customerId,
      amountCents: r.sub.totalCents,
      currency: "usd",
      idempotencyKey: renewalKey(r.sub.id, period, r.attempt),
      metadata: metadataOf(r.sub, period),
      saveForFuture: true,
    }),
  );
  onSession.forEach((s, k) => (charges[s.i] = chargeOf(onSessionResults[k], false)));
  return charges;
}

const metadataOf = (sub: RenewalSubscription, period: string) => ({
  subscription_id: String(sub.id),
  period,
  kind: "RENEWAL",
  business_id: String(sub.businessId),
});

/** Same outcomes as chargeForPeriod: paid, waiting for the member (3-D Secure, no saved card), or declined. */
function chargeOf(result: PromiseSettledResult<PaymentIntentInfo>, savedCard: boolean): Charge {
  if (result.status === "rejected") return { kind: "error", error: result.reason };
  const intent = result.value;
  if (intent.status === "succeeded") return { kind: "paid", intent };
  const needsMember = intent.status === "requires_action" || (!savedCard && intent.status === "requires_payment_method" && !intent.lastError);
  return { kind: "unpaid", intent, outcome: needsMember ? "requires_action" : "failed" };
}

/**
 * One transaction: the paid periods' orders, every charge's payment (linked to its order), the memberships' new
 * state (paid through the period; past due; canceled after the last attempt) and every lease of the batch
 * released. A membership whose charge met an error keeps its state and is tried again, with the same key, next run.
 */
async function recordRenewals(
  ctx: BillingContext,
  batch: { period: string; claimed: number[]; renewals: Renewal[]; charges: Charge[] },
  tally: RenewalReport,
): Promise<void> {
  const { period, claimed, renewals, charges } = batch;
  const now = ctx.clock.now();
  const provider = providerFor(ctx);
  const paid: { sub: RenewalSubscription; intent: PaymentIntentInfo | null }[] = [];
  const unpaid: { r: Renewal; intent: PaymentIntentInfo; outcome: string; last: boolean }[] = [];
  const errored: { r: Renewal; error: unknown }[] = [];
  renewals.forEach((r, i) => {
    const c = charges[i];
    if (c.kind === "paid") paid.push({ sub: r.sub, intent: c.intent });
    else if (c.kind === "unpaid") unpaid.push({ r, intent: c.intent, outcome: c.outcome, last: r.attempt >= MAX_ATTEMPTS });
    else errored.push({ r, error: c.error });
  });
  const keyOf = new Map(renewals.map((r) => [r.sub.id, renewalKey(r.sub.id, period, r.attempt)]));
  const payments = [...paid.flatMap((p) => (p.intent ? [{ sub: p.sub, intent: p.intent }] : [])), ...unpaid.map((u) => ({ sub: u.r.sub, intent: u.intent }))];
  const paidIds = paid.map((p) => p.sub.id);
  const pastDueIds = unpaid.filter((u) => !u.last).map((u) => u.r.sub.id);
  const canceledIds = unpaid.filter((u) => u.last).map((u) => u.r.sub.id);
  const settled = new Set([...paidIds, ...pastDueIds, ...canceledIds]);
  const untouchedIds = claimed.filter((id) => !settled.has(id));

  const { orderOf, paymentOf } = await ctx.db.$transaction(async (tx) => {
    const orders = paid.length ? await insertOrders(tx, paid.map((p) => periodOrder(p.sub, { period, kind: "RENEWAL", at: now }))) : [];
    const orderOf = new Map(orders.map((o) => [o.subscription_id, o.id]));
    const rows = payments.length
      ? await insertPayments(
          tx,
          payments.map(({ sub, intent }) => ({
            userId: sub.userId,
            subscriptionId: sub.id,
            orderId: orderOf.get(sub.id) ?? null,
            provider: provider.name,
            providerPaymentId: intent.id,
            idempotencyKey: keyOf.get(sub.id)!,
            amountCents: intent.amountCents,
            currency: intent.currency.toUpperCase(),
            status: paymentStatusOf(intent),
            failureCode: intent.lastError?.code ?? null,
            failureMessage: intent.lastError?.message ?? null,
          })),
          // Domain time (the injectable clock): retries are spaced by it.
          now,
        )
      : [];
    if (paidIds.length) {
      await tx.$executeRaw`
        UPDATE subscriptions
           SET status = 'ACTIVE', canceled_at = NULL, paid_through_period = GREATEST(paid_through_period, ${period}),
               renewal_lease_until = NULL, updated_at = ${now}::timestamp
         WHERE id = ANY(${paidIds}::int[])`;
    }
    if (pastDueIds.length) await tx.subscription.updateMany({ where: { id: { in: pastDueIds } }, data: { status: "PAST_DUE", renewalLeaseUntil: null } });
    if (canceledIds.length) {
      await tx.subscription.updateMany({ where: { id: { in: canceledIds } }, data: { status: "CANCELED", canceledAt: now, renewalLeaseUntil: null } });
    }
    if (untouchedIds.length) await tx.subscription.updateMany({ where: { id: { in: untouchedIds } }, data: { renewalLeaseUntil: null } });
    return { orderOf, paymentOf: new Map(rows.map((p) => [p.subscription_id, p.id])) };
  });

  for (const { r, error } of errored) {
    tally.errors++;
    ctx.log.error({ err: error, subscriptionId: r.sub.id, period, attempt: r.attempt }, "renewal charge failed: tried again on the next run");
  }
  for (const u of unpaid) {
    if (u.last) tally.canceled++;
    else tally.failed++;
    ctx.log.warn({ subscriptionId: u.r.sub.id, period, attempt: u.r.attempt, outcome: u.outcome }, "renewal not paid");
  }
  for (const p of paid) {
    if (orderOf.has(p.sub.id)) {
      tally.charged++;
      continue;
    }
    // The period's order was made meanwhile. By another run that recorded this same charge (it took our lease
    // when it expired), or with nothing to charge: nothing more to do.
    const paymentId = paymentOf.get(p.sub.id);
    if (!p.intent || !paymentId) {
      tally.busy++;
      continue;
    }
    // By another payment (the member confirming an earlier renewal payment): the first one linked keeps the charge.
    try {
      if (await settleRacedPeriod(ctx, p.sub, p.intent, paymentId, period)) tally.charged++;
      else tally.busy++;
    } catch (err) {
      tally.errors++;
      ctx.log.error({ err, subscriptionId: p.sub.id, period }, "renewal paid a period paid meanwhile, and its refund failed");
    }
  }
}

/**
 * Our renewal charge paid a period that already has an order: the first payment linked to it keeps the charge, a
 * second is refunded at once (settlement decides, as for every payment). Returns whether ours is the one kept.
 */
async function settleRacedPeriod(ctx: BillingContext, sub: RenewalSubscription, intent: PaymentIntentInfo, paymentId: number, period: string): Promise<boolean> {
  const settled = await settlePaidPeriod(ctx, { userId: sub.userId, subscriptionId: sub.id, paymentId, paidCents: intent.amountCents, period, kind: "RENEWAL" });
  if (settled.outcome === "settled") return true;
  await refundUnmatched(ctx, { id: paymentId }, intent, settled.reason);
  return false;
}

/**
 * The selections scheduled by changeSubscription take effect: new plan, mode and add-ons at today's prices, with
 * the membership's coupon (if still active) and its business's tax. One transaction for the batch.
 */
async function applyScheduledChanges(ctx: BillingContext, subs: RenewalSubscription[], tax: Map<number, TaxSettings>): Promise<void> {
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
  });
}

/*
 * Multi-row inserts as `INSERT … SELECT FROM unnest(column arrays)`: one parameter per column whatever the
 * number of rows, and none of the per-row work of the ORM's createMany (which cost ~1 ms a row here).
 */

/** The periods' orders; an order that already exists for its membership and period is kept (and not returned). */
function insertOrders(tx: Prisma.TransactionClient, orders: ReturnType<typeof periodOrder>[]) {
  const col = <T>(pick: (o: ReturnType<typeof periodOrder>) => T) => orders.map(pick);
  return tx.$queryRaw<{ id: number; subscription_id: number }[]>`
    INSERT INTO orders (subscription_id, user_id, business_id, kind, period, mode, email, address, selection, is_gift, coupon_id,
                        subtotal_cents, discount_cents, tax_cents, total_cents, created_at)
    SELECT v.subscription_id, v.user_id, v.business_id, v.kind::"OrderKind", v.period, v.mode::"FulfillmentMode", v.email, v.address::jsonb,
           v.selection::jsonb, v.is_gift, v.coupon_id, v.subtotal_cents, v.discount_cents, v.tax_cents, v.total_cents, v.created_at
      FROM unnest(${col((o) => o.subscriptionId)}::int[], ${col((o) => o.userId)}::int[], ${col((o) => o.businessId)}::int[],
                  ${col((o) => o.kind)}::text[], ${col((o) => o.period)}::text[], ${col((o) => o.mode)}::text[], ${col((o) => o.email)}::text[],
                  ${col((o) => (o.address == null ? null : JSON.stringify(o.address)))}::text[], ${col((o) => JSON.stringify(o.selection))}::text[],
                  ${col((o) => o.isGift)}::boolean[], ${col((o) => o.couponId)}::int[], ${col((o) => o.subtotalCents)}::int[],
                  ${col((o) => o.discountCents)}::int[], ${col((o) => o.taxCents)}::int[], ${col((o) => o.totalCents)}::int[],
                  ${col((o) => o.createdAt)}::timestamp[])
        AS v(subscription_id, user_id, business_id, kind, period, mode, email, address, selection, is_gift, coupon_id,
             subtotal_cents, discount_cents, tax_cents, total_cents, created_at)
    ON CONFLICT (subscription_id, period) DO NOTHING
    RETURNING id, subscription_id`;
}

interface PaymentRow {
  userId: number;
  subscriptionId: number;
  orderId: number | null;
  provider: string;
  providerPaymentId: string;
  idempotencyKey: string;
  amountCents: number;
  currency: string;
  status: PaymentStatus;
  failureCode: string | null;
  failureMessage: string | null;
}

/** The charges' payments; one already recorded for its intent or key is kept (and not returned). */
function insertPayments(tx: Prisma.TransactionClient, payments: PaymentRow[], at: Date) {
  const col = <T>(pick: (p: PaymentRow) => T) => payments.map(pick);
  return tx.$queryRaw<{ id: number; subscription_id: number }[]>`
    INSERT INTO payments (user_id, subscription_id, order_id, provider, provider_payment_id, idempotency_key, amount_cents, currency,
                          status, failure_code, failure_message, created_at, updated_at)
    SELECT v.user_id, v.subscription_id, v.order_id, v.provider, v.provider_payment_id, v.idempotency_key, v.amount_cents, v.currency,
           v.status::"PaymentStatus", v.failure_code, v.failure_message, ${at}::timestamp, ${at}::timestamp
      FROM unnest(${col((p) => p.userId)}::int[], ${col((p) => p.subscriptionId)}::int[], ${col((p) => p.orderId)}::int[],
                  ${col((p) => p.provider)}::text[], ${col((p) => p.providerPaymentId)}::text[], ${col((p) => p.idempotencyKey)}::text[],
                  ${col((p) => p.amountCents)}::int[], ${col((p) => p.currency)}::text[], ${col((p) => p.status)}::text[],
                  ${col((p) => p.failureCode)}::text[], ${col((p) => p.failureMessage)}::text[])
        AS v(user_id, subscription_id, order_id, provider, provider_payment_id, idempotency_key, amount_cents, currency,
             status, failure_code, failure_message)
    ON CONFLICT DO NOTHING
    RETURNING id, subscription_id`;
}
