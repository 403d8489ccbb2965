import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";

let t: TestApp;
let seq = 0;

const QUOTE = `query($s: CheckoutSelectionInput!) { checkoutQuote(selection: $s) {
  __typename
  ... on CheckoutQuoteSuccess { data { planName planAmountCents addonsAmountCents subtotalCents discountCents taxRatePercent taxCents totalCents couponCode period nextBillingDate addons { name amountCents } } }
  ... on Error { message reason } } }`;
const START = `mutation($input: StartCheckoutInput!) { startCheckout(input: $input) {
  __typename
  ... on StartCheckoutSuccess { data { paymentIntentId clientSecret quote { totalCents } membership { databaseId status } } }
  ... on Error { message reason } } }`;
const CONFIRM = `mutation($secret: String!, $card: SandboxCardInput!) { confirmSandboxPayment(clientSecret: $secret, card: $card) {
  __typename ... on ConfirmSandboxPaymentSuccess { data { id status lastError { code message } } } ... on Error { message } } }`;
const CHALLENGE = `mutation($secret: String!, $ok: Boolean!) { completeSandboxChallenge(clientSecret: $secret, succeed: $ok) {
  __typename ... on CompleteSandboxChallengeSuccess { data { status } } } }`;
const COMPLETE = `mutation($id: String!) { completeCheckout(paymentIntentId: $id) {
  __typename
  ... on CompleteCheckoutSuccess { data { chargedCents nextBillingDate order { databaseId period totalCents kind planName addons { name } } membership { status } } }
  ... on Error { message reason } } }`;

const card = (number: string) => ({ number, expMonth: 12, expYear: 2031, cvc: "123" });
const selection = (over: Record<string, unknown> = {}) => ({ businessSlug: "farm", planRef: "item_veg", mode: "PICKUP", addonRefs: ["addon_eggs"], ...over });

async function member(tenant: string | null = "farm") {
  const username = `member${++seq}`;
  const r = await t.gqlOk(`mutation($i: RegisterInput!) { register(input: $i) { ... on RegisterSuccess { data { token } } } }`, { i: { username, password: "member-password" } }, { tenant });
  return r.register.data.token as string;
}

async function start(token: string, over: Record<string, unknown> = {}) {
  return t.gqlOk(START, { input: { selection: selection(), email: "pat@example.com", idempotencyKey: `key-${++seq}-abcdef`, ...over } }, { token, tenant: "farm" });
}

beforeAll(async () => {
  t = await createTestApp({ now: "2026-03-05T15:00:00Z" });
  const p = t.db.prisma;
  const farm = await p.business.create({ data: { collectsOnPlatform: true, slug: "farm", name: "Farm", timeZone: "America/New_York" } });
  await p.page.create({
    data: { businessId: farm.id, brandName: "Farm", pickupEnabled: true, shippingEnabled: true, taxEnabled: true, taxRateBps: 575, cutoffDay: 20, billingDay: 3, addonLimit: 2 },
  });
  await p.plan.create({
    data: { businessId: farm.id, ref: "item_veg", name: "Veg Box", variations: { create: [{ mode: "PICKUP", amountCents: 2400 }, { mode: "SHIPPING", amountCents: 2900 }] } },
  });
  for (const [ref, amountCents] of [["addon_eggs", 500], ["addon_bread", 350], ["addon_honey", 900]] as const) {
    await p.addon.create({ data: { businessId: farm.id, ref, name: ref.slice(6), amountCents } });
  }
  await p.coupon.create({ data: { code: "WELCOME10", type: "PERCENT", value: 10 } });
  await p.coupon.create({ data: { code: "OLD", type: "FIXED", value: 500, active: false } });
});
afterAll(() => t.close());
beforeEach(() => t.clock.set("2026-03-05T15:00:00Z"));

describe("checkout quote", () => {
  it("prices plan, add-ons, coupon and tax on the server", async () => {
    const q = await t.gqlOk(QUOTE, { s: selection({ addonRefs: ["addon_eggs", "addon_bread"], couponCode: "welcome10" }) });
    // 2400 + 500 + 350 = 3250; 10 % off = 325 → 2925; tax 5.75 % = 168.19 → 168
    expect(q.checkoutQuote.data).toMatchObject({
      planName: "Veg Box", planAmountCents: 2400, addonsAmountCents: 850, subtotalCents: 3250, discountCents: 325,
      taxRatePercent: 5.75, taxCents: 168, totalCents: 3093, couponCode: "WELCOME10", period: "2026-03", nextBillingDate: "2026-04-03",
    });
  });

  it("refuses past the cutoff day with the spec's message", async () => {
    t.clock.set("2026-03-21T15:00:00Z");
    const q = await t.gqlOk(QUOTE, { s: selection() });
    expect(q.checkoutQuote).toEqual({
      __typename: "RuleViolationError",
      reason: "past_cutoff",
      message: "The last day to subscribe for this month has passed. The cutoff day is the 20th of each month. Please try again next month.",
    });
  });

  it("refuses modes not offered, too many add-ons and inactive coupons", async () => {
    expect((await t.gqlOk(QUOTE, { s: selection({ mode: "DELIVERY" }) })).checkoutQuote.message).toBe("This business does not offer delivery.");
    const many = await t.gqlOk(QUOTE, { s: selection({ addonRefs: ["addon_eggs", "addon_bread", "addon_honey"] }) });
    expect(many.checkoutQuote.message).toBe("You can choose at most 2 add-ons.");
    expect((await t.gqlOk(QUOTE, { s: selection({ couponCode: "OLD" }) })).checkoutQuote.__typename).toBe("ValidationError");
  });
});

describe("checkout", () => {
  it("needs a logged-in member", async () => {
    const r = await t.gqlOk(START, { input: { selection: selection(), email: "a@example.com", idempotencyKey: "anon-key-123" } }, { tenant: "farm" });
    expect(r.startCheckout.__typename).toBe("UnauthenticatedError");
  });

  it("declined card, then success: one active membership, one order, the card saved", async () => {
    const token = await member();
    const started = await start(token, { expectedTotalCents: 3067 });
    expect(started.startCheckout.__typename).toBe("StartCheckoutSuccess");
    const { clientSecret, paymentIntentId, membership } = started.startCheckout.data;
    expect(membership.status).toBe("INCOMPLETE");

    const declined = await t.gqlOk(CONFIRM, { secret: clientSecret, card: card("4000000000000002") });
    expect(declined.confirmSandboxPayment.data).toMatchObject({ status: "requires_payment_method", lastError: { code: "card_declined", message: "Your card was declined." } });
    const early = await t.gqlOk(COMPLETE, { id: paymentIntentId }, { token });
    expect(early.completeCheckout).toMatchObject({ __typename: "RuleViolationError", message: "Your card was declined." });

    const paid = await t.gqlOk(CONFIRM, { secret: clientSecret, card: card("4242424242424242") });
    expect(paid.confirmSandboxPayment.data.status).toBe("succeeded");
    const done = await t.gqlOk(COMPLETE, { id: paymentIntentId }, { token });
    expect(done.completeCheckout.data).toMatchObject({
      chargedCents: 3067, nextBillingDate: "2026-04-03",
      order: { period: "2026-03", totalCents: 3067, kind: "INITIAL", planName: "Veg Box", addons: [{ name: "eggs" }] },
      membership: { status: "ACTIVE" },
    });
    const again = await t.gqlOk(COMPLETE, { id: paymentIntentId }, { token });
    expect(again.completeCheckout.data.order.databaseId).toBe(done.completeCheckout.data.order.databaseId);

    const sub = await t.db.prisma.subscription.findUniqueOrThrow({ where: { id: membership.databaseId } });
    expect(sub.providerPaymentMethodId).toMatch(/^pm_sbx_/);
    expect(await t.db.prisma.order.count({ where: { subscriptionId: sub.id } })).toBe(1);

    const second = await start(token);
    expect(second.startCheckout).toMatchObject({ __typename: "ConflictError", reason: "already_member" });
  });

  it("the same idempotency key returns the same payment; a stale total is refused", async () => {
    const token = await member();
    const input = { selection: selection(), email: "a@example.com", idempotencyKey: "same-key-123456" };
    const a = await t.gqlOk(START, { input }, { token, tenant: "farm" });
    const b = await t.gqlOk(START, { input }, { token, tenant: "farm" });
    expect(b.startCheckout.data.paymentIntentId).toBe(a.startCheckout.data.paymentIntentId);
    const stale = await start(token, { expectedTotalCents: 100 });
    expect(stale.startCheckout).toMatchObject({ __typename: "ConflictError", reason: "price_mismatch" });
    expect(await t.db.prisma.subscription.count({ where: { user: { username: `member${seq - 3}` } } })).toBeLessThanOrEqual(1);
  });

  it("a double submit with two keys charges once: the second payment is refunded", async () => {
    const token = await member();
    const first = (await start(token)).startCheckout.data;
    const second = (await start(token)).startCheckout.data;
    expect(second.membership.databaseId).toBe(first.membership.databaseId);
    for (const s of [first, second]) await t.gqlOk(CONFIRM, { secret: s.clientSecret, card: card("4242424242424242") });
    const r1 = await t.gqlOk(COMPLETE, { id: first.paymentIntentId }, { token });
    const r2 = await t.gqlOk(COMPLETE, { id: second.paymentIntentId }, { token });
    expect(r2.completeCheckout.data.order.databaseId).toBe(r1.completeCheckout.data.order.databaseId);
    const payments = await t.db.prisma.payment.findMany({ where: { subscriptionId: first.membership.databaseId, status: "SUCCEEDED" } });
    expect(payments).toHaveLength(2);
    expect(payments.filter((p) => p.refundedCents === p.amountCents)).toHaveLength(1);
  });

  it("3-D Secure cards need the challenge before the payment succeeds", async () => {
    const token = await member();
    const s = (await start(token)).startCheckout.data;
    const challenged = await t.gqlOk(CONFIRM, { secret: s.clientSecret, card: card("4000002500003155") });
    expect(challenged.confirmSandboxPayment.data.status).toBe("requires_action");
    const passed = await t.gqlOk(CHALLENGE, { secret: s.clientSecret, ok: true });
    expect(passed.completeSandboxChallenge.data.status).toBe("succeeded");
    expect((await t.gqlOk(COMPLETE, { id: s.paymentIntentId }, { token })).completeCheckout.data.membership.status).toBe("ACTIVE");
  });

  it("refuses real card numbers; a member's session bound to another business checks out here", async () => {
    const token = await member();
    const s = (await start(token)).startCheckout.data;
    const real = await t.gqlOk(CONFIRM, { secret: s.clientSecret, card: card("4012888888881881") });
    expect(real.confirmSandboxPayment).toMatchObject({ __typename: "ValidationError", message: expect.stringMatching(/only test card numbers/) });

    // One login for every membership (GraphQL): a session made at the bakery opens a membership at the farm.
    const otherTenant = await member("bakery");
    const r = await t.gqlOk(START, { input: { selection: selection(), email: "a@example.com", idempotencyKey: "other-tenant-key" } }, { token: otherTenant, tenant: "farm" });
    expect(r.startCheckout.__typename).toBe("StartCheckoutSuccess");
    const paid = await t.gqlOk(CONFIRM, { secret: r.startCheckout.data.clientSecret, card: card("4242424242424242") });
    expect(paid.confirmSandboxPayment.data.status).toBe("succeeded");
    const done = await t.gqlOk(COMPLETE, { id: r.startCheckout.data.paymentIntentId }, { token: otherTenant, tenant: "farm" });
    expect(done.completeCheckout.data.membership.status).toBe("ACTIVE");
  });
});

describe("restart", () => {
  const RESTART = `mutation($input: RestartSubscriptionInput!) { restartSubscription(input: $input) {
    __typename ... on RestartSubscriptionSuccess { data { outcome clientSecret paymentIntentId membership { status } } } ... on Error { message reason } } }`;

  it("a canceled membership without a saved card restarts once the member pays in the card form", async () => {
    const token = await member();
    const user = await t.db.prisma.user.findFirstOrThrow({ where: { username: `member${seq}` } });
    const farm = await t.db.prisma.business.findUniqueOrThrow({ where: { slug: "farm" } });
    const plan = await t.db.prisma.plan.findFirstOrThrow({ where: { ref: "item_veg" } });
    const sub = await t.db.prisma.subscription.create({
      data: { userId: user.id, businessId: farm.id, planId: plan.id, mode: "PICKUP", planAmountCents: 2400, totalCents: 2538, taxCents: 138, status: "CANCELED", canceledAt: new Date("2026-02-10T00:00:00Z"), paidThroughPeriod: "2026-02" },
    });
    const r = await t.gqlOk(RESTART, { input: { subscriptionId: String(sub.id) } }, { token, tenant: "farm" });
    expect(r.restartSubscription.data).toMatchObject({ outcome: "REQUIRES_ACTION", membership: { status: "CANCELED" } });
    const { clientSecret, paymentIntentId } = r.restartSubscription.data;
    await t.gqlOk(CONFIRM, { secret: clientSecret, card: card("4242424242424242") });
    const done = await t.gqlOk(COMPLETE, { id: paymentIntentId }, { token });
    expect(done.completeCheckout.data).toMatchObject({ chargedCents: 2538, order: { period: "2026-03", kind: "RESTART" }, membership: { status: "ACTIVE" } });
  });
});
