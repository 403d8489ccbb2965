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

/** When a past-due period may be tried again: 1, 3 and 7 days after its first declined attempt. */
export function nextRetryAt(attempts: Date[]): Date {
  return new Date(attempts[0].getTime() + RETRY_SCHEDULE_DAYS[Math.min(attempts.length, RETRY_SCHEDULE_DAYS.length) - 1] * DAY_MS);
}
