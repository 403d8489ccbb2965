/**
 * The packing lists of a month as CSV rows: the boxes in packing order (pickup by point, delivery by
 * area, shipping; each group alphabetical, then member name), the frozen snapshot's once frozen, else the
 * preview's: either walked in keyset pages of PACKING_PAGE_ROWS (service.ts boxPage), so a list of tens of
 * thousands of boxes holds one page in memory. The HTTP adapter streams the rows out.
 */
import type { ServiceContext } from "../context.ts";
import type { FulfillmentMode, Prisma } from "../generated/prisma/client.ts";
import { MODE_NAMES } from "../shared/fulfillment.ts";
import { boxPage, fulfilmentCycle, type FulfilmentCycle } from "./service.ts";
import { packingKeyOf, type Box, type PackingKey } from "./preview.ts";

export const PACKING_CSV_HEADER = [
  "mode",
  "point_or_area",
  "member",
  "email",
  "phone",
  "plan",
  "addons",
  "address_line1",
  "address_line2",
  "city",
  "state",
  "zip",
  "country",
  "instructions",
  "gift_recipient",
  "gift_message",
  "hold",
  "total",
] as const;

type PackingCsvRow = (string | number | null)[];

/** Boxes per statement (the open month's: per statement reading the page, priced by three more when it has changes). */
const PACKING_PAGE_ROWS = 1000;

/** The words a hold reads as on every packing list. */
const HOLD_WORDS: Record<string, string> = { payment_failed: "hold — payment failed" };

const field = (address: Prisma.JsonValue | null, key: string): string => {
  if (!address || typeof address !== "object" || Array.isArray(address)) return "";
  const value = (address as Record<string, unknown>)[key];
  return typeof value === "string" ? value : "";
};

/** Dollars with two decimals: a spreadsheet reads it as a number (cents are the database's, not the packer's). */
const dollars = (cents: number) => (cents / 100).toFixed(2);

function csvRow(b: Box): PackingCsvRow {
  const a = b.mode === "PICKUP" ? null : b.address;
  return [
    MODE_NAMES[b.mode],
    b.fulfillmentPoint,
    b.memberName,
    b.email,
    b.phone,
    b.planName,
    b.addons.map((x) => x.name).join("; "),
    field(a, "street"),
    field(a, "apt"),
    field(a, "city"),
    field(a, "state"),
    field(a, "zip"),
    field(a, "country"),
    field(a, "instructions"),
    b.isGift ? b.giftRecipient : "",
    b.isGift ? b.giftMessage : "",
    b.hold ? (HOLD_WORDS[b.hold] ?? b.hold) : "",
    dollars(b.totalCents),
  ];
}

/**
 * The packing list of `month` (optionally one mode) for a business the actor may read (the readers of
 * Business.fulfilment). Refused before any row, so the adapter can still answer with an error status; `signal`
 * stops the walk between pages (the client went away). `pageRows`: boxes per statement (tests make it small).
 */
export async function packingCsvRows(
  ctx: ServiceContext,
  businessId: number,
  month: string,
  filter: { mode?: FulfillmentMode | null; pageRows?: number },
  signal?: AbortSignal,
): Promise<AsyncGenerator<PackingCsvRow>> {
  const cycle = await fulfilmentCycle(ctx, businessId, month);
  return walk(ctx, cycle, filter.mode ?? null, filter.pageRows ?? PACKING_PAGE_ROWS, signal);
}

/** The month's boxes in packing order, a keyset page at a time (the snapshot's once frozen, else the preview's). */
async function* walk(ctx: ServiceContext, cycle: FulfilmentCycle, mode: FulfillmentMode | null, take: number, signal: AbortSignal | undefined): AsyncGenerator<PackingCsvRow> {
  let after: PackingKey | null = null;
  for (;;) {
    if (signal?.aborted) return;
    const page: Box[] = await boxPage(ctx, cycle, { mode, after, take });
    for (const b of page) yield csvRow(b);
    if (page.length < take) return;
    after = packingKeyOf(page[page.length - 1]);
  }
}
