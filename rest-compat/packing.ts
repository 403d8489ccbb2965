/** The packing lists of a business's month as a streamed CSV download (the readers of Business.fulfilment). */
import { z } from "zod";
import * as businesses from "../api/businesses/service.ts";
import * as packingCsv from "../api/packing/packing-csv.ts";
import { sendCsv } from "../api/http/csv-stream.ts";
import { toModeCode } from "../api/shared/fulfillment.ts";
import { idParam, type Router } from "./router.ts";

const packingParams = z.object({ id: idParam("Invalid business id"), month: z.string().regex(/^\d{4}-\d{2}$/, "Month must be YYYY-MM.") });

export function fulfilmentRoutes(r: Router) {
  r.add({
    method: "GET",
    path: "/admin/businesses/{id}/fulfilment/{month}/packing.csv",
    tag: "admin",
    summary: "The month's packing list as a CSV download, streamed: the snapshot's boxes once frozen, else the preview's, in packing order",
    access: "admin",
    params: packingParams,
    query: z.object({ mode: z.enum(["pickup", "delivery", "shipping"]).optional().describe("One list; omitted: all three") }),
    produces: "text/csv",
    response: z.string().describe(`CSV (RFC 4180, CRLF), one header line: ${packingCsv.PACKING_CSV_HEADER.join(",")}`),
    handler: async (ctx, { params, query }, _req, reply) => {
      const name = `packing-${(await businesses.businessById(ctx, params.id)).slug}-${params.month}${query.mode ? `-${query.mode}` : ""}.csv`;
      return sendCsv(reply, {
        filename: name,
        header: packingCsv.PACKING_CSV_HEADER,
        rows: (signal) => packingCsv.packingCsvRows(ctx, params.id, params.month, { mode: query.mode ? toModeCode(query.mode) : null }, signal),
      });
    },
  });
}
