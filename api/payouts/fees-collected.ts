/**
 * Fees collected (administrators, /admin/fees): for a month, per business, what the platform took and kept. A
 * business's month is the calendar month of its own time zone, by when the charge or refund happened, as its
 * statement (statements.ts) counts it, so the two agree row for row. From the ledger: the platform and processing
 * fees of its CHARGE rows, the fees given back with its REFUND rows (as positive amounts); from the provider (read
 * by api/billing and passed in, this folder never calls the provider): the processing fee the provider actually
 * kept on those charges. Net = platform + processing collected − refunded − the provider's fees. What the provider
 * kept against what we collected is reported here, never a reconciliation difference (reconcile.ts).
 */
import { z } from "zod";
import type { ServiceContext } from "../context.ts";
import { requireAdmin } from "../auth/policy.ts";
import { Prisma } from "../generated/prisma/client.ts";
import { parseYearMonth, addMonths } from "../shared/calendar.ts";
import { parseInput } from "../shared/validation.ts";

interface FeesCollectedAmounts {
  platformFeeCents: number;
  processingFeeCents: number;
  /** The fees given back with refunds (zero or positive). */
  feesRefundedCents: number;
  /** What the provider kept as its processing fee on the month's charges. */
  providerFeeCents: number;
  /** platform + processing − refunded − provider's fees. */
  netCents: number;
}

export interface BusinessFeesCollected extends FeesCollectedAmounts {
  businessId: number;
  businessName: string;
  businessSlug: string;
  timeZone: string;
  chargeCount: number;
}

export interface FeesCollected {
  month: string;
  businesses: BusinessFeesCollected[];
  totals: FeesCollectedAmounts & { chargeCount: number };
}

/** The provider's fee per charge (payment intent id → cents), of charges made in [from, to). */
export type ProviderFeesOf = (from: Date, to: Date) => Promise<ReadonlyMap<string, number>>;

const MONTH_MESSAGE = "Month must be YYYY-MM.";
const FeesInput = z.object({ month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, MONTH_MESSAGE) });

/** Every zone's month lies within this: from UTC+14's first instant to UTC−12's last. */
function widestWindow(month: string): { from: Date; until: Date } {
  const m = parseYearMonth(month);
  const next = addMonths(m, 1);
  return { from: new Date(Date.UTC(m.year, m.month - 1, 1) - 14 * 3_600_000), until: new Date(Date.UTC(next.year, next.month - 1, 1) + 12 * 3_600_000) };
}

/** The month's rows of each business, by its own time zone (occurred_at is UTC, kept without a zone). */
const inBusinessMonth = (month: string, window: { from: Date; until: Date }) => Prisma.sql`
  le.occurred_at >= ${window.from}::timestamp AND le.occurred_at < ${window.until}::timestamp
  AND to_char((le.occurred_at AT TIME ZONE 'UTC') AT TIME ZONE b.time_zone, 'YYYY-MM') = ${month}`;

const zero = (): FeesCollectedAmounts & { chargeCount: number } => ({ platformFeeCents: 0, processingFeeCents: 0, feesRefundedCents: 0, providerFeeCents: 0, netCents: 0, chargeCount: 0 });

export async function feesCollected(ctx: ServiceContext, month: string, providerFeesOf: ProviderFeesOf): Promise<FeesCollected> {
  requireAdmin(ctx);
  const input = parseInput(FeesInput, { month });
  const window = widestWindow(input.month);
  const rows = await ctx.db.$queryRaw<{ id: number; name: string; slug: string; time_zone: string; platform: bigint; processing: bigint; refunded: bigint; charges: bigint }[]>`
    SELECT b.id, b.name, b.slug, b.time_zone,
           COALESCE(SUM(le.platform_fee_cents) FILTER (WHERE le.kind = 'CHARGE'), 0)::bigint AS platform,
           COALESCE(SUM(le.processing_fee_cents) FILTER (WHERE le.kind = 'CHARGE'), 0)::bigint AS processing,
           COALESCE(-SUM(le.platform_fee_cents + le.processing_fee_cents) FILTER (WHERE le.kind = 'REFUND'), 0)::bigint AS refunded,
           COUNT(*) FILTER (WHERE le.kind = 'CHARGE')::bigint AS charges
      FROM ledger_entries le JOIN businesses b ON b.id = le.business_id
     WHERE ${inBusinessMonth(input.month, window)}
     GROUP BY b.id
     ORDER BY b.name, b.id`;
  const charges = await ctx.db.$queryRaw<{ business_id: number; provider_id: string }[]>`
    SELECT le.business_id, le.provider_id
      FROM ledger_entries le JOIN businesses b ON b.id = le.business_id
     WHERE le.kind = 'CHARGE' AND ${inBusinessMonth(input.month, window)}`;
  // A charge's provider transaction is made when it succeeds, up to an hour around what the ledger says.
  const providerFees = charges.length ? await providerFeesOf(new Date(window.from.getTime() - 3_600_000), new Date(window.until.getTime() + 3_600_000)) : new Map<string, number>();
  const providerFeeOf = new Map<number, number>();
  for (const c of charges) providerFeeOf.set(c.business_id, (providerFeeOf.get(c.business_id) ?? 0) + (providerFees.get(c.provider_id) ?? 0));

  const totals = zero();
  const businesses = rows.map((r): BusinessFeesCollected => {
    const amounts = { platformFeeCents: Number(r.platform), processingFeeCents: Number(r.processing), feesRefundedCents: Number(r.refunded), providerFeeCents: providerFeeOf.get(r.id) ?? 0 };
    const b = { ...amounts, netCents: amounts.platformFeeCents + amounts.processingFeeCents - amounts.feesRefundedCents - amounts.providerFeeCents, chargeCount: Number(r.charges) };
    for (const key of Object.keys(totals) as (keyof typeof totals)[]) totals[key] += b[key];
    return { businessId: r.id, businessName: r.name, businessSlug: r.slug, timeZone: r.time_zone, ...b };
  });
  return { month: input.month, businesses, totals };
}

export const FEES_CSV_HEADER = ["business", "slug", "time_zone", "charges", "platform_fees", "processing_fees", "fees_refunded", "provider_fees", "net"] as const;

const dollars = (cents: number) => (cents / 100).toFixed(2);

/** The CSV's rows: one per business, then the totals. */
export function feesCollectedCsvRows(f: FeesCollected): (string | number | null)[][] {
  const amounts = (a: FeesCollectedAmounts) => [dollars(a.platformFeeCents), dollars(a.processingFeeCents), dollars(a.feesRefundedCents), dollars(a.providerFeeCents), dollars(a.netCents)];
  return [...f.businesses.map((b) => [b.businessName, b.businessSlug, b.timeZone, b.chargeCount, ...amounts(b)]), ["Total", null, null, f.totals.chargeCount, ...amounts(f.totals)]];
}
