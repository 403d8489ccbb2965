import type { FastifyPluginAsync } from "fastify";
import Stripe from "stripe";
import type { ServiceContext, Log } from "../context.ts";
import type { Config } from "../config.ts";
import type { PrismaClient } from "../db.ts";
import type { Clock } from "../shared/clock.ts";
import { ConflictError } from "../shared/errors.ts";
import { settleCheckoutPayment } from "./checkout.ts";
import { recordPayment, providerFor } from "./service.ts";
import { saveDefaultCard } from "./cards.ts";

type WebhookContext = Pick<ServiceContext, "db" | "clock" | "config" | "log">;

/**
 * Stripe events, each handled once: the event id is recorded in the same breath as its effect, and every
 * effect is itself idempotent (settling a period creates its order once), so a redelivered event changes nothing.
 */
async function handleStripeEvent(ctx: WebhookContext, event: Stripe.Event): Promise<"processed" | "duplicate" | "ignored"> {
  const seen = await ctx.db.webhookEvent.findUnique({ where: { id: event.id } });
  if (seen) return "duplicate";

  let outcome: "processed" | "ignored" = "processed";
  switch (event.type) {
    case "payment_intent.succeeded":
    case "payment_intent.payment_failed":
    case "payment_intent.processing":
    case "payment_intent.requires_action": {
      const pi = event.data.object;
      const payment = await ctx.db.payment.findUnique({ where: { providerPaymentId: pi.id } });
      if (!payment) {
        outcome = "ignored";
        break;
      }
      if (event.type === "payment_intent.succeeded" && pi.metadata?.period) {
        // The member may have closed the tab before the client finished: settle from here. A payment that cannot
        // be matched is refunded by the settlement: the event is handled all the same.
        await settleCheckoutPayment(ctx, payment.id).catch((e: unknown) => {
          if (!(e instanceof ConflictError && e.reason === "payment_refunded")) throw e;
        });
      } else {
        const provider = providerFor(ctx);
        await recordPayment(ctx.db, await provider.retrievePaymentIntent(pi.id), {
          userId: payment.userId,
          subscriptionId: payment.subscriptionId,
          provider: provider.name,
          at: ctx.clock.now(),
        });
      }
      break;
    }
    case "setup_intent.succeeded": {
      const si = event.data.object;
      const customerId = typeof si.customer === "string" ? si.customer : si.customer?.id;
      const pmId = typeof si.payment_method === "string" ? si.payment_method : si.payment_method?.id;
      const user = customerId ? await ctx.db.user.findFirst({ where: { paymentCustomerId: customerId }, select: { id: true } }) : null;
      if (!user || !pmId) {
        outcome = "ignored";
        break;
      }
      const provider = providerFor(ctx);
      await saveDefaultCard(ctx, provider.name, user.id, await provider.describeCard(pmId));
      break;
    }
    case "charge.refunded": {
      const charge = event.data.object;
      const piId = typeof charge.payment_intent === "string" ? charge.payment_intent : charge.payment_intent?.id;
      const updated = piId
        ? await ctx.db.payment.updateMany({ where: { providerPaymentId: piId }, data: { refundedCents: charge.amount_refunded } })
        : { count: 0 };
      if (updated.count === 0) outcome = "ignored";
      break;
    }
    case "invoice.paid":
    case "invoice.payment_failed": {
      // Memberships imported with a Stripe Billing subscription (providerSubscriptionId): mirror its state.
      const invoice = event.data.object as Stripe.Invoice & { subscription?: string | { id: string } | null };
      const subId = typeof invoice.subscription === "string" ? invoice.subscription : invoice.subscription?.id;
      const updated = subId
        ? await ctx.db.subscription.updateMany({
            where: { providerSubscriptionId: subId, status: { not: "CANCELED" } },
            data: { status: event.type === "invoice.paid" ? "ACTIVE" : "PAST_DUE" },
          })
        : { count: 0 };
      if (updated.count === 0) outcome = "ignored";
      break;
    }
    default:
      outcome = "ignored";
  }
  try {
    await ctx.db.webhookEvent.create({ data: { id: event.id, provider: "stripe", type: event.type } });
  } catch (e) {
    // A concurrent delivery of the same event got here first; its effects are the same as ours.
    if ((e as { code?: string }).code !== "P2002") throw e;
    return "duplicate";
  }
  return outcome;
}

/** POST /api/webhooks/stripe: verifies Stripe's signature on the raw body, then handles the event. */
export function stripeWebhookRoute(deps: { db: PrismaClient; clock: Clock; config: Config; log: Log }): FastifyPluginAsync {
  return async (app) => {
    // The signature covers the exact bytes Stripe sent: keep the body raw in this route's scope.
    app.addContentTypeParser("application/json", { parseAs: "buffer" }, (_req, body, done) => done(null, body));
    app.post("/api/webhooks/stripe", async (req, reply) => {
      const secret = deps.config.stripe.webhookSecret;
      if (deps.config.paymentProvider !== "stripe" || !secret) return reply.status(404).send({ error: "Not found" });
      const signature = req.headers["stripe-signature"];
      let event: Stripe.Event;
      try {
        event = Stripe.webhooks.constructEvent(req.body as Buffer, String(signature ?? ""), secret);
      } catch {
        return reply.status(400).send({ error: "Invalid signature" });
      }
      const result = await handleStripeEvent({ ...deps, log: req.log }, event);
      return reply.send({ received: true, result });
    });
  };
}
