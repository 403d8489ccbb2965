/**
 * The payouts data the database itself keeps true, on both databases: a ledger row always balances (gross =
 * platform fee + processing fee + net) and is written once; one fee schedule per owner and month, the platform's
 * default included; and the backfill that names each existing payment's business and keeps existing businesses
 * collecting on the platform until they connect; and the payments written since, which name their business.
 */
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";
import { PAY, seedSavedCard } from "../support/payments.ts";
import { runRenewals } from "../../api/billing/renewals/clock.ts";

let t: TestApp;
let f: Factories;
let farm: { id: number };
let payment: { id: number };
let userId = 0;
let seq = 0;

beforeAll(async () => {
  t = await createTestApp({ now: "2026-03-05T15:00:00Z" });
  f = factories(t);
  farm = await f.business({ slug: "ledger-farm" });
  const user = await f.user({ username: "ledger-member" });
  userId = user.id;
  payment = await t.db.prisma.payment.create({
    data: { userId, businessId: farm.id, provider: "sandbox", providerPaymentId: "pi_ledger_1", amountCents: 2900, status: "SUCCEEDED", destination: "acct_sbx_1", applicationFeeCents: 259 },
  });
});
afterAll(() => t?.close());

const entry = (o: Partial<{ grossCents: number; platformFeeCents: number; processingFeeCents: number; netCents: number; kind: "CHARGE" | "REFUND"; paymentId: number | null }> = {}) =>
  t.db.prisma.ledgerEntry.create({
    data: {
      businessId: farm.id,
      paymentId: o.paymentId === undefined ? payment.id : o.paymentId,
      kind: o.kind ?? "CHARGE",
      providerId: `ch_ledger_${++seq}`,
      period: "2026-03",
      occurredAt: t.clock.now(),
      grossCents: o.grossCents ?? 2900,
      platformFeeCents: o.platformFeeCents ?? 145,
      processingFeeCents: o.processingFeeCents ?? 114,
      netCents: o.netCents ?? 2641,
    },
  });

describe("ledger entries", () => {
  it("balance: a row whose fees and net do not add up to its gross is refused, a refund's negative row is not", async () => {
    await expect(entry({ netCents: 2640 })).rejects.toThrow(/ledger_entries_balanced/);
    const refund = await entry({ kind: "REFUND", grossCents: -2900, platformFeeCents: -145, processingFeeCents: -114, netCents: -2641 });
    const all = await t.db.prisma.ledgerEntry.findMany({ where: { businessId: farm.id } });
    expect(all.map((e) => e.id)).toEqual([refund.id]);
  });

  it("are written once: an update is refused, and a second row for the same provider id too", async () => {
    const charge = await entry();
    await expect(t.db.prisma.ledgerEntry.update({ where: { id: charge.id }, data: { netCents: 0, platformFeeCents: 2759, processingFeeCents: 141 } })).rejects.toThrow(/immutable/);
    await expect(t.db.prisma.$executeRawUnsafe(`UPDATE ledger_entries SET period = '2026-04' WHERE id = ${charge.id}`)).rejects.toThrow(/immutable/);
    await expect(t.db.prisma.ledgerEntry.create({ data: { ...charge, id: undefined } })).rejects.toThrow(/provider_id|Unique constraint/);
    expect(await t.db.prisma.ledgerEntry.findUniqueOrThrow({ where: { id: charge.id } })).toEqual(charge);
  });

  it("outlive the payment they record: deleting the member's payments keeps the books, without the link", async () => {
    const other = await f.user({ username: "ledger-leaver" });
    const paid = await t.db.prisma.payment.create({ data: { userId: other.id, businessId: farm.id, provider: "sandbox", providerPaymentId: "pi_ledger_2", amountCents: 2900, status: "SUCCEEDED" } });
    const kept = await entry({ paymentId: paid.id });
    await t.db.prisma.user.delete({ where: { id: other.id } });
    expect(await t.db.prisma.ledgerEntry.findUniqueOrThrow({ where: { id: kept.id } })).toEqual({ ...kept, paymentId: null });
  });
});

describe("fee schedules", () => {
  const schedule = (businessId: number | null, effectivePeriod: string) =>
    t.db.prisma.feeSchedule.create({ data: { businessId, effectivePeriod, platformBps: 500, platformCents: 0, processingBps: 290, processingCents: 30 } });

  it("one per owner and month, the platform's default (no business) included", async () => {
    await schedule(null, "2026-05");
    await schedule(farm.id, "2026-05");
    await schedule(null, "2026-06");
    await expect(schedule(null, "2026-05")).rejects.toThrow(/fee_schedules_owner_period_key|Unique constraint/);
    await expect(schedule(farm.id, "2026-05")).rejects.toThrow(/fee_schedules_owner_period_key|Unique constraint/);
    expect(await t.db.prisma.feeSchedule.count()).toBe(3);
  });
});

describe("the backfill of existing payments and businesses", () => {
  it("names each payment's business (its membership's, else its purchase's plan's) and keeps existing businesses on the platform", async () => {
    const bakery = await f.business({ slug: "ledger-bakery" });
    const plan = await f.plan(bakery);
    const member = await f.user({ username: "ledger-old" });
    const sub = await f.subscription({ user: member, business: bakery, plan });
    const viaMembership = await t.db.prisma.payment.create({ data: { userId: member.id, subscriptionId: sub.id, provider: "sandbox", providerPaymentId: "pi_old_1", amountCents: 1000, status: "SUCCEEDED" } });
    const superseded = await t.db.prisma.payment.create({
      data: { userId: member.id, provider: "sandbox", providerPaymentId: "pi_old_2", amountCents: 1000, status: "SUCCEEDED", purchase: { planId: plan.id } },
    });
    const unknown = await t.db.prisma.payment.create({ data: { userId: member.id, provider: "sandbox", providerPaymentId: "pi_old_3", amountCents: 1000, status: "FAILED" } });
    expect((await t.db.prisma.business.findUniqueOrThrow({ where: { id: bakery.id } })).collectsOnPlatform).toBe(false);

    const sql = await readFile(new URL("../../prisma/migrations/20261127164343_payouts_backfill/migration.sql", import.meta.url), "utf8");
    for (const statement of sql.replace(/^--.*$/gm, "").split(";").map((s) => s.trim()).filter(Boolean)) await t.db.prisma.$executeRawUnsafe(statement);

    const businessOf = async (id: number) => (await t.db.prisma.payment.findUniqueOrThrow({ where: { id } })).businessId;
    expect(await businessOf(viaMembership.id)).toBe(bakery.id);
    expect(await businessOf(superseded.id)).toBe(bakery.id);
    expect(await businessOf(unknown.id)).toBeNull();
    // A payment that already names its business keeps it.
    expect(await businessOf(payment.id)).toBe(farm.id);
    expect((await t.db.prisma.business.findUniqueOrThrow({ where: { id: bakery.id } })).collectsOnPlatform).toBe(true);
  });
});

describe("new payments", () => {
  it("name their business: a checkout's, and a renewal's", async () => {
    const shop = await f.business({ slug: "ledger-shop", page: { billingDay: 3, pickupEnabled: true } });
    const plan = await f.plan(shop, { prices: { PICKUP: 2000 } });

    const buyer = await f.user({ username: "ledger-buyer", email: "buyer@example.com" });
    const opts = { token: await f.session(buyer, "ledger-shop"), tenant: "ledger-shop" };
    const selection = { businessSlug: "ledger-shop", planRef: plan.ref, mode: "PICKUP", addonRefs: [] };
    const started = (await t.gqlOk(PAY.START, { input: { selection, email: "buyer@example.com", idempotencyKey: "ledger-shop-checkout" } }, opts)).startCheckout;
    expect(started.__typename).toBe("StartCheckoutSuccess");
    await t.gqlOk(PAY.CONFIRM, { s: started.data.clientSecret }, opts);
    expect((await t.gqlOk(PAY.COMPLETE, { id: started.data.paymentIntentId }, opts)).completeCheckout.__typename).toBe("CompleteCheckoutSuccess");
    const checkoutPayment = await t.db.prisma.payment.findUniqueOrThrow({ where: { providerPaymentId: started.data.paymentIntentId } });
    expect(checkoutPayment).toMatchObject({ businessId: shop.id, status: "SUCCEEDED" });

    // A member billed on the 3rd, paid through February: March is due on March 5th.
    const member = await f.user({ username: "ledger-renewer" });
    const pm = await seedSavedCard(t.db.prisma, member);
    const sub = await f.subscription({ user: member, business: shop, plan, planAmountCents: 2000, totalCents: 2000, paidThroughPeriod: "2026-02" });
    await t.db.prisma.subscription.update({ where: { id: sub.id }, data: { billingDay: 3, providerPaymentMethodId: pm } });
    const report = await runRenewals({ db: t.db.prisma, clock: t.clock, config: t.config, log: t.app.log }, { businessId: shop.id });
    expect(report.charged).toBe(1);
    expect(await t.db.prisma.payment.findMany({ where: { subscriptionId: sub.id }, select: { businessId: true, amountCents: true } })).toEqual([{ businessId: shop.id, amountCents: 2000 }]);
  });
});
