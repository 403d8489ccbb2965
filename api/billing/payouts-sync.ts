/**
 * The provider's side of a business's payouts (api/payouts/payouts.ts keeps the mirror): its balance, read from the
 * provider each time (the mirror is never a balance), its payouts copied into the mirror, and Stripe's Connect
 * payout events recorded. The provider calls live here, so api/payouts/ receives plain data.
 */
import type { ServiceContext } from "../context.ts";
import { isFinalPayoutStatus, isPayoutDay, mirroredStatuses, nextPayoutDate, paidSince, payoutStatusOf, recordPayout, startOfToday } from "../payouts/payouts.ts";
import type { PayoutInfo } from "./providers/provider.ts";
import { providerFor } from "./service.ts";

type PayoutsContext = Pick<ServiceContext, "db" | "clock" | "config">;

/** A business's money at the provider, and when it is next paid out. */
export interface BusinessBalance {
  availableCents: number;
  pendingCents: number;
  /** YYYY-MM-DD in the business's time zone; null while the account cannot send payouts. */
  nextPayoutDate: string | null;
}

/**
 * The business's balance as the provider reports it, and the day of its next payout (Mondays, see
 * api/payouts/payouts.ts) while its account is enabled and may send payouts. Null without an account at this
 * provider. Callers check `managePayouts`.
 */
export async function businessBalance(ctx: PayoutsContext, businessId: number): Promise<BusinessBalance | null> {
  const provider = providerFor(ctx);
  const account = await ctx.db.paymentAccount.findUnique({ where: { businessId }, select: { accountId: true, provider: true, status: true, payoutsEnabled: true, business: { select: { timeZone: true } } } });
  if (!account || account.provider !== provider.name) return null;
  const { availableCents, pendingCents } = await provider.retrieveBalance(account.accountId);
  if (account.status !== "ENABLED" || !account.payoutsEnabled) return { availableCents, pendingCents, nextPayoutDate: null };
  const now = ctx.clock.now();
  const { timeZone } = account.business;
  const paidToday = isPayoutDay(now, timeZone) && (await paidSince(ctx.db, businessId, startOfToday(now, timeZone)));
  return { availableCents, pendingCents, nextPayoutDate: nextPayoutDate(now, timeZone, paidToday) };
}

/**
 * A payout the provider reported for a connected account (a Connect event): recorded in its business's mirror.
 * Answers whether anything changed; an account we do not know is ignored (false).
 */
export async function recordAccountPayout(ctx: PayoutsContext, accountId: string, payout: PayoutInfo): Promise<boolean> {
  const account = await ctx.db.paymentAccount.findUnique({ where: { accountId }, select: { businessId: true, provider: true } });
  if (!account) return false;
  return (await recordPayout(ctx, account.businessId, account.provider, payout)) !== "unchanged";
}

/** Pages of the provider's payout list read per account and pass at most (100 each): the newest 10,000. */
const MAX_PAGES = 100;

/**
 * Copies an account's payouts from the provider into the mirror, oldest first (so the mirror's ids follow the
 * payouts' order). The provider lists newest first; the walk stops after a page whose payouts the mirror already
 * holds in a final status (payouts settle in the order they are made). Answers how many rows it created or moved.
 */
export async function mirrorPayouts(ctx: PayoutsContext, account: { businessId: number; accountId: string; provider: string }): Promise<number> {
  const provider = providerFor(ctx);
  const toRecord: PayoutInfo[] = [];
  let after: string | undefined;
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const page = await provider.listPayouts(account.accountId, { after, limit: 100 });
    const known = await mirroredStatuses(ctx.db, page.payouts.map((p) => p.id));
    const changed = page.payouts.filter((p) => known.get(p.id) !== payoutStatusOf(p.status));
    toRecord.push(...changed);
    const allFinal = page.payouts.every((p) => {
      const status = known.get(p.id);
      return status !== undefined && isFinalPayoutStatus(status);
    });
    if (!page.hasMore || allFinal) break;
    after = page.payouts.at(-1)!.id;
  }
  let recorded = 0;
  for (const payout of toRecord.reverse()) {
    if ((await recordPayout(ctx, account.businessId, account.provider, payout)) !== "unchanged") recorded++;
  }
  return recorded;
}
