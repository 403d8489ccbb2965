/**
 * A CSV download written as it is read: rows come from an async iterable (a domain walk in keyset
 * pages), csv-stringify quotes them, and every cell goes through the shared formula guard (@shared/csv.ts
 * csvCell, the rule toCsv uses). Pulled by the reply: a slow client slows the walk (backpressure), and a client
 * that goes away destroys the stream, which ends the iterable's walk.
 */
import type { FastifyReply } from "fastify";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { stringify } from "csv-stringify";
import { csvCell } from "../shared/csv.ts";

type Cell = string | number | null | undefined;

function csvStream(header: readonly string[], rows: AsyncIterable<readonly Cell[]>): Readable {
  const guarded = async function* () {
    for await (const row of rows) yield row.map(csvCell);
  };
  // CRLF, as RFC 4180 and the earlier browser export; a cell with a comma, quote or line break is quoted.
  const out = stringify({ header: true, columns: header.map(csvCell), record_delimiter: "windows", quoted_match: /[\r\n]/ });
  // The reply consumes `out`: a failure of the walk destroys it (Fastify logs it and cuts the response short), a
  // client that leaves destroys it and the walk with it; either way the rejection is already handled there.
  pipeline(Readable.from(guarded()), out).catch(() => undefined);
  return out;
}

/**
 * Answers a CSV download: `rows` is asked for first (so a refusal still answers with its error status), given a
 * signal that aborts when the client leaves (the walk stops at its next page), then streamed as an attachment.
 */
export async function sendCsv(
  reply: FastifyReply,
  download: { filename: string; header: readonly string[]; rows: (signal: AbortSignal) => Promise<AsyncIterable<readonly Cell[]>> },
): Promise<FastifyReply> {
  const left = new AbortController();
  reply.raw.on("close", () => left.abort());
  const rows = await download.rows(left.signal);
  return reply
    .header("content-type", "text/csv; charset=utf-8")
    .header("content-disposition", `attachment; filename="${download.filename}"`)
    .header("cache-control", "no-store")
    .send(csvStream(download.header, rows));
}
