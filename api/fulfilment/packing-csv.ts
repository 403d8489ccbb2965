/**
 * The packing lists of a month as CSV rows (issue 20): the boxes in packing order (pickup by point, delivery by
 * area, shipping; each group alphabetical, then member name), the frozen snapshot's once frozen (walked in keyset
 * pages of PACKING_PAGE_ROWS, so a list of tens of thousands of boxes holds one page in memory), else the
 * preview's (one statement for every membership, README "Fulfilment"). The HTTP adapter streams the rows out.
 */
import type { ServiceContext } from "../context.ts";
import type { FulfillmentMode, PackingBox, Prisma } from "../generated/prisma/client.ts";
import { MODE_NAMES } from "../shared/fulfillment.ts";
import { boxOfFrozen, cycleBoxes, FROZEN_PACKING_ORDER, fulfilmentCycle, type FulfilmentCycle } from "./service.ts";
import type { Box } from "./preview.ts";

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

/** Rows per statement over a frozen snapshot. */
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
 * stops the walk between pages (the client went away).
 */
export async function packingCsvRows(
  ctx: ServiceContext,
  businessId: number,
  month: string,
  filter: { mode?: FulfillmentMode | null },
  signal?: AbortSignal,
): Promise<AsyncGenerator<PackingCsvRow>> {
  const cycle = await fulfilmentCycle(ctx, businessId, month);
  return walk(ctx, cycle, filter.mode ?? null, signal);
}

async function* walk(ctx: ServiceContext, cycle: FulfilmentCycle, mode: FulfillmentMode | null, signal: AbortSignal | undefined): AsyncGenerator<PackingCsvRow> {
  if (!cycle.snapshot) {
    for (const b of await cycleBoxes(ctx, cycle, { mode })) yield csvRow(b);
    return;
  }
  for await (const b of frozenBoxPages(ctx, cycle.snapshot.id, mode, signal)) yield csvRow(b);
}

/** A frozen snapshot's boxes in packing order, a keyset page at a time (the enum's order is the modes' display order). */
async function* frozenBoxPages(ctx: ServiceContext, snapshotId: number, mode: FulfillmentMode | null, signal: AbortSignal | undefined): AsyncGenerator<Box> {
  let cursor: number | null = null;
  for (;;) {
    if (signal?.aborted) return;
    const page: PackingBox[] = await ctx.db.packingBox.findMany({
      where: { snapshotId, ...(mode ? { mode } : {}) },
      orderBy: [...FROZEN_PACKING_ORDER],
      take: PACKING_PAGE_ROWS,
      ...(cursor == null ? {} : { cursor: { id: cursor }, skip: 1 }),
    });
    for (const r of page) yield boxOfFrozen(r);
    if (page.length < PACKING_PAGE_ROWS) return;
    cursor = page[page.length - 1].id;
  }
}
