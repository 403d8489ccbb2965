import { builder } from "../builder.ts";
import { bpsToPercent } from "../../pages/content.ts";
import type { ItemisedPrice, PriceLine, PriceLineKind } from "../../billing/breakdown.ts";

const PRICE_LINE_KINDS = {
  PLAN: { description: "The plan at its pickup price (or its whole price when it has no pickup price)." },
  SURCHARGE: { description: "What the fulfillment mode adds over the pickup price (spec §9)." },
  ADDON: { description: "One add-on." },
  DISCOUNT: { description: "The coupon's discount (a negative amount)." },
  TAX: { description: "Tax at the business's rate." },
} as const satisfies Record<PriceLineKind, { description: string }>;

const PriceLineKindEnum = builder.enumType("PriceLineKind", { values: PRICE_LINE_KINDS });

const PriceLineRef = builder.objectRef<PriceLine>("PriceLine").implement({
  fields: (t) => ({
    kind: t.field({ type: PriceLineKindEnum, resolve: (l) => l.kind }),
    label: t.exposeString("label", { description: "As a receipt shows it: the plan's or add-on's name, \"Shipping\", \"Coupon WELCOME10\", \"Tax (5.75%)\"." }),
    amountCents: t.exposeInt("amountCents", { description: "Negative for the discount." }),
  }),
});

/** One priced breakdown for every place money is shown (checkout, change, restart, orders): docs/payments.md, "The breakdown". */
export const PriceBreakdownRef = builder.objectRef<ItemisedPrice>("PriceBreakdown").implement({
  description:
    "A price line by line, in cents, from the amounts that are charged: the lines sum to totalCents " +
    "(plan + surcharge + add-ons = subtotalCents; subtotal − discount + tax = total).",
  fields: (t) => ({
    lines: t.field({ type: [PriceLineRef], resolve: (b) => b.lines }),
    subtotalCents: t.exposeInt("subtotalCents"),
    couponCode: t.exposeString("couponCode", { nullable: true }),
    discountCents: t.exposeInt("discountCents"),
    taxRatePercent: t.float({ description: "0 when the business charges no tax.", resolve: (b) => bpsToPercent(b.taxRateBps) }),
    taxCents: t.exposeInt("taxCents"),
    totalCents: t.exposeInt("totalCents"),
  }),
});
