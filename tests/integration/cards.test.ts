import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providerFor, sandboxFor } from "../../api/billing/service.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";

let t: TestApp;
let f: Factories;
const card = (number: string) => ({ number, expMonth: 11, expYear: 2032, cvc: "123" });

const START = `mutation { startCardUpdate { __typename ... on StartCardUpdateSuccess { data { clientSecret setupIntentId } } ... on Error { message } } }`;
const CONFIRM = `mutation($s: String!, $card: SandboxCardInput!) { confirmSandboxSetup(clientSecret: $s, card: $card) {
  __typename ... on ConfirmSandboxSetupSuccess { data { status lastError { code message } } } ... on Error { message } } }`;
const FINISH = `mutation($id: String!) { finishCardUpdate(setupIntentId: $id) {
  __typename ... on FinishCardUpdateSuccess { data { brand last4 expMonth expYear } } ... on Error { message reason } } }`;
const PROMOTE = `mutation($id: String!) { promotePaymentMethod(paymentIntentId: $id) {
  __typename ... on PromotePaymentMethodSuccess { data { last4 } }
  ... on SingleUsePaymentMethodError { message reason setupIntentClientSecret } ... on Error { message } } }`;

beforeAll(async () => {
  t = await createTestApp();
  f = factories(t);
});
afterAll(() => t.close());

describe("card update", () => {
  it("saves the confirmed card as the default for renewals of every open membership", async () => {
    const user = await f.user();
    const token = await f.session(user);
    const business = await f.business();
    const sub = await f.subscription({ user, business, plan: await f.plan(business) });

    const started = await t.gqlOk(START, {}, { token });
    const { clientSecret, setupIntentId } = started.startCardUpdate.data;
    const declined = await t.gqlOk(CONFIRM, { s: clientSecret, card: card("4000000000000002") });
    expect(declined.confirmSandboxSetup.data).toMatchObject({ status: "requires_payment_method", lastError: { code: "card_declined" } });
    const early = await t.gqlOk(FINISH, { id: setupIntentId }, { token });
    expect(early.finishCardUpdate).toMatchObject({ __typename: "RuleViolationError", message: "Your card was declined." });

    await t.gqlOk(CONFIRM, { s: clientSecret, card: card("5555555555554444") });
    const done = await t.gqlOk(FINISH, { id: setupIntentId }, { token });
    expect(done.finishCardUpdate).toEqual({ __typename: "FinishCardUpdateSuccess", data: { brand: "mastercard", last4: "4444", expMonth: 11, expYear: 2032 } });
    expect((await t.gqlOk(`{ viewer { paymentMethod { last4 } } }`, {}, { token })).viewer.paymentMethod).toEqual({ last4: "4444" });
    const after = await t.db.prisma.subscription.findUniqueOrThrow({ where: { id: sub.id } });
    expect(after.providerPaymentMethodId).toMatch(/^pm_sbx_/);

    // A second card replaces the first as the default.
    const again = (await t.gqlOk(START, {}, { token })).startCardUpdate.data;
    await t.gqlOk(CONFIRM, { s: again.clientSecret, card: card("4242424242424242") });
    await t.gqlOk(FINISH, { id: again.setupIntentId }, { token });
    expect(await t.db.prisma.paymentMethod.count({ where: { userId: user.id, isDefault: true } })).toBe(1);
    expect((await t.gqlOk(`{ viewer { paymentMethod { last4 } } }`, {}, { token })).viewer.paymentMethod).toEqual({ last4: "4242" });
  });

  it("refuses another user's setup intent and anonymous callers", async () => {
    const owner = await f.user();
    const { setupIntentId } = (await t.gqlOk(START, {}, { token: await f.session(owner) })).startCardUpdate.data;
    const thief = await f.session(await f.user());
    expect((await t.gqlOk(FINISH, { id: setupIntentId }, { token: thief })).finishCardUpdate.__typename).toBe("NotFoundError");
    expect((await t.gqlOk(START)).startCardUpdate.__typename).toBe("UnauthenticatedError");
  });
});

describe("promotePaymentMethod", () => {
  async function paidIntent(userId: number, saveForFuture: boolean) {
    const ctx = { db: t.db.prisma, clock: t.clock, config: t.config };
    const provider = providerFor(ctx);
    const customerId = await provider.ensureCustomer({ userId });
    await t.db.prisma.user.update({ where: { id: userId }, data: { paymentCustomerId: customerId } });
    const pi = await provider.createPaymentIntent({ customerId, amountCents: 1500, currency: "usd", idempotencyKey: `promote-${userId}-${saveForFuture}`, metadata: {}, saveForFuture });
    await t.db.prisma.payment.create({ data: { userId, provider: "sandbox", providerPaymentId: pi.id, amountCents: 1500, status: "SUCCEEDED" } });
    await sandboxFor(ctx).confirmPaymentIntent(pi.clientSecret, card("4242424242424242"));
    return pi.id;
  }

  it("keeps a saved card and asks again (409-style refusal with a setup intent) for a single-use one", async () => {
    const user = await f.user();
    const token = await f.session(user);
    const saved = await t.gqlOk(PROMOTE, { id: await paidIntent(user.id, true) }, { token });
    expect(saved.promotePaymentMethod).toEqual({ __typename: "PromotePaymentMethodSuccess", data: { last4: "4242" } });

    const single = await t.gqlOk(PROMOTE, { id: await paidIntent(user.id, false) }, { token });
    expect(single.promotePaymentMethod).toMatchObject({
      __typename: "SingleUsePaymentMethodError",
      reason: "single_use_payment_method",
      message: "Please re-enter your card once more so we can save it for automatic renewals.",
      setupIntentClientSecret: expect.stringMatching(/^seti_sbx_.+_secret_/),
    });
  });
});
