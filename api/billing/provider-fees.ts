/**
 * Fees collected (api/payouts/fees-collected.ts) with what the provider actually kept: the `fee` of each charge's
 * balance transaction, read here because api/payouts never calls the provider.
 */
import type { ServiceContext } from "../context.ts";
import { feesCollected, type FeesCollected } from "../payouts/fees-collected.ts";
import { allBalanceTransactions } from "./reconcile-run.ts";

export function feesCollectedOf(ctx: ServiceContext, month: string): Promise<FeesCollected> {
  return feesCollected(ctx, month, async (from, to) => {
    const txns = await allBalanceTransactions(ctx, from, to);
    return new Map(txns.filter((t) => t.type === "charge").map((t) => [t.source, t.feeCents]));
  });
}
