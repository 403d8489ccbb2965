/**
 * Coupons under concurrency: checkouts racing for a coupon's last redemptions never pass its limit (each payment
 * that finds it used up is refunded, coupon_unavailable), payments settled after the expiry day are refunded, and
 * an owner and an administrator creating one code at the same moment cannot both succeed. The checkouts run in
 * parallel (Promise.all) through the whole server: on PostgreSQL (TEST_DATABASE_URL) they race on separate
 * connections, which is what the conditional UPDATE and the code's advisory lock decide; on the embedded database
 * they run one statement at a time and the same answers must come out.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";
import { expectMoneyBalanced, PAY } from "../support/payments.ts";

let t: TestApp;
let f: Factories;
let seq = 0;
let shop: { id: number; slug: string };
let ownerToken = "";
let adminToken = "";
const N = 8;

type Started = { token: string; userId: number; clientSecret: string; paymentIntentId: string };

async function start(couponCode: string): Promise<Started> {
  const user = await f.user({ username: `racer${++seq}`, email: `racer${seq}@example.com` });
  const token = await f.session(user, shop.slug);
  const selection = { businessSlug: shop.slug, planRef: "item_race", mode: "PICKUP", couponCode };
  const started = (await t.gqlOk(PAY.START, { input: { selection, email: `racer${seq}@example.com`, idempotencyKey: `coupon-race-${seq}` } }, { token, tenant: shop.slug })).startCheckout;
  expect(started.__typename, started.message).toBe("StartCheckoutSuccess");
  await t.gqlOk(PAY.CONFIRM, { s: started.data.clientSecret }, { token, tenant: shop.slug });
  return { token, userId: user.id, clientSecret: started.data.clientSecret, paymentIntentId: started.data.paymentIntentId };
}

const complete = (s: Started) => t.gqlOk(PAY.COMPLETE, { id: s.paymentIntentId }, { token: s.token, tenant: shop.slug }).then((d) => d.completeCheckout);

beforeAll(async () => {
  t = await createTestApp({ now: "2026-03-05T15:00:00Z" });
  f = factories(t);
  shop = await f.business({ slug: "race-shop", timeZone: "America/Chicago", page: { pickupEnabled: true, billingDay: 10 } });
  await t.db.prisma.plan.create({ data: { businessId: shop.id, ref: "item_race", name: "Race Box", variations: { create: [{ mode: "PICKUP", amountCents: 4000 }] } } });
  const owner = await f.user({ username: "race-owner" });
  await f.attach(shop, owner, "OWNER");
  ownerToken = await f.session(owner);
  adminToken = await f.session(await f.user({ username: "race-admin", isAdmin: true }));
});
afterAll(() => t?.close());

describe("a coupon's redemption limit under concurrent checkouts", () => {
  it(`${N} members pay at once for its last 3 redemptions: 3 activate discounted, the others are refused or refunded`, async () => {
    await t.db.prisma.coupon.create({ data: { businessId: shop.id, code: "LAST3", type: "PERCENT", value: 25, maxRedemptions: 3 } });
    // Every checkout opens while redemptions are left (the quote's check is advisory), then all pay together.
    const started = await Promise.all(Array.from({ length: N }, () => start("LAST3")));
    const results = await Promise.all(started.map(complete));
    const settled = results.filter((r) => r.__typename === "CompleteCheckoutSuccess");
    expect(settled.map((r) => r.data.chargedCents)).toEqual([3000, 3000, 3000]);
    for (const r of results.filter((x) => x.__typename !== "CompleteCheckoutSuccess")) {
      expect(r).toMatchObject({ __typename: "ConflictError", reason: "payment_refunded", message: "Invalid or inactive coupon code. Your payment of $30.00 was refunded. Please check out again." });
    }
    const coupon = await t.db.prisma.coupon.findFirstOrThrow({ where: { code: "LAST3" }, include: { redemptions: true } });
    expect({ count: coupon.redemptionCount, rows: coupon.redemptions.length }).toEqual({ count: 3, rows: 3 });
    const refunded = await t.db.prisma.payment.findMany({ where: { refundReason: "coupon_unavailable" } });
    expect(refunded).toHaveLength(N - 3);
    for (const s of started) await expectMoneyBalanced(t.db.prisma, s.userId, shop.id);
    // Later checkouts are refused before paying.
    const late = await t.gqlOk(PAY.START, {
      input: { selection: { businessSlug: shop.slug, planRef: "item_race", mode: "PICKUP", couponCode: "LAST3" }, email: "late@example.com", idempotencyKey: "coupon-race-late" },
    }, { token: await f.session(await f.user({ username: "late-racer" }), shop.slug), tenant: shop.slug });
    expect(late.startCheckout).toMatchObject({ __typename: "ValidationError", message: "Invalid or inactive coupon code" });
  });

  it("payments made on the expiry day and settled after its end in the business's zone are refunded, all at once", async () => {
    await t.db.prisma.coupon.create({ data: { businessId: shop.id, code: "TODAY", type: "FIXED", value: 1000, expiresAt: new Date("2026-03-06T06:00:00Z") } });
    t.clock.set("2026-03-06T05:50:00Z"); // 23:50 on March 5th in Chicago
    const started = await Promise.all(Array.from({ length: 4 }, () => start("TODAY")));
    t.clock.set("2026-03-06T06:00:00Z"); // midnight
    const results = await Promise.all(started.map(complete));
    expect(results.map((r) => r.reason)).toEqual(["payment_refunded", "payment_refunded", "payment_refunded", "payment_refunded"]);
    expect((await t.db.prisma.coupon.findFirstOrThrow({ where: { code: "TODAY" } })).redemptionCount).toBe(0);
    for (const s of started) await expectMoneyBalanced(t.db.prisma, s.userId, shop.id);
    t.clock.set("2026-03-05T15:00:00Z");
  });
});

describe("one code created twice at the same moment", () => {
  const CREATE = `mutation($input: CreateCouponInput!) { createCoupon(input: $input) { __typename ... on Error { message } } }`;

  it("an owner's business code and an administrator's platform code: exactly one is made, every time", async () => {
    for (let round = 0; round < 5; round++) {
      const code = `CLASH${round}`;
      const results = await Promise.all([
        t.gqlOk(CREATE, { input: { businessId: String(shop.id), code, type: "PERCENT", value: 5 } }, { token: ownerToken }),
        t.gqlOk(CREATE, { input: { code, type: "PERCENT", value: 5 } }, { token: adminToken }),
      ]);
      expect(results.map((r) => r.createCoupon.__typename).sort(), code).toEqual(["ConflictError", "CreateCouponSuccess"]);
      expect(await t.db.prisma.coupon.count({ where: { code } })).toBe(1);
    }
  });
});
