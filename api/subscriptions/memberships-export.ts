/**
 * The memberships CSV of the admin area: the filtered memberships list (./memberships-list.ts, its
 * filter, authorization and order, not a copy) walked in keyset pages of EXPORT_PAGE_ROWS, one row per
 * membership, so a file of any length holds one page in memory. The HTTP adapter streams the rows out.
 */
import type { ServiceContext } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import type { SubscriptionStatus } from "../generated/prisma/enums.ts";
import { nextRetryAt, unpaidAttempts } from "../billing/renewals/attempts.ts";
import { isoDate, localDate } from "../shared/calendar.ts";
import { MODE_NAMES } from "../shared/fulfillment.ts";
import { assertMayList, list, type MembershipFilter } from "./memberships-list.ts";
import { nextChargeDate, owedPeriod } from "../rules/dates.ts";
import { todayIn } from "./timing.ts";

/** The columns, in order: the browser export's (kept as they were), then the mode and the next charge date. */
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
  let cursor: number | null = null;
  for (;;) {
    if (signal?.aborted) return;
    const page: ExportMembership[] = await list(ctx, filter, { take: EXPORT_PAGE_ROWS, select: exportSelect, ...(cursor == null ? {} : { cursor: { id: cursor }, skip: 1 }) });
    const retries = await retryDates(ctx, page);
    for (const m of page) yield csvRow(ctx, m, retries.get(m.id));
    if (page.length < EXPORT_PAGE_ROWS) return;
    cursor = page[page.length - 1].id;
  }
}

function csvRow(ctx: ServiceContext, m: ExportMembership, retryOn: string | undefined): MembershipCsvRow {
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
    nextChargeOf(ctx, m, retryOn),
  ];
}

/** A member's next renewal charge; a past-due one's is its period's next retry once one is scheduled; none for others. */
function nextChargeOf(ctx: ServiceContext, m: ExportMembership, retryOn: string | undefined): string | null {
  if (m.status === "PAST_DUE" && retryOn) return retryOn;
  if (m.status !== "ACTIVE" && m.status !== "PAST_DUE") return null;
  const today = todayIn(ctx, m.business.timeZone);
  return isoDate(nextChargeDate({ today, paidThroughPeriod: m.paidThroughPeriod, billingDay: m.billingDay, skippedMonths: new Set(m.skips.map((s) => s.yearMonth)) }));
}

/**
 * The next retry (ISO date, the business's time zone) of the page's past-due memberships: the renewal run's
 * schedule (api/billing/renewals/attempts.ts) over the declined attempts at the period they owe, read in one statement.
 */
async function retryDates(ctx: ServiceContext, page: ExportMembership[]): Promise<Map<number, string>> {
  const pastDue = page.filter((m) => m.status === "PAST_DUE");
  const out = new Map<number, string>();
  if (pastDue.length === 0) return out;
  const owed = pastDue.map((m) => ({ id: m.id, period: owedPeriod(todayIn(ctx, m.business.timeZone), m.paidThroughPeriod) }));
  const attemptsOf = await unpaidAttempts(ctx.db, owed);
  for (const m of pastDue) {
    const dates = attemptsOf.get(m.id);
    if (dates) out.set(m.id, isoDate(localDate(nextRetryAt(dates), m.business.timeZone)));
  }
  return out;
}
