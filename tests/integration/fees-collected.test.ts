/**
 * Fees collected (api/payouts/fees-collected.ts): per business for a month of its time zone, the fees of its CHARGE
 * rows, the fees given back with its REFUND rows, what the provider kept on those charges (the sandbox's 2.9 % +
 * 30¢), and the platform's net, to the cent against the ledger; the totals; the CSV (GET /api/admin/fees/{month}.csv)
 * for administrators only.
 */
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";
import { PAY } from "../support/payments.ts";
import { refundUnmatched } from "../../api/billing/checkout/settlement.ts";
import { providerFor } from "../../api/billing/service.ts";

const log = pino({ level: "silent" });
let t: TestApp;
let f: Factories;
let seq = 0;
const tokens: Record<string, string> = {};
let farm: { id: number; slug: string };
let bakery: { id: number; slug: string };
const billing = () => ({ db: t.db.prisma, clock: t.clock, config: t.config, log });

const FEES = `query($month: String!) { feesCollected(month: $month) {
  month
  businesses { businessName timeZone chargeCount platformFeeCents processingFeeCents feesRefundedCents providerFeeCents netCents }
  totals { chargeCount platformFeeCents processingFeeCents feesRefundedCents providerFeeCents netCents }
} }`;

/** The sandbox's simulated Stripe fee: 2.9 % + 30¢, half up. */
const stripeFee = (cents: number) => Math.floor((cents * 29 + 500) / 1000) + 30;

async function checkout(business: { slug: string }, plan: { ref: string }) {
  const buyer = await f.user();
  const opts = { token: await f.session(buyer, business.slug), tenant: business.slug };
  const selection = { businessSlug: business.slug, planRef: plan.ref, mode: "PICKUP", addonRefs: [] };
  const started = (await t.gqlOk(PAY.START, { input: { selection, email: `${buyer.username}@example.com`, idempotencyKey: `fees-collected-${++seq}` } }, opts)).startCheckout;
  expect(started.__typename, started.message).toBe("StartCheckoutSuccess");
  await t.gqlOk(PAY.CONFIRM, { s: started.data.clientSecret }, opts);
  expect((await t.gqlOk(PAY.COMPLETE, { id: started.data.paymentIntentId }, opts)).completeCheckout.__typename).toBe("CompleteCheckoutSuccess");
  return started.data.paymentIntentId as string;
}

beforeAll(async () => {
  t = await createTestApp({ now: "2026-04-10T15:00:00Z" });
  f = factories(t);
  farm = await f.business({ slug: "farm", name: "Farm", page: { pickupEnabled: true } });
  bakery = await f.business({ slug: "bakery", name: "Bakery", timeZone: "America/Los_Angeles", page: { pickupEnabled: true } });
  const admin = await f.user({ isAdmin: true });
  const owner = await f.user();
  await f.attach(farm, owner, "OWNER");
  tokens.admin = await f.session(admin);
  tokens.owner = await f.session(owner);
});
afterAll(() => t?.close());

describe("fees collected", () => {
  it("sums each business's ledger rows of its month to the cent, refunds as positive fees given back, the provider's fees, the net and the totals; the CSV", async () => {
    const farmPlan = await f.plan(farm, { prices: { PICKUP: 2900 } });
    const bakeryPlan = await f.plan(bakery, { prices: { PICKUP: 4150 } });
    await checkout(farm, farmPlan);
    const refunded = await checkout(farm, farmPlan);
    await checkout(bakery, bakeryPlan);
    const payment = await t.db.prisma.payment.findUniqueOrThrow({ where: { providerPaymentId: refunded } });
    await refundUnmatched(billing(), payment, await providerFor(billing()).retrievePaymentIntent(refunded), "duplicate");
    // A charge of May 1st, 02:00 UTC: still April in Los Angeles, May nowhere else.
    t.clock.set("2026-05-01T02:00:00Z");
    await checkout(bakery, bakeryPlan);
    t.clock.set("2026-04-10T15:00:00Z");

    const fees = (await t.gqlOk(FEES, { month: "2026-04" }, { token: tokens.admin })).feesCollected;
    expect(fees.month).toBe("2026-04");
    const ledger = await t.db.prisma.ledgerEntry.findMany();
    const expected = (businessId: number) => {
      const rows = ledger.filter((r) => r.businessId === businessId);
      const charges = rows.filter((r) => r.kind === "CHARGE");
      const refunds = rows.filter((r) => r.kind === "REFUND");
      const platform = charges.reduce((s, r) => s + r.platformFeeCents, 0);
      const processing = charges.reduce((s, r) => s + r.processingFeeCents, 0);
      const given = 0 - refunds.reduce((s, r) => s + r.platformFeeCents + r.processingFeeCents, 0);
      const provider = charges.reduce((s, r) => s + stripeFee(r.grossCents), 0);
      return { chargeCount: charges.length, platformFeeCents: platform, processingFeeCents: processing, feesRefundedCents: given, providerFeeCents: provider, netCents: platform + processing - given - provider };
    };
    const farmRow = expected(farm.id);
    const bakeryRow = expected(bakery.id);
    expect(farmRow.chargeCount).toBe(2);
    expect(farmRow.feesRefundedCents).toBeGreaterThan(0);
    expect(bakeryRow.chargeCount).toBe(2);
    expect(fees.businesses).toEqual([
      { businessName: "Bakery", timeZone: "America/Los_Angeles", ...bakeryRow },
      { businessName: "Farm", timeZone: "America/New_York", ...farmRow },
    ]);
    const keys = Object.keys(farmRow) as (keyof typeof farmRow)[];
    expect(fees.totals).toEqual(Object.fromEntries(keys.map((k) => [k, farmRow[k] + bakeryRow[k]])));
    // May: nothing of Farm's; Bakery's late charge is April's there.
    expect((await t.gqlOk(FEES, { month: "2026-05" }, { token: tokens.admin })).feesCollected.businesses).toEqual([]);

    const csv = await t.app.inject({ method: "GET", url: "/api/admin/fees/2026-04.csv", headers: { authorization: `Bearer ${tokens.admin}` } });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-disposition"]).toBe('attachment; filename="fees-collected-2026-04.csv"');
    const lines = csv.body.split("\r\n").slice(0, -1);
    const dollars = (c: number) => (c / 100).toFixed(2);
    const amounts = (r: typeof farmRow) => [r.platformFeeCents, r.processingFeeCents, r.feesRefundedCents, r.providerFeeCents, r.netCents].map(dollars).join(",");
    expect(lines).toEqual([
      "business,slug,time_zone,charges,platform_fees,processing_fees,fees_refunded,provider_fees,net",
      `Bakery,bakery,America/Los_Angeles,2,${amounts(bakeryRow)}`,
      `Farm,farm,America/New_York,2,${amounts(farmRow)}`,
      `Total,,,4,${amounts(fees.totals)}`,
    ]);
  });

  it("administrators only; a month that is not YYYY-MM is refused", async () => {
    const refused = await t.gql(FEES, { month: "2026-04" }, { token: tokens.owner });
    expect(refused.errors?.[0]?.message).toBe("You do not have permission to do this.");
    expect((await t.app.inject({ method: "GET", url: "/api/admin/fees/2026-04.csv", headers: { authorization: `Bearer ${tokens.owner}` } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: "GET", url: "/api/admin/fees/2026-00.csv", headers: { authorization: `Bearer ${tokens.admin}` } })).statusCode).toBe(400);
    const bad = await t.gql(FEES, { month: "April" }, { token: tokens.admin });
    expect(bad.errors?.[0]?.message).toBe("Month must be YYYY-MM.");
  });
});
