/**
 * The business's books: one row per routed charge when it first succeeds, one per refund of it, each written once
 * (the provider's id is unique; the table refuses UPDATE) and balanced (gross = platform fee + processing fee + net,
 * a CHECK). A charge's fees come from its own provider metadata (accounts.ts `feeMetadata`), so every path that
 * sees it succeed (checkout, a webhook, a renewal batch) writes the same row. Charges kept on the platform's own
 * account (businesses not yet connected) are not in a business's books.
 */
import type { Prisma } from "../generated/prisma/client.ts";
import { FEE_METADATA } from "./accounts.ts";

type Db = Prisma.TransactionClient;

export interface LedgerRow {
  businessId: number;
  paymentId: number | null;
  kind: "CHARGE" | "REFUND";
  providerId: string;
  period: string;
  occurredAt: Date;
  grossCents: number;
  platformFeeCents: number;
  processingFeeCents: number;
  netCents: number;
}

/** A provider charge as the ledger reads it. */
export interface ChargeFacts {
  /** The payment intent's id. */
  providerId: string;
  amountCents: number;
  /** The connected account it went to; null: the platform's own account (no ledger row). */
  destination: string | null;
  metadata: Record<string, string>;
}

const centsIn = (metadata: Record<string, string>, key: string) => {
  const n = Number(metadata[key] ?? 0);
  return Number.isSafeInteger(n) && n >= 0 ? n : 0;
};

/** The CHARGE row of a succeeded charge (null when it stayed on the platform's account). */
export function chargeEntry(charge: ChargeFacts, link: { businessId: number; paymentId: number | null; period: string; at: Date }): LedgerRow | null {
  if (!charge.destination) return null;
  const platformFeeCents = Math.min(charge.amountCents, centsIn(charge.metadata, FEE_METADATA.platform));
  const processingFeeCents = Math.min(charge.amountCents - platformFeeCents, centsIn(charge.metadata, FEE_METADATA.processing));
  return {
    businessId: link.businessId,
    paymentId: link.paymentId,
    kind: "CHARGE",
    providerId: charge.providerId,
    period: link.period,
    occurredAt: link.at,
    grossCents: charge.amountCents,
    platformFeeCents,
    processingFeeCents,
    netCents: charge.amountCents - platformFeeCents - processingFeeCents,
  };
}

/** Writes rows in one statement; a row whose provider id is already in the books is kept as it was. */
export async function writeLedger(db: Db, rows: readonly LedgerRow[]): Promise<void> {
  if (rows.length === 0) return;
  const col = <T>(pick: (r: LedgerRow) => T) => rows.map(pick);
  await db.$executeRaw`
    INSERT INTO ledger_entries (business_id, payment_id, kind, provider_id, period, occurred_at, gross_cents, platform_fee_cents, processing_fee_cents, net_cents)
    SELECT v.business_id, v.payment_id, v.kind::"LedgerKind", v.provider_id, v.period, v.occurred_at, v.gross, v.platform, v.processing, v.net
      FROM unnest(${col((r) => r.businessId)}::int[], ${col((r) => r.paymentId)}::int[], ${col((r) => r.kind)}::text[], ${col((r) => r.providerId)}::text[],
                  ${col((r) => r.period)}::text[], ${col((r) => r.occurredAt)}::timestamp[], ${col((r) => r.grossCents)}::int[],
                  ${col((r) => r.platformFeeCents)}::int[], ${col((r) => r.processingFeeCents)}::int[], ${col((r) => r.netCents)}::int[])
        AS v(business_id, payment_id, kind, provider_id, period, occurred_at, gross, platform, processing, net)
    ON CONFLICT (provider_id) DO NOTHING`;
}

/**
 * The REFUND row that brings a payment's refunds in the books to `refundedTotalCents` (the provider's running total:
 * a repeated or late report of the same refund adds nothing). The fees are reversed in proportion to the share of
 * the charge refunded so far (half up), their sum as the provider refunds the application fee, so a full refund
 * nets the charge to zero and a partial one gives back what the provider did. Null: nothing new, or the charge
 * is not in the books (it stayed on the platform's account).
 */
export async function refundEntry(db: Db, args: { paymentId: number; refundId: string; refundedTotalCents: number; at: Date }): Promise<LedgerRow | null> {
  const entries = await db.ledgerEntry.findMany({ where: { paymentId: args.paymentId } });
  const charge = entries.find((e) => e.kind === "CHARGE");
  if (!charge || charge.grossCents <= 0) return null;
  const total = Math.min(args.refundedTotalCents, charge.grossCents);
  const before = entries.filter((e) => e.kind === "REFUND");
  const sum = (pick: (e: (typeof entries)[number]) => number) => before.reduce((s, e) => s + pick(e), 0);
  const refundedSoFar = -sum((e) => e.grossCents);
  if (total <= refundedSoFar) return null;
  const share = (fee: number) => Math.floor((fee * total * 2 + charge.grossCents) / (2 * charge.grossCents));
  // The provider refunds the application fee (both fees) as one amount, in proportion, half up on the running
  // total: the books give back exactly that, the platform fee's own share and the rest as processing fee.
  const feesBack = share(charge.platformFeeCents + charge.processingFeeCents);
  const platformBack = share(charge.platformFeeCents);
  const grossCents = -(total - refundedSoFar);
  const platformFeeCents = -(platformBack + sum((e) => e.platformFeeCents));
  const processingFeeCents = -(feesBack - platformBack + sum((e) => e.processingFeeCents));
  return {
    businessId: charge.businessId,
    paymentId: args.paymentId,
    kind: "REFUND",
    providerId: args.refundId,
    period: charge.period,
    occurredAt: args.at,
    grossCents,
    platformFeeCents,
    processingFeeCents,
    netCents: grossCents - platformFeeCents - processingFeeCents,
  };
}
