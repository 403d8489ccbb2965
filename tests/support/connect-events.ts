import Stripe from "stripe";
import type { TestApp } from "./app.ts";

/**
 * What Stripe does with an event about a connected account (account.updated, payout.*): signs it with the Connect
 * endpoint's secret and posts it to /api/webhooks/stripe-connect. Answers the server's response.
 */
export function deliverConnectEvent(t: Pick<TestApp, "app">, event: object, secret: string) {
  const payload = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret });
  return t.app.inject({ method: "POST", url: "/api/webhooks/stripe-connect", headers: { "content-type": "application/json", "stripe-signature": signature }, payload });
}
