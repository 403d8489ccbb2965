/**
 * Payouts, part 1, on every charge path: a connected business's charges are destination charges with the platform's
 * fees (application fee = platform + processing fee; the ledger row balances: gross = fees + net); a business that
 * never connected is refused (quote, checkout, restart; GraphQL and REST); a business collecting on the platform
 * before payouts charges as before; a restricted account's renewals are blocked, not declined, and charged once it
 * is enabled again; a refund reverses both fees (the ledger nets to zero).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";
import { PAY, seedSavedCard } from "../support/payments.ts";
import { runRenewals } from "../../api/billing/renewals/clock.ts";
import { refundUnmatched } from "../../api/billing/checkout/settlement.ts";
import { providerFor } from "../../api/billing/service.ts";
import { feesFor, DEFAULT_FEE_RATES } from "../../api/payouts/fees.ts";

let t: TestApp;
let f: Factories;
let seq = 0;

beforeAll(async () => {
  // Thursday March 5th, 15:00 UTC (10:00 in New York).
  t = await createTestApp({ now: "2026-03-05T15:00:00Z" });
  f = factories(t);
});
afterAll(() => t?.close());

const billing = () => ({ db: t.db.prisma, clock: t.clock, config: t.config, log: t.app.log });

async function shop(payouts: "connected" | "legacy" | "none", o: { name?: string; billingDay?: number; price?: number } = {}) {
  const slug = `pay-${payouts}-${++seq}`;
  const business = await f.business({ slug, name: o.name ?? `Shop ${seq}`, payouts, page: { billingDay: o.billingDay ?? 3, pickupEnabled: true } });
  const plan = await f.plan(business, { prices: { PICKUP: o.price ?? 2900 } });
  return { business, plan, slug };
}

async function checkout(s: { slug: string; plan: { ref: string } }) {
  const buyer = await f.user({ username: `buyer${++seq}`, email: `buyer${seq}@example.com` });
  const opts = { token: await f.session(buyer, s.slug), tenant: s.slug };
  const selection = { businessSlug: s.slug, planRef: s.plan.ref, mode: "PICKUP", addonRefs: [] };
  const started = (await t.gqlOk(PAY.START, { input: { selection, email: `buyer${seq}@example.com`, idempotencyKey: `checkout-${seq}-key` } }, opts)).startCheckout;
  return { buyer, opts, selection, started };
}

async function pay(c: Awaited<ReturnType<typeof checkout>>) {
  await t.gqlOk(PAY.CONFIRM, { s: c.started.data.clientSecret }, c.opts);
  return (await t.gqlOk(PAY.COMPLETE, { id: c.started.data.paymentIntentId }, c.opts)).completeCheckout;
}

const ledgerOf = (businessId: number) => t.db.prisma.ledgerEntry.findMany({ where: { businessId }, orderBy: { id: "asc" } });

describe("checkout", () => {
  it("at a connected business is a destination charge with both fees, and its ledger row balances", async () => {
    const s = await shop("connected", { price: 2900 });
    const c = await checkout(s);
    expect(c.started.__typename).toBe("StartCheckoutSuccess");
    expect((await pay(c)).__typename).toBe("CompleteCheckoutSuccess");

    const fees = feesFor(2900, DEFAULT_FEE_RATES);
    expect(fees).toMatchObject({ platformFeeCents: 145, processingFeeCents: 114, netCents: 2641, applicationFeeCents: 259 });
    const account = await t.db.prisma.paymentAccount.findUniqueOrThrow({ where: { businessId: s.business.id } });
    const intent = await providerFor(billing()).retrievePaymentIntent(c.started.data.paymentIntentId);
    expect(intent.route).toEqual({ destination: account.accountId, applicationFeeCents: 259, descriptorSuffix: s.business.name });
    expect(intent.metadata).toMatchObject({ platform_fee_cents: "145", processing_fee_cents: "114", period: "2026-03" });
    const payment = await t.db.prisma.payment.findUniqueOrThrow({ where: { providerPaymentId: intent.id } });
    expect(payment).toMatchObject({ destination: account.accountId, applicationFeeCents: 259, businessId: s.business.id });
    expect(await ledgerOf(s.business.id)).toEqual([
      expect.objectContaining({ kind: "CHARGE", paymentId: payment.id, providerId: intent.id, period: "2026-03", grossCents: 2900, platformFeeCents: 145, processingFeeCents: 114, netCents: 2641 }),
    ]);
  });

  it("at a business that never connected is refused before anything is charged: GraphQL and REST (422)", async () => {
    const s = await shop("none", { name: "Quiet Farm" });
    const c = await checkout(s);
    expect(c.started).toEqual({ __typename: "RuleViolationError", message: "Quiet Farm isn't taking new members yet.", reason: "payments_not_ready" });
    const rest = await t.app.inject({
      method: "POST",
      url: "/api/create-payment-intent",
      headers: { authorization: `Bearer ${c.opts.token}`, "x-tenant": s.slug, "content-type": "application/json" },
      payload: { selection: { businessSlug: s.slug, chosenItemId: s.plan.ref, mode: "pickup", email: "pat@example.com" } },
    });
    expect(rest.statusCode).toBe(422);
    expect(rest.json()).toEqual({ error: "Quiet Farm isn't taking new members yet.", reason: "payments_not_ready" });
    expect(await t.db.prisma.payment.count({ where: { businessId: s.business.id } })).toBe(0);
    const page = await t.gqlOk(`query($slug: String!) { business(slug: $slug) { acceptingMembers } }`, { slug: s.slug });
    expect(page.business.acceptingMembers).toBe(false);
  });

  it("at a business collecting on the platform (before payouts) charges as before: no destination, no fee, no ledger row", async () => {
    const s = await shop("legacy");
    const c = await checkout(s);
    expect((await pay(c)).__typename).toBe("CompleteCheckoutSuccess");
    const payment = await t.db.prisma.payment.findUniqueOrThrow({ where: { providerPaymentId: c.started.data.paymentIntentId } });
    expect(payment).toMatchObject({ destination: null, applicationFeeCents: 0, status: "SUCCEEDED" });
    expect(await ledgerOf(s.business.id)).toEqual([]);
    const page = await t.gqlOk(`query($slug: String!) { business(slug: $slug) { acceptingMembers } }`, { slug: s.slug });
    expect(page.business.acceptingMembers).toBe(true);
  });
});

describe("renewals", () => {
  it("one card at two businesses: one pass, two destinations, each with its own fees and ledger row", async () => {
    const a = await shop("connected", { price: 2000 });
    const b = await shop("connected", { price: 4550 });
    const member = await f.user({ username: `renewer${++seq}` });
    const pm = await seedSavedCard(t.db.prisma, member);
    for (const s of [a, b]) {
      const sub = await f.subscription({ user: member, business: s.business, plan: s.plan, planAmountCents: s === a ? 2000 : 4550, totalCents: s === a ? 2000 : 4550, paidThroughPeriod: "2026-02" });
      await t.db.prisma.subscription.update({ where: { id: sub.id }, data: { billingDay: 3, providerPaymentMethodId: pm } });
    }
    const report = await runRenewals(billing());
    expect(report.charged).toBeGreaterThanOrEqual(2);
    for (const [s, gross] of [[a, 2000], [b, 4550]] as const) {
      const account = await t.db.prisma.paymentAccount.findUniqueOrThrow({ where: { businessId: s.business.id } });
      const payment = await t.db.prisma.payment.findFirstOrThrow({ where: { businessId: s.business.id, userId: member.id } });
      const fees = feesFor(gross, DEFAULT_FEE_RATES);
      expect(payment).toMatchObject({ destination: account.accountId, applicationFeeCents: fees.applicationFeeCents, amountCents: gross });
      const [entry] = await ledgerOf(s.business.id);
      expect(entry).toMatchObject({ kind: "CHARGE", grossCents: gross, platformFeeCents: fees.platformFeeCents, processingFeeCents: fees.processingFeeCents, netCents: fees.netCents });
      expect(entry.grossCents).toBe(entry.platformFeeCents + entry.processingFeeCents + entry.netCents);
    }
  });

  it("at a restricted account are blocked (not past due, no payment), then charged once it is enabled again", async () => {
    const s = await shop("connected", { price: 3100 });
    const member = await f.user({ username: `blocked${++seq}` });
    const pm = await seedSavedCard(t.db.prisma, member);
    const sub = await f.subscription({ user: member, business: s.business, plan: s.plan, planAmountCents: 3100, totalCents: 3100, paidThroughPeriod: "2026-02" });
    await t.db.prisma.subscription.update({ where: { id: sub.id }, data: { billingDay: 3, providerPaymentMethodId: pm } });
    await t.db.prisma.paymentAccount.update({ where: { businessId: s.business.id }, data: { status: "RESTRICTED", chargesEnabled: false } });

    const blocked = await runRenewals(billing(), { businessId: s.business.id });
    expect(blocked).toMatchObject({ due: 1, blocked: 1, charged: 0, failed: 0 });
    expect(await t.db.prisma.subscription.findUniqueOrThrow({ where: { id: sub.id } })).toMatchObject({ status: "ACTIVE", paidThroughPeriod: "2026-02", renewalLeaseUntil: null });
    expect(await t.db.prisma.payment.count({ where: { subscriptionId: sub.id } })).toBe(0);

    await t.db.prisma.paymentAccount.update({ where: { businessId: s.business.id }, data: { status: "ENABLED", chargesEnabled: true } });
    const charged = await runRenewals(billing(), { businessId: s.business.id });
    expect(charged).toMatchObject({ charged: 1, blocked: 0 });
    expect((await t.db.prisma.subscription.findUniqueOrThrow({ where: { id: sub.id } })).paidThroughPeriod).toBe("2026-03");
  });
});

describe("refunds", () => {
  it("reverse the transfer and both fees: the ledger of a refunded charge nets to zero", async () => {
    const s = await shop("connected", { price: 3333 });
    const c = await checkout(s);
    await pay(c);
    const intent = await providerFor(billing()).retrievePaymentIntent(c.started.data.paymentIntentId);
    const payment = await t.db.prisma.payment.findUniqueOrThrow({ where: { providerPaymentId: intent.id } });
    await refundUnmatched(billing(), payment, intent, "duplicate");
    await refundUnmatched(billing(), payment, intent, "duplicate"); // once only
    const entries = await ledgerOf(s.business.id);
    expect(entries.map((e) => e.kind)).toEqual(["CHARGE", "REFUND"]);
    const total = (k: "grossCents" | "platformFeeCents" | "processingFeeCents" | "netCents") => entries.reduce((sum, e) => sum + e[k], 0);
    expect([total("grossCents"), total("platformFeeCents"), total("processingFeeCents"), total("netCents")]).toEqual([0, 0, 0, 0]);
  });
});

describe("restart", () => {
  it("at a business that cannot take payments is refused before any charge", async () => {
    const s = await shop("none", { name: "Closed Bakery" });
    const member = await f.user({ username: `restarter${++seq}` });
    await seedSavedCard(t.db.prisma, member);
    const sub = await f.subscription({ user: member, business: s.business, plan: s.plan, status: "CANCELED", paidThroughPeriod: "2026-01" });
    const token = await f.session(member, s.slug);
    const res = await t.gqlOk(PAY.RESTART, { id: String(sub.id) }, { token, tenant: s.slug });
    expect(res.restartSubscription).toEqual({ __typename: "RuleViolationError", message: "Closed Bakery isn't taking new members yet.", reason: "payments_not_ready" });
    expect(await t.db.prisma.payment.count({ where: { subscriptionId: sub.id } })).toBe(0);
  });
});
