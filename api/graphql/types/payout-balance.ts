/** A business's balance at the provider and its payouts: Business.balance, Business.payouts (managePayouts). */
import { builder } from "../builder.ts";
import { PayoutStatus } from "../../generated/prisma/enums.ts";
import { businessBalance, type BusinessBalance } from "../../billing/payouts-sync.ts";
import { payoutFailureReason } from "../../shared/payout-failures.ts";

const PayoutStatusEnum = builder.enumType(PayoutStatus, {
  name: "PayoutStatus",
  description: "PENDING → IN_TRANSIT → PAID (at the bank), or FAILED (the amount is back in the balance) or CANCELED.",
});

const PayoutBalanceRef = builder.objectRef<BusinessBalance>("PayoutBalance").implement({
  description: "The business's money at the payment provider (its own figures: the provider's balance, never ours).",
  fields: (t) => ({
    availableCents: t.exposeInt("availableCents", { description: "What the next payout takes; below zero when refunds took back more than the account held." }),
    pendingCents: t.exposeInt("pendingCents", { description: "Charges not yet available (the provider holds them a few days)." }),
    nextPayoutDate: t.exposeString("nextPayoutDate", {
      nullable: true,
      description: "The day of the next payout (YYYY-MM-DD, a Monday in the business's time zone); null while the account cannot send payouts.",
    }),
  }),
});

const PayoutRef = builder.prismaObject("Payout", {
  description: "A payout from the business's account to its bank, as the provider reported it.",
  fields: (t) => ({
    databaseId: t.exposeInt("id"),
    providerPayoutId: t.exposeString("providerPayoutId", { description: "The payout's id at the provider (po_…)." }),
    amountCents: t.exposeInt("amountCents"),
    status: t.expose("status", { type: PayoutStatusEnum }),
    arrivalDate: t.exposeString("arrivalDate", { description: "The day the bank is expected to have it, or had it (YYYY-MM-DD)." }),
    failureCode: t.exposeString("failureCode", { nullable: true, description: "The provider's failure code; null unless failed." }),
    failureReason: t.string({
      nullable: true,
      description: "Why it failed, in words; null unless failed.",
      select: { failureCode: true, failureMessage: true },
      resolve: (p) => (p.status === "FAILED" ? payoutFailureReason(p.failureCode, p.failureMessage) : null),
    }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the provider made it." }),
  }),
});

builder.prismaObjectFields("Business", (t) => ({
  balance: t.field({
    type: PayoutBalanceRef,
    nullable: true,
    description: "The business's balance at the payment provider and its next payout day (owners and administrators); null without a payout account.",
    authScopes: (b) => ({ business: { id: b.id, permission: "managePayouts" } }),
    resolve: (b, _a, ctx) => businessBalance(ctx, b.id),
  }),
  payouts: t.relatedConnection("payouts", {
    cursor: "id",
    nullable: true,
    description: "Payouts to the business's bank, newest first (owners and administrators).",
    authScopes: (b) => ({ business: { id: b.id, permission: "managePayouts" } }),
    query: { orderBy: [{ createdAt: "desc" }, { id: "desc" }] },
    type: PayoutRef,
  }),
}));
