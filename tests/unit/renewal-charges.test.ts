/**
 * The Stripe provider's batch of renewal charges: Stripe has no batch endpoint, so each charge is its own
 * off-session payment intent with its own idempotency key, at most RENEWAL_CHARGE_CONCURRENCY in flight, and a
 * failing call stays with its charge. Checked against a stand-in for the SDK's paymentIntents.create.
 */
import type Stripe from "stripe";
import { describe, expect, it } from "vitest";
import type { SavedCardCharge } from "../../api/billing/providers/provider.ts";
import { settleEach } from "../../api/billing/providers/provider.ts";
import { RENEWAL_CHARGE_CONCURRENCY, StripeProvider } from "../../api/billing/providers/stripe/provider.ts";
import { nextRetryAt } from "../../api/billing/renewals/attempts.ts";

const charge = (i: number): SavedCardCharge => ({
  customerId: `cus_${i}`,
  paymentMethodId: "pm_card_visa",
  amountCents: 1000 + i,
  currency: "usd",
  idempotencyKey: `renewal:${i}:2026-04:1`,
  metadata: { subscription_id: String(i) },
});

describe("StripeProvider.chargeSavedCards", () => {
  it("one payment intent per charge with its own key, bounded concurrency, a failure kept to its charge", async () => {
    let inFlight = 0;
    let most = 0;
    const calls: { amount: number; key: string }[] = [];
    const fake = {
      paymentIntents: {
        async create(params: Stripe.PaymentIntentCreateParams, opts: Stripe.RequestOptions) {
          inFlight++;
          most = Math.max(most, inFlight);
          calls.push({ amount: params.amount, key: opts.idempotencyKey! });
          await new Promise((r) => setTimeout(r, 5));
          inFlight--;
          if (params.amount === 1007) throw new Error("connect ETIMEDOUT");
          return { id: `pi_${params.metadata!.subscription_id}`, status: "succeeded", amount: params.amount, currency: "usd", client_secret: "s", metadata: params.metadata };
        },
      },
    } as unknown as Stripe;
    const requests = Array.from({ length: 30 }, (_, i) => charge(i));
    const results = await new StripeProvider(fake).chargeSavedCards(requests);

    expect(calls.map((c) => c.key).sort()).toEqual(requests.map((r) => r.idempotencyKey).sort());
    expect(most).toBe(RENEWAL_CHARGE_CONCURRENCY);
    expect(results.map((r) => r.status)).toEqual(requests.map((_, i) => (i === 7 ? "rejected" : "fulfilled")));
    expect(results.map((r) => (r.status === "fulfilled" ? r.value.id : null))).toEqual(requests.map((_, i) => (i === 7 ? null : `pi_${i}`)));
  });
});

describe("settleEach", () => {
  it("keeps the order of its items whatever order their calls finish in", async () => {
    const results = await settleEach([30, 10, 20], 2, async (ms) => {
      await new Promise((r) => setTimeout(r, ms));
      return ms;
    });
    expect(results).toEqual([30, 10, 20].map((value) => ({ status: "fulfilled", value })));
    expect(await settleEach([], 4, async () => 1)).toEqual([]);
  });
});

describe("nextRetryAt", () => {
  it("retries 1, 3 and 7 days after the first declined attempt", () => {
    const first = new Date("2026-04-03T14:00:00Z");
    const attempts = (n: number) => Array.from({ length: n }, (_, i) => new Date(first.getTime() + i * 3_600_000));
    expect([1, 2, 3].map((n) => nextRetryAt(attempts(n)).toISOString())).toEqual(["2026-04-04T14:00:00.000Z", "2026-04-06T14:00:00.000Z", "2026-04-10T14:00:00.000Z"]);
  });
});
