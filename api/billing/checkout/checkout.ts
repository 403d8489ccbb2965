import { createHash } from "node:crypto";
import { z } from "zod";
import type { ServiceContext } from "../../context.ts";
import type { FulfillmentMode } from "../../generated/prisma/client.ts";
import { requireMember, requireUser } from "../../auth/policy.ts";
import { MEMBER_STATUSES } from "../../rules/member.ts";
import { assertPlaceAvailable } from "../../catalog/capacity.ts";
import { variationFor } from "../../catalog/service.ts";
import { findCheckoutCoupon } from "../../coupons/redemption.ts";
import { discountCents } from "../../rules/pricing.ts";
import { couponChargeLimit } from "../../shared/coupon-terms.ts";
import { enteredAddressSchema } from "../../users/service.ts";
import { choosePoint, pointInDetails } from "../../rules/fulfillment-point.ts";
import { addMonths, isoDate, localDate, parseYearMonth } from "../../shared/calendar.ts";
import { ConflictError, NotFoundError, RuleViolationError, ValidationError } from "../../shared/errors.ts";
import { noBidiControls, parseInput } from "../../shared/validation.ts";
import { signupTerms } from "../../rules/dates.ts";
import { priceSelection, type PriceBreakdown } from "../../rules/pricing.ts";
import { providerFor, recordPayment } from "../service.ts";
import { IdempotencyKeyReused } from "../providers/provider.ts";
import { PurchaseSchema, type Purchase } from "./purchase.ts";
import { chargeRouting, periodRoutings, type ChargeRouting, type PeriodRouting } from "../../payouts/accounts.ts";
import { paymentsNotReady, routedRequest } from "../routing.ts";
import { lockMember, samePurchase } from "./settlement.ts";
import { openSignupSetup } from "./next-month-signup.ts";

/**
 * Checkout (spec §2 checkout, §4 payment, §5 cutoff): the server prices the selection from the catalogue,
 * coupon and tax settings, opens an INCOMPLETE membership with a payment intent, and activates it once the
 * provider reports the payment succeeded. Client-sent amounts are compared, never used.
 */

const SelectionSchema = z.object({
  businessSlug: z.string().trim().toLowerCase().min(1, "Choose a business"),
  /** Plan ref (spec chosenItemId, item_…). */
  planRef: z.string().trim().min(1, "Choose a package"),
  mode: z.enum(["PICKUP", "SHIPPING", "DELIVERY"]),
  /** Add-on refs (spec chosenAddonIds). */
  addonRefs: z.array(z.string().trim().min(1)).max(50).default([]),
  /** The pickup point (PICKUP) or delivery area (DELIVERY) chosen from the page's list (api/rules/fulfillment-point.ts). */
  fulfillmentPoint: z.string().max(500).optional(),
  /** The spec selection's free text (REST): taken as the point only when it names one exactly. */
  fulfillmentDetails: z.string().max(2000).optional(),
  couponCode: z
    .string()
    .trim()
    .toUpperCase()
    .max(40)
    .optional()
    .transform((c) => c || undefined),
});
export type SelectionInput = z.input<typeof SelectionSchema>;

const MODE_LABEL: Record<FulfillmentMode, string> = { PICKUP: "pickup", SHIPPING: "shipping", DELIVERY: "delivery" };

export interface Quote {
  /** Where the first charge goes, and what the platform keeps of it (never NOT_READY: such a quote is refused). */
  routing: ChargeRouting;
  business: { id: number; slug: string; name: string; timeZone: string };
  plan: { id: number; ref: string; name: string };
  mode: FulfillmentMode;
  /** The pickup point or delivery area ("" for shipping, or when the page lists none). */
  fulfillmentPoint: string;
  addons: { id: number; ref: string; name: string; amountCents: number }[];
  coupon: { id: number; code: string } | null;
  price: PriceBreakdown;
  /**
   * What the renewals charge at today's prices: the coupon's discounted renewals after this first charge (0 for a
   * coupon used once, null when every renewal is discounted or there is no coupon), then the full monthly total.
   */
  renewals: { discounted: number | null; fullTotalCents: number };
  /** The billing period the first charge pays for (YYYY-MM, business time zone): the first month with a box. */
  period: string;
  billingDay: number;
  /** ISO date of the first renewal. */
  nextBillingDate: string;
  /**
   * A sign-up past the cutoff at a business that takes them for next month: the card is saved today with
   * a setup intent, nothing is charged until `firstChargeDate`, the billing day of `period`.
   */
  startsNextMonth: boolean;
  /** ISO date of the first charge: today, or the billing day of `period` for a next-month sign-up. */
  firstChargeDate: string;
}

/**
 * Which sign-ups a channel takes: the GraphQL checkout takes next-month sign-ups past the cutoff where the business
 * allows them; REST's create-payment-intent answers a payment intent's secret, so it keeps §8's refusal everywhere.
 */
export interface QuoteOptions {
  nextMonthSignups?: boolean;
}

/**
 * Prices a selection and checks every rule a checkout must pass (cutoff, modes, add-on limit, coupon, a place
 * left: advisory here, decided when the payment settles).
 */
export async function quoteSelection(ctx: ServiceContext, input: SelectionInput, options: QuoteOptions = {}): Promise<Quote> {
  const sel = parseInput(SelectionSchema, input);
  const business = await ctx.db.business.findUnique({
    where: { slug: sel.businessSlug },
    include: { page: true },
  });
  if (!business) throw new NotFoundError("Business");
  const page = business.page;
  if (!page) throw new RuleViolationError("This business is not accepting members yet.", "not_configured");

  const today = localDate(ctx.clock.now(), business.timeZone);
  const terms = signupTerms(today, { cutoffDay: page.cutoffDay, billingDay: page.billingDay, afterCutoff: options.nextMonthSignups ? page.afterCutoff : "REFUSE" });
  if (terms.closedMessage) throw new RuleViolationError(terms.closedMessage, "past_cutoff");
  // Where the first charge goes (its period's routing; a next-month sign-up's is charged then, routed alike).
  const route = await periodRoute(ctx.db, business, terms.firstPeriod);

  const enabled = { PICKUP: page.pickupEnabled, SHIPPING: page.shippingEnabled, DELIVERY: page.deliveryEnabled };
  if (!enabled[sel.mode]) {
    throw new ValidationError(`This business does not offer ${MODE_LABEL[sel.mode]}.`, [{ path: "mode", message: "Fulfillment mode not offered" }]);
  }

  const plan = await ctx.db.plan.findFirst({
    where: { businessId: business.id, ref: sel.planRef, listed: true, archivedAt: null },
    include: { variations: true },
  });
  if (!plan) throw new ValidationError("This package is no longer available.", [{ path: "planRef", message: "Unknown package" }]);
  const variation = variationFor(plan, sel.mode);
  if (!variation) {
    throw new ValidationError(`This package is not available for ${MODE_LABEL[sel.mode]}.`, [{ path: "mode", message: "No price for this mode" }]);
  }
  const fulfillmentPoint = choosePoint(page, sel.mode, sel.fulfillmentPoint || pointInDetails(page, sel.mode, sel.fulfillmentDetails));
  await assertPlaceAvailable(ctx.db, { planId: plan.id, mode: sel.mode }, null, { lock: false });

  const refs = [...new Set(sel.addonRefs)];
  const addons = refs.length
    ? await ctx.db.addon.findMany({ where: { businessId: business.id, ref: { in: refs }, listed: true, archivedAt: null } })
    : [];
  if (addons.length !== refs.length) {
    throw new ValidationError("An add-on you chose is no longer available.", [{ path: "addonRefs", message: "Unknown add-on" }]);
  }
  if (page.addonLimit > 0 && addons.length > page.addonLimit) {
    throw new ValidationError(`You can choose at most ${page.addonLimit} add-on${page.addonLimit === 1 ? "" : "s"}.`, [
      { path: "addonRefs", message: "Too many add-ons" },
    ]);
  }
  // Keep the customer's order of add-ons.
  addons.sort((a, b) => refs.indexOf(a.ref) - refs.indexOf(b.ref));

  // The business's own code, else the platform's; refused alike by the quote and the checkout (one message).
  const coupon = sel.couponCode ? await findCheckoutCoupon(ctx, sel.couponCode, { business, planId: plan.id, now: ctx.clock.now() }) : null;
  const undiscounted = {
    planAmountCents: variation.amountCents,
    pickupAmountCents: variationFor(plan, "PICKUP")?.amountCents ?? null,
    addonAmountsCents: addons.map((a) => a.amountCents),
    taxRateBps: page.taxEnabled ? page.taxRateBps : null,
  };
  const price = priceSelection({ ...undiscounted, discountFor: coupon ? (subtotal) => discountCents(coupon, subtotal) : undefined });
  const couponCharges = coupon ? couponChargeLimit(coupon) : null;
  const next = addMonths(parseYearMonth(terms.firstPeriod), 1);
  return {
    routing: chargeRouting(route, price.totalCents),
    business: { id: business.id, slug: business.slug, name: business.name, timeZone: business.timeZone },
    plan: { id: plan.id, ref: plan.ref, name: plan.name },
    mode: sel.mode,
    fulfillmentPoint,
    addons: addons.map((a) => ({ id: a.id, ref: a.ref, name: a.name, amountCents: a.amountCents })),
    coupon: coupon ? { id: coupon.id, code: coupon.code } : null,
    price,
    renewals: {
      discounted: couponCharges === null ? null : couponCharges - 1,
      fullTotalCents: coupon ? priceSelection(undiscounted).totalCents : price.totalCents,
    },
    period: terms.firstPeriod,
    billingDay: page.billingDay,
    nextBillingDate: isoDate({ ...next, day: page.billingDay }),
    startsNextMonth: terms.startsNextMonth,
    firstChargeDate: isoDate(terms.firstChargeDate),
  };
}

/** A business's routing for a sign-up's first period, refused when it cannot take the charge. */
async function periodRoute(db: ServiceContext["db"], business: { id: number; name: string }, period: string): Promise<PeriodRouting> {
  const routing = (await periodRoutings(db, [business.id], period)).get(business.id);
  if (!routing || routing.route.kind === "NOT_READY") throw paymentsNotReady(business.name);
  return routing;
}

const StartCheckoutSchema = z.object({
  email: z.string().trim().toLowerCase().email("Please enter a valid email address").max(254),
  isGift: z.boolean().default(false),
  /** Kept only for a gift (packed with the box). */
  giftMessage: noBidiControls("The gift message").trim().max(500, "The gift message can be at most 500 characters").default(""),
  address: enteredAddressSchema.optional(),
  /** What the client showed the customer; a different server total refuses the checkout. */
  expectedTotalCents: z.number().int().nonnegative().optional(),
  /** Chosen once per checkout attempt by the client: repeating it never opens a second payment. */
  idempotencyKey: z.string().trim().min(8).max(100),
});
export type StartCheckoutInput = { selection: SelectionInput } & z.input<typeof StartCheckoutSchema>;

export interface StartedCheckout {
  subscriptionId: number;
  /** PAYMENT: a payment intent for the first period; SETUP: a next-month sign-up's setup intent (the card is only saved). */
  intent: "PAYMENT" | "SETUP";
  /** The intent's id and client secret (a setup intent's for SETUP). */
  paymentIntentId: string;
  clientSecret: string;
  quote: Quote;
}

/**
 * One checkout attempt's idempotency key: the client's own (8 to 100 characters), or else one derived from the
 * member and what they asked for (keys sorted), so an identical double submit, or a second call of the same
 * checkout, reuses the same payment instead of opening another.
 */
export function checkoutAttemptKey(ctx: ServiceContext, clientKey: string | undefined, request: unknown): string {
  const given = clientKey?.trim();
  if (given && given.length >= 8 && given.length <= 100) return `key:${given}`;
  const userId = requireUser(ctx).user.id;
  const canonical = JSON.stringify(request, (_k, v) => (v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort()) : v));
  return `body:${createHash("sha256").update(`${userId}\n${canonical}`).digest("hex").slice(0, 40)}`;
}

/**
 * Opens a checkout: an INCOMPLETE membership holding the priced selection and a payment intent for the
 * first period. The same idempotency key returns the same checkout; a new attempt for the same business
 * replaces an unfinished one instead of adding a second membership.
 */
export async function startCheckout(ctx: ServiceContext, input: StartCheckoutInput, options: QuoteOptions = {}): Promise<StartedCheckout> {
  const { selection, ...rest } = input;
  const data = parseInput(StartCheckoutSchema, rest);
  const quote = await quoteSelection(ctx, selection, options);
  const actor = requireMember(ctx, quote.business.slug);
  const userId = actor.user.id;
  const idempotencyKey = `checkout:${userId}:${data.idempotencyKey}`;

  const user = await ctx.db.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true, name: true, paymentCustomerId: true } });
  const provider = providerFor(ctx);
  const selected = {
    planId: quote.plan.id,
    mode: quote.mode,
    fulfillmentPoint: quote.fulfillmentPoint,
    planAmountCents: quote.price.planAmountCents,
    modeSurchargeCents: quote.price.modeSurchargeCents,
    addonsAmountCents: quote.price.addonsAmountCents,
    discountCents: quote.price.discountCents,
    taxCents: quote.price.taxCents,
    totalCents: quote.price.totalCents,
    taxRateBps: quote.price.taxRateBps,
    couponId: quote.coupon?.id ?? null,
    billingDay: quote.billingDay,
    isGift: data.isGift,
    giftMessage: data.isGift ? data.giftMessage : "",
    address: data.address ?? null,
    email: data.email,
  };
  // What this attempt's payment buys: settling it activates exactly this, whatever a later attempt chose.
  const purchase: Purchase = { ...selected, addons: quote.addons.map((a) => ({ addonId: a.id, amountCents: a.amountCents })) };

  const repeated = await ctx.db.payment.findUnique({ where: { idempotencyKey } });
  if (repeated?.subscriptionId) {
    if (!repeated.purchase || !samePurchase(PurchaseSchema.parse(repeated.purchase), purchase)) throw keyReused();
    const intent = await provider.retrievePaymentIntent(repeated.providerPaymentId);
    return { subscriptionId: repeated.subscriptionId, intent: "PAYMENT", paymentIntentId: intent.id, clientSecret: intent.clientSecret, quote };
  }
  if (data.expectedTotalCents !== undefined && data.expectedTotalCents !== quote.price.totalCents) {
    throw new ConflictError("The price of your selection has changed. Please review your order.", "price_mismatch");
  }
  const customerId = await provider.ensureCustomer({ userId, email: user.email ?? data.email, name: user.name, existingId: user.paymentCustomerId });

  const { address, ...columns } = selected;
  const row = {
    ...columns,
    status: "INCOMPLETE" as const,
    address: address ?? undefined,
    paymentProvider: provider.name,
    startedAt: ctx.clock.now(),
    firstPeriod: quote.startsNextMonth ? quote.period : null,
    signupSetupIntentId: null,
  };
  const subscriptionId = await ctx.db.$transaction(async (tx) => {
    // Under the member's lock, as settlement: a membership opened meanwhile (another tab, a restart) is seen here.
    await lockMember(tx, userId);
    const active = await tx.subscription.findFirst({
      where: { userId, businessId: quote.business.id, status: { in: [...MEMBER_STATUSES] } },
      select: { id: true },
    });
    if (active) throw new ConflictError("You already have an active membership with this business. Use Change Box to change it.", "already_member");
    if (customerId !== user.paymentCustomerId) await tx.user.update({ where: { id: userId }, data: { paymentCustomerId: customerId } });
    // An unfinished earlier attempt at this business is reused, so a member never ends up with two; its own
    // payment still buys what it was created for.
    const unfinished = await tx.subscription.findFirst({
      where: { userId, businessId: quote.business.id, status: "INCOMPLETE" },
      orderBy: { id: "desc" },
      select: { id: true },
    });
    if (unfinished) {
      await tx.subscriptionAddon.deleteMany({ where: { subscriptionId: unfinished.id } });
      await tx.subscription.update({ where: { id: unfinished.id }, data: { ...row, addons: { create: purchase.addons } } });
      return unfinished.id;
    }
    const created = await tx.subscription.create({
      data: { ...row, userId, businessId: quote.business.id, addons: { create: purchase.addons } },
      select: { id: true },
    });
    return created.id;
  });

  if (quote.startsNextMonth) {
    // Nothing is charged today: the card is saved (next-month-signup.ts completes the membership once it is).
    const setup = await openSignupSetup(ctx, { subscriptionId, customerId, idempotencyKey });
    return { subscriptionId, intent: "SETUP", paymentIntentId: setup.id, clientSecret: setup.clientSecret, quote };
  }
  const intent = await provider
    .createPaymentIntent({
      customerId,
      amountCents: quote.price.totalCents,
      currency: "usd",
      idempotencyKey,
      saveForFuture: true,
      ...routedRequest(quote.routing, {
        subscription_id: String(subscriptionId),
        business_id: String(quote.business.id),
        user_id: String(userId),
        period: quote.period,
        kind: "INITIAL",
      }),
    })
    .catch((e: unknown) => {
      // The key opened a payment for other parameters (a first attempt whose payment was never recorded).
      throw e instanceof IdempotencyKeyReused ? keyReused() : e;
    });
  // A provider that answers a key it has seen with its first intent: one made for another selection is not this one.
  if (intent.amountCents !== purchase.totalCents) throw keyReused();
  const record = (linked: number | null) =>
    recordPayment(ctx.db, intent, { userId, businessId: quote.business.id, subscriptionId: linked, provider: provider.name, idempotencyKey, purchase, at: ctx.clock.now(), actor: ctx.actor });
  try {
    await record(subscriptionId);
  } catch (e) {
    if ((e as { code?: string }).code !== "P2003") throw e;
    // A restart at this business settled meanwhile and this checkout gave way (its membership is gone): the intent
    // stays on record without one, so paying it anyway is refunded.
    await record(null);
    throw new ConflictError("You already have a membership at this business.", "already_member");
  }
  return { subscriptionId, intent: "PAYMENT", paymentIntentId: intent.id, clientSecret: intent.clientSecret, quote };
}

/** A client reused one attempt's idempotency key for another selection (each attempt must use its own). */
function keyReused() {
  return new ConflictError("This checkout was started with another selection. Please review your order and pay again.", "idempotency_key_reused");
}
