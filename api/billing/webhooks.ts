import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import Stripe from "stripe";
import type { ServiceContext, Log } from "../context.ts";
import type { Config } from "../config.ts";
import type { PrismaClient } from "../db.ts";
import type { Clock } from "../shared/clock.ts";
import { ConflictError } from "../shared/errors.ts";
import { SoldOutError } from "../catalog/capacity.ts";
import { settleCheckoutPayment } from "./checkout/complete.ts";
import { settleSignup } from "./checkout/next-month-signup.ts";
import { recordPayment, providerFor } from "./service.ts";
import { saveDefaultCard } from "./cards.ts";
import { applyAccountUpdate } from "./connect.ts";
import { connectedAccountInfo, payoutInfo } from "./providers/stripe/provider.ts";
import { recordAccountPayout } from "./payouts-sync.ts";
import type { PublicPageCache } from "../cache/public-pages.ts";
import { SYSTEM_ACTOR, writeEvents, type NewEvent } from "../events/outbox.ts";
import { localDate, yearMonthOf } from "../shared/calendar.ts";
import { globalId } from "../shared/global-id.ts";
import { refundEntry, writeLedger } from "../payouts/ledger.ts";

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
          if (!((e instanceof ConflictError && e.reason === "payment_refunded") || e instanceof SoldOutError)) throw e;
        });
      } else {
        const provider = providerFor(ctx);
        await recordPayment(ctx.db, await provider.retrievePaymentIntent(pi.id), {
          userId: payment.userId,
          businessId: payment.businessId,
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
      // A next-month sign-up whose browser closed before it completed: its membership is activated here.
      const signup = await ctx.db.subscription.findUnique({ where: { signupSetupIntentId: si.id }, select: { id: true, status: true } });
      if (signup?.status === "INCOMPLETE") {
        await settleSignup(ctx, signup.id);
        break;
      }
      const provider = providerFor(ctx);
      await saveDefaultCard(ctx, provider.name, user.id, await provider.describeCard(pmId));
      break;
    }
    case "charge.refunded": {
      const charge = event.data.object;
      const piId = typeof charge.payment_intent === "string" ? charge.payment_intent : charge.payment_intent?.id;
      const payment = piId ? await ctx.db.payment.findUnique({ where: { providerPaymentId: piId }, select: { id: true } }) : null;
      if (!payment) {
        outcome = "ignored";
        break;
      }
      // A refund made at the provider (the Dashboard): the payment's running total, and the business's books.
      await ctx.db.$transaction(async (tx) => {
        await tx.payment.update({ where: { id: payment.id }, data: { refundedCents: charge.amount_refunded } });
        const refundId = charge.refunds?.data?.[0]?.id ?? `${charge.id}:refunded:${charge.amount_refunded}`;
        const entry = await refundEntry(tx, { paymentId: payment.id, refundId, refundedTotalCents: charge.amount_refunded, at: ctx.clock.now() });
        if (entry) await writeLedger(tx, [entry]);
      });
      break;
    }
    case "invoice.paid":
    case "invoice.payment_failed":
      // Records the event id itself, in the transaction of its status change and events.
      return handleInvoice(ctx, event);
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

type StripeInvoice = Stripe.Invoice & { subscription?: string | { id: string } | null };

/**
 * Memberships imported with a Stripe Billing subscription (providerSubscriptionId) are invoiced by Stripe: mirror
 * its invoice's outcome on their status, and announce it, in one transaction with the event id's record (so a
 * concurrent redelivery rolls back whole: one status change, one set of events). A paid invoice makes no order
 * of ours (Stripe billed it, at its own price): it is `membership.invoice_paid.v1`, not `membership.renewed.v1`.
 */
async function handleInvoice(ctx: WebhookContext, event: Stripe.InvoicePaidEvent | Stripe.InvoicePaymentFailedEvent): Promise<"processed" | "duplicate" | "ignored"> {
  const invoice = event.data.object as StripeInvoice;
  const subId = typeof invoice.subscription === "string" ? invoice.subscription : invoice.subscription?.id;
  const paid = event.type === "invoice.paid";
  const now = ctx.clock.now();
  try {
    return await ctx.db.$transaction(async (tx) => {
      await tx.webhookEvent.create({ data: { id: event.id, provider: "stripe", type: event.type } });
      const subs = subId
        ? await tx.subscription.findMany({
            where: { providerSubscriptionId: subId, status: { not: "CANCELED" } },
            select: { id: true, userId: true, businessId: true, status: true, business: { select: { timeZone: true } } },
            orderBy: { id: "asc" },
          })
        : [];
      if (subs.length === 0) return "ignored";
      await tx.subscription.updateMany({ where: { id: { in: subs.map((s) => s.id) }, status: { not: "CANCELED" } }, data: { status: paid ? "ACTIVE" : "PAST_DUE" } });
      // The invoice's service period (its first line's), in the business's time zone.
      const periodStart = invoice.lines?.data?.[0]?.period?.start ?? invoice.created;
      const periodOf = (timeZone: string) => yearMonthOf(localDate(periodStart ? new Date(periodStart * 1000) : now, timeZone));
      const events = subs.flatMap((s): NewEvent[] => {
        const common = { businessId: s.businessId, objectId: globalId("Membership", s.id) };
        const period = periodOf(s.business.timeZone);
        if (paid) {
          const payload = { membershipId: s.id, userId: s.userId, invoiceId: invoice.id ?? "", amountCents: invoice.amount_paid ?? 0, period, previousStatus: s.status };
          return [{ ...common, type: "membership.invoice_paid.v1", payload }];
        }
        return [
          { ...common, type: "payment.failed.v1", payload: { paymentId: null, membershipId: s.id, userId: s.userId, amountCents: invoice.amount_due ?? 0, period, code: null } },
          { ...common, type: "membership.past_due.v1", payload: { membershipId: s.id, userId: s.userId, period, attempt: invoice.attempt_count ?? 1 } },
        ];
      });
      await writeEvents(tx, { at: now, actor: SYSTEM_ACTOR }, events);
      return "processed";
    });
  } catch (e) {
    // A concurrent delivery of the same event got here first; its effects are the same as ours.
    if ((e as { code?: string }).code === "P2002") return "duplicate";
    throw e;
  }
}

/**
 * Events of the businesses' connected accounts (a Connect endpoint: Stripe signs them with its own secret):
 * `account.updated` (onboarding finished, requirements due, charges or payouts paused) and the account's payouts
 * (`payout.created`, `payout.updated`, `payout.paid`, `payout.failed`, `payout.canceled`: the mirror, api/payouts/payouts.ts, where a
 * late or repeated report changes nothing). Each event once.
 */
async function handleConnectEvent(ctx: WebhookContext & { publicCache?: PublicPageCache }, event: Stripe.Event): Promise<"processed" | "duplicate" | "ignored"> {
  if (await ctx.db.webhookEvent.findUnique({ where: { id: event.id } })) return "duplicate";
  let outcome: "processed" | "ignored" = "ignored";
  switch (event.type) {
    case "account.updated":
      outcome = (await applyAccountUpdate(ctx, connectedAccountInfo(event.data.object))) ? "processed" : "ignored";
      break;
    case "payout.created":
    case "payout.updated":
    case "payout.paid":
    case "payout.failed":
    case "payout.canceled":
      // The connected account the payout belongs to is the event's `account`.
      if (event.account) outcome = (await recordAccountPayout(ctx, event.account, payoutInfo(event.data.object))) ? "processed" : "ignored";
      break;
    default:
      // Any other event of a connected account is not one we act on.
      break;
  }
  try {
    await ctx.db.webhookEvent.create({ data: { id: event.id, provider: "stripe", type: event.type } });
  } catch (e) {
    if ((e as { code?: string }).code !== "P2002") throw e;
    return "duplicate";
  }
  return outcome;
}

type WebhookDeps = { db: PrismaClient; clock: Clock; config: Config; log: Log; publicCache?: PublicPageCache };

/**
 * POST /api/webhooks/stripe (the platform's own events) and /api/webhooks/stripe-connect (its connected accounts'):
 * each verifies Stripe's signature on the raw body with its endpoint's secret, then handles the event.
 */
export function stripeWebhookRoute(deps: WebhookDeps): FastifyPluginAsync {
  const endpoint = (secretOf: (config: Config) => string | undefined, handle: (ctx: WebhookDeps, event: Stripe.Event) => Promise<string>) =>
    async (req: FastifyRequest, reply: FastifyReply) => {
      const secret = secretOf(deps.config);
      if (deps.config.paymentProvider !== "stripe" || !secret) return reply.status(404).send({ error: "Not found" });
      const signature = req.headers["stripe-signature"];
      let event: Stripe.Event;
      try {
        event = Stripe.webhooks.constructEvent(req.body as Buffer, String(signature ?? ""), secret);
      } catch {
        return reply.status(400).send({ error: "Invalid signature" });
      }
      const result = await handle({ ...deps, log: req.log }, event);
      return reply.send({ received: true, result });
    };
  return async (app) => {
    // The signature covers the exact bytes Stripe sent: keep the body raw in this route's scope.
    app.addContentTypeParser("application/json", { parseAs: "buffer" }, (_req, body, done) => done(null, body));
    app.post("/api/webhooks/stripe", endpoint((c) => c.stripe.webhookSecret, handleStripeEvent));
    app.post("/api/webhooks/stripe-connect", endpoint((c) => c.stripe.connectWebhookSecret, handleConnectEvent));
  };
}
