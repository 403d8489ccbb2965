/** Fees collected per business in a month (administrators: /admin/fees). */
import { builder } from "../builder.ts";
import { globalId } from "../../shared/global-id.ts";
import { feesCollectedOf } from "../../billing/provider-fees.ts";
import type { BusinessFeesCollected, FeesCollected } from "../../payouts/fees-collected.ts";

type Amounts = FeesCollected["totals"];

const FeeAmountsRef = builder.interfaceRef<Amounts>("FeeAmounts").implement({
  description: "A month's fees: of one business, or of all of them.",
  fields: (t) => ({
    chargeCount: t.exposeInt("chargeCount", { description: "Charges in the month." }),
    platformFeeCents: t.exposeInt("platformFeeCents", { description: "Platform fees of the month's charges." }),
    processingFeeCents: t.exposeInt("processingFeeCents", { description: "Processing fees collected on the month's charges." }),
    feesRefundedCents: t.exposeInt("feesRefundedCents", { description: "Fees given back with the month's refunds (zero or positive)." }),
    providerFeeCents: t.exposeInt("providerFeeCents", { description: "What the payment provider kept as its fee on the month's charges." }),
    netCents: t.exposeInt("netCents", { description: "Platform + processing collected − refunded − the provider's fees." }),
  }),
});

const FeesCollectedTotalsRef = builder.objectRef<Amounts>("FeesCollectedTotals").implement({
  description: "Fees collected over every business of the month.",
  interfaces: [FeeAmountsRef],
});

const BusinessFeesCollectedRef = builder.objectRef<BusinessFeesCollected>("BusinessFeesCollected").implement({
  description: "One business's fees in a month of its time zone (the month of its statement).",
  interfaces: [FeeAmountsRef],
  fields: (t) => ({
    businessId: t.id({ resolve: (b) => globalId("Business", b.businessId) }),
    businessName: t.exposeString("businessName"),
    businessSlug: t.exposeString("businessSlug"),
    timeZone: t.exposeString("timeZone"),
  }),
});

const FeesCollectedRef = builder.objectRef<FeesCollected>("FeesCollected").implement({
  description: "The platform's fees of a month, per business and in total.",
  fields: (t) => ({
    month: t.exposeString("month", { description: "YYYY-MM." }),
    businesses: t.field({ type: [BusinessFeesCollectedRef], resolve: (f) => f.businesses }),
    totals: t.field({ type: FeesCollectedTotalsRef, resolve: (f) => f.totals }),
  }),
});

builder.queryFields((t) => ({
  feesCollected: t.field({
    type: FeesCollectedRef,
    authScopes: { admin: true },
    description: "Fees collected in a month (YYYY-MM, each business's time zone), per business (admins).",
    args: { month: t.arg.string({ required: true }) },
    resolve: (_p, { month }, ctx) => feesCollectedOf(ctx, month),
  }),
}));
