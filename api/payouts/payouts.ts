/**
 * The business's payouts: a mirror of what the provider reports about the payouts from its account to its bank
 * (Stripe's Connect payout events, the sandbox's payouts job), for the Payouts page and the owners' mail. It is
 * never the source of a balance: the provider's balance is (api/billing/payouts-sync.ts reads it). Reports may come
 * twice and in any order: a payout's status only moves forward (PENDING → IN_TRANSIT → PAID, FAILED or CANCELED,
 * the last three final), and each move to PAID or FAILED is announced once, in the transaction that records it.
 */
import type { PrismaClient } from "../db.ts";
import type { Payout } from "../generated/prisma/client.ts";
import type { PayoutStatus } from "../generated/prisma/enums.ts";
import { SYSTEM_ACTOR, writeEvents, type NewEvent } from "../events/outbox.ts";
import { addDays, dayNumber, isoDate, localDate, startOfLocalDay } from "../shared/calendar.ts";
import type { Clock } from "../shared/clock.ts";
import { globalId } from "../shared/global-id.ts";

/** A payout as a provider describes it (the provider boundary's PayoutInfo), plain data. */
export interface ProviderPayout {
  id: string;
  amountCents: number;
  status: "pending" | "in_transit" | "paid" | "failed" | "canceled";
  /** YYYY-MM-DD. */
  arrivalDate: string;
  failureCode: string | null;
  failureMessage: string | null;
  createdAt: Date;
}

const STATUS: Record<ProviderPayout["status"], PayoutStatus> = {
  pending: "PENDING",
  in_transit: "IN_TRANSIT",
  paid: "PAID",
  failed: "FAILED",
  canceled: "CANCELED",
};

/** How far along a status is: a payout only moves to a higher rank, and the last rank is final. */
const RANK: Record<PayoutStatus, number> = { PENDING: 0, IN_TRANSIT: 1, PAID: 2, FAILED: 2, CANCELED: 2 };
const FINAL_RANK = 2;

export const isFinalPayoutStatus = (status: PayoutStatus): boolean => RANK[status] === FINAL_RANK;

export const payoutStatusOf = (status: ProviderPayout["status"]): PayoutStatus => STATUS[status];

/** What recording a report did: a new row, a row moved on, or nothing (a repeat, or a report older than the row). */
export type PayoutRecorded = "created" | "updated" | "unchanged";

type Fields = Pick<Payout, "amountCents" | "status" | "arrivalDate" | "failureCode" | "failureMessage">;

const sameFields = (a: Fields, b: Fields) =>
  a.amountCents === b.amountCents && a.status === b.status && a.arrivalDate === b.arrivalDate && a.failureCode === b.failureCode && a.failureMessage === b.failureMessage;

function announcements(row: Payout): NewEvent[] {
  const common = { businessId: row.businessId, objectId: globalId("Payout", row.id) };
  if (row.status === "PAID") {
    return [{ ...common, type: "payout.paid.v1", payload: { payoutId: row.id, businessId: row.businessId, amountCents: row.amountCents, arrivalDate: row.arrivalDate } }];
  }
  if (row.status === "FAILED") {
    return [{ ...common, type: "payout.failed.v1", payload: { payoutId: row.id, businessId: row.businessId, amountCents: row.amountCents, failureCode: row.failureCode } }];
  }
  return [];
}

/**
 * Records the provider's report of a payout of the business's account (upserted by the provider's id). A report
 * that would move the status back (a late `payout.created` after `paid`), or one about a final payout, changes
 * nothing; a new status of PAID or FAILED writes `payout.paid.v1` or `payout.failed.v1` in the same transaction.
 * Reports of one payout are recorded one at a time (a lock on its id), so two deliveries announce it once.
 */
export async function recordPayout(ctx: { db: PrismaClient; clock: Clock }, businessId: number, provider: string, info: ProviderPayout): Promise<PayoutRecorded> {
  const now = ctx.clock.now();
  const fields: Fields = {
    amountCents: info.amountCents,
    status: STATUS[info.status],
    arrivalDate: info.arrivalDate.slice(0, 10),
    failureCode: info.failureCode,
    failureMessage: info.failureMessage,
  };
  return ctx.db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`payout:${info.id}`}))`;
    const existing = await tx.payout.findUnique({ where: { providerPayoutId: info.id } });
    if (existing && (isFinalPayoutStatus(existing.status) || RANK[fields.status] < RANK[existing.status] || sameFields(existing, fields))) return "unchanged";
    const row = existing
      ? await tx.payout.update({ where: { id: existing.id }, data: { ...fields, updatedAt: now } })
      : await tx.payout.create({ data: { businessId, provider, providerPayoutId: info.id, ...fields, createdAt: info.createdAt, updatedAt: now } });
    if (row.status !== existing?.status) await writeEvents(tx, { at: now, actor: SYSTEM_ACTOR }, announcements(row));
    return existing ? "updated" : "created";
  });
}

/** The mirror's rows of these provider ids, by id: what a pass need not record again. */
export async function mirroredStatuses(db: PrismaClient, providerPayoutIds: string[]): Promise<Map<string, PayoutStatus>> {
  const rows = await db.payout.findMany({ where: { providerPayoutId: { in: providerPayoutIds } }, select: { providerPayoutId: true, status: true } });
  return new Map(rows.map((r) => [r.providerPayoutId, r.status]));
}

// ---- the schedule: weekly, on Mondays ------------------------------------------------------------------------

/** Payouts are made on Mondays in the business's time zone (Stripe's weekly schedule we set on each account). */
const PAYOUT_WEEKDAY = 1;

const weekdayOf = (now: Date, timeZone: string) => new Date(dayNumber(localDate(now, timeZone))).getUTCDay();

/** Today is a payout day in the business's time zone. */
export const isPayoutDay = (now: Date, timeZone: string): boolean => weekdayOf(now, timeZone) === PAYOUT_WEEKDAY;

/** The first instant of today in the business's time zone: a payout made since was made today. */
export const startOfToday = (now: Date, timeZone: string): Date => startOfLocalDay(localDate(now, timeZone), timeZone);

/**
 * The day of the next payout (YYYY-MM-DD, the business's time zone): the coming Monday, today when today is a Monday
 * that has had no payout yet.
 */
export function nextPayoutDate(now: Date, timeZone: string, paidToday: boolean): string {
  const today = localDate(now, timeZone);
  let ahead = (PAYOUT_WEEKDAY - weekdayOf(now, timeZone) + 7) % 7;
  if (ahead === 0 && paidToday) ahead = 7;
  return isoDate(addDays(today, ahead));
}

/** How far back a pass looks for Mondays it missed: after the last payout, or this many days for an account never paid. */
const FIRST_CATCH_UP_DAYS = 28;
/** The most days a pass catches up at once (an account whose payouts were off for months pays once, then weekly). */
const MAX_CATCH_UP_DAYS = 84;

/**
 * When the payouts owed by `now` are made, oldest first: every Monday since the last payout's day (or, never paid,
 * the last FIRST_CATCH_UP_DAYS) that had no payout, each at the first instant of that Monday in the business's
 * time zone, and today at `now` when today is a Monday with no payout yet. A provider pays out on its schedule
 * whether or not anyone looks; a pass that comes late (the demo clock jumped over a Monday, a process was down)
 * makes the Mondays' payouts as they would have been made.
 */
export function payoutTimes(now: Date, timeZone: string, lastPayoutAt: Date | null): Date[] {
  const today = localDate(now, timeZone);
  const earliest = addDays(today, -MAX_CATCH_UP_DAYS);
  const after = lastPayoutAt ? addDays(localDate(lastPayoutAt, timeZone), 1) : addDays(today, -FIRST_CATCH_UP_DAYS);
  const times: Date[] = [];
  for (let d = dayNumber(after) < dayNumber(earliest) ? earliest : after; dayNumber(d) <= dayNumber(today); d = addDays(d, 1)) {
    if (new Date(dayNumber(d)).getUTCDay() !== PAYOUT_WEEKDAY) continue;
    times.push(dayNumber(d) === dayNumber(today) ? now : startOfLocalDay(d, timeZone));
  }
  return times;
}

/** Whether the mirror has a payout of the business made since `since`. */
export async function paidSince(db: PrismaClient, businessId: number, since: Date): Promise<boolean> {
  return (await db.payout.count({ where: { businessId, createdAt: { gte: since } } })) > 0;
}
