/**
 * A business's monthly statement (owners and administrators: managePayouts): the ledger rows (ledger.ts) whose charge
 * or refund happened in a calendar month of the business's time zone (the date of the charge, not the month it paid
 * for), their totals, and the rows themselves in keyset pages (occurred_at, id), each page one statement joined to
 * its payment's member. GraphQL pages them; the CSV (statement-csv.ts) walks them a thousand at a time.
 */
import { z } from "zod";
import type { ServiceContext } from "../context.ts";
import { Prisma } from "../generated/prisma/client.ts";
import type { LedgerKind } from "../generated/prisma/enums.ts";
import { assertCan } from "../auth/policy.ts";
import { addMonths, isoDate, localDate, parseYearMonth, startOfLocalDay, type YearMonth } from "../shared/calendar.ts";
import { NotFoundError } from "../shared/errors.ts";
import { parseInput } from "../shared/validation.ts";

export interface StatementTotals {
  /** Charges' gross. */
  grossCents: number;
  /** Refunds' gross (zero or negative). */
  refundsCents: number;
  /** Over every row: a refund's negative fees reduce them. */
  platformFeeCents: number;
  processingFeeCents: number;
  netCents: number;
  entryCount: number;
  /**
   * Payouts made in the month (by when the provider made them, the business's time zone) and not failed or
   * canceled: from the payouts mirror, so Stripe's as its events reported them.
   */
  paidOutCents: number;
}

export interface StatementEntry {
  id: number;
  occurredAt: Date;
  /** The day it happened, YYYY-MM-DD in the business's time zone. */
  date: string;
  /** The payment's member (name, else username); null once the payment is gone. */
  memberName: string | null;
  membershipId: number | null;
  /** The month the charge paid for (YYYY-MM). */
  period: string;
  kind: LedgerKind;
  providerId: string;
  grossCents: number;
  platformFeeCents: number;
  processingFeeCents: number;
  netCents: number;
}

/** A month of a business the actor may see the books of (only statementOf makes one). */
export interface Statement {
  businessId: number;
  businessSlug: string;
  month: YearMonth;
  timeZone: string;
  /** The month's first instant in the business's time zone, and the next month's. */
  from: Date;
  until: Date;
  /** Read once per request, whichever fields ask for them. */
  memo: { totals?: Promise<StatementTotals> };
}

/** An entry's place in the statement's order. */
export interface EntryKey {
  occurredAt: Date;
  id: number;
}

export const entryKeyOf = (e: StatementEntry): EntryKey => ({ occurredAt: e.occurredAt, id: e.id });

/** A page of entries: after or before a key (exclusive), `take` of them, read backwards (descending) when `reverse`. */
export interface EntryPageArgs {
  after?: EntryKey | null;
  before?: EntryKey | null;
  take: number;
  reverse?: boolean;
}

/** Entries per GraphQL page: as many as asked up to the most, the default when not asked. */
export const STATEMENT_PAGE = { defaultSize: 50, maxSize: 100 } as const;

/** The most rows one statement reads (the CSV's page). */
const MAX_PAGE_ROWS = 1000;

const MONTH_MESSAGE = "Month must be YYYY-MM.";
const StatementInput = z.object({ month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, MONTH_MESSAGE) });

/** The statement of `month` (YYYY-MM) of a business whose payouts the actor manages. */
export async function statementOf(ctx: ServiceContext, businessId: number, month: string): Promise<Statement> {
  const input = parseInput(StatementInput, { month });
  await assertCan(ctx, businessId, "managePayouts");
  const business = await ctx.db.business.findUnique({ where: { id: businessId }, select: { slug: true, timeZone: true } });
  if (!business) throw new NotFoundError("Business");
  const m = parseYearMonth(input.month);
  return {
    businessId,
    businessSlug: business.slug,
    month: input.month,
    timeZone: business.timeZone,
    from: startOfLocalDay({ ...m, day: 1 }, business.timeZone),
    until: startOfLocalDay({ ...addMonths(m, 1), day: 1 }, business.timeZone),
    memo: {},
  };
}

const inMonth = (s: Statement) => Prisma.sql`le.business_id = ${s.businessId} AND le.occurred_at >= ${s.from}::timestamp AND le.occurred_at < ${s.until}::timestamp`;

/** The month's totals, in one statement. */
export function statementTotals(ctx: ServiceContext, s: Statement): Promise<StatementTotals> {
  return (s.memo.totals ??= readTotals(ctx, s));
}

async function readTotals(ctx: ServiceContext, s: Statement): Promise<StatementTotals> {
  const [row] = await ctx.db.$queryRaw<Record<keyof StatementTotals, bigint>[]>`
    SELECT COALESCE(SUM(le.gross_cents) FILTER (WHERE le.kind = 'CHARGE'), 0)::bigint AS "grossCents",
           COALESCE(SUM(le.gross_cents) FILTER (WHERE le.kind = 'REFUND'), 0)::bigint AS "refundsCents",
           COALESCE(SUM(le.platform_fee_cents), 0)::bigint AS "platformFeeCents",
           COALESCE(SUM(le.processing_fee_cents), 0)::bigint AS "processingFeeCents",
           COALESCE(SUM(le.net_cents), 0)::bigint AS "netCents",
           COUNT(*)::bigint AS "entryCount",
           (SELECT COALESCE(SUM(po.amount_cents), 0) FROM payouts po
             WHERE po.business_id = ${s.businessId} AND po.created_at >= ${s.from}::timestamp AND po.created_at < ${s.until}::timestamp
               AND po.status NOT IN ('FAILED', 'CANCELED'))::bigint AS "paidOutCents"
      FROM ledger_entries le
     WHERE ${inMonth(s)}`;
  return {
    grossCents: Number(row.grossCents),
    refundsCents: Number(row.refundsCents),
    platformFeeCents: Number(row.platformFeeCents),
    processingFeeCents: Number(row.processingFeeCents),
    netCents: Number(row.netCents),
    entryCount: Number(row.entryCount),
    paidOutCents: Number(row.paidOutCents),
  };
}

interface EntryRow {
  id: number;
  occurred_ms: number;
  member_name: string | null;
  subscription_id: number | null;
  period: string;
  kind: LedgerKind;
  provider_id: string;
  gross_cents: number;
  platform_fee_cents: number;
  processing_fee_cents: number;
  net_cents: number;
}

const keySql = (k: EntryKey) => Prisma.sql`(${k.occurredAt}::timestamp, ${k.id}::int)`;

/** A keyset page of the month's entries in the statement's order (occurred_at, id), with their members: one statement. */
export async function entryPage(ctx: ServiceContext, s: Statement, page: EntryPageArgs): Promise<StatementEntry[]> {
  const dir = page.reverse ? Prisma.sql`DESC` : Prisma.sql`ASC`;
  const take = Math.min(Math.max(1, Math.trunc(page.take)), MAX_PAGE_ROWS);
  const rows = await ctx.db.$queryRaw<EntryRow[]>`
    SELECT le.id, (extract(epoch FROM le.occurred_at) * 1000)::float8 AS occurred_ms,
           COALESCE(NULLIF(u.name, ''), u.username) AS member_name, p.subscription_id,
           le.period, le.kind::text AS kind, le.provider_id,
           le.gross_cents, le.platform_fee_cents, le.processing_fee_cents, le.net_cents
      FROM ledger_entries le
      LEFT JOIN payments p ON p.id = le.payment_id
      LEFT JOIN users u ON u.id = p.user_id
     WHERE ${inMonth(s)}
       ${page.after ? Prisma.sql`AND (le.occurred_at, le.id) > ${keySql(page.after)}` : Prisma.empty}
       ${page.before ? Prisma.sql`AND (le.occurred_at, le.id) < ${keySql(page.before)}` : Prisma.empty}
     ORDER BY le.occurred_at ${dir}, le.id ${dir}
     LIMIT ${take}`;
  return rows.map((r) => {
    const occurredAt = new Date(Math.round(r.occurred_ms));
    return {
      id: r.id,
      occurredAt,
      date: isoDate(localDate(occurredAt, s.timeZone)),
      memberName: r.member_name,
      membershipId: r.subscription_id,
      period: r.period,
      kind: r.kind,
      providerId: r.provider_id,
      grossCents: r.gross_cents,
      platformFeeCents: r.platform_fee_cents,
      processingFeeCents: r.processing_fee_cents,
      netCents: r.net_cents,
    };
  });
}
