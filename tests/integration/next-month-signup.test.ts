/**
 * Next-month sign-ups on the injectable clock: a sign-up the day after the cutoff (the 20th) under both settings.
 * REFUSE answers §8's text (GraphQL and REST). NEXT_MONTH saves the card and charges nothing that day, has no box,
 * reminder or notice before its first month, and the renewal run makes the first charge (an INITIAL order) on that
 * month's billing day, sandbox and the local Stripe double alike; REST past the cutoff is refused there too.
 * Runs on both databases.
 */
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runRenewals } from "../../api/billing/renewals/clock.ts";
import { previewOf } from "../../api/packing/preview.ts";
import { planReminders } from "../../api/mail/reminders.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";
import { startStripeDouble, type StripeDouble } from "../support/stripe-double.ts";

const log = pino({ level: "silent" });
const PAST_CUTOFF = "2026-11-21T15:00:00Z";
const SECTION_8 = "The last day to subscribe for this month has passed. The cutoff day is the 20th of each month. Please try again next month.";

const QUOTE = `query($s: CheckoutSelectionInput!) { checkoutQuote(selection: $s) {
  __typename ... on CheckoutQuoteSuccess { data { startsNextMonth period firstChargeDate nextBillingDate totalCents } } ... on Error { message reason } } }`;
const START = `mutation($input: StartCheckoutInput!) { startCheckout(input: $input) {
  __typename ... on StartCheckoutSuccess { data { intent paymentIntentId clientSecret } } ... on Error { message reason } } }`;
const CONFIRM_SETUP = `mutation($s: String!) { confirmSandboxSetup(clientSecret: $s, card: { number: "4242424242424242", expMonth: 12, expYear: 2031, cvc: "123" }) { __typename } }`;
const COMPLETE = `mutation($si: String) { completeCheckout(setupIntentId: $si) {
  __typename ... on CompleteCheckoutSuccess { data { chargedCents firstPeriod nextBillingDate order { id } card { last4 } membership { databaseId status nextBoxDate skipTarget { month } } } }
  ... on Error { message reason } } }`;
const BUSINESS = `{ business(slug: "late") { checkoutClosedMessage signupStartsNextMonth signupFirstPeriod signupFirstChargeDate } }`;

describe.each(["sandbox", "stripe"] as const)("a sign-up after the cutoff (%s)", (provider) => {
  let t: TestApp;
  let f: Factories;
  let stripe: StripeDouble | null = null;
  let planRef: string;
  let businessId: number;

  beforeAll(async () => {
    if (provider === "stripe") stripe = await startStripeDouble();
    t = await createTestApp({
      now: PAST_CUTOFF,
      config: stripe ? { paymentProvider: "stripe", stripe: { secretKey: "sk_test_double", webhookSecret: "whsec_test", apiBase: stripe.url, publishableKey: "pk_test_double" } } : {},
    });
    f = factories(t);
    const timing = { billingDay: 1, cutoffDay: 20, taxEnabled: true, taxRateBps: 575, pickupEnabled: false, shippingEnabled: true };
    const late = await f.business({ slug: "late", page: { ...timing, afterCutoff: "NEXT_MONTH" } });
    const strict = await f.business({ slug: "strict", page: timing });
    businessId = late.id;
    planRef = (await f.plan(late, { name: "Coffee Box", prices: { SHIPPING: 3000 } })).ref;
    await t.db.prisma.plan.create({ data: { businessId: strict.id, ref: planRef, name: "Coffee Box", variations: { create: [{ mode: "SHIPPING", amountCents: 3000 }] } } });
  });
  afterAll(async () => {
    await t.close();
    await stripe?.close();
  });

  const selection = (slug: string) => ({ businessSlug: slug, planRef, mode: "SHIPPING", addonRefs: [] });

  it("REFUSE: GraphQL and REST answer §8's text, nothing opened", async () => {
    t.clock.set(PAST_CUTOFF);
    const q = await t.gqlOk(QUOTE, { s: selection("strict") }, { tenant: "strict" });
    expect(q.checkoutQuote).toEqual({ __typename: "RuleViolationError", message: SECTION_8, reason: "past_cutoff" });
    const user = await f.user({ email: "r@example.com" });
    const token = await f.session(user, "strict");
    const started = await t.gqlOk(START, { input: { selection: selection("strict"), email: "r@example.com", idempotencyKey: "refuse-1" } }, { token, tenant: "strict" });
    expect(started.startCheckout).toMatchObject({ __typename: "RuleViolationError", message: SECTION_8 });
    const rest = await restIntent(token, "strict");
    expect(rest.statusCode).toBe(422);
    expect(rest.json().error).toBe(SECTION_8);
    expect(await t.db.prisma.subscription.count({ where: { userId: user.id } })).toBe(0);
  });

  it("NEXT_MONTH: REST's create-payment-intent keeps §8's refusal (its answer is a payment's secret)", async () => {
    t.clock.set(PAST_CUTOFF);
    const user = await f.user({ email: "rest@example.com" });
    const rest = await restIntent(await f.session(user, "late"), "late");
    expect(rest.statusCode).toBe(422);
    expect(rest.json().error).toBe(SECTION_8);
  });

  it("NEXT_MONTH: the card is saved, nothing charged, no box or notice before December, the run charges December 1st and packs it", async () => {
    t.clock.set(PAST_CUTOFF);
    // The business page names the first charge's day as the quote does (the server's, never recomputed in the browser).
    expect((await t.gqlOk(BUSINESS)).business).toEqual({ checkoutClosedMessage: null, signupStartsNextMonth: true, signupFirstPeriod: "2026-12", signupFirstChargeDate: "2026-12-01" });
    const quote = (await t.gqlOk(QUOTE, { s: selection("late") }, { tenant: "late" })).checkoutQuote.data;
    // 30.00 + 5.75 % = 31.73, first charged on December 1st, then January 1st.
    expect(quote).toEqual({ startsNextMonth: true, period: "2026-12", firstChargeDate: "2026-12-01", nextBillingDate: "2027-01-01", totalCents: 3173 });

    const user = await f.user({ email: `late-${provider}@example.com` });
    const token = await f.session(user, "late");
    const input = { selection: selection("late"), email: `late-${provider}@example.com`, idempotencyKey: `late-${provider}-1`, expectedTotalCents: 3173 };
    const started = (await t.gqlOk(START, { input }, { token, tenant: "late" })).startCheckout;
    expect(started.data.intent).toBe("SETUP");
    // A double submit opens nothing new.
    expect((await t.gqlOk(START, { input }, { token, tenant: "late" })).startCheckout.data.paymentIntentId).toBe(started.data.paymentIntentId);
    if (stripe) stripe.confirmSetup(started.data.paymentIntentId, "pm_card_visa");
    else expect((await t.gqlOk(CONFIRM_SETUP, { s: started.data.clientSecret }, { token })).confirmSandboxSetup.__typename).toBe("ConfirmSandboxSetupSuccess");
    const done = (await t.gqlOk(COMPLETE, { si: started.data.paymentIntentId }, { token, tenant: "late" })).completeCheckout;
    expect(done.__typename, done.message).toBe("CompleteCheckoutSuccess");
    expect(done.data).toMatchObject({
      chargedCents: 0,
      firstPeriod: "2026-12",
      nextBillingDate: "2026-12-01",
      order: null,
      card: { last4: "4242" },
      membership: { status: "ACTIVE", nextBoxDate: "2026-12-01", skipTarget: { month: "2026-12" } },
    });
    const membershipId = done.data.membership.databaseId as number;
    // Nothing charged that day: no payment at all, no order.
    expect(await t.db.prisma.payment.count({ where: { userId: user.id } })).toBe(0);
    expect(await t.db.prisma.order.count({ where: { userId: user.id } })).toBe(0);
    // Completing again answers the same.
    expect((await t.gqlOk(COMPLETE, { si: started.data.paymentIntentId }, { token, tenant: "late" })).completeCheckout.data.chargedCents).toBe(0);

    // No box in November; nothing from the reminders on November 28th (3 days before the first charge).
    const november = await previewOf(t.db.prisma, businessId, "2026-11");
    expect(november.members.map((m) => m.membershipId)).not.toContain(membershipId);
    t.clock.set("2026-11-28T15:00:00Z");
    const reminders = await planReminders({ db: t.db.prisma, clock: t.clock, config: t.config });
    expect(reminders.prechargeNotices).toBe(0);
    expect(await t.db.prisma.mailMessage.count({ where: { recipientUserId: user.id, template: { in: ["precharge_notice", "window_reminder"] } } })).toBe(0);
    // Nothing charged by a run before the first month's billing day.
    await runRenewals({ db: t.db.prisma, clock: t.clock, config: t.config, log }, { businessId });
    expect(await t.db.prisma.order.count({ where: { userId: user.id } })).toBe(0);

    // December 1st: the renewal run makes the first charge, an INITIAL order, and December packs the box.
    t.clock.set("2026-12-01T15:00:00Z");
    await runRenewals({ db: t.db.prisma, clock: t.clock, config: t.config, log }, { businessId });
    const order = await t.db.prisma.order.findFirstOrThrow({ where: { userId: user.id } });
    expect(order).toMatchObject({ period: "2026-12", kind: "INITIAL", totalCents: 3173 });
    const payment = await t.db.prisma.payment.findFirstOrThrow({ where: { userId: user.id } });
    expect(payment).toMatchObject({ status: "SUCCEEDED", amountCents: 3173, orderId: order.id });
    const december = await previewOf(t.db.prisma, businessId, "2026-12");
    expect(december.members.find((m) => m.membershipId === membershipId)?.outlook).toBe("PAID");
    const event = await t.db.prisma.event.findFirstOrThrow({ where: { type: "membership.signed_up.v1" } });
    expect(event.payload).toMatchObject({ membershipId, firstPeriod: "2026-12", totalCents: 3173 });
  });

  async function restIntent(token: string, slug: string) {
    return t.app.inject({
      method: "POST",
      url: "/api/create-payment-intent",
      headers: { authorization: `Bearer ${token}`, "x-tenant": slug, "content-type": "application/json" },
      payload: { amount: 31.73, selection: { businessSlug: slug, chosenItemId: planRef, mode: "shipping", chosenAddonIds: [] }, customer_info: { email: "x@example.com" } },
    });
  }
});
