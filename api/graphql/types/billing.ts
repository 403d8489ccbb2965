import { builder } from "../builder.ts";
import { payloadQuery } from "../payload-query.ts";
import { RULE_ERRORS, ErrorInterface } from "../errors.ts";
import { FulfillmentModeEnum } from "./catalog.ts";
import { AddressInput } from "./users.ts";
import { MembershipNode } from "./memberships/membership.ts";
import { ValidationError } from "../../shared/errors.ts";
import { bpsToPercent } from "../../pages/content.ts";
import type { PaymentIntentInfo, SetupIntentInfo } from "../../billing/providers/provider.ts";
import { SandboxCardError } from "../../billing/providers/sandbox/cards.ts";
import { quoteSelection, startCheckout, type Quote, type StartedCheckout as StartedCheckoutResult } from "../../billing/checkout/checkout.ts";
import { completeCheckout, type CompletedCheckout as CompletedCheckoutResult } from "../../billing/checkout/complete.ts";
import { defaultCardOf, finishCardUpdate, promotePaymentMethod, SingleUsePaymentMethodError, startCardUpdate } from "../../billing/cards.ts";
import { sandboxFor } from "../../billing/service.ts";
import { completeSignup } from "../../billing/checkout/next-month-signup.ts";
import { itemiseQuote } from "../../billing/breakdown.ts";
import { PriceBreakdownRef } from "./price-breakdown.ts";

const CheckoutSelectionInput = builder.inputType("CheckoutSelectionInput", {
  fields: (t) => ({
    businessSlug: t.string({ required: true }),
    planRef: t.string({ required: true, description: "The package's ref (item_…), spec chosenItemId." }),
    mode: t.field({ type: FulfillmentModeEnum, required: true }),
    addonRefs: t.stringList({ required: true, defaultValue: [] }),
    fulfillmentPoint: t.string({
      description: "The pickup point (PICKUP) or delivery area (DELIVERY), one of the page's list; may be omitted when the list has one entry.",
    }),
    couponCode: t.string(),
  }),
});

const QuoteAddon = builder.objectRef<Quote["addons"][number]>("CheckoutQuoteAddon").implement({
  fields: (t) => ({ ref: t.exposeString("ref"), name: t.exposeString("name"), amountCents: t.exposeInt("amountCents") }),
});

const CheckoutQuote = builder.objectRef<Quote>("CheckoutQuote").implement({
  description: "The server's price for a selection: what the order summary shows and what will be charged.",
  fields: (t) => ({
    businessSlug: t.string({ resolve: (q) => q.business.slug }),
    planRef: t.string({ resolve: (q) => q.plan.ref }),
    planName: t.string({ resolve: (q) => q.plan.name }),
    mode: t.field({ type: FulfillmentModeEnum, resolve: (q) => q.mode }),
    fulfillmentPoint: t.string({ description: "The pickup point or delivery area the membership takes (empty for shipping).", resolve: (q) => q.fulfillmentPoint }),
    addons: t.field({ type: [QuoteAddon], resolve: (q) => q.addons }),
    planAmountCents: t.int({ resolve: (q) => q.price.planAmountCents }),
    addonsAmountCents: t.int({ resolve: (q) => q.price.addonsAmountCents }),
    subtotalCents: t.int({ resolve: (q) => q.price.subtotalCents }),
    couponCode: t.string({ nullable: true, resolve: (q) => q.coupon?.code ?? null }),
    discountCents: t.int({ resolve: (q) => q.price.discountCents }),
    taxRatePercent: t.float({ resolve: (q) => bpsToPercent(q.price.taxRateBps) }),
    taxCents: t.int({ resolve: (q) => q.price.taxCents }),
    totalCents: t.int({ resolve: (q) => q.price.totalCents }),
    discountedRenewals: t.int({
      nullable: true,
      description:
        "Renewals the coupon still discounts after the first charge, at totalCents (0: the coupon is used once); null when every renewal is discounted, or without a coupon.",
      resolve: (q) => q.renewals.discounted,
    }),
    fullTotalCents: t.int({
      description: "The monthly total without the coupon: what renewals charge once its months are used (totalCents without a coupon).",
      resolve: (q) => q.renewals.fullTotalCents,
    }),
    breakdown: t.field({
      type: PriceBreakdownRef,
      description: "The same price line by line (plan, surcharge, add-ons, coupon, tax): what the order summary shows.",
      resolve: (q) => itemiseQuote({ planName: q.plan.name, mode: q.mode, price: q.price, addons: q.addons, couponCode: q.coupon?.code ?? null }),
    }),
    period: t.string({ description: "Billing period (YYYY-MM) of the first charge: the first month with a box.", resolve: (q) => q.period }),
    startsNextMonth: t.boolean({
      description: "A sign-up past the cutoff at a business that takes them for next month: nothing is charged today, the card is saved.",
      resolve: (q) => q.startsNextMonth,
    }),
    firstChargeDate: t.string({ description: "ISO date of the first charge: today, or the billing day of period for a next-month sign-up.", resolve: (q) => q.firstChargeDate }),
    billingDay: t.int({ resolve: (q) => q.billingDay }),
    nextBillingDate: t.string({ description: "ISO date of the first renewal.", resolve: (q) => q.nextBillingDate }),
  }),
});

const StartCheckoutInput = builder.inputType("StartCheckoutInput", {
  fields: (t) => ({
    selection: t.field({ type: CheckoutSelectionInput, required: true }),
    email: t.string({ required: true }),
    isGift: t.boolean({ defaultValue: false }),
    giftMessage: t.string({ description: "Packed with a gift box (up to 500 characters); ignored when isGift is false." }),
    address: t.field({ type: AddressInput }),
    expectedTotalCents: t.int({ description: "The total the customer was shown; a different server total refuses." }),
    idempotencyKey: t.string({ required: true, description: "One per checkout attempt; repeating it never pays twice." }),
  }),
});

const CheckoutIntentEnum = builder.enumType("CheckoutIntent", {
  values: {
    PAYMENT: { description: "A payment intent for the first period: confirm the payment (stripe.confirmCardPayment / confirmSandboxPayment)." },
    SETUP: { description: "A next-month sign-up: nothing is charged today; save the card (stripe.confirmCardSetup / confirmSandboxSetup)." },
  } as const,
});

const StartedCheckout = builder
  .objectRef<StartedCheckoutResult>("StartedCheckout")
  .implement({
    fields: (t) => ({
      intent: t.field({ type: CheckoutIntentEnum, resolve: (s) => s.intent }),
      paymentIntentId: t.exposeString("paymentIntentId", { description: "The intent's id (a setup intent's when intent is SETUP): completeCheckout takes it." }),
      clientSecret: t.exposeString("clientSecret", { description: "Confirm it with the card form (Stripe.js or the sandbox form)." }),
      quote: t.field({ type: CheckoutQuote, resolve: (s) => s.quote }),
      membership: t.prismaField({
        type: MembershipNode,
        nullable: true,
        description:
          "The unfinished membership this checkout pays for; null once it gave way to a membership started meanwhile (a restart at the same business), in which case paying this checkout is refunded.",
        resolve: (query, s, _a, ctx) => ctx.db.subscription.findUnique({ ...query, where: { id: s.subscriptionId } }),
      }),
    }),
  });

const PaidCard = builder.objectRef<{ brand: string; last4: string }>("PaidCard").implement({
  description: "The card a payment was made with.",
  fields: (t) => ({ brand: t.exposeString("brand", { description: "visa, mastercard, amex, …" }), last4: t.exposeString("last4") }),
});

const CompletedCheckout = builder
  .objectRef<CompletedCheckoutResult>("CompletedCheckout")
  .implement({
    fields: (t) => ({
      chargedCents: t.exposeInt("chargedCents"),
      card: t.field({ type: PaidCard, nullable: true, description: "The card that paid (null for a free period).", resolve: (c) => c.card }),
      receiptEmail: t.exposeString("receiptEmail", { description: "Where the receipt was sent (empty when the member has no email address)." }),
      nextBillingDate: t.exposeString("nextBillingDate", { description: "ISO date of the next charge (a next-month sign-up's first charge)." }),
      firstPeriod: t.exposeString("firstPeriod", { description: "The first month with a box (YYYY-MM)." }),
      createdAt: t.expose("createdAt", { type: "DateTime" }),
      order: t.prismaField({
        type: "Order",
        nullable: true,
        description: "The first period's order; null for a next-month sign-up (nothing is charged until its first month).",
        resolve: (query, c, _a, ctx) => (c.orderId === null ? null : ctx.db.order.findUniqueOrThrow({ ...query, where: { id: c.orderId } })),
      }),
      membership: t.prismaField({
        type: MembershipNode,
        resolve: (query, c, _a, ctx) => ctx.db.subscription.findUniqueOrThrow({ ...query, where: { id: c.subscriptionId } }),
      }),
    }),
  });

const PaymentErrorRef = builder.objectRef<{ code: string; message: string }>("PaymentError").implement({
  fields: (t) => ({ code: t.exposeString("code"), message: t.exposeString("message") }),
});

const PaymentIntentRef = builder.objectRef<PaymentIntentInfo>("PaymentIntent").implement({
  description: "A payment intent as the card form sees it (Stripe's shape).",
  fields: (t) => ({
    id: t.exposeString("id"),
    status: t.exposeString("status", { description: "succeeded, requires_action, requires_payment_method, …" }),
    amountCents: t.exposeInt("amountCents"),
    lastError: t.field({ type: PaymentErrorRef, nullable: true, resolve: (i) => i.lastError }),
  }),
});

const SandboxCardInput = builder.inputType("SandboxCardInput", {
  description: "A Stripe test card (sandbox provider only; real cards are refused).",
  fields: (t) => ({
    number: t.string({ required: true }),
    expMonth: t.int({ required: true }),
    expYear: t.int({ required: true }),
    cvc: t.string({ required: true }),
  }),
});

/** Card form errors (number, expiry, CVC) become validation errors the form shows beside the card. */
async function sandboxStep<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof SandboxCardError) throw new ValidationError(e.message, [{ path: "card", message: e.message }]);
    throw e;
  }
}

const PaymentConfig = builder.objectRef<{ provider: string; publishableKey: string | null }>("PaymentConfig").implement({
  fields: (t) => ({
    provider: t.exposeString("provider", { description: "sandbox or stripe: which card form the client shows." }),
    publishableKey: t.exposeString("publishableKey", { nullable: true }),
  }),
});

builder.queryFields((t) => ({
  paymentConfig: t.field({
    type: PaymentConfig,
    resolve: (_p, _a, ctx) => ({
      provider: ctx.config.paymentProvider,
      publishableKey: ctx.config.paymentProvider === "stripe" ? (ctx.config.stripe.publishableKey ?? null) : null,
    }),
  }),
  checkoutQuote: t.field({
    type: CheckoutQuote,
    errors: { types: RULE_ERRORS },
    description: "Price a selection (order summary) and check it can be bought today (cutoff, modes, add-on limit, coupon).",
    args: { selection: t.arg({ type: CheckoutSelectionInput, required: true }) },
    resolve: (_p, { selection }, ctx) =>
      quoteSelection(ctx, { ...selection, fulfillmentPoint: selection.fulfillmentPoint ?? undefined, couponCode: selection.couponCode ?? undefined }, { nextMonthSignups: true }),
  }),
}));

builder.mutationFields((t) => ({
  startCheckout: t.field({
    type: StartedCheckout,
    errors: { types: RULE_ERRORS },
    args: { input: t.arg({ type: StartCheckoutInput, required: true }) },
    resolve: (_p, { input }, ctx) =>
      startCheckout(ctx, {
        selection: { ...input.selection, fulfillmentPoint: input.selection.fulfillmentPoint ?? undefined, couponCode: input.selection.couponCode ?? undefined },
        email: input.email,
        isGift: input.isGift ?? false,
        giftMessage: input.giftMessage ?? undefined,
        address: input.address ? Object.fromEntries(Object.entries(input.address).filter(([, v]) => v != null)) : undefined,
        expectedTotalCents: input.expectedTotalCents ?? undefined,
        idempotencyKey: input.idempotencyKey,
      }, { nextMonthSignups: true }),
  }),
  completeCheckout: t.field({
    type: CompletedCheckout,
    errors: { types: RULE_ERRORS },
    description:
      "Activate the membership once its payment intent has succeeded, or (a next-month sign-up, StartedCheckout.intent SETUP) once its " +
      "setup intent saved the card (idempotent). Give exactly one of the two ids.",
    args: { paymentIntentId: t.arg.string(), setupIntentId: t.arg.string() },
    resolve: (_p, { paymentIntentId, setupIntentId }, ctx) => {
      if (!paymentIntentId === !setupIntentId) {
        throw new ValidationError("Give either the payment intent or the setup intent of the checkout.", [{ path: "paymentIntentId", message: "Exactly one of paymentIntentId and setupIntentId" }]);
      }
      return setupIntentId ? completeSignup(ctx, { setupIntentId }) : completeCheckout(ctx, { paymentIntentId: paymentIntentId! });
    },
  }),
  confirmSandboxPayment: t.field({
    type: PaymentIntentRef,
    errors: { types: [ValidationError] },
    description: "Sandbox provider: what stripe.confirmCardPayment does, with a Stripe test card.",
    args: { clientSecret: t.arg.string({ required: true }), card: t.arg({ type: SandboxCardInput, required: true }) },
    resolve: (_p, { clientSecret, card }, ctx) => sandboxStep(() => sandboxFor(ctx).confirmPaymentIntent(clientSecret, card)),
  }),
  completeSandboxChallenge: t.field({
    type: PaymentIntentRef,
    errors: { types: [ValidationError] },
    description: "Sandbox provider: the simulated 3-D Secure challenge for cards that require authentication.",
    args: { clientSecret: t.arg.string({ required: true }), succeed: t.arg.boolean({ required: true }) },
    resolve: (_p, { clientSecret, succeed }, ctx) =>
      sandboxStep(() => sandboxFor(ctx).completeChallenge(clientSecret, succeed ? "complete" : "fail")),
  }),
}));

// ---- saved cards ------------------------------------------------------------------------------------------

const SavedCard = builder.prismaObject("PaymentMethod", {
  name: "SavedCard",
  description: "The card renewals charge.",
  fields: (t) => ({
    brand: t.exposeString("brand"),
    last4: t.exposeString("last4"),
    expMonth: t.exposeInt("expMonth"),
    expYear: t.exposeInt("expYear"),
  }),
});

builder.prismaObjectFields("User", (t) => ({
  paymentMethod: t.field({
    type: SavedCard,
    nullable: true,
    description: "The default card for renewals, if one is saved.",
    resolve: (user, _a, ctx) => defaultCardOf(ctx, user.id),
  }),
}));

builder.objectType(SingleUsePaymentMethodError, {
  name: "SingleUsePaymentMethodError",
  interfaces: [ErrorInterface],
  isTypeOf: (o) => o instanceof SingleUsePaymentMethodError,
  fields: (t) => ({
    setupIntentClientSecret: t.exposeString("setupIntentClientSecret", { description: "Confirm it with the card form to save the card." }),
  }),
});

const SetupIntentRef = builder.objectRef<SetupIntentInfo>("SetupIntent").implement({
  description: "A setup intent as the card form sees it (Stripe's shape).",
  fields: (t) => ({
    id: t.exposeString("id"),
    status: t.exposeString("status"),
    lastError: t.field({ type: PaymentErrorRef, nullable: true, resolve: (i) => i.lastError }),
  }),
});

const CardUpdate = builder.objectRef<{ clientSecret: string; setupIntentId: string }>("CardUpdate").implement({
  fields: (t) => ({ clientSecret: t.exposeString("clientSecret"), setupIntentId: t.exposeString("setupIntentId") }),
});

builder.mutationFields((t) => ({
  startCardUpdate: t.field({
    type: CardUpdate,
    errors: { types: RULE_ERRORS },
    description: "Card update, step 1: a setup intent to confirm with the new card.",
    resolve: (_p, _a, ctx) => startCardUpdate(ctx),
  }),
  confirmSandboxSetup: t.field({
    type: SetupIntentRef,
    errors: { types: [ValidationError] },
    description: "Sandbox provider: what stripe.confirmCardSetup does, with a Stripe test card.",
    args: { clientSecret: t.arg.string({ required: true }), card: t.arg({ type: SandboxCardInput, required: true }) },
    resolve: (_p, { clientSecret, card }, ctx) => sandboxStep(() => sandboxFor(ctx).confirmSetupIntent(clientSecret, card)),
  }),
  finishCardUpdate: t.prismaField({
    type: SavedCard,
    errors: { types: RULE_ERRORS },
    description: "Card update, step 2: the confirmed card becomes the one renewals charge.",
    args: { setupIntentId: t.arg.string({ required: true }) },
    resolve: async (query, _p, { setupIntentId }, ctx) => {
      const saved = await finishCardUpdate(ctx, { setupIntentId });
      return ctx.db.paymentMethod.findUniqueOrThrow({ ...payloadQuery(query), where: { id: saved.id } });
    },
  }),
  promotePaymentMethod: t.prismaField({
    type: SavedCard,
    errors: { types: [...RULE_ERRORS, SingleUsePaymentMethodError] },
    description: "Keep the card of a successful payment for renewals (legacy checkout step).",
    args: { paymentIntentId: t.arg.string({ required: true }) },
    resolve: async (query, _p, { paymentIntentId }, ctx) => {
      const saved = await promotePaymentMethod(ctx, { paymentIntentId });
      return ctx.db.paymentMethod.findUniqueOrThrow({ ...payloadQuery(query), where: { id: saved.id } });
    },
  }),
}));
