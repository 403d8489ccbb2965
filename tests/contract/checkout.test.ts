import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../support/app.ts";
import { card, type Farm, type RestClient, sandbox, startFarm } from "./helpers.ts";

let t: TestApp;
let s: Farm;
let call: RestClient;
let seq = 0;

const body = (over: Record<string, unknown> = {}) => ({
  amount: 29.0,
  selection: { businessSlug: "farm", chosenItemId: "item_veg", mode: "pickup", chosenAddonIds: ["addon_eggs"], email: "buyer@example.com", address: { street: "1 Road" } },
  customer_info: { email: "buyer@example.com", name: "Buyer" },
  ...over,
});

async function buyer() {
  const u = await s.f.user({ username: `buyer${++seq}`, email: "buyer@example.com" });
  return { user: u, token: await s.f.session(u, "farm") };
}

beforeAll(async () => ({ t, s, call } = await startFarm()));
afterAll(() => t.close());

describe("checkout", () => {
  it("create-payment-intent → create-subscription → pay → checkout → promote", async () => {
    const { token } = await buyer();
    const pi = await call("POST", "/api/create-payment-intent", { token, tenant: "farm", payload: body() });
    expect(pi.status).toBe(200);
    expect(pi.body.amount).toBe(29);

    // An identical double submit (no Idempotency-Key) reuses the same payment.
    const again = await call("POST", "/api/create-payment-intent", { token, tenant: "farm", payload: body() });
    expect(again.body.payment_intent_id).toBe(pi.body.payment_intent_id);

    const sub = await call("POST", "/api/create-subscription", { token, tenant: "farm", payload: body() });
    expect(sub.body).toEqual({ subscription_id: pi.body.subscription_id });

    await sandbox(t).confirmPaymentIntent(pi.body.client_secret, card());
    const done = await call("POST", "/api/checkout", {
      token,
      tenant: "farm",
      payload: { selection: body().selection, address: { street: "1 Road" }, payment_meta: { payment_intent_id: pi.body.payment_intent_id, payment_status: "succeeded" } },
    });
    expect(done.status).toBe(200);
    expect(done.body.order.charged_amount).toBe(29);
    expect((await t.db.prisma.subscription.findUniqueOrThrow({ where: { id: pi.body.subscription_id } })).status).toBe("ACTIVE");

    const promote = await call("POST", "/api/my/payments/promote", { token, tenant: "farm", payload: { payment_intent_id: pi.body.payment_intent_id } });
    expect(promote.status).toBe(200);
    expect(promote.body).toEqual({ ok: true });
  });

  it("the Idempotency-Key header decides the attempt", async () => {
    const { token } = await buyer();
    const a = await call("POST", "/api/create-payment-intent", { token, tenant: "farm", headers: { "idempotency-key": "attempt-0001" }, payload: body() });
    const b = await call("POST", "/api/create-payment-intent", { token, tenant: "farm", headers: { "idempotency-key": "attempt-0001" }, payload: body({ customer_info: { email: "buyer@example.com", name: "Other" } }) });
    expect(b.body.payment_intent_id).toBe(a.body.payment_intent_id);
  });

  it("refusals: 401 without session, 403 tenant mismatch, 400 invalid input, 409 price changed, 422 past cutoff", async () => {
    const { token, user } = await buyer();
    expect((await call("POST", "/api/create-payment-intent", { tenant: "farm", payload: body() })).status).toBe(401);
    const mismatch = await call("POST", "/api/create-payment-intent", { token, tenant: "bakery", payload: body() });
    expect(mismatch.status).toBe(403);
    const invalid = await call("POST", "/api/create-payment-intent", { token, tenant: "farm", payload: body({ selection: { businessSlug: "farm" } }) });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toBe("Choose a package");
    const price = await call("POST", "/api/create-payment-intent", { token, tenant: "farm", payload: body({ amount: "12.00" }) });
    expect(price.status).toBe(409);
    expect(price.body.reason).toBe("price_mismatch");
    expect(await t.db.prisma.subscription.count({ where: { userId: user.id } })).toBe(0);

    await t.db.prisma.page.update({ where: { businessId: s.farm.id }, data: { cutoffDay: 3 } });
    try {
      const late = await call("POST", "/api/create-payment-intent", { token, tenant: "farm", payload: body() });
      expect(late.status).toBe(422);
      expect(late.body.reason).toBe("past_cutoff");
    } finally {
      await t.db.prisma.page.update({ where: { businessId: s.farm.id }, data: { cutoffDay: null } });
    }
  });

  it("POST /api/checkout: unpaid 422, missing payment intent 400, someone else's 404", async () => {
    const { token } = await buyer();
    const pi = await call("POST", "/api/create-payment-intent", { token, tenant: "farm", payload: body() });
    const unpaid = await call("POST", "/api/checkout", { token, tenant: "farm", payload: { payment_meta: { payment_intent_id: pi.body.payment_intent_id } } });
    expect(unpaid.status).toBe(422);
    expect((await call("POST", "/api/checkout", { token, tenant: "farm", payload: { payment_meta: {} } })).status).toBe(400);
    const other = await buyer();
    expect((await call("POST", "/api/checkout", { token: other.token, tenant: "farm", payload: { payment_meta: { payment_intent_id: pi.body.payment_intent_id } } })).status).toBe(404);
  });

  it("POST /api/my/payments/promote: 409 single_use_payment_method with a setup intent secret", async () => {
    const { token } = await buyer();
    const pi = await call("POST", "/api/create-payment-intent", { token, tenant: "farm", payload: body() });
    await sandbox(t).confirmPaymentIntent(pi.body.client_secret, card());
    // The card is attached to another customer: it cannot be kept for this member's renewals.
    const payment = await t.db.prisma.payment.findUniqueOrThrow({ where: { providerPaymentId: pi.body.payment_intent_id } });
    const intent = await sandbox(t).retrievePaymentIntent(payment.providerPaymentId);
    const row = await t.db.prisma.sandboxObject.findUniqueOrThrow({ where: { id: intent.paymentMethodId! } });
    await t.db.prisma.sandboxObject.update({ where: { id: row.id }, data: { data: { ...(row.data as object), customerId: null } } });
    const res = await call("POST", "/api/my/payments/promote", { token, tenant: "farm", payload: { payment_intent_id: pi.body.payment_intent_id } });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe("single_use_payment_method");
    expect(res.body.setup_intent_client_secret).toBeTypeOf("string");
  });

  it("POST /api/my/payments/promote: missing id 400; unknown 404; 401 without session", async () => {
    const { token } = await buyer();
    expect((await call("POST", "/api/my/payments/promote", { token, payload: {} })).status).toBe(400);
    expect((await call("POST", "/api/my/payments/promote", { token, payload: { payment_intent_id: "pi_nope" } })).status).toBe(404);
    expect((await call("POST", "/api/my/payments/promote", { payload: { payment_intent_id: "pi_nope" } })).status).toBe(401);
  });
});
