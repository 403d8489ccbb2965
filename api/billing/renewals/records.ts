import { SYSTEM_ACTOR, writeEvents, type NewEvent } from "../../events/outbox.ts";
import type { PaymentStatus, Prisma } from "../../generated/prisma/client.ts";
import { globalId } from "../../shared/global-id.ts";
import type { PaymentIntentInfo } from "../providers/provider.ts";
import { MAX_ATTEMPTS, renewalKey } from "./attempts.ts";
import type { Charge } from "./charges.ts";
import type { BillingContext, Renewal, RenewalReport, RenewalSubscription } from "./types.ts";
import { spendCoupons } from "./pricing.ts";
import { chargeFactsOf, paymentStatusOf, periodOrder, providerFor } from "../service.ts";
import { chargeEntry, writeLedger } from "../../payouts/ledger.ts";
import { refundUnmatched, settlePaidPeriod } from "../checkout/settlement.ts";

/**
 * Writing a charged renewal batch: its orders and payments with multi-row inserts, the memberships' new state
 * (the ones a member's cancel ends canceled instead) and the leases' release in one transaction, then the tally; a
 * period paid meanwhile is settled like any payment (the first one linked keeps the charge).
 */

/**
 * One transaction: the paid periods' orders, every charge's payment (linked to its order), the memberships' new
 * state (paid through the period; past due; canceled after the last attempt; canceled at the member's request,
 * `ending`) and every lease of the batch released. A membership whose charge met an error keeps its state and is
 * tried again, with the same key, next run.
 */
export async function recordRenewals(
  ctx: BillingContext,
  batch: { period: string; claimed: number[]; renewals: Renewal[]; charges: Charge[]; ending: RenewalSubscription[] },
  tally: RenewalReport,
): Promise<void> {
  const { period, claimed, renewals, charges, ending } = batch;
  const now = ctx.clock.now();
  const provider = providerFor(ctx);
  const paid: { sub: RenewalSubscription; intent: PaymentIntentInfo | null }[] = [];
  const unpaid: { r: Renewal; intent: PaymentIntentInfo; outcome: string; last: boolean }[] = [];
  const errored: { r: Renewal; error: unknown }[] = [];
  renewals.forEach((r, i) => {
    const c = charges[i];
    if (c.kind === "paid") paid.push({ sub: r.sub, intent: c.intent });
    else if (c.kind === "unpaid") unpaid.push({ r, intent: c.intent, outcome: c.outcome, last: r.attempt >= MAX_ATTEMPTS });
    else if (c.kind === "error") errored.push({ r, error: c.error });
    else tally.blocked++;
  });
  const keyOf = new Map(renewals.map((r) => [r.sub.id, renewalKey(r.sub.id, period, r.attempt)]));
  const payments = [...paid.flatMap((p) => (p.intent ? [{ sub: p.sub, intent: p.intent }] : [])), ...unpaid.map((u) => ({ sub: u.r.sub, intent: u.intent }))];
  const paidIds = paid.map((p) => p.sub.id);
  const pastDueIds = unpaid.filter((u) => !u.last).map((u) => u.r.sub.id);
  const canceledIds = unpaid.filter((u) => u.last).map((u) => u.r.sub.id);
  const endingIds = ending.map((s) => s.id);
  const settled = new Set([...paidIds, ...pastDueIds, ...canceledIds, ...endingIds]);
  const untouchedIds = claimed.filter((id) => !settled.has(id));

  const { orderOf, paymentOf } = await ctx.db.$transaction(async (tx) => {
    // A next-month sign-up's first charge makes its first order (INITIAL); every later one is a renewal.
    const kindOf = (sub: { firstPeriod: string | null }) => (sub.firstPeriod === period ? "INITIAL" : "RENEWAL");
    const orders = paid.length ? await insertOrders(tx, paid.map((p) => periodOrder(p.sub, { period, kind: kindOf(p.sub), at: now }))) : [];
    const orderOf = new Map(orders.map((o) => [o.subscription_id, o.id]));
    // Each charge made with a coupon counts against it; a spent one is priced out of the next period (pricing.ts).
    await spendCoupons(tx, orders.map((o) => o.id), now);
    const rows = payments.length
      ? await insertPayments(
          tx,
          payments.map(({ sub, intent }) => ({
            userId: sub.userId,
            businessId: sub.businessId,
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
            destination: intent.route?.destination ?? null,
            applicationFeeCents: intent.route?.applicationFeeCents ?? 0,
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
      await tx.subscription.updateMany({ where: { id: { in: canceledIds } }, data: { status: "CANCELED", canceledAt: now, cancelAfterPeriod: null, renewalLeaseUntil: null } });
    }
    const ended = endingIds.length ? await endMemberships(tx, endingIds, period, now) : new Set<number>();
    // One the member kept meanwhile (withdrawn since it was read) is left as it is, for the next run to charge.
    const releasedIds = [...untouchedIds, ...endingIds.filter((id) => !ended.has(id))];
    if (releasedIds.length) await tx.subscription.updateMany({ where: { id: { in: releasedIds } }, data: { renewalLeaseUntil: null } });
    const paymentOf = new Map(rows.map((p) => [p.subscription_id, p.id]));
    // The business's books: each routed charge paid here (one recorded by another run already has its row).
    await writeLedger(
      tx,
      paid.flatMap(({ sub, intent }) => {
        const paymentId = paymentOf.get(sub.id);
        const entry = intent && paymentId ? chargeEntry(chargeFactsOf(intent), { businessId: sub.businessId, paymentId, period, at: now }) : null;
        return entry ? [entry] : [];
      }),
    );
    const endedEvents = ending.filter((s) => ended.has(s.id)).map(memberCanceled);
    await writeEvents(tx, { at: now, actor: SYSTEM_ACTOR }, [...renewalEvents(period, paid, unpaid, orderOf, paymentOf), ...endedEvents]);
    tally.ended += ended.size;
    return { orderOf, paymentOf };
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
 * What a recorded batch announces (written last in its transaction): each period paid here (its order, the
 * membership renewed), and each declined charge (the payment failed, the membership past due or, after the last
 * attempt, canceled). A period whose order was made meanwhile announces nothing here (settlement does, if it
 * keeps our charge).
 */
function renewalEvents(
  period: string,
  paid: { sub: RenewalSubscription }[],
  unpaid: { r: Renewal; intent: PaymentIntentInfo; last: boolean }[],
  orderOf: Map<number, number>,
  paymentOf: Map<number, number>,
): NewEvent[] {
  const events: NewEvent[] = [];
  for (const { sub } of paid) {
    const orderId = orderOf.get(sub.id);
    if (orderId === undefined) continue;
    const membershipId = sub.id;
    const common = { businessId: sub.businessId };
    events.push(
      {
        ...common,
        type: "order.created.v1",
        objectId: globalId("Order", orderId),
        payload: { orderId, membershipId, userId: sub.userId, period, kind: "RENEWAL", totalCents: sub.totalCents },
      },
      { ...common, type: "membership.renewed.v1", objectId: globalId("Membership", membershipId), payload: { membershipId, userId: sub.userId, orderId, period, totalCents: sub.totalCents } },
    );
  }
  for (const { r, intent, last } of unpaid) {
    const { sub } = r;
    const membershipId = sub.id;
    const common = { businessId: sub.businessId, objectId: globalId("Membership", membershipId) };
    events.push({
      ...common,
      type: "payment.failed.v1",
      payload: { paymentId: paymentOf.get(sub.id) ?? null, membershipId, userId: sub.userId, amountCents: intent.amountCents, period, code: intent.lastError?.code ?? intent.status },
    });
    events.push(
      last
        ? { ...common, type: "membership.canceled.v1", payload: { membershipId, userId: sub.userId, reason: "payment_failed" } }
        : { ...common, type: "membership.past_due.v1", payload: { membershipId, userId: sub.userId, period, attempt: r.attempt } },
    );
  }
  return events;
}

const memberCanceled = (sub: RenewalSubscription): NewEvent => ({
  type: "membership.canceled.v1",
  businessId: sub.businessId,
  objectId: globalId("Membership", sub.id),
  payload: { membershipId: sub.id, userId: sub.userId, reason: "member" },
});

/**
 * One statement for the batch: the memberships whose member's cancel ends them before `period` are CANCELED (their
 * place freed, their lease released, the schedule and any scheduled change dropped) and their requests' outcome is
 * CANCELED. Returns those it canceled: one whose cancel was withdrawn meanwhile is not.
 */
async function endMemberships(tx: Prisma.TransactionClient, ids: number[], period: string, now: Date): Promise<Set<number>> {
  const rows = await tx.$queryRaw<{ id: number }[]>`
    WITH ended AS (
      UPDATE subscriptions
         SET status = 'CANCELED', canceled_at = ${now}::timestamp, cancel_after_period = NULL, renewal_lease_until = NULL, updated_at = ${now}::timestamp
       WHERE id = ANY(${ids}::int[]) AND cancel_after_period < ${period} AND status IN ('ACTIVE', 'PAST_DUE')
      RETURNING id
    ), requests AS (
      UPDATE cancellation_requests SET outcome = 'CANCELED', decided_at = ${now}::timestamp
       WHERE subscription_id IN (SELECT id FROM ended) AND outcome = 'CANCEL_SCHEDULED'
    ), changes AS (
      DELETE FROM subscription_changes WHERE subscription_id IN (SELECT id FROM ended)
    )
    SELECT id FROM ended`;
  return new Set(rows.map((r) => r.id));
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

/*
 * Multi-row inserts as `INSERT … SELECT FROM unnest(column arrays)`: one parameter per column whatever the
 * number of rows, and none of the per-row work of the ORM's createMany (which cost ~1 ms a row here).
 */

/** The periods' orders; an order that already exists for its membership and period is kept (and not returned). */
function insertOrders(tx: Prisma.TransactionClient, orders: ReturnType<typeof periodOrder>[]) {
  const col = <T>(pick: (o: ReturnType<typeof periodOrder>) => T) => orders.map(pick);
  return tx.$queryRaw<{ id: number; subscription_id: number }[]>`
    INSERT INTO orders (subscription_id, user_id, business_id, kind, period, mode, fulfillment_point, email, address, selection, is_gift, coupon_id,
                        subtotal_cents, mode_surcharge_cents, coupon_code, discount_cents, tax_rate_bps, tax_cents, total_cents, created_at)
    SELECT v.subscription_id, v.user_id, v.business_id, v.kind::"OrderKind", v.period, v.mode::"FulfillmentMode", v.point, v.email, v.address::jsonb,
           v.selection::jsonb, v.is_gift, v.coupon_id, v.subtotal_cents, v.mode_surcharge_cents, v.coupon_code,
           v.discount_cents, v.tax_rate_bps, v.tax_cents, v.total_cents, v.created_at
      FROM unnest(${col((o) => o.subscriptionId)}::int[], ${col((o) => o.userId)}::int[], ${col((o) => o.businessId)}::int[],
                  ${col((o) => o.kind)}::text[], ${col((o) => o.period)}::text[], ${col((o) => o.mode)}::text[], ${col((o) => o.fulfillmentPoint)}::text[],
                  ${col((o) => o.email)}::text[],
                  ${col((o) => (o.address == null ? null : JSON.stringify(o.address)))}::text[], ${col((o) => JSON.stringify(o.selection))}::text[],
                  ${col((o) => o.isGift)}::boolean[], ${col((o) => o.couponId)}::int[], ${col((o) => o.subtotalCents)}::int[],
                  ${col((o) => o.modeSurchargeCents)}::int[], ${col((o) => o.couponCode)}::text[],
                  ${col((o) => o.discountCents)}::int[], ${col((o) => o.taxRateBps)}::int[], ${col((o) => o.taxCents)}::int[], ${col((o) => o.totalCents)}::int[],
                  ${col((o) => o.createdAt)}::timestamp[])
        AS v(subscription_id, user_id, business_id, kind, period, mode, point, email, address, selection, is_gift, coupon_id,
             subtotal_cents, mode_surcharge_cents, coupon_code, discount_cents, tax_rate_bps, tax_cents, total_cents, created_at)
    ON CONFLICT (subscription_id, period) DO NOTHING
    RETURNING id, subscription_id`;
}

interface PaymentRow {
  userId: number;
  businessId: number;
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
  destination: string | null;
  applicationFeeCents: number;
}

/** The charges' payments; one already recorded for its intent or key is kept (and not returned). */
function insertPayments(tx: Prisma.TransactionClient, payments: PaymentRow[], at: Date) {
  const col = <T>(pick: (p: PaymentRow) => T) => payments.map(pick);
  return tx.$queryRaw<{ id: number; subscription_id: number }[]>`
    INSERT INTO payments (user_id, business_id, subscription_id, order_id, provider, provider_payment_id, idempotency_key, amount_cents, currency,
                          status, failure_code, failure_message, destination, application_fee_cents, paid_at, created_at, updated_at)
    SELECT v.user_id, v.business_id, v.subscription_id, v.order_id, v.provider, v.provider_payment_id, v.idempotency_key, v.amount_cents, v.currency,
           v.status::"PaymentStatus", v.failure_code, v.failure_message, v.destination, v.application_fee_cents,
           CASE WHEN v.status = 'SUCCEEDED' THEN ${at}::timestamp END, ${at}::timestamp, ${at}::timestamp
      FROM unnest(${col((p) => p.userId)}::int[], ${col((p) => p.businessId)}::int[], ${col((p) => p.subscriptionId)}::int[], ${col((p) => p.orderId)}::int[],
                  ${col((p) => p.provider)}::text[], ${col((p) => p.providerPaymentId)}::text[], ${col((p) => p.idempotencyKey)}::text[],
                  ${col((p) => p.amountCents)}::int[], ${col((p) => p.currency)}::text[], ${col((p) => p.status)}::text[],
                  ${col((p) => p.failureCode)}::text[], ${col((p) => p.failureMessage)}::text[], ${col((p) => p.destination)}::text[],
                  ${col((p) => p.applicationFeeCents)}::int[])
        AS v(user_id, business_id, subscription_id, order_id, provider, provider_payment_id, idempotency_key, amount_cents, currency,
             status, failure_code, failure_message, destination, application_fee_cents)
    ON CONFLICT DO NOTHING
    RETURNING id, subscription_id`;
}
