/**
 * The payment providers' side of payouts, on both providers (the sandbox, and Stripe through the local double):
 * a business's connected account (created once per key, Express by controller properties), its onboarding and
 * dashboard links, the sandbox's onboarding page (single use, five minutes, enabled or left restricted), and
 * destination charges: the route goes out with the charge and comes back with the intent, and a refund takes
 * back the transfer and the application fee. And, as Stripe, an idempotency key keeps its parameters: used again
 * with others (a charge's route or fee changed on a retry) it is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IdempotencyKeyReused } from "../../api/billing/providers/provider.ts";
import { SandboxProvider } from "../../api/billing/providers/sandbox/provider.ts";
import { createStripeClient, StripeProvider } from "../../api/billing/providers/stripe/provider.ts";
import { FixedClock } from "../../api/shared/clock.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories } from "../support/factories.ts";
import { seedSavedCard } from "../support/payments.ts";
import { startStripeDouble, type StripeDouble } from "../support/stripe-double.ts";

let t: TestApp;
let stripe: StripeDouble;
let clock: FixedClock;
let sandbox: SandboxProvider;
let stripeProvider: StripeProvider;
const ROUTE = { destination: "", applicationFeeCents: 259, descriptorSuffix: "GREEN ACRES FARM" };

beforeAll(async () => {
  t = await createTestApp({ now: "2026-03-05T15:00:00Z" });
  stripe = await startStripeDouble();
  clock = new FixedClock("2026-03-05T15:00:00Z");
  sandbox = new SandboxProvider(t.db.prisma, clock);
  stripeProvider = new StripeProvider(createStripeClient({ secretKey: "sk_test_double", apiBase: stripe.url }));
});
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});

const RETURN = "http://localhost:3000/admin/business/1/payouts?return=1";
const REFRESH = "http://localhost:3000/admin/business/1/payouts?refresh=1";

describe("the sandbox's connected accounts", () => {
  it("are created once per key, owe everything at first, and are enabled by their owner's onboarding visit", async () => {
    const account = await sandbox.createConnectedAccount({ businessId: 1, name: "Green Acres Farm", idempotencyKey: "account:1:1" });
    expect(account.id).toMatch(/^acct_sbx_/);
    expect(account).toMatchObject({ detailsSubmitted: false, chargesEnabled: false, payoutsEnabled: false });
    expect(account.requirementsDue).toContain("external_account");
    expect((await sandbox.createConnectedAccount({ businessId: 1, name: "Green Acres Farm", idempotencyKey: "account:1:1" })).id).toBe(account.id);

    const link = await sandbox.createOnboardingLink({ accountId: account.id, refreshUrl: REFRESH, returnUrl: RETURN });
    expect(link.url).toMatch(/^http:\/\/localhost:3000\/sandbox\/connect\/link_sbx_/);
    expect(link.expiresAt.getTime() - clock.now().getTime()).toBe(5 * 60_000);
    const done = await sandbox.completeOnboarding(link.url.split("/").pop()!);
    expect(done.returnUrl).toBe(RETURN);
    expect(done.account).toEqual({ id: account.id, detailsSubmitted: true, chargesEnabled: true, payoutsEnabled: true, requirementsDue: [] });
    expect(await sandbox.retrieveAccount(account.id)).toEqual(done.account);
    expect((await sandbox.createDashboardLink(account.id)).url).toBe(`/sandbox/connect/accounts/${account.id}`);
  });

  it("refuses a spent or expired onboarding link, and can leave the account restricted", async () => {
    const account = await sandbox.createConnectedAccount({ businessId: 2, name: "Ember & Oak", idempotencyKey: "account:2:1" });
    const first = await sandbox.createOnboardingLink({ accountId: account.id, refreshUrl: REFRESH, returnUrl: RETURN });
    const firstId = first.url.split("/").pop()!;
    const restricted = await sandbox.completeOnboarding(firstId, { leaveRequirementsDue: true });
    expect(restricted.account).toMatchObject({ detailsSubmitted: true, chargesEnabled: false, payoutsEnabled: false, requirementsDue: ["external_account"] });
    await expect(sandbox.completeOnboarding(firstId)).rejects.toMatchObject({ code: "account_link_expired" });

    const second = await sandbox.createOnboardingLink({ accountId: account.id, refreshUrl: REFRESH, returnUrl: RETURN });
    clock.advance(5 * 60_000);
    await expect(sandbox.completeOnboarding(second.url.split("/").pop()!)).rejects.toMatchObject({ code: "account_link_expired" });
    expect((await sandbox.retrieveAccount(account.id)).chargesEnabled).toBe(false);
    await expect(sandbox.retrieveAccount("acct_sbx_nope")).rejects.toMatchObject({ code: "resource_missing" });
  });

  it("charge with a route: on-session and off-session intents carry it, and a refund reverses the transfer", async () => {
    const account = await sandbox.createConnectedAccount({ businessId: 3, name: "Farm", idempotencyKey: "account:3:1" });
    const route = { ...ROUTE, destination: account.id };
    const customerId = await sandbox.ensureCustomer({ userId: 1 });
    const open = await sandbox.createPaymentIntent({ customerId, amountCents: 2900, currency: "usd", idempotencyKey: "routed-open", metadata: {}, saveForFuture: true, route });
    expect(open.route).toEqual(route);
    expect((await sandbox.retrievePaymentIntent(open.id)).route).toEqual(route);
    const unrouted = await sandbox.createPaymentIntent({ customerId, amountCents: 2900, currency: "usd", idempotencyKey: "plain-open", metadata: {}, saveForFuture: true });
    expect(unrouted.route).toBeNull();

    const member = await factories(t).user({ username: "routed-member" });
    const pm = await seedSavedCard(t.db.prisma, member);
    const charged = await sandbox.chargeSavedCard({ customerId: `cus_test_${member.id}`, paymentMethodId: pm, amountCents: 2900, currency: "usd", idempotencyKey: "routed-charge", metadata: {}, route });
    expect(charged).toMatchObject({ status: "succeeded", route });
    const [batched] = await sandbox.chargeSavedCards([{ customerId: `cus_test_${member.id}`, paymentMethodId: pm, amountCents: 2900, currency: "usd", idempotencyKey: "routed-batch", metadata: {}, route }]);
    expect(batched).toMatchObject({ status: "fulfilled", value: { status: "succeeded", route } });

    const refund = await sandbox.refund({ paymentIntentId: charged.id, amountCents: 2900, idempotencyKey: "routed-refund", reverseTransfer: true });
    const stored = await t.db.prisma.sandboxObject.findUniqueOrThrow({ where: { id: refund.id } });
    expect(stored.data).toMatchObject({ paymentIntentId: charged.id, amountCents: 2900, reverseTransfer: true });
  });
});

describe("Stripe's connected accounts (the local double)", () => {
  it("creates an Express-style account by controller properties, once per key, with its onboarding and login links", async () => {
    const account = await stripeProvider.createConnectedAccount({ businessId: 7, name: "Green Acres Farm", email: "owner@example.com", idempotencyKey: "account:7:1" });
    expect(account).toMatchObject({ detailsSubmitted: false, chargesEnabled: false, payoutsEnabled: false });
    expect(account.requirementsDue).toContain("external_account");
    expect((await stripeProvider.createConnectedAccount({ businessId: 7, name: "Green Acres Farm", email: "owner@example.com", idempotencyKey: "account:7:1" })).id).toBe(account.id);
    const created = stripe.requests.filter((r) => r.path === "/v1/accounts");
    expect(created[0].body).toMatchObject({
      controller: { fees: { payer: "application" }, losses: { payments: "application" }, stripe_dashboard: { type: "express" } },
      capabilities: { card_payments: { requested: "true" }, transfers: { requested: "true" } },
      business_profile: { name: "Green Acres Farm" },
      metadata: { business_id: "7" },
    });
    // A key reused with other parameters is Stripe's idempotency error, not the first account.
    await expect(stripeProvider.createConnectedAccount({ businessId: 8, name: "Other", idempotencyKey: "account:7:1" })).rejects.toMatchObject({ type: "StripeIdempotencyError" });

    const link = await stripeProvider.createOnboardingLink({ accountId: account.id, refreshUrl: REFRESH, returnUrl: RETURN });
    expect(link.url).toContain(account.id);
    expect(link.expiresAt.getTime()).toBeGreaterThan(Date.now());
    expect(stripe.requests.at(-1)!.body).toMatchObject({ account: account.id, refresh_url: REFRESH, return_url: RETURN, type: "account_onboarding" });
    expect((await stripeProvider.createDashboardLink(account.id)).url).toContain(account.id);

    stripe.onboard(account.id);
    expect(await stripeProvider.retrieveAccount(account.id)).toEqual({ id: account.id, detailsSubmitted: true, chargesEnabled: true, payoutsEnabled: true, requirementsDue: [] });
    stripe.onboard(account.id, ["external_account"]);
    expect(await stripeProvider.retrieveAccount(account.id)).toMatchObject({ chargesEnabled: false, requirementsDue: ["external_account"] });
  });

  it("sends a destination charge's transfer, fee and descriptor, reads them back, and refunds with the transfer reversed", async () => {
    const route = { ...ROUTE, destination: "acct_dbl_routed" };
    const intent = await stripeProvider.createPaymentIntent({ customerId: "cus_dbl_x", amountCents: 2900, currency: "usd", idempotencyKey: "stripe-routed", metadata: {}, saveForFuture: true, route });
    expect(intent.route).toEqual(route);
    expect(stripe.requests.at(-1)!.body).toMatchObject({ transfer_data: { destination: "acct_dbl_routed" }, application_fee_amount: "259", statement_descriptor_suffix: "GREEN ACRES FARM" });
    const plain = await stripeProvider.createPaymentIntent({ customerId: "cus_dbl_x", amountCents: 2900, currency: "usd", idempotencyKey: "stripe-plain", metadata: {}, saveForFuture: true });
    expect(plain.route).toBeNull();
    expect(stripe.requests.at(-1)!.body).not.toHaveProperty("transfer_data");

    const charged = await stripeProvider.chargeSavedCard({ customerId: "cus_dbl_x", paymentMethodId: "pm_card_visa", amountCents: 2900, currency: "usd", idempotencyKey: "stripe-routed-charge", metadata: {}, route });
    expect(charged).toMatchObject({ status: "succeeded", route });
    await stripeProvider.refund({ paymentIntentId: charged.id, amountCents: 2900, idempotencyKey: "stripe-routed-refund", reverseTransfer: true });
    expect(stripe.requests.at(-1)!.body).toMatchObject({ payment_intent: charged.id, amount: "2900", reverse_transfer: "true", refund_application_fee: "true" });
  });
});

describe("idempotency keys keep their parameters", () => {
  it("the sandbox answers the same parameters with the first object and refuses other ones, one by one and in a batch", async () => {
    const customerId = await sandbox.ensureCustomer({ userId: 9 });
    const open = { customerId, amountCents: 2900, currency: "usd", idempotencyKey: "kept-open", metadata: { period: "2026-03" }, saveForFuture: true };
    const first = await sandbox.createPaymentIntent(open);
    expect((await sandbox.createPaymentIntent({ ...open, metadata: { period: "2026-03" } })).id).toBe(first.id);
    await expect(sandbox.createPaymentIntent({ ...open, amountCents: 3100 })).rejects.toBeInstanceOf(IdempotencyKeyReused);
    await expect(sandbox.createPaymentIntent({ ...open, route: { ...ROUTE, destination: "acct_sbx_x" } })).rejects.toThrow(/same parameters/);

    const member = await factories(t).user({ username: "kept-member" });
    const pm = await seedSavedCard(t.db.prisma, member);
    const charge = { customerId: `cus_test_${member.id}`, paymentMethodId: pm, amountCents: 2900, currency: "usd", idempotencyKey: "kept-charge", metadata: {}, route: { ...ROUTE, destination: "acct_sbx_y" } };
    const [paid] = await sandbox.chargeSavedCards([charge]);
    expect(paid.status).toBe("fulfilled");
    // A retry of the batch with the same parameters is the same charge; with another application fee it is refused.
    const [again, changed] = await sandbox.chargeSavedCards([charge, { ...charge, idempotencyKey: "kept-charge-2" }]);
    expect(again).toEqual(paid);
    expect(changed.status).toBe("fulfilled");
    const [refused] = await sandbox.chargeSavedCards([{ ...charge, route: { ...charge.route, applicationFeeCents: 300 } }]);
    expect(refused).toMatchObject({ status: "rejected", reason: expect.any(IdempotencyKeyReused) });
    await expect(sandbox.chargeSavedCard({ ...charge, amountCents: 100 })).rejects.toBeInstanceOf(IdempotencyKeyReused);
  });

  it("a key recorded before keys kept their parameters still answers with its object", async () => {
    const customerId = await sandbox.ensureCustomer({ userId: 10 });
    const open = { customerId, amountCents: 2900, currency: "usd", idempotencyKey: "old-key", metadata: {}, saveForFuture: true };
    const first = await sandbox.createPaymentIntent(open);
    await t.db.prisma.$executeRawUnsafe(`UPDATE sandbox_objects SET data = data - 'fingerprint' WHERE kind = 'idempotency' AND data->>'objectId' = '${first.id}'`);
    expect((await sandbox.createPaymentIntent({ ...open, amountCents: 3100 })).id).toBe(first.id);
  });

  it("Stripe's refusal reaches the caller as the same error", async () => {
    const open = { customerId: "cus_dbl_y", amountCents: 2900, currency: "usd", idempotencyKey: "stripe-kept", metadata: {}, saveForFuture: true };
    const first = await stripeProvider.createPaymentIntent(open);
    expect((await stripeProvider.createPaymentIntent(open)).id).toBe(first.id);
    await expect(stripeProvider.createPaymentIntent({ ...open, amountCents: 3100 })).rejects.toBeInstanceOf(IdempotencyKeyReused);
    const charge = { customerId: "cus_dbl_y", paymentMethodId: "pm_card_visa", amountCents: 2900, currency: "usd", idempotencyKey: "stripe-kept-charge", metadata: {} };
    await stripeProvider.chargeSavedCard(charge);
    await expect(stripeProvider.chargeSavedCard({ ...charge, route: { ...ROUTE, destination: "acct_dbl_z" } })).rejects.toBeInstanceOf(IdempotencyKeyReused);
  });
});
