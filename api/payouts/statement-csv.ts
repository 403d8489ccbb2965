/**
 * A monthly statement (statements.ts) as CSV rows: one per ledger entry in the statement's order, walked in keyset
 * pages of STATEMENT_CSV_PAGE_ROWS (a month of any size holds one page in memory), then a totals row summing each
 * amount column over the rows written. The HTTP adapter streams the rows out.
 */
import type { ServiceContext } from "../context.ts";
import type { LedgerKind } from "../generated/prisma/enums.ts";
import { entryKeyOf, entryPage, type EntryKey, type Statement, type StatementEntry } from "./statements.ts";

export const STATEMENT_CSV_HEADER = ["date", "member", "membership_id", "period", "kind", "provider_id", "gross", "platform_fee", "processing_fee", "net"] as const;

type StatementCsvRow = (string | number | null)[];

/** Entries per statement. */
const STATEMENT_CSV_PAGE_ROWS = 1000;

/** How a kind reads in the file, as on the screen. */
const KIND_WORDS: Record<LedgerKind, string> = { CHARGE: "Charge", REFUND: "Refund" };

/** Dollars with two decimals ("-5.50" for a refund): a spreadsheet reads it as a number. */
const dollars = (cents: number) => (cents / 100).toFixed(2);

type Sums = Pick<StatementEntry, "grossCents" | "platformFeeCents" | "processingFeeCents" | "netCents">;

const amounts = (x: Sums) => [dollars(x.grossCents), dollars(x.platformFeeCents), dollars(x.processingFeeCents), dollars(x.netCents)];

function csvRow(e: StatementEntry): StatementCsvRow {
  return [e.date, e.memberName, e.membershipId, e.period, KIND_WORDS[e.kind], e.providerId, ...amounts(e)];
}

/**
 * The rows of a statement (statementOf has checked who asks), read a page at a time as they are consumed;
 * `signal` stops the walk between pages (the client went away). `pageRows`: entries per statement (tests make it small).
 */
export async function* statementCsvRows(ctx: ServiceContext, s: Statement, opts: { pageRows?: number } = {}, signal?: AbortSignal): AsyncGenerator<StatementCsvRow> {
  const take = Math.min(opts.pageRows ?? STATEMENT_CSV_PAGE_ROWS, STATEMENT_CSV_PAGE_ROWS);
  const sums: Sums = { grossCents: 0, platformFeeCents: 0, processingFeeCents: 0, netCents: 0 };
  let after: EntryKey | null = null;
  for (;;) {
    if (signal?.aborted) return;
    const page: StatementEntry[] = await entryPage(ctx, s, { after, take });
    for (const e of page) {
      sums.grossCents += e.grossCents;
      sums.platformFeeCents += e.platformFeeCents;
      sums.processingFeeCents += e.processingFeeCents;
      sums.netCents += e.netCents;
      yield csvRow(e);
    }
    if (page.length < take) break;
    after = entryKeyOf(page[page.length - 1]);
  }
  yield ["Total", null, null, null, null, null, ...amounts(sums)];
}
