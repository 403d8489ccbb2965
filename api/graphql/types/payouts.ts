import { builder } from "../builder.ts";
import { COMMON_ERRORS, RULE_ERRORS } from "../errors.ts";
import { numericId } from "../ids.ts";
import { LedgerKind, PaymentAccountStatus } from "../../generated/prisma/enums.ts";
import { can } from "../../auth/policy.ts";
import { SandboxCardError } from "../../billing/providers/sandbox/cards.ts";
import * as connect from "../../billing/connect.ts";
import { localDate, yearMonthOf } from "../../shared/calendar.ts";
import { NotFoundError, ValidationError } from "../../shared/errors.ts";
import { firstSchedulableMonth, listFeeSchedules, ratesInForce, scheduleFee } from "../../payouts/schedules.ts";
import type { FeeRates } from "../../payouts/fees.ts";

const PayoutAccountStatusEnum = builder.enumType(PaymentAccountStatus, {
  name: "PayoutAccountStatus",
  description: "ONBOARDING: setup not finished (Finish setup); ENABLED: takes charges and sends payouts; RESTRICTED: the provider holds charges or payouts back.",
});

const PayoutAccount = builder.prismaObject("PaymentAccount", {
  name: "PayoutAccount",
  description: "A business's own account at the payment provider, where its members' charges go (owners and administrators).",
  fields: (t) => ({
    accountId: t.exposeString("accountId", { description: "The provider's id (acct_…)." }),
    provider: t.exposeString("provider"),
    status: t.expose("status", { type: PayoutAccountStatusEnum }),
    chargesEnabled: t.exposeBoolean("chargesEnabled"),
    payoutsEnabled: t.exposeBoolean("payoutsEnabled"),
    requirementsDue: t.exposeStringList("requirementsDue", { description: "What the provider still needs (its requirement codes)." }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
  }),
});

const FeeRatesRef = builder.objectRef<FeeRates>("FeeRates").implement({
  description: "A fee schedule's rates: each fee a rate in basis points (500 = 5 %) plus fixed cents, on the amount charged.",
  fields: (t) => ({
    platformBps: t.exposeInt("platformBps"),
    platformCents: t.exposeInt("platformCents"),
    processingBps: t.exposeInt("processingBps"),
    processingCents: t.exposeInt("processingCents"),
  }),
});

const currentPeriod = (ctx: { clock: { now(): Date } }, timeZone: string) => yearMonthOf(localDate(ctx.clock.now(), timeZone));

export const LedgerKindEnum = builder.enumType(LedgerKind, { name: "LedgerKind" });

const LedgerEntry = builder.prismaObject("LedgerEntry", {
  description: "The business's books: one routed charge or refund, written once; gross = platform fee + processing fee + net (a refund's are negative).",
  fields: (t) => ({
    databaseId: t.exposeInt("id"),
    kind: t.expose("kind", { type: LedgerKindEnum }),
    providerId: t.exposeString("providerId", { description: "The charge's or refund's id at the provider." }),
    period: t.exposeString("period", { description: "The month the charge paid for (YYYY-MM)." }),
    occurredAt: t.expose("occurredAt", { type: "DateTime" }),
    grossCents: t.exposeInt("grossCents"),
    platformFeeCents: t.exposeInt("platformFeeCents"),
    processingFeeCents: t.exposeInt("processingFeeCents"),
    netCents: t.exposeInt("netCents"),
  }),
});

builder.prismaObjectFields("Business", (t) => ({
  ledgerEntries: t.relatedConnection("ledgerEntries", {
    cursor: "id",
    nullable: true,
    description: "The business's books, newest first (owners and administrators).",
    authScopes: (b) => ({ business: { id: b.id, permission: "managePayouts" } }),
    query: { orderBy: { id: "desc" } },
    type: LedgerEntry,
  }),
  viewerCanManagePayouts: t.boolean({
    description: "The viewer may connect and see this business's payout account (owners and administrators).",
    resolve: (b, _a, ctx) => can(ctx, b.id, "managePayouts"),
  }),
  payoutAccount: t.relation("paymentAccount", {
    type: PayoutAccount,
    nullable: true,
    description: "The business's payout account; null before onboarding began.",
    authScopes: (b) => ({ business: { id: b.id, permission: "managePayouts" } }),
  }),
  connectFromPeriod: t.string({
    nullable: true,
    description: "The first month (YYYY-MM) whose charges go to the business's own account; null until the account is first enabled.",
    authScopes: (b) => ({ business: { id: b.id, permission: "managePayouts" } }),
    select: { connectFromPeriod: true },
    resolve: (b) => b.connectFromPeriod,
  }),
  currentPeriod: t.string({
    description: "This month (YYYY-MM) in the business's time zone, on the server's clock: the month a statement opens on.",
    select: { timeZone: true },
    resolve: (b, _a, ctx) => currentPeriod(ctx, b.timeZone),
  }),
  feeRates: t.field({
    type: FeeRatesRef,
    nullable: true,
    description: "The fees the platform keeps of this month's charges (the business's time zone).",
    authScopes: (b) => ({ business: { id: b.id, permission: "managePayouts" } }),
    select: { timeZone: true },
    resolve: (b, _a, ctx) => ratesInForce(ctx, b.id, currentPeriod(ctx, b.timeZone)),
  }),
}));

const FeeSchedule = builder.prismaObject("FeeSchedule", {
  description: "Platform fees from a month on: for one business, or the platform's default (business null).",
  fields: (t) => ({
    databaseId: t.exposeInt("id"),
    business: t.relation("business", { nullable: true }),
    effectivePeriod: t.exposeString("effectivePeriod", { description: "The first month it applies to (YYYY-MM)." }),
    platformBps: t.exposeInt("platformBps"),
    platformCents: t.exposeInt("platformCents"),
    processingBps: t.exposeInt("processingBps"),
    processingCents: t.exposeInt("processingCents"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

const OnboardingLink = builder.objectRef<{ url: string; expiresAt: Date }>("PayoutOnboardingLink").implement({
  description: "Where the owner gives the provider what it needs: single use, valid a few minutes.",
  fields: (t) => ({ url: t.exposeString("url"), expiresAt: t.expose("expiresAt", { type: "DateTime" }) }),
});

const SandboxOnboarding = builder.objectRef<{ accountId: string; businessName: string; usable: boolean }>("SandboxOnboardingLink").implement({
  description: "The sandbox's stand-in for the provider's hosted onboarding page.",
  fields: (t) => ({
    accountId: t.exposeString("accountId"),
    businessName: t.exposeString("businessName"),
    usable: t.exposeBoolean("usable", { description: "False once used or after five minutes: start again from the Payouts page." }),
  }),
});

/** The sandbox's link errors as the page shows them. */
async function sandboxStep<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof SandboxCardError) throw e.code === "resource_missing" ? new NotFoundError("Onboarding link") : new ValidationError(e.message, [{ path: "link", message: e.message }]);
    throw e;
  }
}

builder.queryFields((t) => ({
  feeSchedules: t.prismaField({
    type: [FeeSchedule],
    authScopes: { admin: true },
    description: "Every platform fee schedule: the default's first, then per business, by month (administrators).",
    resolve: (_q, _p, _a, ctx) => listFeeSchedules(ctx),
  }),
  firstSchedulableMonth: t.string({
    authScopes: { admin: true },
    description: "The earliest month a new fee schedule may start (no business concerned has begun it).",
    args: { businessId: t.arg.id({ required: false }) },
    resolve: (_p, { businessId }, ctx) => firstSchedulableMonth(ctx, businessId == null ? null : numericId(businessId, "Business", "businessId")),
  }),
  sandboxOnboardingLink: t.field({
    type: SandboxOnboarding,
    description: "Sandbox provider: the onboarding page of a connected account (anyone holding the link, as Stripe's).",
    args: { link: t.arg.string({ required: true }) },
    resolve: (_p, { link }, ctx) => sandboxStep(() => connect.sandboxOnboardingLink(ctx, link)),
  }),
}));

const ScheduleFeeInput = builder.inputType("ScheduleFeeInput", {
  fields: (t) => ({
    businessId: t.id({ required: false, description: "Left out: the platform's default." }),
    effectivePeriod: t.string({ required: true, description: "YYYY-MM, a month no business concerned has begun." }),
    platformBps: t.int({ required: true }),
    platformCents: t.int({ required: true }),
    processingBps: t.int({ required: true }),
    processingCents: t.int({ required: true }),
  }),
});

const BusinessIdInput = (name: string) => builder.inputType(name, { fields: (t) => ({ businessId: t.id({ required: true }) }) });

builder.mutationFields((t) => ({
  startPayoutOnboarding: t.field({
    type: OnboardingLink,
    errors: { types: RULE_ERRORS },
    description: "Creates the business's payout account once, and answers a fresh onboarding link (owners and administrators).",
    args: { input: t.arg({ type: BusinessIdInput("StartPayoutOnboardingInput"), required: true }) },
    resolve: (_p, { input }, ctx) => connect.startPayoutOnboarding(ctx, numericId(input.businessId, "Business", "businessId")),
  }),
  refreshPayoutAccount: t.prismaField({
    type: PayoutAccount,
    errors: { types: RULE_ERRORS },
    description: "Reads the account's state from the provider (the owner's return from onboarding) and records it.",
    args: { input: t.arg({ type: BusinessIdInput("RefreshPayoutAccountInput"), required: true }) },
    resolve: (_q, _p, { input }, ctx) => connect.refreshPayoutAccount(ctx, numericId(input.businessId, "Business", "businessId")),
  }),
  payoutDashboardLink: t.string({
    errors: { types: RULE_ERRORS },
    description: "Where the owner sees payouts and bank details at the provider.",
    args: { input: t.arg({ type: BusinessIdInput("PayoutDashboardLinkInput"), required: true }) },
    resolve: (_p, { input }, ctx) => connect.payoutDashboardLink(ctx, numericId(input.businessId, "Business", "businessId")),
  }),
  completeSandboxOnboarding: t.string({
    errors: { types: COMMON_ERRORS },
    description: "Sandbox provider: submits the onboarding page (leaveRequirementsDue: the account stays restricted). Answers the return URL.",
    args: {
      link: t.arg.string({ required: true }),
      leaveRequirementsDue: t.arg.boolean({ defaultValue: false }),
      bankAccount: t.arg.string({
        required: false,
        description: "The bank account number its payouts go to: 4 to 17 digits, one of Stripe's test numbers deciding how they end. Left out: the account keeps its own.",
      }),
    },
    resolve: (_p, { link, leaveRequirementsDue, bankAccount }, ctx) =>
      sandboxStep(() => connect.completeSandboxOnboarding(ctx, link, { leaveRequirementsDue: leaveRequirementsDue ?? false, bankAccount })),
  }),
  scheduleFee: t.prismaField({
    type: FeeSchedule,
    errors: { types: COMMON_ERRORS },
    authScopes: { admin: true },
    description: "Sets platform fees from a month on, for one business or the default (administrators).",
    args: { input: t.arg({ type: ScheduleFeeInput, required: true }) },
    resolve: (_q, _p, { input }, ctx) =>
      scheduleFee(ctx, { ...input, businessId: input.businessId == null ? null : numericId(input.businessId, "Business", "businessId") }),
  }),
}));
