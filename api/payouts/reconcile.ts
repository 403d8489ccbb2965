/**
 * Reconciliation of one UTC day: the provider's balance transactions against our succeeded payments and the
 * ledger (ledger.ts). A pure comparison: api/billing/reconcile-run.ts reads both sides and hands them here.
 *
 * Our side, checked against the provider's: each succeeded payment has its `charge` of the same amount and, when
 * routed to an account, its `application_fee` equal to payments.application_fee_cents, which is also the two fees
 * of its CHARGE row; each REFUND row has its `refund` and its `transfer_reversal` of the same amount. The provider's
 * side, checked against ours: each `charge` and `refund` of the day has its payment (and, for a routed charge's
 * refund, its REFUND row) here. Disputes and adjustments are `unhandled`: nothing here records them. What the
 * provider kept as its processing fee against what we collected is not a difference (fees-collected.ts).
 */

/** A provider balance transaction as the comparison reads it (billing's BalanceTransactionInfo has these). */
export interface ProviderTransaction {
  id: string;
  type: string;
  amountCents: number;
  /** A charge by its payment intent, a refund by its own id, anything else by its own object. */
  source: string;
  /** What it follows: a refund's, transfer's or application fee's payment intent; a reversal's refund. */
  origin: string | null;
  createdAt: Date;
}

export interface ReconciledPayment {
  providerPaymentId: string;
  amountCents: number;
  /** The connected account it went to; null: kept on the platform's account. */
  destination: string | null;
  applicationFeeCents: number;
  refundedCents: number;
}

interface ReconciledLedgerRow {
  kind: "CHARGE" | "REFUND";
  providerId: string;
  grossCents: number;
  platformFeeCents: number;
  processingFeeCents: number;
}

type DifferenceKind = "missing_here" | "missing_at_provider" | "amount_mismatch" | "fee_mismatch" | "unhandled";

export interface ReconcileDifference {
  kind: DifferenceKind;
  /** The provider's id: a payment intent, a refund, or the transaction of an unhandled movement. */
  providerId: string | null;
  /** Our record's provider id (payments.provider_payment_id, ledger_entries.provider_id). */
  ourId: string | null;
  providerCents: number | null;
  ourCents: number | null;
}

export interface ReconcileResult {
  /** Our payments and refunds of the day checked, and the provider's charges and refunds of it not among them. */
  checked: number;
  matched: number;
  differences: ReconcileDifference[];
}

export interface ReconcileInput {
  /** The day, [from, to): provider transactions outside it (read around it) only help find ours. */
  from: Date;
  to: Date;
  transactions: readonly ProviderTransaction[];
  /** Our succeeded payments of the day to check. */
  payments: readonly ReconciledPayment[];
  /** Any other payments the provider's transactions of the day name (found, not checked again). */
  otherPayments: readonly ReconciledPayment[];
  /** Ledger rows: the CHARGE rows of the payments, the REFUND rows of the day (checked) and of its refunds. */
  ledger: readonly ReconciledLedgerRow[];
  /** REFUND rows of the day to check (their provider ids). */
  refundsOfDay: readonly string[];
}

/** Stripe's types for money a dispute or a manual correction moved: nothing here records them. */
const UNHANDLED = (type: string) => type === "adjustment" || type.includes("dispute");

export function reconcile(input: ReconcileInput): ReconcileResult {
  const inDay = (t: ProviderTransaction) => t.createdAt >= input.from && t.createdAt < input.to;
  const charges = new Map<string, ProviderTransaction>();
  const refunds = new Map<string, ProviderTransaction>();
  const feesOf = new Map<string, number>();
  const reversalsOf = new Map<string, number>();
  for (const t of input.transactions) {
    if (t.type === "charge") charges.set(t.source, t);
    else if (t.type === "refund") refunds.set(t.source, t);
    else if (t.type === "application_fee" && t.origin) feesOf.set(t.origin, (feesOf.get(t.origin) ?? 0) + t.amountCents);
    else if (t.type === "transfer_reversal" && t.origin) reversalsOf.set(t.origin, (reversalsOf.get(t.origin) ?? 0) + t.amountCents);
  }
  const payments = new Map<string, ReconciledPayment>();
  for (const p of [...input.otherPayments, ...input.payments]) payments.set(p.providerPaymentId, p);
  const rows = new Map(input.ledger.map((r) => [r.providerId, r]));

  const differences: ReconcileDifference[] = [];
  let checked = 0;
  let matched = 0;
  const check = (found: ReconcileDifference[]) => {
    checked++;
    if (found.length === 0) matched++;
    differences.push(...found);
  };

  for (const p of input.payments) {
    const found: ReconcileDifference[] = [];
    const charge = charges.get(p.providerPaymentId);
    const ours = { ourId: p.providerPaymentId, ourCents: p.amountCents };
    if (!charge) found.push({ kind: "missing_at_provider", providerId: null, providerCents: null, ...ours });
    else if (charge.amountCents !== p.amountCents) found.push({ kind: "amount_mismatch", providerId: p.providerPaymentId, providerCents: charge.amountCents, ...ours });
    if (charge && p.destination) {
      const row = rows.get(p.providerPaymentId);
      const providerFee = feesOf.get(p.providerPaymentId) ?? 0;
      const fee = { providerId: p.providerPaymentId, ourId: p.providerPaymentId, providerCents: providerFee };
      if (providerFee !== p.applicationFeeCents) found.push({ kind: "fee_mismatch", ...fee, ourCents: p.applicationFeeCents });
      if (!row) found.push({ kind: "missing_here", providerId: p.providerPaymentId, ourId: null, providerCents: charge.amountCents, ourCents: null });
      else if (row.platformFeeCents + row.processingFeeCents !== providerFee) found.push({ kind: "fee_mismatch", ...fee, ourCents: row.platformFeeCents + row.processingFeeCents });
    }
    check(found);
  }

  for (const id of input.refundsOfDay) {
    const row = rows.get(id);
    if (!row) continue;
    const found: ReconcileDifference[] = [];
    const refund = refunds.get(id);
    const ours = { ourId: id, ourCents: row.grossCents };
    if (!refund) found.push({ kind: "missing_at_provider", providerId: null, providerCents: null, ...ours });
    else if (refund.amountCents !== row.grossCents) found.push({ kind: "amount_mismatch", providerId: id, providerCents: refund.amountCents, ...ours });
    const reversed = reversalsOf.get(id);
    if (refund && reversed === undefined) found.push({ kind: "missing_at_provider", providerId: null, ourId: id, providerCents: null, ourCents: -row.grossCents });
    else if (refund && reversed !== -row.grossCents) found.push({ kind: "amount_mismatch", providerId: id, ourId: id, providerCents: reversed ?? null, ourCents: -row.grossCents });
    check(found);
  }

  const checkedHere = new Set([...input.payments.map((p) => p.providerPaymentId), ...input.refundsOfDay]);
  for (const t of input.transactions) {
    if (!inDay(t) || checkedHere.has(t.source)) continue;
    if (t.type === "charge") {
      // A payment of another day (it was checked on its own day) or none here.
      check(payments.has(t.source) ? [] : [{ kind: "missing_here", providerId: t.source, ourId: null, providerCents: t.amountCents, ourCents: null }]);
    } else if (t.type === "refund") {
      const payment = t.origin ? payments.get(t.origin) : undefined;
      // A refund of a charge kept on the platform's account has no row in the books: its payment says it was refunded.
      const known = rows.has(t.source) || (payment !== undefined && payment.destination === null && payment.refundedCents > 0);
      check(known ? [] : [{ kind: "missing_here", providerId: t.source, ourId: null, providerCents: t.amountCents, ourCents: null }]);
    } else if (UNHANDLED(t.type)) {
      check([{ kind: "unhandled", providerId: t.id, ourId: null, providerCents: t.amountCents, ourCents: null }]);
    }
  }
  return { checked, matched, differences };
}

/** The first differences as one line each, for a failed run's message. */
export function describeDifferences(differences: readonly ReconcileDifference[], max = 5): string {
  const cents = (n: number | null) => (n === null ? "none" : String(n));
  const lines = differences
    .slice(0, max)
    .map((d) => `${d.kind}: provider ${d.providerId ?? "-"} (${cents(d.providerCents)}) / ours ${d.ourId ?? "-"} (${cents(d.ourCents)})`);
  const more = differences.length > max ? `; and ${differences.length - max} more` : "";
  return lines.join("; ") + more;
}
