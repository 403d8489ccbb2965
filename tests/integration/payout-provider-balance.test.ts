/**
 * The payment providers' balances, payouts and balance transactions, on both providers (the sandbox, and Stripe
 * through the local double): a destination charge reaches the business's account as its amount less the
 * application fee (the sandbox holds it two days on the domain clock), the platform's balance transactions show the
 * charge (Stripe's fee: 2.9 % + 30¢, half up), the transfer and the application fee, named by the payment intent,
 * page by id, and a refund that reverses the transfer adds the refund, the reversal and the fee's refund. Payouts:
 * never above what is available, in transit and then paid, or failed back into the balance.
 */
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BalanceTransactionInfo, ChargeRoute, PaymentProvider } from "../../api/billing/providers/provider.ts";
import { SandboxProvider } from "../../api/billing/providers/sandbox/provider.ts";
import { createStripeClient, StripeProvider } from "../../api/billing/providers/stripe/provider.ts";
import { FixedClock } from "../../api/shared/clock.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories } from "../support/factories.ts";
import { seedSavedCard } from "../support/payments.ts";
import { startStripeDouble, type StripeDouble } from "../support/stripe-double.ts";

let t: TestApp;
let stripe: StripeDouble;
let stripeClient: Stripe;
let clock: FixedClock;
let sandbox: SandboxProvider;
let stripeProvider: StripeProvider;

const DAY = 86_400_000;
const URLS = { refreshUrl: "http://localhost:3000/payouts?refresh=1", returnUrl: "http://localhost:3000/payouts?return=1" };
/** A $29.00 charge with the default fees (5 % + 2.9 % + 30¢ = 259¢): the business gets 2641¢; Stripe keeps 114¢. */
const AMOUNT = 2900;
const APPLICATION_FEE = 259;
const STRIPE_FEE = 114;

beforeAll(async () => {
  t = await createTestApp({ now: "2026-03-02T15:00:00Z" });
  stripe = await startStripeDouble();
  clock = new FixedClock("2026-03-02T15:00:00Z");
  sandbox = new SandboxProvider(t.db.prisma, clock);
  stripeClient = createStripeClient({ secretKey: "sk_test_double", apiBase: stripe.url });
  stripeProvider = new StripeProvider(stripeClient);
});
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});

let businessSeq = 100;
let keySeq = 0;

/** An enabled sandbox account (payouts to `bankAccount`) and a member with a saved card to charge at it. */
async function sandboxBusiness(bankAccount?: string) {
  const businessId = ++businessSeq;
  const created = await sandbox.createConnectedAccount({ businessId, name: `Farm ${businessId}`, idempotencyKey: `account:${businessId}:1` });
  const link = await sandbox.createOnboardingLink({ accountId: created.id, ...URLS });
  await sandbox.completeOnboarding(link.url.split("/").pop()!, bankAccount ? { bankAccount } : {});
  const member = await factories(t).user({ username: `balance-member-${businessId}` });
  const paymentMethodId = await seedSavedCard(t.db.prisma, member);
  const route: ChargeRoute = { destination: created.id, applicationFeeCents: APPLICATION_FEE, descriptorSuffix: "FARM" };
  const charge = async (amountCents = AMOUNT) => {
    const intent = await sandbox.chargeSavedCard({ customerId: `cus_test_${member.id}`, paymentMethodId, amountCents, currency: "usd", idempotencyKey: `balance-${++keySeq}`, metadata: {}, route });
    expect(intent.status).toBe("succeeded");
    return intent;
  };
  return { accountId: created.id, charge };
}

/** An enabled account at the Stripe double, and a routed off-session charge of the test Visa to it. */
async function stripeBusiness() {
  const businessId = ++businessSeq;
  const created = await stripeProvider.createConnectedAccount({ businessId, name: `Farm ${businessId}`, idempotencyKey: `account:${businessId}:1` });
  stripe.onboard(created.id);
  const route: ChargeRoute = { destination: created.id, applicationFeeCents: APPLICATION_FEE, descriptorSuffix: "FARM" };
  const charge = async (amountCents = AMOUNT) => {
    const intent = await stripeProvider.chargeSavedCard({ customerId: "cus_dbl_member", paymentMethodId: "pm_card_visa", amountCents, currency: "usd", idempotencyKey: `balance-${++keySeq}`, metadata: {}, route });
    expect(intent.status).toBe("succeeded");
    return intent;
  };
  return { accountId: created.id, charge };
}

/** The transactions by type (one of each expected). */
const byType = (txns: BalanceTransactionInfo[]) => Object.fromEntries(txns.map((x) => [x.type, x]));

/** A destination charge's three platform transactions, the same on both providers. */
function expectDestinationCharge(txns: BalanceTransactionInfo[], intentId: string) {
  expect(txns.map((x) => x.type).sort()).toEqual(["application_fee", "charge", "transfer"]);
  const { charge, transfer, application_fee: fee } = byType(txns);
  expect(charge).toMatchObject({ amountCents: AMOUNT, feeCents: STRIPE_FEE, netCents: AMOUNT - STRIPE_FEE, source: intentId });
  expect(transfer).toMatchObject({ amountCents: -AMOUNT, feeCents: 0, netCents: -AMOUNT });
  expect(fee).toMatchObject({ amountCents: APPLICATION_FEE, feeCents: 0, netCents: APPLICATION_FEE });
  for (const x of txns) expect(x.netCents).toBe(x.amountCents - x.feeCents);
  // The platform keeps the application fee less Stripe's fee.
  expect(txns.reduce((sum, x) => sum + x.netCents, 0)).toBe(APPLICATION_FEE - STRIPE_FEE);
}

/** Every transaction of a window, page by page (`limit` each): the same as one long page, each once. */
async function expectPagesMatch(provider: PaymentProvider, window: { from: Date; to: Date }, limit: number) {
  const all = await provider.listBalanceTransactions({ ...window, limit: 100 });
  expect(all.hasMore).toBe(false);
  const paged: BalanceTransactionInfo[] = [];
  let after: string | undefined;
  for (let pages = 0; ; pages++) {
    const page = await provider.listBalanceTransactions({ ...window, limit, after });
    expect(page.transactions.length).toBeLessThanOrEqual(limit);
    paged.push(...page.transactions);
    if (!page.hasMore) break;
    after = page.transactions.at(-1)!.id;
    expect(pages).toBeLessThan(50);
  }
  expect(paged.map((x) => x.id)).toEqual(all.transactions.map((x) => x.id));
  expect(new Set(paged.map((x) => x.id)).size).toBe(paged.length);
  const created = paged.map((x) => x.createdAt.getTime());
  expect(created).toEqual([...created].sort((a, b) => b - a));
  return all.transactions;
}

describe("the sandbox's balances", () => {
  it("holds a routed charge's amount less the application fee for two days on the clock, then makes it available", async () => {
    clock.set("2026-03-02T15:00:00Z");
    const { accountId, charge } = await sandboxBusiness();
    expect(await sandbox.retrieveBalance(accountId)).toEqual({ availableCents: 0, pendingCents: 0 });
    await charge();
    expect(await sandbox.retrieveBalance(accountId)).toEqual({ availableCents: 0, pendingCents: AMOUNT - APPLICATION_FEE });
    clock.advance(2 * DAY - 1);
    expect(await sandbox.retrieveBalance(accountId)).toEqual({ availableCents: 0, pendingCents: AMOUNT - APPLICATION_FEE });
    clock.advance(1);
    expect(await sandbox.retrieveBalance(accountId)).toEqual({ availableCents: AMOUNT - APPLICATION_FEE, pendingCents: 0 });
    await expect(sandbox.retrieveBalance("acct_sbx_nope")).rejects.toMatchObject({ code: "resource_missing" });
  });

  it("lists the platform's charge, transfer and application fee, named by the payment intent, in one window", async () => {
    clock.set("2026-03-10T09:00:00Z");
    const at = clock.now();
    const { charge } = await sandboxBusiness();
    const intent = await charge();
    // An unrouted charge (the platform's own, a business before it connected) is a charge alone.
    const customerId = await sandbox.ensureCustomer({ userId: 1 });
    const plain = await sandbox.createPaymentIntent({ customerId, amountCents: 1000, currency: "usd", idempotencyKey: `balance-${++keySeq}`, metadata: {}, saveForFuture: false });
    clock.advance(1000);
    await sandbox.confirmPaymentIntent(plain.clientSecret, { number: "4242424242424242", expMonth: 12, expYear: 2031, cvc: "123" });

    const routed = await sandbox.listBalanceTransactions({ from: at, to: new Date(at.getTime() + 1) });
    expect(routed.hasMore).toBe(false);
    expectDestinationCharge(routed.transactions, intent.id);
    const { charge: chargeTxn, transfer, application_fee: fee } = byType(routed.transactions);
    expect(chargeTxn.createdAt).toEqual(at);
    expect(chargeTxn.availableOn).toEqual(new Date(at.getTime() + 2 * DAY));
    expect(fee.availableOn).toEqual(new Date(at.getTime() + 2 * DAY));
    expect(transfer.availableOn).toEqual(at);

    const later = await sandbox.listBalanceTransactions({ from: new Date(at.getTime() + 1), to: new Date(at.getTime() + DAY) });
    expect(later.transactions).toEqual([
      expect.objectContaining({ type: "charge", amountCents: 1000, feeCents: 59, netCents: 941, source: plain.id, createdAt: new Date(at.getTime() + 1000) }),
    ]);
    // Nothing outside the window.
    expect((await sandbox.listBalanceTransactions({ from: new Date(at.getTime() - DAY), to: at })).transactions.filter((x) => x.createdAt >= at)).toEqual([]);
  });

  it("pages newest first with after and limit", async () => {
    clock.set("2026-03-12T09:00:00Z");
    const from = clock.now();
    const { charge } = await sandboxBusiness();
    for (let i = 0; i < 3; i++) {
      await charge(AMOUNT + i);
      clock.advance(60_000);
    }
    const all = await expectPagesMatch(sandbox, { from, to: clock.now() }, 4);
    expect(all).toHaveLength(9);
    const first = await sandbox.listBalanceTransactions({ from, to: clock.now(), limit: 4 });
    expect(first).toMatchObject({ hasMore: true });
    expect(first.transactions.map((x) => x.id)).toEqual(all.slice(0, 4).map((x) => x.id));
    const last = await sandbox.listBalanceTransactions({ from, to: clock.now(), limit: 4, after: all[7].id });
    expect(last).toEqual({ transactions: [all[8]], hasMore: false });
  });

  it("a refund that reverses the transfer adds the refund, the reversal and the fee's refund, in proportion", async () => {
    clock.set("2026-03-14T09:00:00Z");
    const { accountId, charge } = await sandboxBusiness();
    const intent = await charge();
    clock.advance(2 * DAY);
    const at = clock.now();
    const first = await sandbox.refund({ paymentIntentId: intent.id, amountCents: 1000, idempotencyKey: `balance-refund-${++keySeq}`, reverseTransfer: true });
    const part = await sandbox.listBalanceTransactions({ from: at, to: new Date(at.getTime() + 1) });
    // 259 × 1000 / 2900 = 89.3: 89 of the fee goes back to the business.
    expect(byType(part.transactions)).toEqual({
      refund: expect.objectContaining({ amountCents: -1000, feeCents: 0, netCents: -1000, source: first.id, createdAt: at, availableOn: at }),
      transfer_reversal: expect.objectContaining({ amountCents: 1000, netCents: 1000 }),
      application_fee_refund: expect.objectContaining({ amountCents: -89, netCents: -89 }),
    });
    expect(await sandbox.retrieveBalance(accountId)).toEqual({ availableCents: AMOUNT - APPLICATION_FEE - (1000 - 89), pendingCents: 0 });

    clock.advance(1000);
    await sandbox.refund({ paymentIntentId: intent.id, amountCents: AMOUNT - 1000, idempotencyKey: `balance-refund-${++keySeq}`, reverseTransfer: true });
    const rest = await sandbox.listBalanceTransactions({ from: clock.now(), to: new Date(clock.now().getTime() + 1) });
    // On the running total the whole fee is back: 259 − 89 = 170, and the business's account is back to zero.
    expect(byType(rest.transactions).application_fee_refund).toMatchObject({ amountCents: -170 });
    expect(await sandbox.retrieveBalance(accountId)).toEqual({ availableCents: 0, pendingCents: 0 });

    // A refund that keeps the transfer (the platform bears it) is a refund alone, and leaves the business's balance.
    const kept = await sandboxBusiness();
    const other = await kept.charge();
    clock.advance(1000);
    await sandbox.refund({ paymentIntentId: other.id, amountCents: 500, idempotencyKey: `balance-refund-${++keySeq}` });
    const alone = await sandbox.listBalanceTransactions({ from: clock.now(), to: new Date(clock.now().getTime() + 1) });
    expect(alone.transactions.map((x) => x.type)).toEqual(["refund"]);
    expect(await sandbox.retrieveBalance(kept.accountId)).toEqual({ availableCents: 0, pendingCents: AMOUNT - APPLICATION_FEE });
  });
});

describe("the sandbox's payouts", () => {
  it("are refused above what is available, travel two days, and are paid on arrival", async () => {
    clock.set("2026-04-01T12:00:00Z");
    const { accountId, charge } = await sandboxBusiness();
    const firstCharge = await charge();
    // Pending money cannot be paid out.
    await expect(sandbox.createSandboxPayout(accountId, 1)).rejects.toMatchObject({ code: "balance_insufficient" });
    clock.advance(2 * DAY);
    const secondCharge = await charge();
    const net = AMOUNT - APPLICATION_FEE;
    await expect(sandbox.createSandboxPayout(accountId, net + 1)).rejects.toMatchObject({ code: "balance_insufficient" });
    await expect(sandbox.createSandboxPayout(accountId, 0)).rejects.toMatchObject({ code: "amount_too_small" });

    const payout = await sandbox.createSandboxPayout(accountId, net - 41);
    expect(payout).toMatchObject({ amountCents: net - 41, status: "in_transit", arrivalDate: "2026-04-05", failureCode: null, failureMessage: null, createdAt: clock.now() });
    expect(payout.id).toMatch(/^po_sbx_/);
    expect(await sandbox.retrieveBalance(accountId)).toEqual({ availableCents: 41, pendingCents: net });
    await expect(sandbox.createSandboxPayout(accountId, 42)).rejects.toMatchObject({ code: "balance_insufficient" });
    expect(await sandbox.listPayouts(accountId)).toEqual({ payouts: [payout], hasMore: false });

    clock.advance(2 * DAY - 1);
    expect(await sandbox.settlePayouts()).toEqual([]);
    clock.advance(1);
    const settled = await sandbox.settlePayouts();
    expect(settled).toEqual([{ accountId, payout: { ...payout, status: "paid" } }]);
    expect(await sandbox.settlePayouts()).toEqual([]);
    expect((await sandbox.listPayouts(accountId)).payouts[0].status).toBe("paid");
    // Paid is gone for good; the second charge is available now.
    expect(await sandbox.retrieveBalance(accountId)).toEqual({ availableCents: 41 + net, pendingCents: 0 });

    // A refund after the payout may take the balance below zero; no payout then.
    const before = await sandbox.retrieveBalance(accountId);
    for (const intent of [firstCharge, secondCharge]) {
      await sandbox.refund({ paymentIntentId: intent.id, amountCents: AMOUNT, idempotencyKey: `balance-refund-${++keySeq}`, reverseTransfer: true });
    }
    expect(await sandbox.retrieveBalance(accountId)).toEqual({ availableCents: before.availableCents - 2 * net, pendingCents: 0 });
    expect((await sandbox.retrieveBalance(accountId)).availableCents).toBeLessThan(0);
    await expect(sandbox.createSandboxPayout(accountId, 1)).rejects.toMatchObject({ code: "balance_insufficient" });
  });

  it("to the failing test bank account fail with no_account, the amount back in the balance", async () => {
    clock.set("2026-04-10T12:00:00Z");
    const { accountId, charge } = await sandboxBusiness("000111111116");
    await charge();
    clock.advance(2 * DAY);
    const net = AMOUNT - APPLICATION_FEE;
    const payout = await sandbox.createSandboxPayout(accountId, net, { at: clock.now() });
    expect(await sandbox.retrieveBalance(accountId)).toEqual({ availableCents: 0, pendingCents: 0 });
    clock.advance(2 * DAY);
    const [settled] = await sandbox.settlePayouts(clock.now());
    expect(settled).toEqual({ accountId, payout: { ...payout, status: "failed", failureCode: "no_account", failureMessage: expect.stringContaining("No bank account") } });
    expect(await sandbox.retrieveBalance(accountId)).toEqual({ availableCents: net, pendingCents: 0 });
    // The money back may go out again (and fail again: the account's bank is still the failing one).
    const again = await sandbox.createSandboxPayout(accountId, net);
    expect(again.status).toBe("in_transit");
  });

  it("list newest first, paged", async () => {
    clock.set("2026-04-20T12:00:00Z");
    const { accountId, charge } = await sandboxBusiness();
    await charge();
    clock.advance(2 * DAY);
    const made = [];
    for (let i = 0; i < 3; i++) {
      made.push(await sandbox.createSandboxPayout(accountId, 100));
      clock.advance(60_000);
    }
    const first = await sandbox.listPayouts(accountId, { limit: 2 });
    expect(first).toEqual({ payouts: [made[2], made[1]], hasMore: true });
    expect(await sandbox.listPayouts(accountId, { limit: 2, after: made[1].id })).toEqual({ payouts: [made[0]], hasMore: false });
    await expect(sandbox.createSandboxPayout("acct_sbx_nope", 100)).rejects.toMatchObject({ code: "resource_missing" });
  });

  it("refuses a bank account number that is not one", async () => {
    const created = await sandbox.createConnectedAccount({ businessId: ++businessSeq, name: "Bad Bank", idempotencyKey: `account:${businessSeq}:1` });
    const link = await sandbox.createOnboardingLink({ accountId: created.id, ...URLS });
    await expect(sandbox.completeOnboarding(link.url.split("/").pop()!, { bankAccount: "12-34" })).rejects.toMatchObject({ code: "invalid_bank_account" });
  });
});

describe("Stripe's balances and payouts (the local double)", () => {
  it("creates each connected account with a weekly Monday payout schedule, two days' delay, and its key still answers", async () => {
    const first = await stripeProvider.createConnectedAccount({ businessId: 900, name: "Weekly Farm", idempotencyKey: "account:900:1" });
    expect(stripe.requests.at(-1)!.body.settings).toEqual({ payouts: { schedule: { interval: "weekly", weekly_anchor: "monday", delay_days: "2" } } });
    expect(stripe.objects.get(first.id)!.settings.payouts.schedule).toMatchObject({ interval: "weekly", weekly_anchor: "monday" });
    expect((await stripeProvider.createConnectedAccount({ businessId: 900, name: "Weekly Farm", idempotencyKey: "account:900:1" })).id).toBe(first.id);
  });

  it("reads a connected account's balance with the Stripe-Account header: the charge less the application fee", async () => {
    const { accountId, charge } = await stripeBusiness();
    await charge();
    expect(await stripeProvider.retrieveBalance(accountId)).toEqual({ availableCents: AMOUNT - APPLICATION_FEE, pendingCents: 0 });
    expect(stripe.requests.at(-1)).toMatchObject({ method: "GET", path: "/v1/balance", stripeAccount: accountId });
    // The platform's own balance is another (no header): the application fee less Stripe's fee, from this charge.
    const platform = await stripeClient.balance.retrieve();
    expect(platform.available[0].amount).toBeGreaterThanOrEqual(APPLICATION_FEE - STRIPE_FEE);

    stripe.holdFunds(2);
    await charge();
    stripe.holdFunds(0);
    expect(await stripeProvider.retrieveBalance(accountId)).toEqual({ availableCents: AMOUNT - APPLICATION_FEE, pendingCents: AMOUNT - APPLICATION_FEE });
  });

  it("lists the platform's balance transactions by created, sources expanded: a charge named by its payment intent", async () => {
    const from = new Date(Date.now() - 5_000);
    const { charge } = await stripeBusiness();
    const intent = await charge();
    const to = new Date(Date.now() + 5_000);
    const { transactions } = await stripeProvider.listBalanceTransactions({ from, to, limit: 3 });
    expectDestinationCharge(transactions, intent.id);
    const request = stripe.requests.at(-1)!;
    expect(request).toMatchObject({ method: "GET", path: "/v1/balance_transactions", stripeAccount: undefined });
    expect(request.body).toMatchObject({ created: { gte: String(Math.ceil(from.getTime() / 1000)), lt: String(Math.ceil(to.getTime() / 1000)) }, limit: "3", expand: { 0: "data.source" } });
    expect(byType(transactions).charge.availableOn.getTime()).toBeLessThanOrEqual(Date.now());

    // Nothing from before the window.
    expect((await stripeProvider.listBalanceTransactions({ from: new Date(0), to: new Date(1000) })).transactions).toEqual([]);
  });

  it("pages newest first with after and limit", async () => {
    const from = new Date(Date.now() - 60_000);
    const { charge } = await stripeBusiness();
    await charge();
    await charge();
    const all = await expectPagesMatch(stripeProvider, { from, to: new Date(Date.now() + 5_000) }, 4);
    expect(all.length).toBeGreaterThanOrEqual(6);
    expect(stripe.requests.filter((r) => r.path === "/v1/balance_transactions").some((r) => r.body.starting_after === all[3].id)).toBe(true);
  });

  it("a refund that reverses the transfer adds the refund, the reversal and the fee's refund", async () => {
    const { accountId, charge } = await stripeBusiness();
    const intent = await charge();
    const from = new Date(Date.now() - 1_000);
    const refund = await stripeProvider.refund({ paymentIntentId: intent.id, amountCents: 1000, idempotencyKey: `balance-refund-${++keySeq}`, reverseTransfer: true });
    const { transactions } = await stripeProvider.listBalanceTransactions({ from, to: new Date(Date.now() + 5_000), limit: 3 });
    expect(byType(transactions)).toEqual({
      refund: expect.objectContaining({ amountCents: -1000, feeCents: 0, netCents: -1000, source: refund.id }),
      transfer_reversal: expect.objectContaining({ amountCents: 1000, netCents: 1000 }),
      application_fee_refund: expect.objectContaining({ amountCents: -89, netCents: -89 }),
    });
    expect(await stripeProvider.retrieveBalance(accountId)).toEqual({ availableCents: AMOUNT - APPLICATION_FEE - (1000 - 89), pendingCents: 0 });
  });

  it("payouts: refused above what is available, listed with the Stripe-Account header, paid or failed back by Stripe's events", async () => {
    const { accountId, charge } = await stripeBusiness();
    await charge();
    const net = AMOUNT - APPLICATION_FEE;
    await expect(stripeClient.payouts.create({ amount: net + 1, currency: "usd" }, { stripeAccount: accountId })).rejects.toMatchObject({ code: "balance_insufficient" });
    const paid = await stripeClient.payouts.create({ amount: 1000, currency: "usd" }, { stripeAccount: accountId });
    const failed = await stripeClient.payouts.create({ amount: 1000, currency: "usd" }, { stripeAccount: accountId });
    expect(stripe.requests.at(-1)).toMatchObject({ method: "POST", path: "/v1/payouts", stripeAccount: accountId });
    expect(await stripeProvider.retrieveBalance(accountId)).toEqual({ availableCents: net - 2000, pendingCents: 0 });

    const listed = await stripeProvider.listPayouts(accountId, { limit: 1 });
    expect(stripe.requests.at(-1)).toMatchObject({ method: "GET", path: "/v1/payouts", stripeAccount: accountId });
    expect(listed).toEqual({
      payouts: [{ id: failed.id, amountCents: 1000, status: "pending", arrivalDate: new Date((failed.created + 2 * 86_400) * 1000).toISOString().slice(0, 10), failureCode: null, failureMessage: null, createdAt: new Date(failed.created * 1000) }],
      hasMore: true,
    });
    expect((await stripeProvider.listPayouts(accountId, { after: failed.id })).payouts.map((p) => p.id)).toEqual([paid.id]);
    // Another account's payouts are not this one's.
    expect((await stripeProvider.listPayouts((await stripeBusiness()).accountId)).payouts).toEqual([]);

    // Stripe's events, signed as its Connect webhook would receive them.
    const secret = "whsec_connect_test";
    const paidEvent = stripe.payoutEvent(accountId, paid.id, "payout.paid");
    const payload = JSON.stringify(paidEvent);
    const received = Stripe.webhooks.constructEvent(payload, Stripe.webhooks.generateTestHeaderString({ payload, secret }), secret);
    expect(received).toMatchObject({ type: "payout.paid", account: accountId, data: { object: { id: paid.id, object: "payout", status: "paid" } } });
    expect(stripe.payoutEvent(accountId, failed.id, "payout.failed")).toMatchObject({ type: "payout.failed", data: { object: { status: "failed", failure_code: "no_account" } } });
    expect(stripe.payoutEvent(accountId, paid.id, "payout.created").data.object.status).toBe("paid");
    expect((await stripeProvider.listPayouts(accountId)).payouts.map((p) => [p.id, p.status, p.failureCode])).toEqual([
      [failed.id, "failed", "no_account"],
      [paid.id, "paid", null],
    ]);
    expect(await stripeProvider.retrieveBalance(accountId)).toEqual({ availableCents: net - 1000, pendingCents: 0 });
  });
});
