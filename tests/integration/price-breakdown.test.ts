/**
 * One priced breakdown. For every combination of add-on, mode surcharge, percent or fixed coupon and tax,
 * through the sandbox and through the real Stripe SDK against the local Stripe double, the checkout quote's lines
 * sum to its total, the provider is charged exactly that total, and the order's breakdown (read from its own stored
 * amounts) is the quote's, line for line. Then the catalogue, coupon and tax change and the order does not.
 * Runs on both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";
import { startStripeDouble, type StripeDouble } from "../support/stripe-double.ts";

const BREAKDOWN = `lines { kind label amountCents } subtotalCents couponCode discountCents taxRatePercent taxCents totalCents`;
const QUOTE = `query($s: CheckoutSelectionInput!) { checkoutQuote(selection: $s) {
  __typename ... on CheckoutQuoteSuccess { data { totalCents breakdown { ${BREAKDOWN} } } } ... on Error { message } } }`;
const START = `mutation($input: StartCheckoutInput!) { startCheckout(input: $input) {
  __typename ... on StartCheckoutSuccess { data { clientSecret paymentIntentId quote { totalCents breakdown { ${BREAKDOWN} } } } } ... on Error { message } } }`;
const CONFIRM = `mutation($s: String!) { confirmSandboxPayment(clientSecret: $s, card: { number: "4242424242424242", expMonth: 12, expYear: 2031, cvc: "123" }) { __typename } }`;
const COMPLETE = `mutation($id: String!) { completeCheckout(paymentIntentId: $id) {
  __typename ... on CompleteCheckoutSuccess { data { chargedCents receiptEmail card { brand last4 } order { id status breakdown { ${BREAKDOWN} } } } } ... on Error { message } } }`;
const ORDER = `query($id: ID!) { node(id: $id) { ... on Order { status totalCents breakdown { ${BREAKDOWN} } } } }`;

type Line = { kind: string; label: string; amountCents: number };
type Breakdown = { lines: Line[]; subtotalCents: number; couponCode: string | null; discountCents: number; taxRatePercent: number; taxCents: number; totalCents: number };

const sum = (lines: Line[]) => lines.reduce((s, l) => s + l.amountCents, 0);

/** The invariants every breakdown keeps, whatever its combination. */
function expectConsistent(b: Breakdown) {
  const goods = b.lines.filter((l) => ["PLAN", "SURCHARGE", "ADDON"].includes(l.kind));
  expect(sum(goods), "plan + surcharge + add-ons = subtotal").toBe(b.subtotalCents);
  expect(b.subtotalCents - b.discountCents + b.taxCents, "subtotal − discount + tax = total").toBe(b.totalCents);
  expect(sum(b.lines), "the lines sum to the total").toBe(b.totalCents);
}

const COMBINATIONS = (["PICKUP", "SHIPPING"] as const).flatMap((mode) =>
  [false, true].flatMap((addon) =>
    ([null, "PCT15", "FIVEOFF"] as const).flatMap((coupon) => [false, true].map((tax) => ({ mode, addon, coupon, tax }))),
  ),
);

describe.each(["sandbox", "stripe"] as const)("the breakdown through the %s provider", (provider) => {
  let t: TestApp;
  let f: Factories;
  let stripe: StripeDouble | null = null;
  let planRef: string;
  let addonRef: string;
  const charged: { orderId: string; breakdown: Breakdown }[] = [];

  beforeAll(async () => {
    if (provider === "stripe") stripe = await startStripeDouble();
    t = await createTestApp({
      now: "2026-11-10T15:00:00Z",
      config: stripe
        ? { paymentProvider: "stripe", stripe: { secretKey: "sk_test_double", webhookSecret: "whsec_test", apiBase: stripe.url, publishableKey: "pk_test_double" } }
        : {},
    });
    f = factories(t);
    for (const [slug, taxEnabled] of [["taxed", true], ["untaxed", false]] as const) {
      const business = await f.business({ slug, page: { taxEnabled, taxRateBps: 575, pickupEnabled: true, shippingEnabled: true } });
      // The same refs at both businesses: the combination's business decides the tax.
      await t.db.prisma.plan.create({
        data: { businessId: business.id, ref: "item_pair", name: "Roaster's Pair", variations: { create: [{ mode: "PICKUP", amountCents: 3400 }, { mode: "SHIPPING", amountCents: 3999 }] } },
      });
      await t.db.prisma.addon.create({ data: { businessId: business.id, ref: "addon_mug", name: "Mug", amountCents: 750 } });
    }
    planRef = "item_pair";
    addonRef = "addon_mug";
    await f.coupon({ code: "PCT15", type: "PERCENT", value: 15 });
    await f.coupon({ code: "FIVEOFF", type: "FIXED", value: 500 });
  });
  afterAll(async () => {
    await t.close();
    await stripe?.close();
  });

  it("every combination: the quote's lines sum to the total, the provider charges it, the order keeps it line for line", async () => {
    for (const [i, c] of COMBINATIONS.entries()) {
      const slug = c.tax ? "taxed" : "untaxed";
      const selection = { businessSlug: slug, planRef, mode: c.mode, addonRefs: c.addon ? [addonRef] : [], ...(c.coupon ? { couponCode: c.coupon } : {}) };
      const what = JSON.stringify(c);

      const quoted = (await t.gqlOk(QUOTE, { s: selection }, { tenant: slug })).checkoutQuote.data;
      const q: Breakdown = quoted.breakdown;
      expectConsistent(q);
      expect(q.totalCents, what).toBe(quoted.totalCents);
      // Each part is on its own line, with what the rules give.
      expect(q.lines.find((l) => l.kind === "PLAN"), what).toEqual({ kind: "PLAN", label: "Roaster's Pair", amountCents: 3400 });
      expect(q.lines.find((l) => l.kind === "SURCHARGE") ?? null, what).toEqual(c.mode === "SHIPPING" ? { kind: "SURCHARGE", label: "Shipping", amountCents: 599 } : null);
      expect(q.lines.filter((l) => l.kind === "ADDON"), what).toEqual(c.addon ? [{ kind: "ADDON", label: "Mug", amountCents: 750 }] : []);
      const subtotal = 3400 + (c.mode === "SHIPPING" ? 599 : 0) + (c.addon ? 750 : 0);
      const discount = c.coupon === "PCT15" ? Math.round(subtotal * 0.15) : c.coupon === "FIVEOFF" ? 500 : 0;
      expect(q.lines.find((l) => l.kind === "DISCOUNT") ?? null, what).toEqual(c.coupon ? { kind: "DISCOUNT", label: `Coupon ${c.coupon}`, amountCents: -discount } : null);
      expect(q.couponCode, what).toBe(c.coupon);
      const tax = c.tax ? Math.round(((subtotal - discount) * 575) / 10_000) : 0;
      expect(q.lines.find((l) => l.kind === "TAX") ?? null, what).toEqual(c.tax ? { kind: "TAX", label: "Tax (5.75%)", amountCents: tax } : null);
      expect(q.totalCents, what).toBe(subtotal - discount + tax);

      const user = await f.user({ email: `combo${i}-${provider}@example.com` });
      const token = await f.session(user, slug);
      const started = (await t.gqlOk(START, { input: { selection, email: `combo${i}-${provider}@example.com`, idempotencyKey: `combo-${provider}-${i}`, expectedTotalCents: q.totalCents } }, { token, tenant: slug })).startCheckout.data;
      expect(started.quote.breakdown, what).toEqual(q);
      if (stripe) stripe.confirm(started.paymentIntentId, "pm_card_visa");
      else expect((await t.gqlOk(CONFIRM, { s: started.clientSecret }, { token, tenant: slug })).confirmSandboxPayment.__typename).toBe("ConfirmSandboxPaymentSuccess");
      const done = (await t.gqlOk(COMPLETE, { id: started.paymentIntentId }, { token, tenant: slug })).completeCheckout;
      expect(done.__typename, `${what}: ${done.message}`).toBe("CompleteCheckoutSuccess");
      expect(done.data.chargedCents, what).toBe(q.totalCents);
      expect(done.data.card, what).toEqual({ brand: "visa", last4: "4242" });
      expect(done.data.receiptEmail, what).toBe(`combo${i}-${provider}@example.com`);
      expect(done.data.order.status).toBe("PAID");
      expect(done.data.order.breakdown, what).toEqual(q);

      // What the provider itself took.
      const providerAmount = stripe
        ? Number(stripe.objects.get(started.paymentIntentId)!.amount)
        : (await t.db.prisma.sandboxObject.findUniqueOrThrow({ where: { id: started.paymentIntentId } })).data as { amountCents: number };
      expect(typeof providerAmount === "number" ? providerAmount : providerAmount.amountCents, what).toBe(q.totalCents);
      charged.push({ orderId: done.data.order.id, breakdown: q });
    }
    expect(charged).toHaveLength(COMBINATIONS.length);
  });

  it("an order's breakdown is its own: unchanged after the plan, add-on, coupon and tax change", async () => {
    expect(charged.length).toBeGreaterThan(0);
    await t.db.prisma.planVariation.updateMany({ where: { plan: { ref: planRef } }, data: { amountCents: 9900 } });
    await t.db.prisma.addon.updateMany({ where: { ref: addonRef }, data: { amountCents: 1999, name: "Big Mug" } });
    await t.db.prisma.coupon.updateMany({ data: { value: 50 } });
    await t.db.prisma.coupon.deleteMany({ where: { code: "FIVEOFF" } }).catch(() => undefined);
    await t.db.prisma.page.updateMany({ data: { taxRateBps: 1000 } });
    const admin = await f.user({ isAdmin: true });
    const token = await f.session(admin);
    for (const { orderId, breakdown } of charged) {
      const order = (await t.gqlOk(ORDER, { id: orderId }, { token })).node;
      expect(order.breakdown).toEqual(breakdown);
      expect(order.totalCents).toBe(breakdown.totalCents);
    }
  });
});
