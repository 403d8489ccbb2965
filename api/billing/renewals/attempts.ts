import type { PrismaClient } from "../../db.ts";

/**
 * The renewal retry schedule: how many times a period is tried, when a declined one is tried again, and the
 * idempotency key of each attempt (fixed per membership, period and attempt, so a repeated run charges once).
 */

/** Days after the first declined attempt at which the period is tried again. */
const RETRY_SCHEDULE_DAYS = [1, 3, 7] as const;
export const MAX_ATTEMPTS = RETRY_SCHEDULE_DAYS.length + 1;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The idempotency key of a renewal charge: fixed per membership, period and attempt. */
export const renewalKey = (subscriptionId: number, period: string, attempt: number) => `renewal:${subscriptionId}:${period}:${attempt}`;
/** What every attempt's key at one membership's period starts with. */
const periodKeyPrefix = (subscriptionId: number, period: string) => `renewal:${subscriptionId}:${period}:`;

/**
 * The attempts not paid so far (declined, or waiting for the member) at each membership's owed period, oldest
 * first: what nextRetryAt and the attempt number read. One statement for any number of memberships.
 */
export async function unpaidAttempts(db: Pick<PrismaClient, "payment">, owed: readonly { id: number; period: string }[]): Promise<Map<number, Date[]>> {
  const attempts = new Map<number, Date[]>();
  if (owed.length === 0) return attempts;
  const prefixOf = new Map(owed.map((o) => [o.id, periodKeyPrefix(o.id, o.period)]));
  const rows = await db.payment.findMany({
    where: { subscriptionId: { in: [...prefixOf.keys()] }, idempotencyKey: { startsWith: "renewal:" }, status: { not: "SUCCEEDED" } },
    select: { subscriptionId: true, idempotencyKey: true, createdAt: true },
    orderBy: { createdAt: "asc" },
  });
  for (const p of rows) {
    if (!p.subscriptionId || !p.idempotencyKey!.startsWith(prefixOf.get(p.subscriptionId)!)) continue;
    attempts.set(p.subscriptionId, [...(attempts.get(p.subscriptionId) ?? []), p.createdAt]);
  }
  return attempts;
}

/** When a past-due period may be tried again: 1, 3 and 7 days after its first declined attempt. */
export function nextRetryAt(attempts: Date[]): Date {
  return new Date(attempts[0].getTime() + RETRY_SCHEDULE_DAYS[Math.min(attempts.length, RETRY_SCHEDULE_DAYS.length) - 1] * DAY_MS);
}
