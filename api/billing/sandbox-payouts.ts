/**
 * What Stripe's payout schedule and the banks do, for the sandbox (PAYMENT_PROVIDER=sandbox): one pass settles the
 * payouts whose arrival has come (paid, or failed back into the balance for Stripe's failing test bank numbers), on
 * a Monday in the business's time zone pays each enabled account's available balance out once, then copies every
 * account's payouts into the mirror (api/payouts/payouts.ts), which announces them. The `payouts-sandbox` job runs
 * it hourly and after the demo clock moves (api/jobs/payouts-sandbox-job.ts).
 */
import type { ServiceContext } from "../context.ts";
import { isPayoutDay, startOfToday } from "../payouts/payouts.ts";
import { SandboxCardError } from "./providers/sandbox/cards.ts";
import type { SandboxProvider } from "./providers/sandbox/provider.ts";
import { mirrorPayouts } from "./payouts-sync.ts";
import { sandboxFor } from "./service.ts";

type PassContext = Pick<ServiceContext, "db" | "clock" | "config" | "log">;

export interface SandboxPayoutReport {
  /** Payouts made (one per enabled account with money available, on its Monday). */
  paid: number;
  /** Payouts that arrived at the bank. */
  settled: number;
  /** Payouts the bank refused: their amount is back in the balance. */
  failed: number;
  /** Rows of the mirror created or moved on. */
  mirrored: number;
}

/** Codes of a payout the sandbox refuses for the account's state (not a fault of the pass): the account is passed by. */
const REFUSALS = new Set(["payouts_not_allowed", "balance_insufficient", "resource_missing"]);

/**
 * Pays the account's available balance out, when it is above zero and the account has had no payout yet today (a
 * second pass on the same Monday pays nothing). Answers whether it made one.
 */
async function payOut(sandbox: SandboxProvider, accountId: string, now: Date, timeZone: string): Promise<boolean> {
  const [latest] = (await sandbox.listPayouts(accountId, { limit: 1 })).payouts;
  if (latest && latest.createdAt >= startOfToday(now, timeZone)) return false;
  const { availableCents } = await sandbox.retrieveBalance(accountId);
  if (availableCents <= 0) return false;
  await sandbox.createSandboxPayout(accountId, availableCents, { at: now });
  return true;
}

/** One pass (see above). Stops between accounts when `signal` aborts, and throws, so the job is retried. */
export async function runSandboxPayouts(ctx: PassContext, signal?: AbortSignal): Promise<SandboxPayoutReport> {
  const sandbox = sandboxFor(ctx);
  const now = ctx.clock.now();
  const settledNow = await sandbox.settlePayouts(now);
  const report: SandboxPayoutReport = {
    paid: 0,
    settled: settledNow.filter((s) => s.payout.status === "paid").length,
    failed: settledNow.filter((s) => s.payout.status === "failed").length,
    mirrored: 0,
  };
  const accounts = await ctx.db.paymentAccount.findMany({
    where: { provider: "sandbox" },
    select: { businessId: true, accountId: true, provider: true, status: true, payoutsEnabled: true, business: { select: { timeZone: true } } },
    orderBy: { id: "asc" },
  });
  for (const account of accounts) {
    signal?.throwIfAborted();
    const { timeZone } = account.business;
    if (account.status === "ENABLED" && account.payoutsEnabled && isPayoutDay(now, timeZone)) {
      try {
        if (await payOut(sandbox, account.accountId, now, timeZone)) report.paid++;
      } catch (e) {
        if (!(e instanceof SandboxCardError && REFUSALS.has(e.code))) throw e;
        ctx.log.warn({ businessId: account.businessId, accountId: account.accountId, code: e.code }, "sandbox payout not made");
      }
    }
    report.mirrored += await mirrorPayouts(ctx, account);
  }
  return report;
}
