/**
 * The cycle preview of month M for one business: per membership, whether M is paid, will be charged (when and how
 * much: the renewal run's own pricing, api/billing/renewals/pricing.ts), is skipped, waits for a retry or was
 * refunded; the boxes that follow from it and their totals. Read in a bounded number of statements whatever the
 * number of members: one for the business, one for every membership with what M needs of it (order, skip,
 * scheduled change, add-ons, renewal attempts), and three to price the scheduled changes taking effect in M.
 * The packing lists of an open month read the same boxes a keyset page at a time instead (previewBoxPage): the
 * statement orders and pages them in the database, and each page is priced by the same code.
 */
import { Prisma, type FulfillmentMode } from "../generated/prisma/client.ts";
import type { PrismaClient } from "../db.ts";
import { nextRetryAt } from "../billing/renewals/attempts.ts";
import { changeTakesEffect, priceScheduledChanges, renewalAmountCents, type ChangingMembership, type PricedChange } from "../billing/renewals/pricing.ts";
import type { TaxSettings } from "../billing/renewals/types.ts";
import { daysInMonth, parseYearMonth, type LocalDate, type YearMonth } from "../shared/calendar.ts";
import { MODE_NAMES } from "../shared/fulfillment.ts";
import { NotFoundError } from "../shared/errors.ts";

/** Where a membership stands for M. */
export type Outlook = "PAID" | "WILL_CHARGE" | "RETRY" | "SKIPPED" | "REFUNDED";

/** The hold a box carries: its month's charge failed (past due for M). */
const PAYMENT_FAILED = "payment_failed";

export interface BoxAddon {
  ref: string;
  name: string;
}

/** One box of M: what is packed and where it goes (a packing_boxes row before it is frozen). */
export interface Box {
  membershipId: number;
  orderId: number | null;
  userId: number;
  memberName: string;
  email: string;
  phone: string;
  planId: number;
  planName: string;
  mode: FulfillmentMode;
  fulfillmentPoint: string;
  addons: BoxAddon[];
  address: Prisma.JsonValue | null;
  isGift: boolean;
  giftRecipient: string;
  giftMessage: string;
  totalCents: number;
  hold: string | null;
}

export interface PreviewMember {
  membershipId: number;
  memberName: string;
  outlook: Outlook;
  /** Paid: the order's total; to charge or retry: what the renewal charges; skipped or refunded: 0. */
  amountCents: number;
  /** WILL_CHARGE: the membership's billing day in M. */
  chargeDate: LocalDate | null;
  /** RETRY: when the renewal run tries M again. */
  nextRetryAt: Date | null;
  /** A scheduled change takes effect with M's renewal (already applied once M is charged). */
  changeTakesEffect: boolean;
  box: Box | null;
}

export interface Count {
  label: string;
  count: number;
}

/** Boxes of one plan in one mode (the screen's plan × mode table). */
export interface PlanModeCount {
  plan: string;
  mode: FulfillmentMode;
  count: number;
}

export interface BoxTotals {
  /** Boxes without a hold. */
  boxes: number;
  held: number;
  byPlan: Count[];
  byPlanMode: PlanModeCount[];
  byMode: Count[];
  byPoint: Count[];
  byAddon: Count[];
}

export interface Preview {
  period: YearMonth;
  members: PreviewMember[];
  boxes: Box[];
  paidCents: number;
  toChargeCents: number;
  retryCents: number;
  /** Paid, to be charged on the billing day, and due retries. */
  expectedRevenueCents: number;
  totals: BoxTotals;
}

interface MembershipRow {
  id: number;
  business_id: number;
  user_id: number;
  status: string;
  plan_id: number;
  plan_name: string;
  mode: FulfillmentMode;
  fulfillment_point: string;
  address: Prisma.JsonValue | null;
  is_gift: boolean;
  gift_message: string;
  total_cents: number;
  coupon_id: number | null;
  billing_day: number;
  paid_through_period: string | null;
  /** The name a person reads (the user's, else the address's, else the username): the packing key's. */
  member_name: string;
  user_email: string | null;
  sub_email: string | null;
  user_phone: string | null;
  order_id: number | null;
  order_total_cents: number | null;
  order_refunded_cents: number | null;
  skipped: boolean;
  change_plan_id: number | null;
  change_mode: FulfillmentMode | null;
  change_point: string | null;
  change_addon_ids: number[] | null;
  change_period: string | null;
  addons: (BoxAddon & { id: number })[];
  attempts: number[] | null;
}

/**
 * Where a box sorts in its month's packing lists, and a page's cursor: mode (the FulfillmentMode enum's order,
 * the modes' display order), pickup point or delivery area, member name (both in the database's collation), then
 * the membership (one box per membership a month).
 */
export interface PackingKey {
  mode: FulfillmentMode;
  point: string;
  name: string;
  membershipId: number;
}

export const packingKeyOf = (b: Box): PackingKey => ({ mode: b.mode, point: b.fulfillmentPoint, name: b.memberName, membershipId: b.membershipId });

/** A page of boxes in packing order: after or before a key (exclusive), `take` of them, read backwards (descending) when `reverse`. */
export interface BoxPageArgs {
  mode?: FulfillmentMode | null;
  after?: PackingKey | null;
  before?: PackingKey | null;
  take: number;
  reverse?: boolean;
}

const keySql = (k: PackingKey) => Prisma.sql`(${k.mode}::"FulfillmentMode", ${k.point}, ${k.name}, ${k.membershipId}::int)`;

/**
 * The current memberships of the business with what month `period` needs of it, in packing order: one statement.
 * Each row carries its packing key computed as the preview computes the box (outlookOf, boxOf): a change the
 * renewal of M applies (unpaid for M, effective by M, its plan still priced in its mode: priceScheduledChanges)
 * moves the box to the change's mode and point. With `page`, only the rows that are boxes, one keyset page of
 * them, so a month of any size is read a page at a time; the add-ons and renewal attempts are read for that
 * page's rows only.
 */
function readMemberships(db: PrismaClient, businessId: number, period: YearMonth, page?: BoxPageArgs): Promise<MembershipRow[]> {
  const attemptKey = `:${period}:%`;
  const where = page
    ? Prisma.sql`WHERE m.boxed ${page.mode ? Prisma.sql`AND m.pk_mode = ${page.mode}::"FulfillmentMode"` : Prisma.empty}
                 ${page.after ? Prisma.sql`AND (m.pk_mode, m.pk_point, m.member_name, m.id) > ${keySql(page.after)}` : Prisma.empty}
                 ${page.before ? Prisma.sql`AND (m.pk_mode, m.pk_point, m.member_name, m.id) < ${keySql(page.before)}` : Prisma.empty}`
    : Prisma.empty;
  const dir = page?.reverse ? Prisma.sql`DESC` : Prisma.sql`ASC`;
  const order = Prisma.sql`ORDER BY pk_mode ${dir}, pk_point ${dir}, member_name ${dir}, id ${dir}`;
  return db.$queryRaw<MembershipRow[]>`
    WITH base AS (
      SELECT s.id, s.business_id, s.user_id, s.status, s.plan_id, p.name AS plan_name, s.mode, s.fulfillment_point, s.address,
             s.is_gift, s.gift_message, s.total_cents, s.coupon_id, s.billing_day, s.paid_through_period,
             COALESCE(NULLIF(u.name, ''), NULLIF(CASE WHEN jsonb_typeof(s.address -> 'fullName') = 'string' THEN s.address ->> 'fullName' END, ''), u.username) AS member_name,
             u.email AS user_email, s.email AS sub_email, u.phone AS user_phone,
             o.id AS order_id, o.total_cents AS order_total_cents, o.refunded_cents AS order_refunded_cents,
             (o.id IS NOT NULL AND o.total_cents > 0 AND o.refunded_cents >= o.total_cents) AS refunded,
             (o.id IS NOT NULL OR COALESCE(s.paid_through_period >= ${period}, false)) AS paid,
             EXISTS (SELECT 1 FROM skips k WHERE k.subscription_id = s.id AND k.year_month = ${period}) AS skipped,
             c.plan_id AS change_plan_id, c.mode AS change_mode, c.fulfillment_point AS change_point,
             c.addon_ids AS change_addon_ids, c.effective_period AS change_period,
             (c.effective_period <= ${period} AND EXISTS (SELECT 1 FROM plan_variations v WHERE v.plan_id = c.plan_id AND v.mode = c.mode)) AS change_priced
        FROM subscriptions s
        JOIN users u ON u.id = s.user_id
        JOIN plans p ON p.id = s.plan_id
        LEFT JOIN orders o ON o.subscription_id = s.id AND o.period = ${period}
        LEFT JOIN subscription_changes c ON c.subscription_id = s.id
       WHERE s.business_id = ${businessId} AND s.status IN ('ACTIVE', 'PAST_DUE')
         -- A next-month sign-up has no box (and owes nothing) before its first month.
         AND (s.first_period IS NULL OR s.first_period <= ${period})
         -- A member's own cancel: no box (and nothing owed) after its last month, unless that month was paid anyway.
         AND (s.cancel_after_period IS NULL OR s.cancel_after_period >= ${period} OR o.id IS NOT NULL)
    ), m AS (
      SELECT b.*, NOT b.refunded AND (b.paid OR NOT b.skipped) AS boxed,
             CASE WHEN NOT b.paid AND NOT b.skipped AND b.change_priced THEN b.change_mode ELSE b.mode END AS pk_mode,
             CASE WHEN NOT b.paid AND NOT b.skipped AND b.change_priced THEN b.change_point ELSE b.fulfillment_point END AS pk_point
        FROM base b
    ), page AS (
      SELECT * FROM m ${where} ${order} ${page ? Prisma.sql`LIMIT ${page.take}` : Prisma.empty}
    )
    SELECT m.id, m.business_id, m.user_id, m.status::text AS status, m.plan_id, m.plan_name, m.mode::text AS mode, m.fulfillment_point,
           m.address, m.is_gift, m.gift_message, m.total_cents, m.coupon_id, m.billing_day, m.paid_through_period, m.member_name,
           m.user_email, m.sub_email, m.user_phone, m.order_id, m.order_total_cents, m.order_refunded_cents, m.skipped,
           m.change_plan_id, m.change_mode::text AS change_mode, m.change_point, m.change_addon_ids, m.change_period,
           COALESCE((SELECT json_agg(json_build_object('id', a.id, 'ref', a.ref, 'name', a.name) ORDER BY a.position, a.id)
                       FROM subscription_addons sa JOIN addons a ON a.id = sa.addon_id WHERE sa.subscription_id = m.id), '[]'::json) AS addons,
           (SELECT array_agg((extract(epoch FROM py.created_at) * 1000)::float8 ORDER BY py.created_at)
              FROM payments py
             WHERE py.subscription_id = m.id AND py.status::text <> 'SUCCEEDED'
               AND py.idempotency_key LIKE 'renewal:' || m.id || ${attemptKey}) AS attempts
      FROM page m
     ${order}`;
}

const addressField = (address: Prisma.JsonValue | null, key: string): string => {
  if (!address || typeof address !== "object" || Array.isArray(address)) return "";
  const value = (address as Record<string, unknown>)[key];
  return typeof value === "string" ? value : "";
};

function outlookOf(row: MembershipRow, period: YearMonth): Outlook {
  if (row.order_id !== null) {
    const refunded = row.order_total_cents! > 0 && row.order_refunded_cents! >= row.order_total_cents!;
    return refunded ? "REFUNDED" : "PAID";
  }
  if (row.paid_through_period && row.paid_through_period >= period) return "PAID";
  if (row.skipped) return "SKIPPED";
  if (row.status === "PAST_DUE" && row.attempts?.length) return "RETRY";
  return "WILL_CHARGE";
}

function boxOf(row: MembershipRow, outlook: Outlook, change: PricedChange | null, totalCents: number): Box {
  return {
    membershipId: row.id,
    orderId: outlook === "PAID" ? row.order_id : null,
    userId: row.user_id,
    memberName: row.member_name,
    email: row.sub_email || row.user_email || "",
    phone: addressField(row.address, "phone") || row.user_phone || "",
    planId: change?.planId ?? row.plan_id,
    planName: change?.planName ?? row.plan_name,
    mode: change?.mode ?? row.mode,
    fulfillmentPoint: change ? change.fulfillmentPoint : row.fulfillment_point,
    addons: change ? change.addons.map((a) => ({ ref: a.ref, name: a.name })) : row.addons.map((a) => ({ ref: a.ref, name: a.name })),
    address: row.address,
    isGift: row.is_gift,
    giftRecipient: row.is_gift ? addressField(row.address, "fullName") : "",
    giftMessage: row.gift_message,
    totalCents,
    hold: outlook === "RETRY" ? PAYMENT_FAILED : null,
  };
}

/** Where a box goes, as its group is called: the pickup point or delivery area, or the mode when it has none. */
const pointLabel = (box: Pick<Box, "mode" | "fulfillmentPoint">) => box.fulfillmentPoint || MODE_NAMES[box.mode];

function countBy(boxes: Box[], keys: (b: Box) => string[]): Count[] {
  const counts = new Map<string, number>();
  for (const b of boxes) for (const k of keys(b)) counts.set(k, (counts.get(k) ?? 0) + 1);
  return [...counts].map(([label, count]) => ({ label, count })).sort((a, b) => a.label.localeCompare(b.label));
}

/** Box counts by plan, mode, point and add-on; boxes on hold are counted apart. */
export function tally(boxes: Box[]): BoxTotals {
  const packed = boxes.filter((b) => !b.hold);
  return {
    boxes: packed.length,
    held: boxes.length - packed.length,
    byPlan: countBy(packed, (b) => [b.planName]),
    byPlanMode: countBy(packed, (b) => [`${b.planName}\u0000${b.mode}`]).map(({ label, count }) => {
      const [plan, mode] = label.split("\u0000");
      return { plan, mode: mode as FulfillmentMode, count };
    }),
    byMode: countBy(packed, (b) => [MODE_NAMES[b.mode]]),
    byPoint: countBy(packed, (b) => [pointLabel(b)]),
    byAddon: countBy(packed, (b) => b.addons.map((a) => a.name)),
  };
}

/** What the preview needs of the business: its tax, which a scheduled change is priced with. */
export interface PreviewBusiness {
  id: number;
  page: TaxSettings;
}

/** The business the preview prices for (no authorization: the caller checked it). */
export async function previewBusiness(db: PrismaClient, businessId: number): Promise<PreviewBusiness> {
  const business = await db.business.findUnique({ where: { id: businessId }, select: { id: true, page: { select: { taxEnabled: true, taxRateBps: true } } } });
  if (!business) throw new NotFoundError("Business not found.");
  return business;
}

/** Rows of readMemberships as the preview's members, in the rows' order: three statements to price the scheduled changes taking effect. */
async function membersOf(db: PrismaClient, business: PreviewBusiness, period: YearMonth, rows: MembershipRow[]): Promise<PreviewMember[]> {
  const outlooks = rows.map((r) => outlookOf(r, period));

  // The changes the renewal of M applies before charging it, priced as the run prices them.
  const changing = rows.flatMap((r, i): ChangingMembership[] => {
    const unpaid = outlooks[i] === "WILL_CHARGE" || outlooks[i] === "RETRY";
    const change = r.change_plan_id === null ? null : { planId: r.change_plan_id, mode: r.change_mode!, fulfillmentPoint: r.change_point ?? "", addonIds: r.change_addon_ids ?? [], effectivePeriod: r.change_period! };
    return unpaid && change && changeTakesEffect(change, period) ? [{ id: r.id, businessId: r.business_id, couponId: r.coupon_id, pendingChange: change }] : [];
  });
  const priced = await priceScheduledChanges(db, changing, new Map([[business.id, business.page]]));

  const { year, month } = parseYearMonth(period);
  return rows.map((row, i) => {
    const outlook = outlooks[i];
    const change = priced.get(row.id) ?? null;
    const amountCents =
      outlook === "PAID" ? (row.order_total_cents ?? row.total_cents) : outlook === "WILL_CHARGE" || outlook === "RETRY" ? renewalAmountCents({ totalCents: row.total_cents }, change) : 0;
    const boxed = outlook === "PAID" || outlook === "WILL_CHARGE" || outlook === "RETRY";
    return {
      membershipId: row.id,
      memberName: row.member_name,
      outlook,
      amountCents,
      chargeDate: outlook === "WILL_CHARGE" ? { year, month, day: Math.min(row.billing_day, daysInMonth(year, month)) } : null,
      nextRetryAt: outlook === "RETRY" ? nextRetryAt(row.attempts!.map((ms) => new Date(ms))) : null,
      changeTakesEffect: priced.has(row.id),
      box: boxed ? boxOf(row, outlook, change, amountCents) : null,
    };
  });
}

/**
 * The cycle preview of `period` for a business, as of now (no authorization: the caller checked it). Its boxes
 * are in packing order (the database's, as previewBoxPage pages them and as a frozen month is listed); its
 * members by membership.
 */
export async function previewOf(db: PrismaClient, businessId: number, period: YearMonth): Promise<Preview> {
  const business = await previewBusiness(db, businessId);
  const inPackingOrder = await membersOf(db, business, period, await readMemberships(db, businessId, period));
  const boxes = inPackingOrder.flatMap((m) => (m.box ? [m.box] : []));
  const members = inPackingOrder.sort((a, b) => a.membershipId - b.membershipId);
  const sum = (o: Outlook) => members.filter((m) => m.outlook === o).reduce((n, m) => n + m.amountCents, 0);
  const paidCents = sum("PAID");
  const toChargeCents = sum("WILL_CHARGE");
  const retryCents = sum("RETRY");
  return { period, members, boxes, paidCents, toChargeCents, retryCents, expectedRevenueCents: paidCents + toChargeCents + retryCents, totals: tally(boxes) };
}

/**
 * One keyset page of the preview's boxes (the same boxes, in the same order, as previewOf's), read in the
 * database a page at a time and priced with the renewal's code page by page: one statement for the page, and
 * three more when a scheduled change on it takes effect. In packing order, nearest the cursor first (backwards when
 * `reverse`).
 */
export async function previewBoxPage(db: PrismaClient, business: PreviewBusiness, period: YearMonth, page: BoxPageArgs): Promise<Box[]> {
  const rows = await readMemberships(db, business.id, period, page);
  return (await membersOf(db, business, period, rows)).flatMap((m) => (m.box ? [m.box] : []));
}
