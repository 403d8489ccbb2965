/**
 * A business's own payout account (Stripe Connect Express, or the sandbox's `acct_sbx_`): the owner starts
 * onboarding from the Payouts page, the provider reports the account's state (Stripe's `account.updated` on the
 * Connect webhook, the sandbox's onboarding page, the owner's return), and one handler records it. The first time an
 * account is enabled fixes the month the business's charges start going to it (api/payouts/routing.ts).
 */
import type { Actor, ServiceContext } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { assertCan } from "../auth/policy.ts";
import { publicPageChanged, type PublicPageCache } from "../cache/public-pages.ts";
import { SYSTEM_ACTOR, eventActorOf, writeEvents } from "../events/outbox.ts";
import { accountStatus, connectFromPeriod } from "../payouts/routing.ts";
import { localDate, yearMonthOf } from "../shared/calendar.ts";
import { NotFoundError, RuleViolationError, ValidationError } from "../shared/errors.ts";
import { globalId } from "../shared/global-id.ts";
import type { ConnectedAccountInfo } from "./providers/provider.ts";
import { SandboxCardError } from "./providers/sandbox/cards.ts";
import { providerFor, sandboxFor } from "./service.ts";

/** `actor` absent: the provider told us (a webhook), and the system acts. */
type ConnectContext = Pick<ServiceContext, "db" | "clock" | "config" | "log"> & { actor?: Actor; publicCache?: PublicPageCache };

/** The Payouts page of a business, as the owner's app routes it. */
function payoutsPageUrl(ctx: Pick<ServiceContext, "config">, businessId: number, query: string): string {
  return `${ctx.config.publicScheme}://${ctx.config.publicHost}/admin/business/${businessId}/payouts?${query}`;
}

/**
 * Sends the owner to the provider's onboarding: the business's account is created once (idempotency key
 * `account:<business id>:1`, so a lost answer or a double click never makes a second one), then a fresh single-use
 * link (also for an enabled account: the owner updates what the provider holds). Answers where to go.
 */
export async function startPayoutOnboarding(ctx: ServiceContext, businessId: number): Promise<{ url: string; expiresAt: Date }> {
  await assertCan(ctx, businessId, "managePayouts");
  const business = await ctx.db.business.findUnique({
    where: { id: businessId },
    select: { id: true, name: true, paymentAccount: true, users: { where: { role: "OWNER" }, select: { user: { select: { email: true } } }, take: 1 } },
  });
  if (!business) throw new NotFoundError("Business");
  const provider = providerFor(ctx);
  let account = business.paymentAccount;
  if (account && account.provider !== provider.name) {
    throw new RuleViolationError(`This business's payout account is at ${account.provider}; the server now uses ${provider.name}.`, "provider_changed");
  }
  if (!account) {
    const created = await provider.createConnectedAccount({
      businessId,
      name: business.name,
      email: business.users[0]?.user.email ?? null,
      idempotencyKey: `account:${businessId}:1`,
    });
    account = await ctx.db.paymentAccount.upsert({
      where: { businessId },
      create: { businessId, provider: provider.name, accountId: created.id, requirementsDue: created.requirementsDue },
      update: {},
    });
  }
  return provider.createOnboardingLink({
    accountId: account.accountId,
    refreshUrl: payoutsPageUrl(ctx, businessId, "onboarding=refresh"),
    returnUrl: payoutsPageUrl(ctx, businessId, "onboarding=return"),
  });
}

/** The owner came back from onboarding (or pressed refresh): the provider's view of the account, recorded. */
export async function refreshPayoutAccount(ctx: ServiceContext, businessId: number) {
  await assertCan(ctx, businessId, "managePayouts");
  const account = await ctx.db.paymentAccount.findUnique({ where: { businessId } });
  if (!account) throw new NotFoundError("Payout account");
  await applyAccountUpdate(ctx, await providerFor(ctx).retrieveAccount(account.accountId));
  return ctx.db.paymentAccount.findUniqueOrThrow({ where: { businessId } });
}

/** Where the owner sees payouts and bank details at the provider (Stripe's Express dashboard). */
export async function payoutDashboardLink(ctx: ServiceContext, businessId: number): Promise<string> {
  await assertCan(ctx, businessId, "managePayouts");
  const account = await ctx.db.paymentAccount.findUnique({ where: { businessId } });
  if (!account?.chargesEnabled && !account?.payoutsEnabled) {
    throw new RuleViolationError("Finish setting up payouts first.", "payouts_not_set_up");
  }
  return (await providerFor(ctx).createDashboardLink(account.accountId)).url;
}

/**
 * The sandbox's onboarding page was submitted: what Stripe's hosted onboarding and its `account.updated` event do,
 * through the same handler. `bankAccount` is the number typed on the page (one of Stripe's test numbers decides
 * how its payouts end, see sandbox/balances.ts); left out, the account keeps its own. The sandbox checks it
 * (4 to 17 digits) before it spends the link, and a refusal is the field's error. Answers where the owner returns.
 */
export async function completeSandboxOnboarding(ctx: ConnectContext, linkId: string, opts: { leaveRequirementsDue: boolean; bankAccount?: string | null }): Promise<string> {
  const { account, returnUrl } = await sandboxFor(ctx)
    .completeOnboarding(linkId, { leaveRequirementsDue: opts.leaveRequirementsDue, bankAccount: opts.bankAccount?.trim() })
    .catch((e: unknown) => {
      if (e instanceof SandboxCardError && e.code === "invalid_bank_account") throw new ValidationError(e.message, [{ path: "bankAccount", message: e.message }]);
      throw e;
    });
  await applyAccountUpdate(ctx, account);
  return returnUrl;
}

/** What the sandbox's onboarding page shows before it is submitted. */
export function sandboxOnboardingLink(ctx: ConnectContext, linkId: string) {
  return sandboxFor(ctx).describeOnboardingLink(linkId);
}

/**
 * Records the provider's view of an account (once per change: a repeated report changes nothing and announces
 * nothing). The first time it is enabled, the business's charges go to it from this month if it has no payment in
 * this month yet, else from the next one, so a month's charges and their retries all go one way. Answers whether
 * anything changed; an account we do not know is ignored (false).
 */
export async function applyAccountUpdate(ctx: ConnectContext, info: ConnectedAccountInfo): Promise<boolean> {
  const now = ctx.clock.now();
  const status = accountStatus(info);
  const businessId = await ctx.db.$transaction(async (tx) => {
    const account = await tx.paymentAccount.findUnique({ where: { accountId: info.id }, include: { business: { select: { timeZone: true, connectFromPeriod: true } } } });
    if (!account) return null;
    const same =
      account.status === status &&
      account.chargesEnabled === info.chargesEnabled &&
      account.payoutsEnabled === info.payoutsEnabled &&
      account.requirementsDue.join() === info.requirementsDue.join();
    if (same) return null;
    await tx.paymentAccount.update({
      where: { id: account.id },
      data: { status, chargesEnabled: info.chargesEnabled, payoutsEnabled: info.payoutsEnabled, requirementsDue: info.requirementsDue, updatedAt: now },
    });
    if (status === "ENABLED" && account.business.connectFromPeriod === null) {
      await tx.business.update({ where: { id: account.businessId }, data: { connectFromPeriod: await firstConnectedPeriod(tx, account.businessId, account.business.timeZone, now) } });
    }
    await writeEvents(tx, { at: now, actor: ctx.actor ? eventActorOf(ctx.actor) : SYSTEM_ACTOR }, [
      {
        type: "payout_account.updated.v1",
        businessId: account.businessId,
        objectId: globalId("Business", account.businessId),
        payload: { businessId: account.businessId, status, chargesEnabled: info.chargesEnabled, payoutsEnabled: info.payoutsEnabled, requirementsDue: info.requirementsDue },
      },
    ]);
    return account.businessId;
  });
  if (businessId === null) return false;
  // Whether the business page takes members (Business.acceptingMembers) may have changed.
  await publicPageChanged(ctx, businessId);
  return true;
}

async function firstConnectedPeriod(tx: Prisma.TransactionClient, businessId: number, timeZone: string, now: Date): Promise<string> {
  const period = yearMonthOf(localDate(now, timeZone));
  // Payments are stamped with the domain clock; a month is at most 31 days, whatever the zone.
  const recent = await tx.payment.findMany({
    where: { businessId, createdAt: { gte: new Date(now.getTime() - 32 * 86_400_000) } },
    select: { createdAt: true, order: { select: { period: true } } },
  });
  const inPeriod = recent.some((p) => p.order?.period === period || yearMonthOf(localDate(p.createdAt, timeZone)) === period);
  return connectFromPeriod(period, inPeriod);
}
