/**
 * Spec §7 checkout routes: create-payment-intent and create-subscription open the checkout (billing's
 * startCheckout), checkout completes it once paid (completeCheckout), promote keeps the card for renewals.
 * Amounts arrive in dollars; the server prices the selection itself and only compares.
 */
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import type { ServiceContext } from "../api/context.ts";
import { promotePaymentMethod, SingleUsePaymentMethodError } from "../api/billing/cards.ts";
import { checkoutAttemptKey, startCheckout } from "../api/billing/checkout/checkout.ts";
import { completeCheckout } from "../api/billing/checkout/complete.ts";
import { ValidationError } from "../api/shared/errors.ts";
import { dollarsToCents } from "../api/shared/money.ts";
import { ErrorBody } from "./openapi.ts";
import { Ok, type Router } from "./router.ts";
import { selectionPoint } from "./rows.ts";

const Mode = z.enum(["pickup", "shipping", "delivery"]);

/** The §3 membership selection as the checkout page stores it; only what pricing needs is read. */
const Selection = z
  .object({
    businessSlug: z.string({ error: "Choose a business" }).min(1, "Choose a business").max(100),
    chosenItemId: z.string({ error: "Choose a package" }).min(1, "Choose a package").max(100),
    mode: Mode.optional(),
    fulfillmentMode: Mode.optional(),
    chosenAddonIds: z.array(z.string().max(100)).max(50).optional(),
    chosenAddons: z.array(z.object({ id: z.string().max(100) }).loose()).max(50).optional(),
    couponCode: z.string().max(64).nullish(),
    email: z.string().max(254).nullish(),
    isGift: z.boolean().nullish(),
    address: z.record(z.string(), z.unknown()).nullish(),
    /** The chosen pickup point (pickup). */
    pickupAddress: z.string().max(500).nullish(),
    /** The chosen pickup point or delivery area; older clients' free text is not taken as one. */
    fulfillmentDetails: z.string().max(2000).nullish(),
    giftMessage: z.string().max(500).nullish(),
  })
  .loose();

const CustomerInfo = z.object({ email: z.string().max(254).nullish(), name: z.string().max(200).nullish() }).loose();

const Amount = z.union([z.number(), z.string()]).describe("dollars, as shown to the customer");

const CheckoutStart = z.object({ amount: Amount.optional(), selection: Selection, customer_info: CustomerInfo.optional() });

/** The client's Idempotency-Key header, if any (the checkout service decides what makes a key). */
function clientKey(req: FastifyRequest): string | undefined {
  const header = req.headers["idempotency-key"];
  return Array.isArray(header) ? header[0] : header;
}

async function start(ctx: ServiceContext, req: FastifyRequest, body: z.output<typeof CheckoutStart>) {
  const sel = body.selection;
  const mode = sel.mode ?? sel.fulfillmentMode;
  if (!mode) throw new ValidationError("Please choose a fulfillment mode", [{ path: "selection.mode", message: "Required" }]);
  let expectedTotalCents: number | undefined;
  if (body.amount !== undefined) {
    const cents = dollarsToCents(body.amount);
    if (cents === null || cents < 0) throw new ValidationError("Invalid amount", [{ path: "amount", message: "Invalid amount" }]);
    expectedTotalCents = cents;
  }
  const address = sel.address ? Object.fromEntries(Object.entries(sel.address).filter(([, v]) => typeof v === "string")) : undefined;
  // The key covers what decides the charge, so create-payment-intent and create-subscription of one checkout share it.
  const key = checkoutAttemptKey(ctx, clientKey(req), { amount: body.amount ?? null, selection: body.selection, customer_info: body.customer_info ?? null });
  return startCheckout(ctx, {
    selection: {
      businessSlug: sel.businessSlug,
      planRef: sel.chosenItemId,
      mode: mode.toUpperCase() as "PICKUP" | "SHIPPING" | "DELIVERY",
      addonRefs: sel.chosenAddonIds ?? sel.chosenAddons?.map((a) => a.id) ?? [],
      ...selectionPoint(sel, mode),
      couponCode: sel.couponCode ?? undefined,
    },
    email: body.customer_info?.email || sel.email || "",
    isGift: sel.isGift ?? false,
    giftMessage: sel.giftMessage ?? undefined,
    address,
    expectedTotalCents,
    idempotencyKey: key,
  });
}

export function checkoutRoutes(r: Router) {
  r.add({
    method: "POST",
    path: "/create-payment-intent",
    tag: "checkout",
    summary: "Opens the checkout: prices the selection and returns the payment intent's client secret (X-Tenant, bearer)",
    access: "member",
    body: CheckoutStart,
    response: z.object({ client_secret: z.string(), payment_intent_id: z.string(), subscription_id: z.number().int(), amount: z.number().describe("dollars") }),
    errors: [409, 422],
    handler: async (ctx, { body }, req) => {
      const s = await start(ctx, req, body);
      return { client_secret: s.clientSecret, payment_intent_id: s.paymentIntentId, subscription_id: s.subscriptionId, amount: s.quote.price.totalCents / 100 };
    },
  });

  r.add({
    method: "POST",
    path: "/create-subscription",
    tag: "checkout",
    summary: "The membership of this checkout (the same one create-payment-intent opened)",
    access: "member",
    body: CheckoutStart,
    response: z.object({ subscription_id: z.number().int() }),
    errors: [409, 422],
    handler: async (ctx, { body }, req) => ({ subscription_id: (await start(ctx, req, body)).subscriptionId }),
  });

  const PaymentMeta = z
    .object({
      payment_intent_id: z.string().max(200).optional(),
      paymentIntentId: z.string().max(200).optional(),
      payment_status: z.string().optional(),
    })
    .loose()
    .refine((m) => m.payment_intent_id || m.paymentIntentId, { message: "Missing payment intent id", path: ["payment_intent_id"] });

  r.add({
    method: "POST",
    path: "/checkout",
    tag: "checkout",
    summary: "Completes a paid checkout: saves the card, creates the order and activates the membership (idempotent)",
    access: "member",
    body: z.object({ selection: z.unknown().optional(), address: z.unknown().optional(), payment_meta: PaymentMeta }),
    response: z.object({
      order: z.object({
        id: z.number().int(),
        created_at: z.string(),
        message: z.string(),
        charged_amount: z.number().describe("dollars"),
        next_billing_date: z.string().describe("ISO date"),
      }),
    }),
    errors: [409, 422],
    handler: async (ctx, { body }) => {
      const done = await completeCheckout(ctx, { paymentIntentId: (body.payment_meta.payment_intent_id ?? body.payment_meta.paymentIntentId)! });
      return {
        order: {
          id: done.orderId,
          created_at: done.createdAt.toISOString(),
          message: `Your monthly subscription is now active. Next billing: ${done.nextBillingDate}`,
          charged_amount: done.chargedCents / 100,
          next_billing_date: done.nextBillingDate,
        },
      };
    },
  });

  r.add({
    method: "POST",
    path: "/my/payments/promote",
    tag: "checkout",
    summary: "Keeps the paid card for renewals; 409 single_use_payment_method with a setup intent secret when it cannot be kept",
    access: "member",
    body: z.object({ payment_intent_id: z.string({ error: "Missing payment_intent_id" }).min(1, "Missing payment_intent_id").max(200) }),
    response: Ok,
    errors: [409],
    errorBodies: {
      409: ErrorBody.extend({
        message: z.string().optional(),
        setup_intent_client_secret: z.string().optional().describe("With error single_use_payment_method: collect the card again with this setup intent"),
      }),
    },
    handler: async (ctx, { body }, _req, reply) => {
      try {
        await promotePaymentMethod(ctx, { paymentIntentId: body.payment_intent_id });
      } catch (e) {
        // Spec §7: the client reads `error` as the code and stores the secret to collect the card again.
        if (e instanceof SingleUsePaymentMethodError) {
          reply.status(409).send({ error: "single_use_payment_method", reason: e.reason, message: e.message, setup_intent_client_secret: e.setupIntentClientSecret });
          return { ok: true as const };
        }
        throw e;
      }
      return { ok: true as const };
    },
  });
}
