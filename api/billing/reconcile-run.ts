/**
 * One UTC day's reconciliation (api/payouts/reconcile.ts): pages the provider's balance transactions of the day
 * (and an hour either side, so that a payment made just before midnight whose charge landed after it is found),
 * reads our succeeded payments paid that day (`paid_at`), the ledger's REFUND rows of the day and whatever the provider's
 * transactions name, and compares them. The demo seed's payments are charged at the sandbox like any other
 * (prisma/seed-payouts.ts), so a seeded day reconciles too.
 */
import type { ServiceContext } from "../context.ts";
import { reconcile, type ProviderTransaction, type ReconcileResult, type ReconciledPayment } from "../payouts/reconcile.ts";
import { ValidationError } from "../shared/errors.ts";
import type { BalanceTransactionInfo } from "./providers/provider.ts";
import { providerFor } from "./service.ts";

const DAY_MS = 86_400_000;
const MARGIN_MS = 60 * 60 * 1000;

export type ReconcileReport = ReconcileResult & { day: string };

/** "YYYY-MM-DD" → that UTC day's first instant; refused unless it is a real date. */
export function utcDay(day: string): Date {
  const from = new Date(`${day}T00:00:00.000Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(from.getTime()) || from.toISOString().slice(0, 10) !== day) {
    throw new ValidationError("Day must be YYYY-MM-DD.", [{ path: "day", message: "Day must be YYYY-MM-DD." }]);
  }
  return from;
}

/** The UTC day before `at`'s, YYYY-MM-DD. */
export const previousUtcDay = (at: Date): string => new Date(at.getTime() - DAY_MS).toISOString().slice(0, 10);

/** Every balance transaction created in [from, to), page by page. */
export async function allBalanceTransactions(ctx: Pick<ServiceContext, "db" | "clock" | "config">, from: Date, to: Date): Promise<BalanceTransactionInfo[]> {
  const provider = providerFor(ctx);
  const all: BalanceTransactionInfo[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await provider.listBalanceTransactions({ from, to, after, limit: 100 });
    all.push(...page.transactions);
    if (!page.hasMore || page.transactions.length === 0) return all;
    after = page.transactions[page.transactions.length - 1].id;
  }
}

const paymentSelect = { providerPaymentId: true, amountCents: true, destination: true, applicationFeeCents: true, refundedCents: true } as const;

export async function reconcileDay(ctx: Pick<ServiceContext, "db" | "clock" | "config">, day: string): Promise<ReconcileReport> {
  const from = utcDay(day);
  const to = new Date(from.getTime() + DAY_MS);
  const txns = await allBalanceTransactions(ctx, new Date(from.getTime() - MARGIN_MS), new Date(to.getTime() + MARGIN_MS));
  const transactions: ProviderTransaction[] = txns.map((t) => ({ id: t.id, type: t.type, amountCents: t.amountCents, source: t.source, origin: t.origin, createdAt: t.createdAt }));

  const payments: ReconciledPayment[] = await ctx.db.payment.findMany({
    // Paid that day (a checkout begun the evening before and paid after midnight is this day's); rows from before
    // paid_at existed were backfilled with their creation time.
    where: { status: "SUCCEEDED", OR: [{ paidAt: { gte: from, lt: to } }, { paidAt: null, createdAt: { gte: from, lt: to } }] },
    select: paymentSelect,
  });
  const ours = new Set(payments.map((p) => p.providerPaymentId));
  const named = [...new Set(transactions.flatMap((t) => [t.source, ...(t.origin ? [t.origin] : [])]))].filter((id) => !ours.has(id));
  const otherPayments = named.length ? await ctx.db.payment.findMany({ where: { providerPaymentId: { in: named } }, select: paymentSelect }) : [];
  const refundsOfDay = await ctx.db.ledgerEntry.findMany({ where: { kind: "REFUND", occurredAt: { gte: from, lt: to } }, select: { providerId: true } });
  const ledger = await ctx.db.ledgerEntry.findMany({
    where: { OR: [{ kind: "CHARGE", providerId: { in: [...ours] } }, { providerId: { in: [...named, ...refundsOfDay.map((r) => r.providerId)] } }] },
    select: { kind: true, providerId: true, grossCents: true, platformFeeCents: true, processingFeeCents: true },
  });
  const result = reconcile({ from, to, transactions, payments, otherPayments, ledger, refundsOfDay: refundsOfDay.map((r) => r.providerId) });
  return { day, ...result };
}
