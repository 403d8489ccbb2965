/** Fulfilment of a month: Business.fulfilment(month) and the operators' freezePackingSnapshot. */
import { resolveCursorConnection } from "@pothos/plugin-relay";
import { builder } from "../builder.ts";
import { COMMON_ERRORS } from "../errors.ts";
import { CURSOR_DECODER } from "../cursors.ts";
import { controlCharacterIn } from "../../http/input-limits.ts";
import { MAX_ROW_ID, numericId } from "../ids.ts";
import { FulfillmentModeEnum } from "./catalog.ts";
import { isoDate } from "../../shared/calendar.ts";
import { globalId } from "../../shared/global-id.ts";
import type { Difference } from "../../packing/differences.ts";
import type { FulfillmentMode } from "../../generated/prisma/client.ts";
import { ValidationError } from "../../shared/errors.ts";
import { MODE_ORDER, toModeCode } from "../../shared/fulfillment.ts";
import type { Box, Count, PackingKey, PlanModeCount, PreviewMember } from "../../packing/preview.ts";
import * as fulfilment from "../../packing/service.ts";

const CycleStateEnum = builder.enumType("FulfilmentCycleState", {
  description: "OPEN: before the freeze, boxes are the preview's. FROZEN: the packing snapshot exists, boxes are its copies.",
  values: ["OPEN", "FROZEN"] as const,
});

const OutlookEnum = builder.enumType("FulfilmentOutlook", {
  description: "Where a membership stands for the month.",
  values: {
    PAID: { description: "An order for the month exists and is paid." },
    WILL_CHARGE: { description: "The renewal run charges it on its billing day." },
    RETRY: { description: "The month's charge failed (past due); the run retries it on nextRetryAt." },
    SKIPPED: { description: "The member skipped (paused) the month: no box, no charge." },
    REFUNDED: { description: "The month's order was refunded: no box." },
  } as const,
});

const DifferenceKindEnum = builder.enumType("FulfilmentDifferenceKind", {
  values: {
    ADDED: { description: "A box the snapshot lacks (a late checkout or restart paid for the month)." },
    REMOVED: { description: "A frozen box the month no longer has (canceled, refunded)." },
    CHANGED: { description: "The plan, mode, point, add-ons, address or gift message of a box changed." },
    PAYMENT: { description: "A box on hold is now paid, or its retries failed." },
  } as const,
});

/** A box's cursor: its packing key (preview.ts PackingKey), opaque to clients. */
const CURSOR_PREFIX = "PackingBox:";
const boxCursor = (b: Box) => Buffer.from(CURSOR_PREFIX + JSON.stringify([b.mode, b.fulfillmentPoint, b.memberName, b.membershipId])).toString("base64url");

function packingKeyOfCursor(cursor: string | undefined, arg: string): PackingKey | null {
  if (cursor === undefined) return null;
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  let key: unknown;
  try {
    key = text.startsWith(CURSOR_PREFIX) ? JSON.parse(text.slice(CURSOR_PREFIX.length)) : null;
  } catch {
    key = null;
  }
  if (Array.isArray(key) && key.length === 4) {
    const [mode, point, name, membershipId] = key as unknown[];
    // A control character (NUL) in a string or an id past the integer columns never reaches the database.
    const clean = (v: unknown): v is string => typeof v === "string" && controlCharacterIn(v) === null;
    const rowId = Number.isSafeInteger(membershipId) && (membershipId as number) >= 1 && (membershipId as number) <= MAX_ROW_ID;
    if (MODE_ORDER.some((m) => toModeCode(m) === mode) && clean(point) && clean(name) && rowId) {
      return { mode: mode as FulfillmentMode, point, name, membershipId: membershipId as number };
    }
  }
  throw new ValidationError("Not a cursor of these boxes.", [{ path: arg, message: "Not a cursor of these boxes." }]);
}

const CountRef = builder.objectRef<Count>("FulfilmentCount").implement({
  fields: (t) => ({ label: t.exposeString("label"), count: t.exposeInt("count") }),
});

const BoxAddonRef = builder.objectRef<{ ref: string; name: string }>("PackingBoxAddon").implement({
  fields: (t) => ({ ref: t.exposeString("ref"), name: t.exposeString("name") }),
});

const BoxRef = builder.objectRef<Box>("PackingBox").implement({
  description: "One box of the month: what is packed and where it goes (a frozen copy once the month is frozen).",
  fields: (t) => ({
    membershipId: t.id({ description: "The membership's Relay id.", resolve: (b) => globalId("Membership", b.membershipId) }),
    membershipDatabaseId: t.int({ description: "The membership's numeric id (the member page's address).", resolve: (b) => b.membershipId }),
    memberName: t.exposeString("memberName"),
    email: t.exposeString("email"),
    phone: t.exposeString("phone"),
    planName: t.exposeString("planName"),
    mode: t.field({ type: FulfillmentModeEnum, resolve: (b) => b.mode }),
    fulfillmentPoint: t.exposeString("fulfillmentPoint", { description: "Pickup point or delivery area (empty for shipping)." }),
    addons: t.field({ type: [BoxAddonRef], resolve: (b) => b.addons }),
    address: t.expose("address", { type: "JSON", nullable: true, description: "{fullName, phone, street, apt, city, state, zip, country, instructions?}" }),
    isGift: t.exposeBoolean("isGift"),
    giftRecipient: t.exposeString("giftRecipient"),
    giftMessage: t.exposeString("giftMessage"),
    totalCents: t.exposeInt("totalCents"),
    hold: t.exposeString("hold", { nullable: true, description: '"payment_failed": the month\'s charge failed; null: paid or to be charged.' }),
  }),
});

const MemberRef = builder.objectRef<PreviewMember>("FulfilmentMember").implement({
  fields: (t) => ({
    membershipId: t.id({ resolve: (m) => globalId("Membership", m.membershipId) }),
    membershipDatabaseId: t.int({ description: "The membership's numeric id (the member page's address).", resolve: (m) => m.membershipId }),
    memberName: t.exposeString("memberName"),
    outlook: t.field({ type: OutlookEnum, resolve: (m) => m.outlook }),
    amountCents: t.exposeInt("amountCents", { description: "Paid, or what the renewal charges (a scheduled change and tax included)." }),
    chargeDate: t.string({ nullable: true, description: "WILL_CHARGE: the billing day (YYYY-MM-DD).", resolve: (m) => (m.chargeDate ? isoDate(m.chargeDate) : null) }),
    nextRetryAt: t.expose("nextRetryAt", { type: "DateTime", nullable: true }),
    changeTakesEffect: t.exposeBoolean("changeTakesEffect"),
  }),
});

const DifferenceRef = builder.objectRef<Difference>("FulfilmentDifference").implement({
  fields: (t) => ({
    kind: t.field({ type: DifferenceKindEnum, resolve: (d) => d.kind }),
    membershipId: t.id({ resolve: (d) => globalId("Membership", d.membershipId) }),
    memberName: t.exposeString("memberName"),
    changes: t.exposeStringList("changes", { description: "What changed, in words." }),
  }),
});

const PlanModeCountRef = builder.objectRef<PlanModeCount>("FulfilmentPlanModeCount").implement({
  fields: (t) => ({ plan: t.exposeString("plan"), mode: t.field({ type: FulfillmentModeEnum, resolve: (x) => x.mode }), count: t.exposeInt("count") }),
});

type Totals = Awaited<ReturnType<typeof fulfilment.cycleTotals>>;
const TotalsRef = builder.objectRef<Totals>("FulfilmentTotals").implement({
  fields: (t) => ({
    expectedRevenueCents: t.exposeInt("expectedRevenueCents", { description: "Paid, to be charged and due retries, as of now." }),
    paidCents: t.exposeInt("paidCents"),
    toChargeCents: t.exposeInt("toChargeCents"),
    retryCents: t.exposeInt("retryCents"),
    boxes: t.exposeInt("boxes", { description: "Boxes to pack (not on hold)." }),
    held: t.exposeInt("held", { description: "Boxes on hold (payment failed)." }),
    byPlan: t.field({ type: [CountRef], resolve: (x) => x.byPlan }),
    byPlanMode: t.field({ type: [PlanModeCountRef], description: "Boxes (not on hold) of each plan in each mode, by plan name.", resolve: (x) => x.byPlanMode }),
    byMode: t.field({ type: [CountRef], resolve: (x) => x.byMode }),
    byPoint: t.field({ type: [CountRef], description: "Pickup point or delivery area; shipping boxes under Shipping.", resolve: (x) => x.byPoint }),
    byAddon: t.field({ type: [CountRef], resolve: (x) => x.byAddon }),
  }),
});

const CycleRef = builder.objectRef<fulfilment.FulfilmentCycle>("FulfilmentCycle").implement({
  description: "A business's month: the preview before the freeze, the packing snapshot after it (docs/fulfilment.md).",
  fields: (t) => ({
    month: t.string({ resolve: (c) => c.cycle.period }),
    state: t.field({ type: CycleStateEnum, resolve: (c) => c.state }),
    freezeAt: t.field({ type: "DateTime", description: "When the snapshot is (or was due to be) frozen; without a cutoff day, the earliest (the renewal run must complete).", resolve: (c) => c.cycle.freezeAt }),
    frozenAt: t.field({ type: "DateTime", nullable: true, resolve: (c) => c.snapshot?.frozenAt ?? null }),
    billingDate: t.string({ resolve: (c) => isoDate(c.cycle.billingDate) }),
    cutoffDate: t.string({ nullable: true, resolve: (c) => (c.cycle.cutoffDate ? isoDate(c.cycle.cutoffDate) : null) }),
    boxReadyDate: t.string({ resolve: (c) => isoDate(c.cycle.boxReadyDate) }),
    totals: t.field({ type: TotalsRef, resolve: (c, _a, ctx) => fulfilment.cycleTotals(ctx, c) }),
    members: t.field({ type: [MemberRef], description: "Every current membership and where it stands for the month.", resolve: (c, _a, ctx) => fulfilment.cycleMembers(ctx, c) }),
    boxes: t.connection({
      type: BoxRef,
      description: "Boxes ordered by mode, point (alphabetical) and member name.",
      // Read from the database a page at a time (20 by default, at most 100, as before); a cursor names a box (its
      // packing key), not a position: stable while boxes come and go, and valid across the month's freeze.
      args: { mode: t.arg({ type: FulfillmentModeEnum }) },
      extensions: { [CURSOR_DECODER]: packingKeyOfCursor },
      resolve: (c, args, ctx) =>
        resolveCursorConnection<Promise<Box[]>>({ args, toCursor: boxCursor }, ({ before, after, limit, inverted }) =>
          fulfilment.boxPage(ctx, c, { mode: args.mode, after: packingKeyOfCursor(after, "after"), before: packingKeyOfCursor(before, "before"), take: limit, reverse: inverted }),
        ),
    }),
    differences: t.field({
      type: [DifferenceRef],
      nullable: true,
      description: "After the freeze: what changed the month since (null while open).",
      resolve: (c, _a, ctx) => fulfilment.cycleDifferences(ctx, c),
    }),
  }),
});

builder.prismaObjectFields("Business", (t) => ({
  fulfilment: t.field({
    type: CycleRef,
    description: "The fulfilment cycle of a month (YYYY-MM): staff, administrators and the business's partner tokens with fulfilment:read (readFulfilment).",
    authScopes: (b) => ({ business: { id: b.id, permission: "readFulfilment" } }),
    args: { month: t.arg.string({ description: "YYYY-MM; omitted: the month whose box is next (this month through its box-ready day, else the next)." }) },
    resolve: (business, { month }, ctx) => fulfilment.fulfilmentCycle(ctx, business.id, month ?? null),
  }),
}));

const FreezeResultRef = builder.objectRef<Awaited<ReturnType<typeof fulfilment.freezeByOperator>>>("PackingSnapshotFrozen").implement({
  fields: (t) => ({
    created: t.exposeBoolean("created", { description: "false: the month was already frozen; nothing changed." }),
    boxes: t.exposeInt("boxes"),
  }),
});

builder.mutationFields((t) => ({
  freezePackingSnapshot: t.field({
    type: FreezeResultRef,
    description: "Administrators (operators): freezes a business's month now, if it is not frozen yet.",
    errors: { types: COMMON_ERRORS },
    authScopes: { admin: true },
    args: { businessId: t.arg.id({ required: true }), month: t.arg.string({ required: true }) },
    resolve: (_p, { businessId, month }, ctx) => fulfilment.freezeByOperator(ctx, numericId(businessId, "Business", "businessId"), month),
  }),
}));
