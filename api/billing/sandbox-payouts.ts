/**
 * What Stripe's payout schedule and the banks do, for the sandbox (PAYMENT_PROVIDER=sandbox): one pass makes the
 * payouts each enabled account is owed (its available balance, once each Monday in the business's time zone, the
 * Mondays a late pass missed included: api/payouts/payouts.ts `payoutTimes`), settles the payouts whose arrival
 * has come (paid, or failed back into the balance for Stripe's failing test bank numbers), then copies every
 * account's payouts into the mirror (api/payouts/payouts.ts), which announces them. The `payouts-sandbox` job runs
 * it hourly and after the demo clock moves (api/jobs/payouts-sandbox-job.ts); any pass after a Monday makes that
 * Monday's payouts, so a pass absorbed by another (the queue keeps one waiting) loses nothing.
 */
import type { ServiceContext } from "../context.ts";
import { payoutTimes } from "../payouts/payouts.ts";
import { SandboxCardError } from "./providers/sandbox/cards.ts";
import type { SandboxProvider } from "./providers/sandbox/provider.ts";
import { mirrorPayouts } from "./payouts-sync.ts";
import { sandboxFor } from "./service.ts";

type PassContext = Pick<ServiceContext, "db" | "clock" | "config" | "log">;

export interface SandboxPayoutReport {
  /** Payouts made (one per enabled account with money available, on each of its Mondays). */
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

type Settled = Awaited<ReturnType<SandboxProvider["settlePayouts"]>>;

/**
 * Makes the account's payouts owed by `now`, oldest first: at each payout time, what arrived by then is settled
 * (a failed payout's amount is back before the next Monday's), and the balance available then, when above zero,
 * is paid out. Answers how many it made, and what it settled on the way.
 */
async function payOut(sandbox: SandboxProvider, accountId: string, now: Date, timeZone: string): Promise<{ paid: number; settled: Settled }> {
  const [latest] = (await sandbox.listPayouts(accountId, { limit: 1 })).payouts;
  const settled: Settled = [];
  let paid = 0;
  for (const at of payoutTimes(now, timeZone, latest?.createdAt ?? null)) {
    settled.push(...(await sandbox.settlePayouts(at)));
    const { availableCents } = await sandbox.retrieveBalance(accountId, { at });
    if (availableCents <= 0) continue;
    await sandbox.createSandboxPayout(accountId, availableCents, { at });
    paid++;
  }
  return { paid, settled };
}

/** One pass (see above). Stops between accounts when `signal` aborts, and throws, so the job is retried. */
export async function runSandboxPayouts(ctx: PassContext, signal?: AbortSignal): Promise<SandboxPayoutReport> {
  const sandbox = sandboxFor(ctx);
  const now = ctx.clock.now();
  const accounts = await ctx.db.paymentAccount.findMany({
    where: { provider: "sandbox" },
    select: { businessId: true, accountId: true, provider: true, status: true, payoutsEnabled: true, business: { select: { timeZone: true } } },
    orderBy: { id: "asc" },
  });
  const settled: Settled = [];
  let paid = 0;
  for (const account of accounts) {
    signal?.throwIfAborted();
    if (account.status !== "ENABLED" || !account.payoutsEnabled) continue;
    try {
      const made = await payOut(sandbox, account.accountId, now, account.business.timeZone);
      paid += made.paid;
      settled.push(...made.settled);
    } catch (e) {
      if (!(e instanceof SandboxCardError && REFUSALS.has(e.code))) throw e;
      ctx.log.warn({ businessId: account.businessId, accountId: account.accountId, code: e.code }, "sandbox payout not made");
    }
  }
  settled.push(...(await sandbox.settlePayouts(now)));
  const report: SandboxPayoutReport = {
    paid,
    settled: settled.filter((s) => s.payout.status === "paid").length,
    failed: settled.filter((s) => s.payout.status === "failed").length,
    mirrored: 0,
  };
  for (const account of accounts) {
    signal?.throwIfAborted();
    report.mirrored += await mirrorPayouts(ctx, account);
  }
  return report;
}
