/**
 * The billing clock renews in batches (api/billing/renewals/clock.ts, batch.ts): what batching could break.
 * A batch mixing every outcome gives each membership what one-by-one billing gives it; runs overlapping on the
 * same batch (also one that outlives its lease) charge each period once; a provider or database failure in the
 * middle of a batch leaves the other memberships correct and the failed ones for the next run, which charges
 * them with the same idempotency keys (the provider never charges twice); and the statements of a run grow with
 * the number of batches, not of memberships. Runs on both databases.
 */
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runRenewals, type RenewalOptions } from "../../api/billing/renewals/clock.ts";
import { startJobQueue } from "../../api/queue/job-queue.ts";
import { RENEWALS_QUEUE, renewalsJob } from "../../api/jobs/renewals-job.ts";
import { sandboxFor } from "../../api/billing/service.ts";
import { SandboxProvider } from "../../api/billing/providers/sandbox/provider.ts";
import type { Clock } from "../../api/shared/clock.ts";
import { FixedClock } from "../../api/shared/clock.ts";
import { globalId } from "../../api/shared/global-id.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";

let t: TestApp;
let f: Factories;
let statements = 0;
const log = pino({ level: "silent" });
const ctx = (clock: Clock = t.clock) => ({ db: t.db.prisma, clock, config: t.config, log });
const run = (businessId: number, opts: RenewalOptions = {}, clock?: Clock) => runRenewals(ctx(clock), { businessId, ...opts });

/** Billing day 3 in New York: due on this instant. */
const BILLING_INSTANT = "2026-04-03T14:00:00Z";
const PERIOD = "2026-04";

type CardBehavior = "succeed" | "decline_after_attach" | "authenticate_always";
let memberSeq = 0;

/** A member with a sandbox customer, optionally a saved card with the given test behaviour, and a membership due on the 3rd. */
async function member(
  business: { id: number },
  plan: { id: number },
  o: { card?: CardBehavior | null; status?: "ACTIVE" | "PAST_DUE" | "CANCELED"; couponId?: number; discountCents?: number } = {},
) {
  const db = t.db.prisma;
  const n = ++memberSeq;
  const customerId = `cus_batch_${n}`;
  const card = o.card === undefined ? "succeed" : o.card;
  const pm = card ? `pm_batch_${n}` : null;
  const user = await db.user.create({ data: { username: `batch-member-${n}`, passwordHash: "x", email: `batch${n}@example.com`, paymentCustomerId: customerId } });
  await db.sandboxObject.createMany({
    data: [
      { id: customerId, kind: "customer", data: { userId: user.id, email: user.email, name: null } },
      ...(pm ? [{ id: pm, kind: "payment_method", data: { customerId, brand: "visa", last4: "4242", expMonth: 12, expYear: 2031, behavior: card } }] : []),
    ],
  });
  const discountCents = o.discountCents ?? 0;
  const taxCents = Math.round(((2000 - discountCents) * 575) / 10_000);
  return db.subscription.create({
    data: {
      userId: user.id,
      businessId: business.id,
      planId: plan.id,
      status: o.status ?? "ACTIVE",
      mode: "PICKUP",
      planAmountCents: 2000,
      discountCents,
      taxCents,
      taxRateBps: 575,
      totalCents: 2000 - discountCents + taxCents,
      couponId: o.couponId ?? null,
      billingDay: 3,
      providerPaymentMethodId: pm,
      paidThroughPeriod: "2026-03",
      startedAt: new Date("2026-01-03T15:00:00Z"),
    },
  });
}

/** A business billing on the 3rd with 5.75 % tax, its box (20.00) and a bigger one (30.00) with an add-on. */
async function shop() {
  const business = await f.business({ page: { billingDay: 3, taxEnabled: true, taxRateBps: 575, pickupEnabled: true } });
  const plan = await f.plan(business, { name: "Box", prices: { PICKUP: 2000 } });
  const bigger = await f.plan(business, { name: "Family Box", prices: { PICKUP: 3000 } });
  const eggs = await f.addon(business, { name: "Eggs", amountCents: 500 });
  return { business, plan, bigger, eggs };
}

/** An earlier declined attempt at April (payment with the renewal key of that attempt). */
const declinedAttempt = (sub: { id: number; userId: number }, attempt: number, at: string) =>
  t.db.prisma.payment.create({
    data: {
      userId: sub.userId,
      subscriptionId: sub.id,
      provider: "sandbox",
      providerPaymentId: `pi_earlier_${sub.id}_${attempt}`,
      idempotencyKey: `renewal:${sub.id}:${PERIOD}:${attempt}`,
      amountCents: 2115,
      status: "FAILED",
      failureCode: "card_declined",
      createdAt: new Date(at),
    },
  });

const state = (id: number) => t.db.prisma.subscription.findUniqueOrThrow({ where: { id }, include: { orders: true, payments: { orderBy: { id: "asc" } } } });

/** The payment intents the sandbox provider created for a membership (what it would have charged). */
async function providerIntents(subscriptionIds: number[]): Promise<Map<number, string[]>> {
  const rows = await t.db.prisma.$queryRaw<{ id: string; sub: string }[]>`
    SELECT id, data->'metadata'->>'subscription_id' AS sub FROM sandbox_objects
     WHERE kind = 'payment_intent' AND data->'metadata'->>'subscription_id' = ANY(${subscriptionIds.map(String)}::text[])`;
  const out = new Map<number, string[]>(subscriptionIds.map((id) => [id, []]));
  for (const r of rows) out.get(Number(r.sub))!.push(r.id);
  return out;
}

/** Every membership: one order for April, one successful payment linked to it, one provider intent, lease released. */
async function expectChargedOnce(ids: number[]) {
  const intents = await providerIntents(ids);
  for (const id of ids) {
    const s = await state(id);
    expect(s.orders.filter((o) => o.period === PERIOD), `orders of ${id}`).toHaveLength(1);
    const succeeded = s.payments.filter((p) => p.status === "SUCCEEDED");
    expect(succeeded, `payments of ${id}`).toHaveLength(1);
    expect(succeeded[0].orderId).toBe(s.orders[0].id);
    expect(intents.get(id), `provider intents of ${id}`).toEqual([succeeded[0].providerPaymentId]);
    expect(s).toMatchObject({ status: "ACTIVE", paidThroughPeriod: PERIOD, renewalLeaseUntil: null });
    // Announced once too (the outbox, api/events/), by whichever run recorded the order.
    const renewed = await t.db.prisma.event.findMany({ where: { objectId: globalId("Membership", id), type: "membership.renewed.v1" } });
    expect(renewed.map((e) => e.payload), `renewal events of ${id}`).toEqual([expect.objectContaining({ orderId: s.orders[0].id, period: PERIOD })]);
  }
}

beforeAll(async () => {
  t = await createTestApp({ now: BILLING_INSTANT, logQueries: true });
  f = factories(t);
  t.db.onStatement(() => statements++);
});
afterAll(() => t.close());

describe("a batch mixing every outcome", () => {
  it("gives each membership what one-by-one billing gives it", async () => {
    t.clock.set(BILLING_INSTANT);
    const { business, plan, bigger, eggs } = await shop();
    const tenOff = await f.coupon({ code: "BATCH10", type: "PERCENT", value: 10 });
    const free = await f.coupon({ code: "BATCHFREE", type: "PERCENT", value: 100 });
    const ok = await member(business, plan);
    const declined = await member(business, plan, { card: "decline_after_attach" });
    const secure = await member(business, plan, { card: "authenticate_always" });
    const noCard = await member(business, plan, { card: null });
    const skipped = await member(business, plan);
    await t.db.prisma.skip.create({ data: { subscriptionId: skipped.id, yearMonth: PERIOD } });
    const changed = await member(business, plan, { couponId: tenOff.id, discountCents: 200 });
    await t.db.prisma.subscriptionChange.create({ data: { subscriptionId: changed.id, planId: bigger.id, mode: "PICKUP", addonIds: [eggs.id], effectivePeriod: PERIOD } });
    // Its coupon was deactivated since: the new selection is priced without it.
    const retired = await f.coupon({ code: "BATCHOLD", type: "PERCENT", value: 20, active: false });
    const changedRetired = await member(business, plan, { couponId: retired.id, discountCents: 400 });
    await t.db.prisma.subscriptionChange.create({ data: { subscriptionId: changedRetired.id, planId: bigger.id, mode: "PICKUP", addonIds: [eggs.id], effectivePeriod: PERIOD } });
    const discounted = await member(business, plan, { couponId: free.id, discountCents: 2000 });
    // Declined on March 27th and retried three times since: this is the last attempt.
    const lastTry = await member(business, plan, { card: "decline_after_attach", status: "PAST_DUE" });
    for (const attempt of [1, 2, 3]) await declinedAttempt(lastTry, attempt, "2026-03-27T14:00:00Z");
    // Declined four hours ago: next try tomorrow.
    const waiting = await member(business, plan, { card: "decline_after_attach", status: "PAST_DUE" });
    await declinedAttempt(waiting, 1, "2026-04-03T10:00:00Z");
    const canceled = await member(business, plan, { status: "CANCELED" });

    expect(await run(business.id, { batchSize: 100 })).toEqual({
      due: 9, charged: 4, skipped: 1, busy: 0, failed: 3, canceled: 1, ended: 0, waiting: 1, blocked: 0, changesApplied: 2, errors: 0,
    });

    const [okS, declinedS, secureS, noCardS, skippedS, changedS, discountedS, lastTryS, waitingS, canceledS] = await Promise.all(
      [ok, declined, secure, noCard, skipped, changed, discounted, lastTry, waiting, canceled].map((s) => state(s.id)),
    );
    // Paid: one order and one linked payment for April.
    expect(okS).toMatchObject({ status: "ACTIVE", paidThroughPeriod: PERIOD });
    expect(okS.orders.map((o) => [o.period, o.kind, o.totalCents, o.taxCents])).toEqual([[PERIOD, "RENEWAL", 2115, 115]]);
    expect(okS.payments.map((p) => [p.status, p.amountCents, p.orderId, p.idempotencyKey])).toEqual([["SUCCEEDED", 2115, okS.orders[0].id, `renewal:${ok.id}:${PERIOD}:1`]]);
    // The scheduled change first, at today's prices: (3000 + 500) − 10 % = 3150, + 5.75 % tax (181.125 → 181) = 3331.
    expect(changedS).toMatchObject({ planId: bigger.id, planAmountCents: 3000, addonsAmountCents: 500, discountCents: 350, taxCents: 181, totalCents: 3331, paidThroughPeriod: PERIOD });
    expect(changedS.orders[0]).toMatchObject({ totalCents: 3331, selection: { chosenItemName: "Family Box", chosenAddons: [{ name: "Eggs", amountCents: 500 }] } });
    expect(changedS.payments.map((p) => [p.status, p.amountCents])).toEqual([["SUCCEEDED", 3331]]);
    expect(await t.db.prisma.subscriptionChange.count({ where: { subscriptionId: { in: [changed.id, changedRetired.id] } } })).toBe(0);
    // 3500 + 5.75 % (201.25 → 201) = 3701, the retired coupon dropped.
    expect(await state(changedRetired.id)).toMatchObject({ couponId: null, discountCents: 0, taxCents: 201, totalCents: 3701, orders: [{ totalCents: 3701, couponId: null }] });
    // Fully discounted: the box is delivered, nothing is charged.
    expect(discountedS.orders.map((o) => [o.period, o.totalCents])).toEqual([[PERIOD, 0]]);
    expect(discountedS.payments).toEqual([]);
    // Declined, 3-D Secure asked off-session, no saved card (an on-session payment for the member): past due, no order.
    expect(declinedS.payments.map((p) => [p.status, p.failureCode])).toEqual([["FAILED", "card_declined"]]);
    expect(secureS.payments.map((p) => [p.status, p.failureCode])).toEqual([["REQUIRES_ACTION", "authentication_required"]]);
    expect(noCardS.payments.map((p) => [p.status, p.failureCode])).toEqual([["REQUIRES_PAYMENT_METHOD", null]]);
    for (const s of [declinedS, secureS, noCardS]) expect(s).toMatchObject({ status: "PAST_DUE", paidThroughPeriod: "2026-03", orders: [] });
    // The fourth attempt failed: canceled.
    expect(lastTryS).toMatchObject({ status: "CANCELED", canceledAt: new Date(BILLING_INSTANT), orders: [] });
    expect(lastTryS.payments.map((p) => p.idempotencyKey)).toEqual([1, 2, 3, 4].map((a) => `renewal:${lastTry.id}:${PERIOD}:${a}`));
    // Untouched: skipped, waiting for its retry, canceled.
    expect(skippedS).toMatchObject({ status: "ACTIVE", paidThroughPeriod: "2026-03", orders: [], payments: [] });
    expect(waitingS).toMatchObject({ status: "PAST_DUE", paidThroughPeriod: "2026-03", orders: [] });
    expect(waitingS.payments).toHaveLength(1);
    expect(canceledS).toMatchObject({ status: "CANCELED", orders: [], payments: [] });
    for (const s of [okS, declinedS, secureS, noCardS, skippedS, changedS, discountedS, lastTryS, waitingS]) expect(s.renewalLeaseUntil).toBeNull();

    // The same instant again: nothing is charged; the declined ones wait for tomorrow's retry.
    expect(await run(business.id, { batchSize: 100 })).toMatchObject({ due: 4, charged: 0, failed: 0, canceled: 0, waiting: 4, errors: 0 });
    // Tomorrow, their retry (attempt 2); the one waiting since 10:00 today is retried too.
    t.clock.set("2026-04-04T14:00:00Z");
    expect(await run(business.id, { batchSize: 100 })).toMatchObject({ due: 4, charged: 0, failed: 4, waiting: 0 });
    expect((await state(declined.id)).payments.map((p) => p.idempotencyKey)).toEqual([1, 2].map((a) => `renewal:${declined.id}:${PERIOD}:${a}`));
  });
});

describe("runs overlapping on the same memberships", () => {
  it("two runs at once, with different batch sizes, charge each membership once", async () => {
    t.clock.set(BILLING_INSTANT);
    const { business, plan } = await shop();
    const subs = await Promise.all(Array.from({ length: 20 }, () => member(business, plan)));
    const reports = await Promise.all([run(business.id, { batchSize: 20 }), run(business.id, { batchSize: 7, concurrency: 3 })]);
    expect(reports[0].charged + reports[1].charged).toBe(20);
    expect(reports.every((r) => r.errors === 0)).toBe(true);
    await expectChargedOnce(subs.map((s) => s.id));
    expect((await run(business.id)).charged).toBe(0);
  });

  it("a run that outlives its lease: the next run charges the same batch with the same keys, the provider charges once", async () => {
    t.clock.set(BILLING_INSTANT);
    const { business, plan } = await shop();
    const subs = await Promise.all(Array.from({ length: 6 }, () => member(business, plan)));
    const sandbox = sandboxFor(ctx());
    const original = SandboxProvider.prototype.chargeSavedCards;
    let second: Awaited<ReturnType<typeof run>> | null = null;
    // The first run stalls after charging, before recording, until another run has taken its expired leases.
    const spy = vi.spyOn(sandbox, "chargeSavedCards").mockImplementationOnce(async function (this: SandboxProvider, requests) {
      const results = await original.call(sandbox, requests);
      second = await run(business.id, {}, new FixedClock("2026-04-03T14:06:00Z"));
      return results;
    });
    try {
      const first = await run(business.id);
      expect(second).toMatchObject({ due: 6, charged: 6, errors: 0 });
      // Every charge of the first run was recorded by the second one: not counted twice.
      expect(first).toMatchObject({ charged: 0, busy: 6, errors: 0 });
    } finally {
      spy.mockRestore();
    }
    await expectChargedOnce(subs.map((s) => s.id));
  });
});

describe("a period paid by another payment while the batch charges", () => {
  it("the member's own payment for the period keeps it; the renewal charge is refunded at once", async () => {
    t.clock.set(BILLING_INSTANT);
    const { business, plan } = await shop();
    const [sub, other] = await Promise.all([member(business, plan), member(business, plan)]);
    const sandbox = sandboxFor(ctx());
    const original = SandboxProvider.prototype.chargeSavedCards;
    // While the provider charges, the member completes an earlier on-session payment for April (the card form).
    const spy = vi.spyOn(sandbox, "chargeSavedCards").mockImplementationOnce(async (requests) => {
      const results = await original.call(sandbox, requests);
      const order = await f.order({ subscription: sub, period: PERIOD, totalCents: 2115 });
      await t.db.prisma.payment.create({
        data: { userId: sub.userId, subscriptionId: sub.id, orderId: order.id, provider: "sandbox", providerPaymentId: "pi_member_confirmed", amountCents: 2115, status: "SUCCEEDED" },
      });
      return results;
    });
    try {
      expect(await run(business.id)).toMatchObject({ due: 2, charged: 1, busy: 1, errors: 0 });
    } finally {
      spy.mockRestore();
    }
    await expectChargedOnce([other.id]);
    const s = await state(sub.id);
    expect(s.orders).toHaveLength(1);
    const renewal = s.payments.find((p) => p.idempotencyKey === `renewal:${sub.id}:${PERIOD}:1`)!;
    expect(renewal).toMatchObject({ status: "SUCCEEDED", orderId: null, refundedCents: 2115 });
    expect(s.payments.filter((p) => p.status === "SUCCEEDED" && p.refundedCents === 0).map((p) => p.providerPaymentId)).toEqual(["pi_member_confirmed"]);
    const refunds = await t.db.prisma.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM sandbox_objects WHERE kind = 'refund' AND data->>'paymentIntentId' = ${renewal.providerPaymentId}`;
    expect(refunds).toEqual([{ n: 1 }]);
    expect(s).toMatchObject({ status: "ACTIVE", paidThroughPeriod: PERIOD, renewalLeaseUntil: null });
  });
});

describe("a failure in the middle of a batch", () => {
  it("the provider fails for one membership (its answer lost after charging): the others are recorded, it is charged once on the next run", async () => {
    t.clock.set(BILLING_INSTANT);
    const { business, plan } = await shop();
    const subs = await Promise.all(Array.from({ length: 5 }, () => member(business, plan)));
    const victim = subs[2];
    const sandbox = sandboxFor(ctx());
    const original = SandboxProvider.prototype.chargeSavedCards;
    const spy = vi.spyOn(sandbox, "chargeSavedCards").mockImplementationOnce(async (requests) => {
      const results = await original.call(sandbox, requests);
      const k = requests.findIndex((r) => r.metadata.subscription_id === String(victim.id));
      results[k] = { status: "rejected", reason: new Error("socket hang up") };
      return results;
    });
    try {
      expect(await run(business.id)).toMatchObject({ due: 5, charged: 4, errors: 1 });
    } finally {
      spy.mockRestore();
    }
    await expectChargedOnce(subs.filter((s) => s !== victim).map((s) => s.id));
    // Left as it was, lease released: nothing recorded, though the provider did charge.
    expect(await state(victim.id)).toMatchObject({ status: "ACTIVE", paidThroughPeriod: "2026-03", renewalLeaseUntil: null, orders: [], payments: [] });
    expect((await providerIntents([victim.id])).get(victim.id)).toHaveLength(1);

    t.clock.set("2026-04-03T15:00:00Z");
    expect(await run(business.id)).toMatchObject({ due: 1, charged: 1, errors: 0 });
    await expectChargedOnce(subs.map((s) => s.id));
  });

  it("the provider cannot be reached at all: the batch is left as it was and charged on the next run", async () => {
    t.clock.set(BILLING_INSTANT);
    const { business, plan } = await shop();
    const subs = await Promise.all(Array.from({ length: 3 }, () => member(business, plan)));
    const spy = vi.spyOn(sandboxFor(ctx()), "chargeSavedCards").mockRejectedValueOnce(new Error("connect ECONNREFUSED"));
    try {
      expect(await run(business.id)).toMatchObject({ due: 3, charged: 0, errors: 3 });
    } finally {
      spy.mockRestore();
    }
    for (const s of subs) expect(await state(s.id)).toMatchObject({ status: "ACTIVE", renewalLeaseUntil: null, orders: [], payments: [] });
    expect(await run(business.id)).toMatchObject({ due: 3, charged: 3, errors: 0 });
    await expectChargedOnce(subs.map((s) => s.id));
  });

  it("writing one batch fails after its charges: that batch is left as it was, the other batch is recorded, the next run records the same charges", async () => {
    t.clock.set(BILLING_INSTANT);
    const { business, plan } = await shop();
    const subs = [];
    for (let i = 0; i < 6; i++) subs.push(await member(business, plan));
    const failing = subs.slice(0, 3);
    // The database refuses the first batch's orders (a constraint, a full disk): its transaction rolls back.
    await t.db.prisma.$executeRawUnsafe(`
      CREATE FUNCTION refuse_order() RETURNS trigger AS $$
      BEGIN
        IF NEW.subscription_id = ${failing[1].id} THEN RAISE EXCEPTION 'could not extend file'; END IF;
        RETURN NEW;
      END $$ LANGUAGE plpgsql`);
    await t.db.prisma.$executeRawUnsafe(`CREATE TRIGGER refuse_order BEFORE INSERT ON orders FOR EACH ROW EXECUTE FUNCTION refuse_order()`);
    try {
      expect(await run(business.id, { batchSize: 3 })).toMatchObject({ due: 6, charged: 3, errors: 3 });
    } finally {
      await t.db.prisma.$executeRawUnsafe(`DROP TRIGGER refuse_order ON orders`);
      await t.db.prisma.$executeRawUnsafe(`DROP FUNCTION refuse_order()`);
    }
    await expectChargedOnce(subs.slice(3).map((s) => s.id));
    for (const s of failing) expect(await state(s.id)).toMatchObject({ status: "ACTIVE", paidThroughPeriod: "2026-03", renewalLeaseUntil: null, orders: [], payments: [] });

    expect(await run(business.id, { batchSize: 3 })).toMatchObject({ due: 3, charged: 3, errors: 0 });
    await expectChargedOnce(subs.map((s) => s.id));
  });
});

describe("statements of a renewal run", () => {
  /**
   * `blocks` × (2 paid, 1 with a coupon, 1 declined, 1 scheduled change, 1 ending: its member's cancel ends it after
   * March, so it is canceled instead of charged) due, plus one skipped per block.
   */
  async function businessWith(blocks: number) {
    const { business, plan, bigger, eggs } = await shop();
    const coupon = await f.coupon({ code: `STMT${++memberSeq}`, type: "FIXED", value: 300 });
    for (let b = 0; b < blocks; b++) {
      await member(business, plan);
      await member(business, plan);
      await member(business, plan, { couponId: coupon.id, discountCents: 300 });
      await member(business, plan, { card: "decline_after_attach" });
      const changed = await member(business, plan);
      await t.db.prisma.subscriptionChange.create({ data: { subscriptionId: changed.id, planId: bigger.id, mode: "PICKUP", addonIds: [eggs.id], effectivePeriod: PERIOD } });
      const skipped = await member(business, plan);
      await t.db.prisma.skip.create({ data: { subscriptionId: skipped.id, yearMonth: PERIOD } });
      const ending = await member(business, plan);
      await t.db.prisma.subscription.update({ where: { id: ending.id }, data: { cancelAfterPeriod: "2026-03" } });
    }
    return business;
  }

  async function counted(businessId: number, opts: RenewalOptions) {
    statements = 0;
    const report = await run(businessId, { concurrency: 1, ...opts });
    return { report, statements };
  }

  it("one batch costs the same for 6 memberships as for 60 (ending ones included); more batches add the same cost each", async () => {
    t.clock.set(BILLING_INSTANT);
    const [one, ten, oneB, twoB, tenB] = [await businessWith(1), await businessWith(10), await businessWith(1), await businessWith(2), await businessWith(10)];

    const small = await counted(one.id, { batchSize: 100 });
    const large = await counted(ten.id, { batchSize: 100 });
    expect(small.report).toMatchObject({ due: 6, charged: 4, failed: 1, skipped: 1, changesApplied: 1, ended: 1 });
    expect(large.report).toMatchObject({ due: 60, charged: 40, failed: 10, skipped: 10, changesApplied: 10, ended: 10 });
    expect(large.statements).toBe(small.statements);

    // Batches of 6: a run is a fixed cost plus the same cost per batch.
    const b1 = await counted(oneB.id, { batchSize: 6 });
    const b2 = await counted(twoB.id, { batchSize: 6 });
    const b10 = await counted(tenB.id, { batchSize: 6 });
    const perBatch = b2.statements - b1.statements;
    expect(b10.report).toMatchObject({ due: 60, charged: 40, ended: 10 });
    expect(b10.statements).toBe(b1.statements + 9 * perBatch);
    // Far fewer than one-by-one billing's ~23 statements per membership: 39, the one statement that cancels the
    // ending memberships (and closes their requests) included.
    expect(perBatch).toBe(39);
    expect(perBatch).toBeLessThan(40);

    // The second run (every period paid or waiting for its retry) is constant too.
    const again = [await counted(one.id, { batchSize: 100 }), await counted(ten.id, { batchSize: 100 })];
    expect(again.map((a) => a.report.charged)).toEqual([0, 0]);
    expect(again[1].statements).toBe(again[0].statements);
  });
});

describe("stopping the job queue while a renewal job runs (server shutdown)", () => {
  it("a running pass stops at the next batch boundary: the batch in flight is charged and recorded, the rest is left for the next run", async () => {
    t.clock.set(BILLING_INSTANT);
    const { business, plan } = await shop();
    const subs = await Promise.all(Array.from({ length: 6 }, () => member(business, plan)));
    const ids = subs.map((s) => s.id).sort((a, b) => a - b);
    const sandbox = sandboxFor(ctx());
    const original = SandboxProvider.prototype.chargeSavedCards;
    let stop: () => Promise<void> = async () => {};
    // Assigned inside the mocked charge: typed wide, so the checker does not take it for the null it starts as.
    let stopped = null as Promise<void> | null;
    let stoppedBeforeCharged: boolean | null = null;
    let charging!: () => void;
    const charged = new Promise<void>((resolve) => (charging = resolve));
    // The shutdown comes while the first batch is being charged.
    const spy = vi.spyOn(sandbox, "chargeSavedCards").mockImplementationOnce(async function (this: SandboxProvider, requests) {
      let done = false;
      stopped = stop().then(() => void (done = true));
      await new Promise((r) => setTimeout(r, 100));
      const results = await original.call(sandbox, requests);
      stoppedBeforeCharged = done;
      charging();
      return results;
    });
    try {
      const jobs = await startJobQueue({
        db: t.db,
        log,
        definitions: [renewalsJob(ctx(), { businessId: business.id, batchSize: 2, concurrency: 1 })],
        schedules: [],
        pollingIntervalSeconds: 0.5,
      });
      stop = () => jobs.stop();
      await jobs.boss.send(RENEWALS_QUEUE, {});
      await charged;
      await stopped;
    } finally {
      spy.mockRestore();
    }
    // stop() resolved only once the batch in flight was recorded, and nothing ran after it.
    expect(stoppedBeforeCharged).toBe(false);
    await expectChargedOnce(ids.slice(0, 2));
    for (const id of ids.slice(2)) expect(await state(id)).toMatchObject({ status: "ACTIVE", renewalLeaseUntil: null, orders: [], payments: [] });
    await new Promise((r) => setTimeout(r, 100));
    for (const id of ids.slice(2)) expect((await state(id)).orders).toEqual([]);
    expect(await run(business.id)).toMatchObject({ due: 4, charged: 4, errors: 0 });
    await expectChargedOnce(ids);
  });

  it("a run whose signal is aborted before it starts renews nothing", async () => {
    t.clock.set(BILLING_INSTANT);
    const { business, plan } = await shop();
    const sub = await member(business, plan);
    expect(await run(business.id, { signal: AbortSignal.abort() })).toMatchObject({ charged: 0, errors: 0 });
    expect(await state(sub.id)).toMatchObject({ orders: [], payments: [], renewalLeaseUntil: null });
  });
});
