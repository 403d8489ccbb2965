/**
 * Fulfilment of a business's month: the cycle (cycle.ts), its preview before the freeze (preview.ts),
 * the packing snapshot after it (snapshot.ts) and what changed since (differences.ts). Who may read it: the
 * business's owner, editors and viewers, administrators, and the business's partner API tokens with fulfilment:read
 * (readFulfilment, api/auth/policy.ts). Operators (administrators) may freeze a month by hand; the job does it otherwise.
 */
import type { ServiceContext } from "../context.ts";
import type { FulfillmentMode, PackingBox, Prisma } from "../generated/prisma/client.ts";
import { assertCan, requireAdmin } from "../auth/policy.ts";
import { eventActorOf } from "../events/outbox.ts";
import { parseYearMonth, type YearMonth } from "../shared/calendar.ts";
import { NotFoundError, ValidationError } from "../shared/errors.ts";
import { MODE_ORDER, toModeCode } from "../shared/fulfillment.ts";
import { cycleOf, nextBoxPeriod, type Cycle } from "./cycle.ts";
import { differencesOf, type Difference } from "./differences.ts";
import { previewBoxPage, previewOf, tally, type Box, type BoxPageArgs, type BoxTotals, type PackingKey, type Preview, type PreviewBusiness } from "./preview.ts";
import { freeze, type FreezeResult } from "./snapshot.ts";

export interface FulfilmentCycle {
  businessId: number;
  cycle: Cycle;
  state: "OPEN" | "FROZEN";
  snapshot: { id: number; frozenAt: Date; trigger: string } | null;
  /** What the open month's boxes are priced with. */
  business: PreviewBusiness;
  /** Read once per request, whichever fields ask for them. */
  memo: { preview?: Promise<Preview>; frozen?: Promise<Box[]> };
}

function monthOf(month: string): YearMonth {
  try {
    parseYearMonth(month);
    return month;
  } catch {
    throw new ValidationError("Month must be YYYY-MM.", [{ path: "month", message: "Month must be YYYY-MM." }]);
  }
}

const timingSelect = { timeZone: true, page: { select: { billingDay: true, cutoffDay: true, boxReadyDay: true } } } as const;

/** The cycle of `month` (null: the month whose box is next) for a business the actor may read (readFulfilment). */
export async function fulfilmentCycle(ctx: ServiceContext, businessId: number, month: string | null): Promise<FulfilmentCycle> {
  let period = month === null ? null : monthOf(month);
  await assertCan(ctx, businessId, "readFulfilment");
  if (period === null) {
    const timing = await ctx.db.business.findUnique({ where: { id: businessId }, select: timingSelect });
    if (!timing) throw new NotFoundError("Business not found.");
    period = nextBoxPeriod(timing, ctx.clock.now());
  }
  const business = await ctx.db.business.findUnique({
    where: { id: businessId },
    select: {
      timeZone: true,
      page: { select: { billingDay: true, cutoffDay: true, boxReadyDay: true, taxEnabled: true, taxRateBps: true } },
      packingSnapshots: { where: { period }, select: { id: true, frozenAt: true, trigger: true } },
    },
  });
  if (!business) throw new NotFoundError("Business not found.");
  const snapshot = business.packingSnapshots[0] ?? null;
  const tax = business.page && { taxEnabled: business.page.taxEnabled, taxRateBps: business.page.taxRateBps };
  return { businessId, cycle: cycleOf(business, period), state: snapshot ? "FROZEN" : "OPEN", snapshot, business: { id: businessId, page: tax }, memo: {} };
}

const previewFor = (ctx: ServiceContext, c: FulfilmentCycle) => (c.memo.preview ??= previewOf(ctx.db, c.businessId, c.cycle.period));

/** A frozen packing_boxes row as a box. */
function boxOfFrozen(r: PackingBox): Box {
  return {
    membershipId: r.subscriptionId,
    orderId: r.orderId,
    userId: r.userId,
    memberName: r.memberName,
    email: r.email,
    phone: r.phone,
    planId: r.planId,
    planName: r.planName,
    mode: r.mode,
    fulfillmentPoint: r.fulfillmentPoint,
    addons: Array.isArray(r.addons) ? (r.addons as { ref: string; name: string }[]) : [],
    address: r.address,
    isGift: r.isGift,
    giftRecipient: r.giftRecipient,
    giftMessage: r.giftMessage,
    totalCents: r.totalCents,
    hold: r.hold,
  };
}

/**
 * A frozen snapshot's packing order, sorted by the database (the FulfillmentMode enum's order is the modes' display
 * order): the preview's (PackingKey), so the screen and the CSV download list a month alike, open or frozen. A
 * snapshot has one box per membership, so the order is total and a PackingKey is a keyset cursor on it.
 */
const FROZEN_PACKING_ORDER = [
  { mode: "asc" },
  { fulfillmentPoint: "asc" },
  { memberName: "asc" },
  { subscriptionId: "asc" },
] as const satisfies Prisma.PackingBoxOrderByWithRelationInput[];

const FROZEN_PACKING_ORDER_REVERSED = FROZEN_PACKING_ORDER.map((o) => Object.fromEntries(Object.keys(o).map((k) => [k, "desc"]))) as Prisma.PackingBoxOrderByWithRelationInput[];

/** The modes in the enum's (the database's) order. */
const MODES: FulfillmentMode[] = MODE_ORDER.map(toModeCode);

/** The boxes after (`gt`) or before (`lt`) a key in FROZEN_PACKING_ORDER (Prisma compares no enums: the later modes are listed). */
function beyond(k: PackingKey, dir: "gt" | "lt"): Prisma.PackingBoxWhereInput {
  const i = MODES.indexOf(k.mode);
  return {
    OR: [
      { mode: { in: dir === "gt" ? MODES.slice(i + 1) : MODES.slice(0, i) } },
      { mode: k.mode, fulfillmentPoint: { [dir]: k.point } },
      { mode: k.mode, fulfillmentPoint: k.point, memberName: { [dir]: k.name } },
      { mode: k.mode, fulfillmentPoint: k.point, memberName: k.name, subscriptionId: { [dir]: k.membershipId } },
    ],
  };
}

/** One keyset page of a frozen snapshot's boxes in packing order (nearest the cursor first: backwards when `reverse`): one statement. */
async function frozenBoxPage(ctx: ServiceContext, snapshotId: number, page: BoxPageArgs): Promise<Box[]> {
  const rows = await ctx.db.packingBox.findMany({
    where: {
      snapshotId,
      ...(page.mode ? { mode: page.mode } : {}),
      AND: [...(page.after ? [beyond(page.after, "gt")] : []), ...(page.before ? [beyond(page.before, "lt")] : [])],
    },
    orderBy: page.reverse ? FROZEN_PACKING_ORDER_REVERSED : [...FROZEN_PACKING_ORDER],
    take: page.take,
  });
  return rows.map(boxOfFrozen);
}

function frozenBoxes(ctx: ServiceContext, c: FulfilmentCycle): Promise<Box[]> {
  return (c.memo.frozen ??= ctx.db.packingBox.findMany({ where: { snapshotId: c.snapshot!.id }, orderBy: [...FROZEN_PACKING_ORDER] }).then((rows) => rows.map(boxOfFrozen)));
}

/**
 * One keyset page of the month's boxes in packing order (optionally one mode; nearest the cursor first, so backwards
 * when `reverse`, as a connection's `last` reads): the snapshot's once frozen, else the preview's, each read in the
 * database a page at a time. A PackingKey names the same place in both, so a page
 * read before the freeze continues after it.
 */
export function boxPage(ctx: ServiceContext, c: FulfilmentCycle, page: BoxPageArgs): Promise<Box[]> {
  return c.snapshot ? frozenBoxPage(ctx, c.snapshot.id, page) : previewBoxPage(ctx.db, c.business, c.cycle.period, page);
}

/** Box counts (the snapshot's once frozen) and the month's revenue as it stands now. */
export async function cycleTotals(ctx: ServiceContext, c: FulfilmentCycle): Promise<BoxTotals & Pick<Preview, "expectedRevenueCents" | "paidCents" | "toChargeCents" | "retryCents">> {
  const preview = await previewFor(ctx, c);
  const totals = c.snapshot ? tally(await frozenBoxes(ctx, c)) : preview.totals;
  return { ...totals, expectedRevenueCents: preview.expectedRevenueCents, paidCents: preview.paidCents, toChargeCents: preview.toChargeCents, retryCents: preview.retryCents };
}

/** The preview's members (who is paid, charged, skipped, retried). */
export async function cycleMembers(ctx: ServiceContext, c: FulfilmentCycle): Promise<Preview["members"]> {
  return (await previewFor(ctx, c)).members;
}

/** What changed the month since its snapshot (null while it is open). */
export async function cycleDifferences(ctx: ServiceContext, c: FulfilmentCycle): Promise<Difference[] | null> {
  if (!c.snapshot) return null;
  const [frozen, preview] = await Promise.all([frozenBoxes(ctx, c), previewFor(ctx, c)]);
  const current = new Set(preview.members.map((m) => m.membershipId));
  const missing = frozen.filter((b) => !current.has(b.membershipId)).map((b) => b.membershipId);
  const gone = new Map<number, string>();
  if (missing.length) {
    const subs = await ctx.db.subscription.findMany({ where: { id: { in: missing } }, select: { id: true, status: true } });
    for (const s of subs) gone.set(s.id, s.status === "CANCELED" ? "Canceled" : "No longer a member");
  }
  return differencesOf(frozen, preview.members, gone);
}

/** Operators: freeze a month now (administrators only); idempotent like the job's freeze. */
export async function freezeByOperator(ctx: ServiceContext, businessId: number, month: string): Promise<FreezeResult> {
  const period = monthOf(month);
  requireAdmin(ctx);
  if (!(await ctx.db.business.findUnique({ where: { id: businessId }, select: { id: true } }))) throw new NotFoundError("Business not found.");
  return freeze(ctx, businessId, period, { trigger: "operator", actor: eventActorOf(ctx.actor) });
}
