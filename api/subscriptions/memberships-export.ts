/**
 * The memberships CSV of the admin area: the filtered memberships list (./memberships-list.ts, its
 * filter, authorization and order, not a copy) walked in keyset pages of EXPORT_PAGE_ROWS, one row per
 * membership, so a file of any length holds one page in memory. The HTTP adapter streams the rows out.
 */
import type { ServiceContext } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import type { SubscriptionStatus } from "../generated/prisma/enums.ts";
import { MODE_NAMES } from "../shared/fulfillment.ts";
import { assertMayList, list, type MembershipFilter, type MembershipKey, type MembershipRows } from "./memberships-list.ts";
import { nextChargeDateOf, retryDates } from "./next-charge.ts";
import { pauseViewOf } from "./skips.ts";
import { timingSelect, type PageTiming } from "./timing.ts";

/** The columns, in order: the browser export's (kept as they were), the mode and the next charge date, then a pause's last month and a scheduled cancel's. */
export const MEMBERSHIP_CSV_HEADER = [
  "subscription_id",
  "provider_subscription_id",
  "public_id",
  "username",
  "email",
  "business_slug",
  "business_name",
  "plan",
  "status",
  "started_at",
  "canceled_at",
  "fulfillment_mode",
  "next_charge_date",
  "paused_through",
  "cancel_after",
] as const;

export type MembershipCsvRow = (string | number | null)[];

/** Rows per statement: large enough that 50,000 rows are 50 statements, small enough to hold in memory. */
const EXPORT_PAGE_ROWS = 1000;

/** The status as the admin list shows it (its badge: "Active", "Past due", "Canceled"). */
const STATUS_WORDS: Record<SubscriptionStatus, string> = { ACTIVE: "Active", PAST_DUE: "Past due", CANCELED: "Canceled", INCOMPLETE: "Incomplete" };

const exportSelect = {
  id: true,
  providerSubscriptionId: true,
  email: true,
  status: true,
  startedAt: true,
  canceledAt: true,
  mode: true,
  billingDay: true,
  paidThroughPeriod: true,
  cancelAfterPeriod: true,
  businessId: true,
  user: { select: { publicId: true, username: true, email: true } },
  business: { select: { slug: true, name: true, timeZone: true } },
  plan: { select: { name: true } },
  skips: { select: { yearMonth: true } },
} as const satisfies Prisma.SubscriptionSelect;

type ExportMembership = Prisma.SubscriptionGetPayload<{ select: typeof exportSelect }>;

/**
 * The rows of the filtered list, newest first, read a page at a time as they are consumed. Refused (before any
 * row, so an adapter can still answer with an error status) for a reader who may read no memberships at all,
 * or not those of the filtered business; `signal` stops the walk between pages (the client went away).
 */
export async function membershipCsvRows(ctx: ServiceContext, filter: MembershipFilter, signal?: AbortSignal): Promise<AsyncGenerator<MembershipCsvRow>> {
  await assertMayList(ctx, filter);
  return walk(ctx, filter, signal);
}

async function* walk(ctx: ServiceContext, filter: MembershipFilter, signal: AbortSignal | undefined): AsyncGenerator<MembershipCsvRow> {
  let after: MembershipKey | null = null;
  const timings = new Map<number, PageTiming | null>();
  for (;;) {
    if (signal?.aborted) return;
    const { rows, keys }: MembershipRows<{ select: typeof exportSelect }> = await list(ctx, filter, { take: EXPORT_PAGE_ROWS, select: exportSelect, after });
    const retries = await retryDates(ctx, rows);
    await readTimings(ctx, rows, timings);
    for (const m of rows) yield csvRow(ctx, m, retries.get(m.id), timings.get(m.businessId) ?? null);
    if (rows.length < EXPORT_PAGE_ROWS) return;
    after = keys[keys.length - 1];
  }
}

/**
 * Adds the calendars (page timing: a pause's months) of the rows' businesses not read yet to `timings`: once a walk
 * for each business, in at most one statement a page (not in the page's Prisma read, where it took two a page).
 */
async function readTimings(ctx: ServiceContext, rows: readonly { businessId: number }[], timings: Map<number, PageTiming | null>): Promise<void> {
  const missing = [...new Set(rows.map((m) => m.businessId))].filter((id) => !timings.has(id));
  if (missing.length === 0) return;
  const pages = await ctx.db.page.findMany({ where: { businessId: { in: missing } }, select: { businessId: true, ...timingSelect } });
  for (const id of missing) timings.set(id, null);
  for (const { businessId, ...timing } of pages) timings.set(businessId!, timing);
}

function csvRow(ctx: ServiceContext, m: ExportMembership, retryOn: string | undefined, timing: PageTiming | null): MembershipCsvRow {
  return [
    m.id,
    m.providerSubscriptionId,
    m.user.publicId,
    m.user.username,
    m.email ?? m.user.email,
    m.business.slug,
    m.business.name,
    m.plan.name,
    STATUS_WORDS[m.status],
    m.startedAt.toISOString(),
    m.canceledAt?.toISOString() ?? null,
    MODE_NAMES[m.mode],
    nextChargeDateOf(ctx, m, retryOn),
    pauseViewOf(ctx, { ...m, business: { ...m.business, page: timing } })?.pausedThrough ?? null,
    m.cancelAfterPeriod,
  ];
}
