/**
 * Payouts, part 1, on the charge paths payouts-charging.test.ts does not walk: 3-D Secure at checkout, a next-month
 * sign-up's first charge (routed by its period, like a renewal), a renewal run of 500 memberships across businesses,
 * and a period's retries, which carry what the first attempt carried even when fees or routing change meanwhile.
 * On each: gross = platform fee + processing fee + net, the application fee is both fees, the destination the
 * business's own.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";
import { PAY } from "../support/payments.ts";
import { runRenewals } from "../../api/billing/renewals/clock.ts";
import { providerFor } from "../../api/billing/service.ts";
import { applyAccountUpdate } from "../../api/billing/connect.ts";
import { DEFAULT_FEE_RATES, feesFor } from "../../api/payouts/fees.ts";

let t: TestApp;
let f: Factories;
let seq = 0;

beforeAll(async () => {
  t = await createTestApp({ now: "2026-03-05T15:00:00Z" });
  f = factories(t);
});
afterAll(() => t?.close());

const ctx = () => ({ db: t.db.prisma, clock: t.clock, config: t.config, log: t.app.log });
const CHALLENGE = `mutation($s: String!) { completeSandboxChallenge(clientSecret: $s, succeed: true) { __typename ... on CompleteSandboxChallengeSuccess { data { status } } } }`;
const CONFIRM_CARD = `mutation($s: String!, $n: String!) { confirmSandboxPayment(clientSecret: $s, card: { number: $n, expMonth: 12, expYear: 2031, cvc: "123" }) {
  __typename ... on ConfirmSandboxPaymentSuccess { data { status } } ... on Error { message } } }`;

/** Every ledger row of the business balances, and matches its payment's route. */
async function expectBooksBalanced(businessId: number) {
  const account = await t.db.prisma.paymentAccount.findUniqueOrThrow({ where: { businessId } });
  const entries = await t.db.prisma.ledgerEntry.findMany({ where: { businessId }, include: { payment: true } });
  for (const e of entries) {
    expect(e.grossCents).toBe(e.platformFeeCents + e.processingFeeCents + e.netCents);
    if (e.kind === "CHARGE") expect(e.payment).toMatchObject({ destination: account.accountId, applicationFeeCents: e.platformFeeCents + e.processingFeeCents, amountCents: e.grossCents });
  }
  return entries;
}

/** A member with a saved sandbox card of the given behaviour, billed on the 3rd, paid through February. */
async function renewing(business: { id: number }, plan: { id: number }, totalCents: number, behavior = "succeed") {
  const n = ++seq;
  const customerId = `cus_paths_${n}`;
  const pm = `pm_paths_${n}`;
  const user = await t.db.prisma.user.create({ data: { username: `paths-member-${n}`, passwordHash: "x", email: `paths${n}@example.com`, paymentCustomerId: customerId } });
  await t.db.prisma.sandboxObject.createMany({
    data: [
      { id: customerId, kind: "customer", data: { userId: user.id, email: user.email, name: null } },
      { id: pm, kind: "payment_method", data: { customerId, brand: "visa", last4: "4242", expMonth: 12, expYear: 2031, behavior } },
    ],
  });
  return t.db.prisma.subscription.create({
    data: {
      userId: user.id, businessId: business.id, planId: plan.id, status: "ACTIVE", mode: "PICKUP", planAmountCents: totalCents, totalCents,
      billingDay: 3, paidThroughPeriod: "2026-02", paymentProvider: "sandbox", providerPaymentMethodId: pm, startedAt: new Date("2026-01-03T15:00:00Z"),
    },
  });
}

describe("checkout with 3-D Secure", () => {
  it("the charge the member authenticates is the routed one, and lands in the books once settled", async () => {
    t.clock.set("2026-03-05T15:00:00Z");
    const shop = await f.business({ slug: `secure-${++seq}`, page: { pickupEnabled: true } });
    const plan = await f.plan(shop, { prices: { PICKUP: 4200 } });
    const buyer = await f.user({ email: `secure${seq}@example.com` });
    const opts = { token: await f.session(buyer, shop.slug), tenant: shop.slug };
    const started = (await t.gqlOk(PAY.START, { input: { selection: { businessSlug: shop.slug, planRef: plan.ref, mode: "PICKUP" }, email: `secure${seq}@example.com`, idempotencyKey: `secure-${seq}-key` } }, opts)).startCheckout;
    expect((await t.gqlOk(CONFIRM_CARD, { s: started.data.clientSecret, n: "4000002500003155" })).confirmSandboxPayment.data.status).toBe("requires_action");
    expect(await t.db.prisma.ledgerEntry.count({ where: { businessId: shop.id } })).toBe(0);
    expect((await t.gqlOk(CHALLENGE, { s: started.data.clientSecret })).completeSandboxChallenge.data.status).toBe("succeeded");
    expect((await t.gqlOk(PAY.COMPLETE, { id: started.data.paymentIntentId }, opts)).completeCheckout.__typename).toBe("CompleteCheckoutSuccess");
    const [entry] = await expectBooksBalanced(shop.id);
    const fees = feesFor(4200, DEFAULT_FEE_RATES);
    expect(entry).toMatchObject({ kind: "CHARGE", grossCents: 4200, platformFeeCents: fees.platformFeeCents, processingFeeCents: fees.processingFeeCents, period: "2026-03" });
  });
});

describe("a next-month sign-up", () => {
  it("saves the card today, and its first charge on next month's billing day is routed by that month", async () => {
    t.clock.set("2026-03-21T15:00:00Z");
    const shop = await f.business({ slug: `late-${++seq}`, page: { pickupEnabled: true, cutoffDay: 20, billingDay: 1, afterCutoff: "NEXT_MONTH" } });
    const plan = await f.plan(shop, { prices: { PICKUP: 3000 } });
    const buyer = await f.user({ email: `late${seq}@example.com` });
    const opts = { token: await f.session(buyer, shop.slug), tenant: shop.slug };
    const START = `mutation($input: StartCheckoutInput!) { startCheckout(input: $input) { __typename ... on StartCheckoutSuccess { data { intent paymentIntentId clientSecret } } ... on Error { message } } }`;
    const started = (await t.gqlOk(START, { input: { selection: { businessSlug: shop.slug, planRef: plan.ref, mode: "PICKUP" }, email: `late${seq}@example.com`, idempotencyKey: `late-${seq}-key` } }, opts)).startCheckout;
    expect(started.data.intent).toBe("SETUP");
    await t.gqlOk(`mutation($s: String!) { confirmSandboxSetup(clientSecret: $s, card: { number: "4242424242424242", expMonth: 12, expYear: 2031, cvc: "123" }) { __typename } }`, { s: started.data.clientSecret });
    const done = await t.gqlOk(`mutation($si: String) { completeCheckout(setupIntentId: $si) { __typename ... on Error { message } } }`, { si: started.data.paymentIntentId }, opts);
    expect(done.completeCheckout.__typename).toBe("CompleteCheckoutSuccess");
    // April's fees are set meanwhile: the first charge is April's, so it carries them.
    await t.db.prisma.feeSchedule.create({ data: { businessId: shop.id, effectivePeriod: "2026-04", platformBps: 800, platformCents: 0, processingBps: 290, processingCents: 30 } });

    t.clock.set("2026-04-01T15:00:00Z");
    expect((await runRenewals(ctx(), { businessId: shop.id })).charged).toBe(1);
    const [entry] = await expectBooksBalanced(shop.id);
    expect(entry).toMatchObject({ kind: "CHARGE", period: "2026-04", grossCents: 3000, platformFeeCents: 240, processingFeeCents: 117, netCents: 2643 });
  });
});

describe("a renewal run", () => {
  it("of 500 memberships across five businesses: each charge to its own business's account, every row balanced", async () => {
    t.clock.set("2026-03-05T15:00:00Z");
    const shops = await Promise.all([1, 2, 3, 4, 5].map(async (i) => {
      const business = await f.business({ slug: `bulk-${i}-${++seq}`, page: { pickupEnabled: true } });
      return { business, plan: await f.plan(business, { prices: { PICKUP: 1000 + i * 333 } }), price: 1000 + i * 333 };
    }));
    const n = ++seq;
    const users = await t.db.prisma.user.createManyAndReturn({ data: Array.from({ length: 500 }, (_, i) => ({ username: `bulk-${n}-${i}`, passwordHash: "x", paymentCustomerId: `cus_bulk_${n}_${i}` })) });
    await t.db.prisma.sandboxObject.createMany({
      data: users.flatMap((u, i) => [
        { id: `cus_bulk_${n}_${i}`, kind: "customer", data: { userId: u.id, email: null, name: null } },
        { id: `pm_bulk_${n}_${i}`, kind: "payment_method", data: { customerId: `cus_bulk_${n}_${i}`, brand: "visa", last4: "4242", expMonth: 12, expYear: 2031, behavior: "succeed" } },
      ]),
    });
    await t.db.prisma.subscription.createMany({
      data: users.map((u, i) => {
        const s = shops[i % 5];
        return {
          userId: u.id, businessId: s.business.id, planId: s.plan.id, status: "ACTIVE" as const, mode: "PICKUP" as const, planAmountCents: s.price, totalCents: s.price,
          billingDay: 3, paidThroughPeriod: "2026-02", paymentProvider: "sandbox", providerPaymentMethodId: `pm_bulk_${n}_${i}`, startedAt: new Date("2026-01-03T15:00:00Z"),
        };
      }),
    });
    const report = await runRenewals(ctx());
    expect(report.charged).toBeGreaterThanOrEqual(500);
    for (const s of shops) {
      const entries = await expectBooksBalanced(s.business.id);
      const fees = feesFor(s.price, DEFAULT_FEE_RATES);
      expect(entries).toHaveLength(100);
      expect(entries.every((e) => e.kind === "CHARGE" && e.grossCents === s.price && e.platformFeeCents === fees.platformFeeCents && e.netCents === fees.netCents)).toBe(true);
    }
  });
});

describe("a period's retries", () => {
  it("carry the first attempt's route and fees: a fee scheduled meanwhile starts next month", async () => {
    t.clock.set("2026-03-05T15:00:00Z");
    const shop = await f.business({ slug: `retry-${++seq}`, page: { pickupEnabled: true } });
    const plan = await f.plan(shop, { prices: { PICKUP: 2500 } });
    const sub = await renewing(shop, plan, 2500, "decline_after_attach");
    expect((await runRenewals(ctx(), { businessId: shop.id })).failed).toBe(1);
    await t.db.prisma.feeSchedule.create({ data: { businessId: shop.id, effectivePeriod: "2026-04", platformBps: 1000, platformCents: 0, processingBps: 290, processingCents: 30 } });
    t.clock.set("2026-03-07T15:00:00Z");
    await runRenewals(ctx(), { businessId: shop.id });
    const payments = await t.db.prisma.payment.findMany({ where: { subscriptionId: sub.id }, orderBy: { id: "asc" } });
    expect(payments.length).toBe(2);
    const intents = await Promise.all(payments.map((p) => providerFor(ctx()).retrievePaymentIntent(p.providerPaymentId)));
    expect(intents[1].route).toEqual(intents[0].route);
    expect(intents[1].metadata.platform_fee_cents).toBe(intents[0].metadata.platform_fee_cents);
    expect(intents[0].metadata).toMatchObject({ platform_fee_cents: "125", period: "2026-03" });
  });

  it("of a business first enabled mid-month stay on the platform's account for that month", async () => {
    t.clock.set("2026-03-05T15:00:00Z");
    const shop = await f.business({ slug: `midmonth-${++seq}`, payouts: "legacy", page: { pickupEnabled: true } });
    const plan = await f.plan(shop, { prices: { PICKUP: 2500 } });
    const sub = await renewing(shop, plan, 2500, "decline_after_attach");
    expect((await runRenewals(ctx(), { businessId: shop.id })).failed).toBe(1);

    // The business connects on March 6th: March has a payment already, so its account takes April on.
    const account = await t.db.prisma.paymentAccount.create({ data: { businessId: shop.id, provider: "sandbox", accountId: `acct_sbx_mid_${seq}` } });
    t.clock.set("2026-03-06T15:00:00Z");
    await applyAccountUpdate(ctx(), { id: account.accountId, detailsSubmitted: true, chargesEnabled: true, payoutsEnabled: true, requirementsDue: [] });
    expect((await t.db.prisma.business.findUniqueOrThrow({ where: { id: shop.id } })).connectFromPeriod).toBe("2026-04");

    t.clock.set("2026-03-07T15:00:00Z");
    await runRenewals(ctx(), { businessId: shop.id });
    const payments = await t.db.prisma.payment.findMany({ where: { subscriptionId: sub.id }, orderBy: { id: "asc" } });
    expect(payments.map((p) => [p.destination, p.applicationFeeCents])).toEqual([[null, 0], [null, 0]]);
  });
});
