/**
 * The money invariants over a simulated quarter (January to March 2026) on the sandbox provider, the test clock
 * moved through it step by step: three connected businesses in three time zones; members checking out (a declined
 * card then another, 3-D Secure, an add-on, a coupon, at 23:30 on a month's last evening); monthly renewals through
 * the daily renewal pass (a card that declines every charge, retried; a card replaced after a decline); a refund
 * of each reason settlement knows; a bank account whose payout fails (the amount back in the balance, then paid out
 * once the owner fixes it); the sandbox's payouts pass every day. Then, every expected value derived from the data:
 * each charge's fees + net = its amount, and the provider's application fee = the fees; refunds reverse both in
 * proportion; each month's statement = its ledger = the provider's balance transactions for that business; no
 * payout took more than was available when it was made; each balance = the net the provider recorded − payouts
 * not failed; every day of the quarter reconciles with no difference. Both databases.
 */
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chargeForPeriod, type RefundReason } from "../../api/billing/checkout/settlement.ts";
import { reconcileDay } from "../../api/billing/reconcile-run.ts";
import { runRenewals } from "../../api/billing/renewals/clock.ts";
import { runSandboxPayouts } from "../../api/billing/sandbox-payouts.ts";
import { sandboxFor } from "../../api/billing/service.ts";
import { DEFAULT_FEE_RATES, feesFor } from "../../api/payouts/fees.ts";
import { localDate, yearMonthOf } from "../../api/shared/calendar.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";
import { expectMoneyBalanced, PAY } from "../support/payments.ts";
import { accountEntries, availableAtEachPayout, readBalanceTransactions, readPayouts, type AccountEntry } from "../support/provider-books.ts";

const log = pino({ level: "silent" });
const CARDS = { visa: "4242424242424242", mastercard: "5555555555554444", amex: "378282246310005", declined: "4000000000000002", secure: "4000002500003155", failsLater: "4000000000000341" };
const card = (number: string) => ({ number, expMonth: 12, expYear: 2031, cvc: number.startsWith("3") ? "1234" : "123" });
const CONFIRM = `mutation($s: String!, $card: SandboxCardInput!) { confirmSandboxPayment(clientSecret: $s, card: $card) {
  __typename ... on ConfirmSandboxPaymentSuccess { data { status } } ... on Error { message } } }`;
const CHALLENGE = `mutation($s: String!) { completeSandboxChallenge(clientSecret: $s, succeed: true) { __typename } }`;
const CANCEL = `mutation($id: ID!) { cancelSubscription(input: { subscriptionId: $id }) { __typename ... on Error { message } } }`;
const CARD_START = `mutation { startCardUpdate { __typename ... on StartCardUpdateSuccess { data { clientSecret setupIntentId } } ... on Error { message } } }`;
const CARD_CONFIRM = `mutation($s: String!, $card: SandboxCardInput!) { confirmSandboxSetup(clientSecret: $s, card: $card) { __typename } }`;
const CARD_FINISH = `mutation($id: String!) { finishCardUpdate(setupIntentId: $id) { __typename ... on Error { message } } }`;
const STATEMENT = `query($slug: String!, $month: String!) { business(slug: $slug) { statement(month: $month) {
  grossCents refundsCents platformFeeCents processingFeeCents netCents entryCount } } }`;
/** The reasons settlement refunds a payment for (a Record, so a reason added there must be added here). */
const REASONS: Record<RefundReason, true> = { duplicate: true, already_member: true, superseded: true, amount_mismatch: true, sold_out: true, coupon_unavailable: true };
const MONTHS = ["2026-01", "2026-02", "2026-03"];
const QUARTER = { from: new Date("2026-01-01T00:00:00Z"), to: new Date("2026-04-01T00:00:00Z") };
const DAY_MS = 86_400_000;
const days = Array.from({ length: (QUARTER.to.getTime() - QUARTER.from.getTime()) / DAY_MS }, (_, i) => new Date(QUARTER.from.getTime() + i * DAY_MS).toISOString().slice(0, 10));

type Shop = { id: number; slug: string; timeZone: string; plan: { id: number; ref: string } };
type Started = { clientSecret: string; paymentIntentId: string; membership: { databaseId: number } };

let t: TestApp;
let f: Factories;
let seq = 0;
let farm: Shop;
let bakery: Shop;
let dairy: Shop;
let pastry: { ref: string };
let honey: { ref: string };
const members = new Map<string, { id: number; username: string }>();
const memberships = new Map<string, number>();
/** What each day's passes did, summed. */
const passes = { renewed: 0, declined: 0, paid: 0, settled: 0, failed: 0 };

const ctx = () => ({ db: t.db.prisma, clock: t.clock, config: t.config, log });
const monthOf = (at: Date, timeZone: string) => yearMonthOf(localDate(at, timeZone));

async function as(name: string, shop?: Shop) {
  const user = members.get(name) ?? (await f.user({ username: name, email: `${name}@example.com` }));
  members.set(name, user);
  return { token: await f.session(user, shop?.slug ?? null), tenant: shop?.slug ?? null };
}

async function startCheckout(name: string, shop: Shop, o: { plan?: { ref: string }; addonRefs?: string[]; couponCode?: string } = {}): Promise<Started> {
  const selection = { businessSlug: shop.slug, planRef: (o.plan ?? shop.plan).ref, mode: "PICKUP", addonRefs: o.addonRefs ?? [], ...(o.couponCode ? { couponCode: o.couponCode } : {}) };
  const input = { selection, email: `${name}@example.com`, idempotencyKey: `quarter-${++seq}-key` };
  const started = (await t.gqlOk(PAY.START, { input }, await as(name, shop))).startCheckout;
  expect(started.__typename, started.message).toBe("StartCheckoutSuccess");
  return started.data;
}

/** The card form: each card in turn (a declined one leaves the payment open for the next), 3-D Secure passed, then completion. */
async function pay(name: string, shop: Shop, started: Started, cards = [CARDS.visa]) {
  for (const number of cards) {
    const confirmed = (await t.gqlOk(CONFIRM, { s: started.clientSecret, card: card(number) })).confirmSandboxPayment;
    expect(confirmed.__typename, confirmed.message).toBe("ConfirmSandboxPaymentSuccess");
    if (number === CARDS.declined) expect(confirmed.data.status).toBe("requires_payment_method");
    if (confirmed.data.status === "requires_action") await t.gqlOk(CHALLENGE, { s: started.clientSecret });
  }
  return (await t.gqlOk(PAY.COMPLETE, { id: started.paymentIntentId }, await as(name, shop))).completeCheckout;
}

async function join(name: string, shop: Shop, cards?: string[], o?: Parameters<typeof startCheckout>[2]) {
  const started = await startCheckout(name, shop, o);
  const done = await pay(name, shop, started, cards);
  expect(done.__typename, done.message).toBe("CompleteCheckoutSuccess");
  memberships.set(name, started.membership.databaseId);
}

/** The member phones the business: the owner cancels the membership. */
async function cancel(name: string) {
  const token = await f.session(members.get("owner")!);
  expect((await t.gqlOk(CANCEL, { id: String(memberships.get(name)) }, { token })).cancelSubscription.__typename).toBe("CancelSubscriptionSuccess");
}

/** The member saves another card for their renewals (a past-due membership is retried at once). */
async function replaceCard(name: string, number: string) {
  const opts = await as(name);
  const { clientSecret, setupIntentId } = (await t.gqlOk(CARD_START, {}, opts)).startCardUpdate.data;
  await t.gqlOk(CARD_CONFIRM, { s: clientSecret, card: card(number) });
  expect((await t.gqlOk(CARD_FINISH, { id: setupIntentId }, opts)).finishCardUpdate.__typename).toBe("FinishCardUpdateSuccess");
}

/** The owner gives the sandbox another bank account for the business's payouts (its onboarding page). */
async function setBank(shop: Shop, bankAccount: string) {
  const { accountId } = await t.db.prisma.paymentAccount.findUniqueOrThrow({ where: { businessId: shop.id } });
  const back = `http://localhost:3000/admin/business/${shop.id}/payouts`;
  const { url } = await sandboxFor(ctx()).createOnboardingLink({ accountId, refreshUrl: back, returnUrl: back });
  await sandboxFor(ctx()).completeOnboarding(url.split("/").at(-1)!, { bankAccount });
}

/** The quarter's events, each at its instant (UTC): the daily passes run between them. */
const EVENTS: [string, () => Promise<void>][] = [
  ["2026-01-02T16:00:00Z", async () => {
    await join("ann", farm, [CARDS.visa], { addonRefs: [honey.ref] });
    await join("ben", farm, [CARDS.mastercard]);
    await join("cal", farm, [CARDS.secure]);
    await join("bea", bakery, [CARDS.visa]);
    await join("bob", bakery, [CARDS.amex]);
    await join("dan", dairy);
    await join("dee", dairy, [CARDS.visa], { couponCode: "WELCOME10" });
  }],
  ["2026-01-06T18:00:00Z", async () => {
    await join("dot", farm, [CARDS.declined, CARDS.visa]);
    await join("dru", dairy, [CARDS.failsLater]);
  }],
  // Two tabs: two attempts paid, the second refunded (duplicate).
  ["2026-01-07T14:00:00Z", async () => {
    const small = await startCheckout("eve", farm);
    const large = await startCheckout("eve", farm, { addonRefs: [honey.ref] });
    expect((await pay("eve", farm, small)).__typename).toBe("CompleteCheckoutSuccess");
    expect((await pay("eve", farm, large)).__typename).toBe("CompleteCheckoutSuccess");
  }],
  // The dairy's first payout failed yesterday (no_account): the owner fixes the bank details.
  ["2026-01-08T12:00:00Z", () => setBank(dairy, "000123456789")],
  // The bakery's last place: two members paying for it, the second refunded (sold_out).
  ["2026-01-09T19:00:00Z", async () => {
    const [bay, bex] = [await startCheckout("bay", bakery), await startCheckout("bex", bakery)];
    expect((await pay("bay", bakery, bay)).__typename).toBe("CompleteCheckoutSuccess");
    expect(await pay("bex", bakery, bex)).toMatchObject({ __typename: "RuleViolationError", reason: "sold_out" });
  }],
  // The dairy's coupon's last redemption: two members paying with it, the second refunded (coupon_unavailable).
  ["2026-01-12T15:00:00Z", async () => {
    const [jo, jay] = [await startCheckout("jo", dairy, { couponCode: "LAST1" }), await startCheckout("jay", dairy, { couponCode: "LAST1" })];
    expect((await pay("jo", dairy, jo)).__typename).toBe("CompleteCheckoutSuccess");
    expect(await pay("jay", dairy, jay)).toMatchObject({ __typename: "ConflictError", reason: "payment_refunded" });
  }],
  // January 31st, 23:30 in New York: January's, in the farm's books.
  ["2026-02-01T04:30:00Z", () => join("fay", farm)],
  ["2026-02-10T17:00:00Z", () => cancel("ben")],
  ["2026-02-11T17:00:00Z", () => cancel("dot")],
  ["2026-02-20T17:00:00Z", async () => {
    // A payment whose purchase is not what was charged (amount_mismatch) is refunded.
    const started = await startCheckout("gus", bakery, { plan: pastry });
    const payment = await t.db.prisma.payment.findUniqueOrThrow({ where: { providerPaymentId: started.paymentIntentId } });
    const purchase = payment.purchase as { totalCents: number };
    await t.db.prisma.payment.update({ where: { id: payment.id }, data: { purchase: { ...purchase, totalCents: purchase.totalCents + 100 } } });
    expect(await pay("gus", bakery, started)).toMatchObject({ __typename: "ConflictError", reason: "payment_refunded" });
    // Ann's new card can be saved, but declines every charge: March's renewal fails.
    await replaceCard("ann", CARDS.failsLater);
  }],
  // February 28th, 23:30 in Los Angeles: February's, in the bakery's books.
  ["2026-03-01T07:30:00Z", () => join("hal", bakery, [CARDS.visa], { plan: pastry })],
  ["2026-03-02T16:00:00Z", () => replaceCard("ann", CARDS.mastercard)],
  // A restart wins over an unpaid checkout; paying that checkout afterwards is refunded (superseded).
  ["2026-03-03T16:00:00Z", async () => {
    const started = await startCheckout("ben", farm);
    const restart = (await t.gqlOk(PAY.RESTART, { id: String(memberships.get("ben")) }, await as("ben", farm))).restartSubscription;
    expect(restart).toMatchObject({ __typename: "RestartSubscriptionSuccess", data: { outcome: "PAID" } });
    expect(await pay("ben", farm, started)).toMatchObject({ __typename: "ConflictError", reason: "payment_refunded" });
  }],
  // A restart charged after a checkout at the same business was paid (the race): refunded (already_member).
  ["2026-03-04T16:00:00Z", async () => {
    const canceled = memberships.get("dot")!;
    await join("dot", farm);
    const charge = await chargeForPeriod(ctx(), { subscriptionId: canceled, period: "2026-03", kind: "RESTART", idempotencyKey: `restart-race-${canceled}` });
    expect(charge).toMatchObject({ outcome: "refunded", reason: "already_member" });
  }],
  ["2026-03-31T20:00:00Z", () => join("ivy", farm, [CARDS.amex])],
];

/** The day's renewal pass and the sandbox's payouts pass, as the billing clock and the payouts job run them. */
async function dailyPasses() {
  const renewed = await runRenewals(ctx());
  expect(renewed.errors).toBe(0);
  passes.renewed += renewed.charged;
  passes.declined += renewed.failed;
  const payouts = await runSandboxPayouts(ctx());
  for (const k of ["paid", "settled", "failed"] as const) passes[k] += payouts[k];
}

beforeAll(async () => {
  t = await createTestApp({ now: "2026-01-01T12:00:00Z" });
  f = factories(t);
  const shop = async (slug: string, timeZone: string, billingDay: number, price: number, capacity?: number): Promise<Shop> => {
    const business = await f.business({ slug, name: slug, timeZone, page: { billingDay, pickupEnabled: true } });
    const plan = await f.plan(business, { prices: { PICKUP: price } });
    if (capacity !== undefined) await t.db.prisma.plan.update({ where: { id: plan.id }, data: { capacity } });
    return { id: business.id, slug, timeZone, plan };
  };
  farm = await shop("farm", "America/New_York", 1, 2900);
  bakery = await shop("bakery", "America/Los_Angeles", 15, 1899, 3);
  dairy = await shop("dairy", "Europe/London", 28, 4550);
  pastry = await f.plan(bakery, { prices: { PICKUP: 2450 } });
  honey = await f.addon(farm, { amountCents: 650 });
  await f.coupon({ code: "WELCOME10", value: 10 });
  await t.db.prisma.coupon.create({ data: { businessId: dairy.id, code: "LAST1", type: "PERCENT", value: 20, maxRedemptions: 1, duration: "REPEATING", durationMonths: 2 } });
  members.set("owner", await f.user({ username: "owner" }));
  await f.attach(farm, members.get("owner")!, "OWNER");
  // The dairy's payouts go to Stripe's test bank number that fails them (no_account), until the owner fixes it.
  await setBank(dairy, "000111111116");

  const steps = [
    ...EVENTS.map(([at, run]) => ({ at: new Date(at), run })),
    ...days.map((day) => ({ at: new Date(`${day}T15:00:00Z`), run: dailyPasses })),
  ].sort((a, b) => a.at.getTime() - b.at.getTime());
  for (const step of steps) {
    t.clock.set(step.at);
    await step.run();
  }
}, 300_000);
afterAll(() => t?.close());

describe("a quarter of checkouts, renewals, declines, refunds and payouts", () => {
  let entries: AccountEntry[];
  let businessOf: Map<string, number>;
  let adminToken: string;

  beforeAll(async () => {
    const read = await readBalanceTransactions(sandboxFor(ctx()), new Date("2025-12-31T00:00:00Z"), new Date("2026-04-02T00:00:00Z"), 40);
    expect(read.pages).toBeGreaterThan(2);
    expect(new Set(read.transactions.map((x) => x.id)).size).toBe(read.transactions.length);
    entries = await accountEntries(sandboxFor(ctx()), read.transactions);
    businessOf = new Map((await t.db.prisma.paymentAccount.findMany()).map((a) => [a.accountId, a.businessId]));
    adminToken = await f.session(await f.user({ isAdmin: true }));
  });

  it("happened as planned: renewals and declines through the daily passes, weekly payouts, each settled once", async () => {
    expect(passes.renewed).toBeGreaterThan(10);
    expect(passes.declined).toBeGreaterThan(3);
    // Ann's March renewal declined, and was paid once she saved another card.
    expect(await t.db.prisma.subscription.findUniqueOrThrow({ where: { id: memberships.get("ann") } })).toMatchObject({ status: "ACTIVE", paidThroughPeriod: "2026-03" });
    // Dru's card declines every charge: February's (billing day 28) was retried into March, then canceled.
    expect(await t.db.prisma.subscription.findUniqueOrThrow({ where: { id: memberships.get("dru") } })).toMatchObject({ status: "CANCELED", paidThroughPeriod: "2026-01" });
    const count = (status?: "PAID" | "FAILED") => t.db.prisma.payout.count({ where: status ? { status } : {} });
    expect({ made: passes.paid, paid: passes.settled, failed: passes.failed }).toEqual({ made: await count(), paid: await count("PAID"), failed: await count("FAILED") });
  });

  it("each charge: platform fee + processing fee + net = gross, and the provider's application fee = both fees", async () => {
    const payments = await t.db.prisma.payment.findMany({ include: { ledgerEntries: true }, orderBy: { id: "asc" } });
    expect(payments.filter((p) => p.status === "SUCCEEDED").length).toBeGreaterThan(30);
    expect(payments.filter((p) => p.status === "FAILED").length).toBeGreaterThan(0);
    for (const p of payments) {
      if (p.status !== "SUCCEEDED") expect(p.ledgerEntries, `${p.providerPaymentId} did not succeed`).toEqual([]);
      if (p.status !== "SUCCEEDED") continue;
      const [row, ...more] = p.ledgerEntries.filter((e) => e.kind === "CHARGE");
      expect(more, p.providerPaymentId).toEqual([]);
      const intent = await sandboxFor(ctx()).retrievePaymentIntent(p.providerPaymentId);
      const fees = feesFor(p.amountCents, DEFAULT_FEE_RATES);
      expect(row).toMatchObject({ grossCents: intent.amountCents, platformFeeCents: fees.platformFeeCents, processingFeeCents: fees.processingFeeCents, netCents: fees.netCents });
      expect(row.platformFeeCents + row.processingFeeCents + row.netCents).toBe(row.grossCents);
      expect(intent.route?.applicationFeeCents).toBe(row.platformFeeCents + row.processingFeeCents);
      expect(intent.metadata).toMatchObject({ platform_fee_cents: String(row.platformFeeCents), processing_fee_cents: String(row.processingFeeCents) });
      expect(p).toMatchObject({ amountCents: row.grossCents, applicationFeeCents: row.platformFeeCents + row.processingFeeCents, destination: intent.route?.destination });
      expect(businessOf.get(p.destination!)).toBe(p.businessId);
    }
  });

  it("each refund reverses both fees in proportion and a fully refunded charge nets to zero; one refund of each reason", async () => {
    const refunded = await t.db.prisma.payment.findMany({ where: { refundedCents: { gt: 0 } }, include: { ledgerEntries: { orderBy: [{ occurredAt: "asc" }, { id: "asc" }] } } });
    expect(new Set(refunded.map((p) => p.refundReason))).toEqual(new Set(Object.keys(REASONS)));
    const halfUp = (fee: number, part: number, whole: number) => Math.floor((fee * part * 2 + whole) / (2 * whole));
    for (const p of refunded) {
      const [charge, ...refunds] = p.ledgerEntries;
      expect(charge.kind).toBe("CHARGE");
      expect(refunds.length).toBeGreaterThan(0);
      let refundedSoFar = 0;
      const back = { platform: 0, processing: 0 };
      for (const r of refunds) {
        expect(r).toMatchObject({ kind: "REFUND", period: charge.period, businessId: charge.businessId });
        refundedSoFar -= r.grossCents;
        back.platform -= r.platformFeeCents;
        back.processing -= r.processingFeeCents;
        expect(back.platform).toBe(halfUp(charge.platformFeeCents, refundedSoFar, charge.grossCents));
        expect(back.processing).toBe(halfUp(charge.processingFeeCents, refundedSoFar, charge.grossCents));
        expect(r.platformFeeCents + r.processingFeeCents + r.netCents).toBe(r.grossCents);
      }
      expect(refundedSoFar).toBe(p.refundedCents);
      if (p.refundedCents === p.amountCents) {
        for (const k of ["grossCents", "platformFeeCents", "processingFeeCents", "netCents"] as const) expect(p.ledgerEntries.reduce((s, e) => s + e[k], 0), k).toBe(0);
      }
    }
  });

  it("each ledger row is the provider's: the same amount transferred, the same fee, the same month", async () => {
    const rows = await t.db.prisma.ledgerEntry.findMany({ include: { business: { select: { timeZone: true } } } });
    const provider = new Map(entries.map((e) => [e.providerId, e]));
    expect(new Set(provider.keys())).toEqual(new Set(rows.map((r) => r.providerId)));
    for (const row of rows) {
      const theirs = provider.get(row.providerId)!;
      expect(businessOf.get(theirs.account), row.providerId).toBe(row.businessId);
      expect({ kind: theirs.kind, gross: theirs.grossCents, fee: theirs.feeCents, net: theirs.netCents, month: monthOf(theirs.at, row.business.timeZone) }, row.providerId).toEqual({
        kind: row.kind, gross: row.grossCents, fee: row.platformFeeCents + row.processingFeeCents, net: row.netCents, month: monthOf(row.occurredAt, row.business.timeZone),
      });
    }
  });

  it("each month of each business: the statement = its ledger rows = the provider's transactions; the CSV's totals too", async () => {
    const rows = await t.db.prisma.ledgerEntry.findMany();
    for (const shop of [farm, bakery, dairy]) {
      for (const month of MONTHS) {
        const ours = rows.filter((r) => r.businessId === shop.id && monthOf(r.occurredAt, shop.timeZone) === month);
        const theirs = entries.filter((e) => businessOf.get(e.account) === shop.id && monthOf(e.at, shop.timeZone) === month);
        const sum = <T>(list: T[], pick: (x: T) => number) => list.reduce((s, x) => s + pick(x), 0);
        const statement = (await t.gqlOk(STATEMENT, { slug: shop.slug, month }, { token: adminToken })).business.statement;
        const label = `${shop.slug} ${month}`;
        expect(statement.entryCount, label).toBeGreaterThan(0);
        expect(statement, label).toEqual({
          grossCents: sum(ours.filter((r) => r.kind === "CHARGE"), (r) => r.grossCents),
          refundsCents: sum(ours.filter((r) => r.kind === "REFUND"), (r) => r.grossCents),
          platformFeeCents: sum(ours, (r) => r.platformFeeCents),
          processingFeeCents: sum(ours, (r) => r.processingFeeCents),
          netCents: sum(ours, (r) => r.netCents),
          entryCount: ours.length,
        });
        expect({
          gross: statement.grossCents, refunds: statement.refundsCents, fees: statement.platformFeeCents + statement.processingFeeCents, net: statement.netCents, count: statement.entryCount,
        }, label).toEqual({
          gross: sum(theirs.filter((e) => e.kind === "CHARGE"), (e) => e.grossCents),
          refunds: sum(theirs.filter((e) => e.kind === "REFUND"), (e) => e.grossCents),
          fees: sum(theirs, (e) => e.feeCents),
          net: sum(theirs, (e) => e.netCents),
          count: theirs.length,
        });
        const csv = await t.app.inject({ method: "GET", url: `/api/admin/businesses/${shop.id}/statements/${month}.csv`, headers: { authorization: `Bearer ${adminToken}` } });
        const lines = csv.body.split("\r\n").slice(0, -1);
        const dollars = (c: number) => (c / 100).toFixed(2);
        expect(lines).toHaveLength(statement.entryCount + 2);
        const totals = [statement.grossCents + statement.refundsCents, statement.platformFeeCents, statement.processingFeeCents, statement.netCents];
        expect(lines.at(-1), label).toBe(["Total", "", "", "", "", "", ...totals.map(dollars)].join(","));
      }
    }
  });

  it("no payout took more than was available when it was made; the failed one's amount came back and was paid out", async () => {
    const failedAt = new Map((await t.db.prisma.sandboxObject.findMany({ where: { kind: "payout" } })).map((o) => [o.id, (o.data as { failedAt?: string }).failedAt]));
    for (const shop of [farm, bakery, dairy]) {
      const { accountId } = await t.db.prisma.paymentAccount.findUniqueOrThrow({ where: { businessId: shop.id } });
      const payouts = (await readPayouts(sandboxFor(ctx()), accountId, 5)).map((p) => ({ ...p, failedAt: failedAt.get(p.id) ? new Date(failedAt.get(p.id)!) : null }));
      expect(payouts.length, shop.slug).toBeGreaterThan(2);
      for (const { payout, availableCents } of availableAtEachPayout(entries.filter((e) => e.account === accountId), payouts)) {
        const label = `${shop.slug} ${payout.createdAt.toISOString()}`;
        expect(payout.amountCents, label).toBeLessThanOrEqual(availableCents);
        // The sandbox's Monday payout is the whole balance available then, above zero.
        expect(payout.amountCents, label).toBe(availableCents);
        expect(payout.amountCents, label).toBeGreaterThan(0);
      }
      const mirrored = await t.db.prisma.payout.findMany({ where: { businessId: shop.id } });
      expect(new Map(mirrored.map((m) => [m.providerPayoutId, [m.amountCents, m.status]]))).toEqual(new Map(payouts.map((p) => [p.id, [p.amountCents, p.status.toUpperCase()]])));
    }
    const failed = await t.db.prisma.payout.findMany({ where: { status: "FAILED" } });
    expect(failed.map((p) => [p.businessId, p.failureCode])).toEqual([[dairy.id, "no_account"]]);
    const after = await t.db.prisma.payout.findFirstOrThrow({ where: { businessId: dairy.id, createdAt: { gt: failed[0].createdAt } }, orderBy: { createdAt: "asc" } });
    expect(after.status).toBe("PAID");
    expect(after.amountCents).toBeGreaterThanOrEqual(failed[0].amountCents);
  });

  it("at the end each balance = the net the provider recorded − payouts not failed = the books' net − those payouts", async () => {
    const now = t.clock.now().getTime();
    for (const shop of [farm, bakery, dairy]) {
      const { accountId } = await t.db.prisma.paymentAccount.findUniqueOrThrow({ where: { businessId: shop.id } });
      const mine = entries.filter((e) => e.account === accountId);
      const paidOut = (await readPayouts(sandboxFor(ctx()), accountId, 100)).filter((p) => p.status !== "failed" && p.status !== "canceled").reduce((s, p) => s + p.amountCents, 0);
      const balance = await sandboxFor(ctx()).retrieveBalance(accountId);
      const net = (list: AccountEntry[]) => list.reduce((s, e) => s + e.netCents, 0);
      const books = (await t.db.prisma.ledgerEntry.aggregate({ where: { businessId: shop.id }, _sum: { netCents: true } }))._sum.netCents ?? 0;
      expect(balance.availableCents + balance.pendingCents, shop.slug).toBe(net(mine) - paidOut);
      expect(balance.availableCents + balance.pendingCents, shop.slug).toBe(books - paidOut);
      expect(balance.availableCents, shop.slug).toBe(net(mine.filter((e) => e.availableOn.getTime() <= now)) - paidOut);
    }
  });

  it("reconciliation of every day of the quarter finds no difference", async () => {
    let checked = 0;
    for (const day of days) {
      const report = await reconcileDay(ctx(), day);
      expect(report.differences, day).toEqual([]);
      expect(report.matched, day).toBe(report.checked);
      checked += report.checked;
    }
    const ledgerRows = await t.db.prisma.ledgerEntry.count({ where: { kind: "REFUND" } });
    const succeeded = await t.db.prisma.payment.count({ where: { status: "SUCCEEDED" } });
    expect(checked).toBe(succeeded + ledgerRows);
  });

  it("every member's money balances: each charge kept is one order's payment, each other one refunded in full", async () => {
    const pairs = await t.db.prisma.payment.findMany({ where: { status: "SUCCEEDED" }, distinct: ["userId", "businessId"], select: { userId: true, businessId: true } });
    for (const { userId, businessId } of pairs) await expectMoneyBalanced(t.db.prisma, userId, businessId!);
  });
});
