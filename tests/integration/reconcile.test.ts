/**
 * Daily reconciliation (api/payouts/reconcile.ts, api/billing/reconcile-run.ts, api/jobs/reconcile-job.ts) on both
 * providers: a clean day (checkouts, a renewal, a refund) has no difference; a charge made only at the provider is
 * `missing_here`, an unrecorded Dashboard refund is named, an altered application fee is `fee_mismatch`; the job
 * fails with the differences in its error (no retries) and passes after the fix when retried. On the Stripe double
 * the day is the real one (the double keeps real time), so the application's clock is set to now.
 */
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";
import { PAY, seedSavedCard } from "../support/payments.ts";
import { startStripeDouble, type StripeDouble } from "../support/stripe-double.ts";
import { runRenewals } from "../../api/billing/renewals/clock.ts";
import { refundUnmatched } from "../../api/billing/checkout/settlement.ts";
import { providerFor } from "../../api/billing/service.ts";
import { allBalanceTransactions, reconcileDay } from "../../api/billing/reconcile-run.ts";
import { RECONCILE_QUEUE, reconcileJob } from "../../api/jobs/reconcile-job.ts";
import { retryRun } from "../../api/jobs/service.ts";
import { startJobQueue, type JobQueue } from "../../api/queue/job-queue.ts";
import { reconcile } from "../../api/payouts/reconcile.ts";
import { refundEntry, writeLedger } from "../../api/payouts/ledger.ts";

const log = pino({ level: "silent" });
const adminActor = { kind: "user" as const, user: { id: 1, publicId: "u1", username: "admin", isAdmin: true }, session: { id: 1, tenantSlug: null } };

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("reconcile: the comparison itself", () => {
  const day = { from: new Date("2026-04-02T00:00:00Z"), to: new Date("2026-04-03T00:00:00Z") };
  const at = new Date("2026-04-02T10:00:00Z");
  it("disputes and adjustments are unhandled; the provider's own fee is never a difference", () => {
    const result = reconcile({
      ...day,
      transactions: [
        { id: "txn_1", type: "charge", amountCents: 1000, source: "pi_1", origin: null, createdAt: at },
        { id: "txn_2", type: "adjustment", amountCents: -1000, source: "du_1", origin: null, createdAt: at },
      ],
      payments: [{ providerPaymentId: "pi_1", amountCents: 1000, destination: null, applicationFeeCents: 0, refundedCents: 0 }],
      otherPayments: [],
      ledger: [],
      refundsOfDay: [],
    });
    expect(result).toEqual({ checked: 2, matched: 1, differences: [{ kind: "unhandled", providerId: "txn_2", ourId: null, providerCents: -1000, ourCents: null }] });
  });
});

describe.each(["sandbox", "stripe"] as const)("daily reconciliation (%s)", (provider) => {
  let t: TestApp;
  let f: Factories;
  let stripe: StripeDouble | null = null;
  let jobs: JobQueue;
  let farm: { id: number; slug: string };
  let seq = 0;
  // The double books by real time: the day checked is today's (UTC) there.
  const now = provider === "stripe" ? new Date() : new Date("2026-04-02T15:00:00Z");
  const day = now.toISOString().slice(0, 10);
  const billing = () => ({ db: t.db.prisma, clock: t.clock, config: t.config, log });

  beforeAll(async () => {
    if (provider === "stripe") stripe = await startStripeDouble();
    t = await createTestApp({
      now: now.toISOString(),
      config: stripe ? { paymentProvider: "stripe", stripe: { secretKey: "sk_test_double", webhookSecret: "whsec_test", apiBase: stripe.url, publishableKey: "pk_test_double" } } : {},
    });
    f = factories(t);
    farm = await f.business({ slug: "farm", name: "Farm", page: { billingDay: 2, pickupEnabled: true } });
    jobs = await startJobQueue({ db: t.db, log, definitions: [reconcileJob(billing())], schedules: [], pollingIntervalSeconds: 0.5 });
  });
  afterAll(async () => {
    await jobs?.stop();
    await t?.close();
    await stripe?.close();
  });

  async function checkout(plan: { ref: string }) {
    const buyer = await f.user();
    const opts = { token: await f.session(buyer, farm.slug), tenant: farm.slug };
    const selection = { businessSlug: farm.slug, planRef: plan.ref, mode: "PICKUP", addonRefs: [] };
    const started = (await t.gqlOk(PAY.START, { input: { selection, email: `${buyer.username}@example.com`, idempotencyKey: `reconcile-${provider}-${++seq}` } }, opts)).startCheckout;
    expect(started.__typename, started.message).toBe("StartCheckoutSuccess");
    if (stripe) stripe.confirm(started.data.paymentIntentId, "pm_card_visa");
    else await t.gqlOk(PAY.CONFIRM, { s: started.data.clientSecret }, opts);
    expect((await t.gqlOk(PAY.COMPLETE, { id: started.data.paymentIntentId }, opts)).completeCheckout.__typename).toBe("CompleteCheckoutSuccess");
    return started.data.paymentIntentId as string;
  }

  /** Form-encoded call to the double, as the Dashboard or another integration would make it. */
  async function atStripe(path: string, form: Record<string, string>) {
    const res = await fetch(`${stripe!.url}${path}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", authorization: "Bearer sk_test_double" }, body: new URLSearchParams(form) });
    expect(res.status).toBe(200);
    return (await res.json()) as { id: string };
  }

  it("a clean day: checkouts, a renewal (sandbox), a refund: every check matches", async () => {
    const plan = await f.plan(farm, { prices: { PICKUP: 2900 } });
    await checkout(plan);
    const refunded = await checkout(plan);
    const payment = await t.db.prisma.payment.findUniqueOrThrow({ where: { providerPaymentId: refunded } });
    await refundUnmatched(billing(), payment, await providerFor(billing()).retrievePaymentIntent(refunded), "duplicate");
    if (provider === "sandbox") {
      const member = await f.user();
      const pm = await seedSavedCard(t.db.prisma, member);
      const sub = await f.subscription({ user: member, business: farm, plan, planAmountCents: 4550, totalCents: 4550, paidThroughPeriod: "2026-03" });
      await t.db.prisma.subscription.update({ where: { id: sub.id }, data: { billingDay: 2, providerPaymentMethodId: pm } });
      expect(await runRenewals(billing(), { businessId: farm.id })).toMatchObject({ charged: 1 });
    }
    const report = await reconcileDay(billing(), day);
    expect(report.differences).toEqual([]);
    // Each payment and the refund.
    expect(report.checked).toBe(provider === "sandbox" ? 4 : 3);
    expect(report.matched).toBe(report.checked);
  });

  it("a charge made only at the provider is missing_here, a Dashboard refund unrecorded here is named, an altered fee is fee_mismatch; the job fails, then passes after the fix", async () => {
    const plan = await f.plan(farm, { prices: { PICKUP: 3100 } });
    const altered = await checkout(plan);
    const kept = await checkout(plan);
    // A charge nobody here made.
    let stray: string;
    if (stripe) {
      stray = (await atStripe("/v1/payment_intents", { amount: "1234", currency: "usd", confirm: "true", payment_method: "pm_card_visa" })).id;
    } else {
      stray = "pi_sbx_stray";
      await t.db.prisma.sandboxObject.create({ data: { id: stray, kind: "payment_intent", data: { status: "succeeded", amountCents: 1234, succeededAt: t.clock.now().toISOString(), route: null } } });
    }
    // A refund made at the provider (the Dashboard) that never reached us.
    let dashboardRefund: string;
    if (stripe) dashboardRefund = (await atStripe("/v1/refunds", { payment_intent: kept, amount: "500", reverse_transfer: "true", refund_application_fee: "true" })).id;
    else dashboardRefund = (await providerFor(billing()).refund({ paymentIntentId: kept, amountCents: 500, idempotencyKey: "dashboard-refund", reverseTransfer: true })).id;
    // Our fee no longer what the provider took.
    const before = await t.db.prisma.payment.findUniqueOrThrow({ where: { providerPaymentId: altered } });
    await t.db.prisma.payment.update({ where: { id: before.id }, data: { applicationFeeCents: before.applicationFeeCents + 7 } });

    const report = await reconcileDay(billing(), day);
    expect(report.differences).toEqual(
      expect.arrayContaining([
        { kind: "missing_here", providerId: stray, ourId: null, providerCents: 1234, ourCents: null },
        { kind: "missing_here", providerId: dashboardRefund, ourId: null, providerCents: -500, ourCents: null },
        { kind: "fee_mismatch", providerId: altered, ourId: altered, providerCents: before.applicationFeeCents, ourCents: before.applicationFeeCents + 7 },
      ]),
    );
    expect(report.differences).toHaveLength(3);
    expect(report.checked - report.matched).toBe(3);

    // The job fails at once (no retries) with the differences in its message.
    const jobId = (await jobs.boss.send(RECONCILE_QUEUE, { day }))!;
    const failed = await until("the failed run", async () => {
      const job = await jobs.boss.getJobById(RECONCILE_QUEUE, jobId);
      return job?.state === "failed" ? job : null;
    });
    const message = JSON.stringify(failed.output);
    expect(message).toContain(`${day}: 3 difference(s)`);
    expect(message).toContain(`missing_here: provider ${stray} (1234)`);
    expect(message).toContain(`fee_mismatch: provider ${altered}`);
    expect(failed.retryLimit).toBe(0);

    // Fixed: our fee put back, the stray charge and the Dashboard refund recorded.
    await t.db.prisma.payment.update({ where: { id: before.id }, data: { applicationFeeCents: before.applicationFeeCents } });
    const member = await f.user();
    await t.db.prisma.payment.create({ data: { userId: member.id, provider, providerPaymentId: stray, amountCents: 1234, status: "SUCCEEDED", refundedCents: 0, createdAt: new Date(t.clock.now().getTime() - 2 * 86_400_000) } });
    const keptPayment = await t.db.prisma.payment.findUniqueOrThrow({ where: { providerPaymentId: kept } });
    const charge = await t.db.prisma.ledgerEntry.findFirstOrThrow({ where: { paymentId: keptPayment.id, kind: "CHARGE" } });
    const entry = await refundEntry(t.db.prisma, { paymentId: keptPayment.id, refundId: dashboardRefund, refundedTotalCents: 500, at: t.clock.now() });
    await writeLedger(t.db.prisma, [entry!]);
    expect(charge.grossCents).toBe(3100);
    const after = await reconcileDay(billing(), day);
    expect(after.differences).toEqual([]);
    await retryRun({ actor: adminActor, jobs }, RECONCILE_QUEUE, jobId);
    const passed = await until("the retried run", async () => {
      const job = await jobs.boss.getJobById(RECONCILE_QUEUE, jobId);
      return job?.state === "completed" ? job : null;
    });
    expect(passed.output).toMatchObject({ day, differences: 0, checked: after.checked, matched: after.checked });
  });

  it.runIf(provider === "sandbox")("partial refunds give back the fees the provider gave back, to the cent, and reconcile clean", async () => {
    const plan = await f.plan(farm, { prices: { PICKUP: 4550 } });
    const intentId = await checkout(plan);
    const payment = await t.db.prisma.payment.findUniqueOrThrow({ where: { providerPaymentId: intentId } });
    const charge = await t.db.prisma.ledgerEntry.findFirstOrThrow({ where: { paymentId: payment.id, kind: "CHARGE" } });
    // $45.50: fees 228 + 162 = 390. $15.00 back: 390 × 1500 / 4550 = 128.57 → 129 (each fee alone: 75.2 + 53.4 → 75 + 53).
    let refunded = 0;
    for (const amountCents of [1500, 1001, 2049]) {
      t.clock.set(new Date(t.clock.now().getTime() + 60_000).toISOString());
      const refund = await providerFor(billing()).refund({ paymentIntentId: intentId, amountCents, idempotencyKey: `partial-${intentId}-${refunded}`, reverseTransfer: true });
      refunded += amountCents;
      await writeLedger(t.db.prisma, [(await refundEntry(t.db.prisma, { paymentId: payment.id, refundId: refund.id, refundedTotalCents: refunded, at: t.clock.now() }))!]);
    }
    const refunds = await t.db.prisma.ledgerEntry.findMany({ where: { paymentId: payment.id, kind: "REFUND" }, orderBy: { id: "asc" } });
    const txns = await allBalanceTransactions(billing(), new Date(t.clock.now().getTime() - 86_400_000), new Date(t.clock.now().getTime() + 1000));
    const feeRefunds = txns.filter((x) => x.type === "application_fee_refund" && x.origin && refunds.some((r) => r.providerId === x.origin));
    expect(feeRefunds).toHaveLength(3);
    for (const r of refunds) {
      const providerBack = -feeRefunds.find((x) => x.origin === r.providerId)!.amountCents;
      expect(-(r.platformFeeCents + r.processingFeeCents), r.providerId).toBe(providerBack);
    }
    expect(-(refunds[0].platformFeeCents + refunds[0].processingFeeCents)).toBe(129);
    // Refunded in full: every column nets to zero.
    const sum = (k: "grossCents" | "platformFeeCents" | "processingFeeCents" | "netCents") => refunds.reduce((s, r) => s + r[k], charge[k]);
    expect([sum("grossCents"), sum("platformFeeCents"), sum("processingFeeCents"), sum("netCents")]).toEqual([0, 0, 0, 0]);
    expect((await reconcileDay(billing(), t.clock.now().toISOString().slice(0, 10))).differences).toEqual([]);
  });

  it.runIf(provider === "sandbox")("a checkout begun before midnight (UTC) and paid hours after is the next day's: neither day has a difference", async () => {
    const plan = await f.plan(farm, { prices: { PICKUP: 2700 } });
    const evening = `${new Date(new Date(`${day}T00:00:00Z`).getTime() + 4 * 86_400_000).toISOString().slice(0, 10)}`;
    const morning = new Date(new Date(`${evening}T00:00:00Z`).getTime() + 86_400_000).toISOString().slice(0, 10);
    t.clock.set(`${evening}T22:00:00Z`);
    const buyer = await f.user();
    const opts = { token: await f.session(buyer, farm.slug), tenant: farm.slug };
    const selection = { businessSlug: farm.slug, planRef: plan.ref, mode: "PICKUP", addonRefs: [] };
    const started = (await t.gqlOk(PAY.START, { input: { selection, email: `${buyer.username}@example.com`, idempotencyKey: `reconcile-late-${++seq}` } }, opts)).startCheckout;
    t.clock.set(`${morning}T02:30:00Z`);
    await t.gqlOk(PAY.CONFIRM, { s: started.data.clientSecret }, opts);
    expect((await t.gqlOk(PAY.COMPLETE, { id: started.data.paymentIntentId }, opts)).completeCheckout.__typename).toBe("CompleteCheckoutSuccess");
    const payment = await t.db.prisma.payment.findUniqueOrThrow({ where: { providerPaymentId: started.data.paymentIntentId } });
    expect(payment.createdAt.toISOString().slice(0, 10)).toBe(evening);
    expect(payment.paidAt?.toISOString()).toBe(`${morning}T02:30:00.000Z`);

    expect((await reconcileDay(billing(), evening)).differences).toEqual([]);
    const next = await reconcileDay(billing(), morning);
    expect(next.differences).toEqual([]);
    expect(next.checked).toBeGreaterThan(0);
  });

  // The schedule's runs carry no day (a cron's data is fixed): the run records the day it checked on the job, so a
  // "Retry" after the next UTC midnight checks that day again, not the day before the retry.
  it.runIf(provider === "sandbox")("a scheduled run records its day: retried two days later, it checks that day again", async () => {
    const stray = "pi_sbx_scheduled_stray";
    await t.db.prisma.sandboxObject.create({ data: { id: stray, kind: "payment_intent", data: { status: "succeeded", amountCents: 999, succeededAt: `${day}T20:00:00.000Z`, route: null } } });
    t.clock.set(`${new Date(new Date(`${day}T00:00:00Z`).getTime() + 86_400_000).toISOString().slice(0, 10)}T04:10:00Z`);
    const jobId = (await jobs.boss.send(RECONCILE_QUEUE, {}))!;
    const failed = await until("the scheduled run's failure", async () => {
      const job = await jobs.boss.getJobById(RECONCILE_QUEUE, jobId);
      return job?.state === "failed" ? job : null;
    });
    expect(failed.data).toEqual({ day });
    expect(JSON.stringify(failed.output)).toContain(`missing_here: provider ${stray} (999)`);

    // Two days on, the stray charge is gone (refunded by hand, say): Retry checks the recorded day, clean now.
    t.clock.set(`${new Date(new Date(`${day}T00:00:00Z`).getTime() + 3 * 86_400_000).toISOString().slice(0, 10)}T09:00:00Z`);
    await t.db.prisma.sandboxObject.delete({ where: { id: stray } });
    await retryRun({ actor: adminActor, jobs }, RECONCILE_QUEUE, jobId);
    const passed = await until("the retried scheduled run", async () => {
      const job = await jobs.boss.getJobById(RECONCILE_QUEUE, jobId);
      return job?.state === "completed" ? job : null;
    });
    expect(passed.output).toMatchObject({ day, differences: 0 });
  });
});
