import type { BalanceTransactionInfo, PaymentProvider, PayoutInfo } from "../../api/billing/providers/provider.ts";

/**
 * What the provider's own records say each connected account received, read the way a client reads them (the
 * platform's balance transactions, page by page), so tests can hold our books against them.
 */

/** Every platform balance transaction created in [from, to), newest first, read in pages of `limit`. */
export async function readBalanceTransactions(provider: PaymentProvider, from: Date, to: Date, limit: number): Promise<{ transactions: BalanceTransactionInfo[]; pages: number }> {
  const transactions: BalanceTransactionInfo[] = [];
  let pages = 0;
  for (let after: string | undefined; ; after = transactions.at(-1)!.id) {
    const page = await provider.listBalanceTransactions({ from, to, after, limit });
    pages++;
    transactions.push(...page.transactions);
    if (!page.hasMore || page.transactions.length === 0) return { transactions, pages };
  }
}

/** A connected account's share of one charge or one refund, from the platform's side of a destination charge. */
export interface AccountEntry {
  account: string;
  kind: "CHARGE" | "REFUND";
  /** The charge's payment intent, or the refund: what the ledger's provider_id holds. */
  providerId: string;
  at: Date;
  /** When the account may pay it out (a refund takes its share back at once). */
  availableOn: Date;
  /** A charge's amount transferred (a refund's reversed, negative). */
  grossCents: number;
  /** The application fee taken (a refund's share of it given back, negative). */
  feeCents: number;
  /** What the account received: gross − fee. */
  netCents: number;
}

/**
 * The accounts' entries: a charge is its `transfer` (−amount) and `application_fee` (+fee), available when its
 * `charge` is; a refund is its `transfer_reversal` (+amount) and `application_fee_refund` (−fee). Each names what it
 * follows (`origin`); the account is the charge's destination, as its payment intent says.
 */
export async function accountEntries(provider: PaymentProvider, transactions: readonly BalanceTransactionInfo[]): Promise<AccountEntry[]> {
  const ofType = (type: string) => transactions.filter((t) => t.type === type);
  const total = (type: string, origin: string) => ofType(type).reduce((s, t) => s + (t.origin === origin ? t.amountCents : 0), 0);
  const charges = new Map(ofType("charge").map((t) => [t.source, t]));
  const intentOfRefund = new Map(ofType("refund").map((t) => [t.source, t.origin]));
  const destinations = new Map<string, string>();
  const destinationOf = async (intentId: string | null | undefined) => {
    if (!intentId) throw new Error("A transaction names no payment intent");
    if (!destinations.has(intentId)) destinations.set(intentId, (await provider.retrievePaymentIntent(intentId)).route?.destination ?? "");
    return destinations.get(intentId)!;
  };
  const entries: AccountEntry[] = [];
  for (const transfer of ofType("transfer")) {
    const intent = transfer.origin!;
    const grossCents = -transfer.amountCents;
    const feeCents = total("application_fee", intent);
    const availableOn = charges.get(intent)?.availableOn;
    if (!availableOn) throw new Error(`The transfer of ${intent} has no charge`);
    entries.push({ account: await destinationOf(intent), kind: "CHARGE", providerId: intent, at: transfer.createdAt, availableOn, grossCents, feeCents, netCents: grossCents - feeCents });
  }
  for (const reversal of ofType("transfer_reversal")) {
    const refund = reversal.origin!;
    const grossCents = -reversal.amountCents;
    const feeCents = total("application_fee_refund", refund);
    const account = await destinationOf(intentOfRefund.get(refund));
    entries.push({ account, kind: "REFUND", providerId: refund, at: reversal.createdAt, availableOn: reversal.createdAt, grossCents, feeCents, netCents: grossCents - feeCents });
  }
  return entries;
}

/** Every payout of a connected account, newest first, read in pages of `limit`. */
export async function readPayouts(provider: PaymentProvider, accountId: string, limit: number): Promise<PayoutInfo[]> {
  const payouts: PayoutInfo[] = [];
  for (let after: string | undefined; ; after = payouts.at(-1)!.id) {
    const page = await provider.listPayouts(accountId, { after, limit });
    payouts.push(...page.payouts);
    if (!page.hasMore || page.payouts.length === 0) return payouts;
  }
}

/**
 * What was available to each payout of an account when it was made: the account's entries available by then,
 * less the payouts made before it, plus those of them that had failed (their amount back) by then.
 */
export function availableAtEachPayout(entries: readonly AccountEntry[], payouts: readonly (PayoutInfo & { failedAt: Date | null })[]) {
  return payouts.map((payout) => {
    const at = payout.createdAt.getTime();
    const received = entries.reduce((s, e) => s + (e.availableOn.getTime() <= at ? e.netCents : 0), 0);
    const before = payouts.filter((p) => p.createdAt.getTime() < at && p.status !== "canceled");
    const paidOut = before.reduce((s, p) => s + p.amountCents, 0);
    const returned = before.reduce((s, p) => s + (p.failedAt && p.failedAt.getTime() <= at ? p.amountCents : 0), 0);
    return { payout, availableCents: received - paidOut + returned };
  });
}
