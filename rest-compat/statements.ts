/** A business's monthly statement as a streamed CSV download (the readers of Business.statement), and the platform's fees collected (admins). */
import { z } from "zod";
import * as statements from "../api/payouts/statements.ts";
import { STATEMENT_CSV_HEADER, statementCsvRows } from "../api/payouts/statement-csv.ts";
import { sendCsv } from "../api/http/csv-stream.ts";
import { FEES_CSV_HEADER, feesCollectedCsvRows } from "../api/payouts/fees-collected.ts";
import { feesCollectedOf } from "../api/billing/provider-fees.ts";
import { idParam, type Router } from "./router.ts";

const monthParam = z.string().regex(/^\d{4}-\d{2}$/, "Month must be YYYY-MM.");
const statementParams = z.object({ id: idParam("Invalid business id"), month: monthParam });

export function statementRoutes(r: Router) {
  r.add({
    method: "GET",
    path: "/admin/businesses/{id}/statements/{month}.csv",
    tag: "admin",
    summary: "A month's statement as a CSV download, streamed: its charges and refunds by date in the business's time zone, then a totals row",
    access: "admin",
    params: statementParams,
    produces: "text/csv",
    response: z.string().describe(`CSV (RFC 4180, CRLF), one header line: ${STATEMENT_CSV_HEADER.join(",")}; amounts in dollars; the last line the totals`),
    handler: async (ctx, { params }, _req, reply) => {
      const statement = await statements.statementOf(ctx, params.id, params.month);
      return sendCsv(reply, {
        filename: `statement-${statement.businessSlug}-${statement.month}.csv`,
        header: STATEMENT_CSV_HEADER,
        rows: (signal) => Promise.resolve(statementCsvRows(ctx, statement, {}, signal)),
      });
    },
  });
  r.add({
    method: "GET",
    path: "/admin/fees/{month}.csv",
    tag: "admin",
    summary: "Fees collected in a month (each business's time zone) as a CSV download: one row per business, then a totals row (admins)",
    access: "admin",
    params: z.object({ month: monthParam }),
    produces: "text/csv",
    response: z.string().describe(`CSV (RFC 4180, CRLF), one header line: ${FEES_CSV_HEADER.join(",")}; amounts in dollars; the last line the totals`),
    handler: async (ctx, { params }, _req, reply) => {
      const fees = await feesCollectedOf(ctx, params.month);
      return sendCsv(reply, {
        filename: `fees-collected-${fees.month}.csv`,
        header: FEES_CSV_HEADER,
        rows: async () => (async function* () {
          yield* feesCollectedCsvRows(fees);
        })(),
      });
    },
  });
}
