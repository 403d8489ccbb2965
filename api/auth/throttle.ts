import type { PrismaClient } from "../db.ts";
import type { Clock } from "../shared/clock.ts";
import { RateLimitedError } from "../shared/errors.ts";

/**
 * Sign-in throttles. Counters live in the database (`rate_limits`), so every server process on the same database
 * shares them, and time is the injectable clock's.
 *
 * An attempt is reserved BEFORE any password hash is evaluated, by one `INSERT … ON CONFLICT DO UPDATE` that
 * takes a point only while the counter is under its limit (PostgreSQL locks the row for the update, so
 * concurrent requests from any process queue on it and each sees the count the previous one left). A request
 * that gets no point is refused without hashing, whatever its password. Checks whose outcome is not a failure
 * (a right password) give their point back afterwards, so the counter holds failures plus the attempts still in
 * flight, and never more than the limit. Windows are fixed: they start at a counter's first point and end
 * `windowSeconds` later, when the next attempt starts a new one.
 */
export interface Limit {
  /** Key prefix in `rate_limits` (`<prefix>:<id>`). */
  prefix: string;
  points: number;
  windowSeconds: number;
}

export const LIMITS = {
  /** Failed logins per username+IP: 5 per 15 minutes. */
  loginByUserIp: { prefix: "login_user_ip", points: 5, windowSeconds: 15 * 60 },
  /** Failed logins per IP, whatever the username (credential stuffing): 50 per 15 minutes. */
  loginFailuresByIp: { prefix: "login_fail_ip", points: 50, windowSeconds: 15 * 60 },
  /**
   * Every login attempt per IP, successful ones included: 300 per 15 minutes. Caps the password-hashing work
   * one address can ask for, high enough for an office or a test suite behind one address.
   */
  loginByIp: { prefix: "login_ip", points: 300, windowSeconds: 15 * 60 },
  /** Wrong current passwords on change-password per user (member and admin forms, GraphQL and REST): 5 per 15 minutes. */
  changePasswordByUser: { prefix: "change_password_user", points: 5, windowSeconds: 15 * 60 },
  /** Registrations per IP: 10 per hour. */
  registerByIp: { prefix: "register_ip", points: 10, windowSeconds: 60 * 60 },
} as const satisfies Record<string, Limit>;

export interface ThrottleContext {
  db: PrismaClient;
  clock: Clock;
}

/** One point taken from a counter: its key and the window it was taken in (a give-back only goes to that window). */
export interface Reservation {
  key: string;
  window: string;
}

const keyOf = (limit: Limit, id: string) => `${limit.prefix}:${id}`;

/**
 * Takes one point of `limit` for `id` in one statement; refuses with RateLimitedError (taking nothing) when the
 * window has none left.
 */
export async function reserve(ctx: ThrottleContext, limit: Limit, id: string): Promise<Reservation> {
  const key = keyOf(limit, id);
  const now = ctx.clock.now();
  const newExpire = new Date(now.getTime() + limit.windowSeconds * 1000);
  // A live window takes a point while it has one; an expired (or never-expiring) row starts a new window.
  // No row back means the window is full.
  const rows = await ctx.db.$queryRaw<{ window: string }[]>`
    INSERT INTO rate_limits AS r (key, points, expire)
    VALUES (${key}, 1, ${newExpire}::timestamp)
    ON CONFLICT (key) DO UPDATE
       SET points = CASE WHEN r.expire > ${now}::timestamp THEN r.points + 1 ELSE 1 END,
           expire = CASE WHEN r.expire > ${now}::timestamp THEN r.expire ELSE EXCLUDED.expire END
     WHERE r.expire IS NULL OR r.expire <= ${now}::timestamp OR r.points < ${limit.points}::int
    RETURNING to_char(r.expire, 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS "window"`;
  if (rows.length) return { key, window: rows[0].window };
  const [row] = await ctx.db.$queryRaw<{ seconds: number | null }[]>`
    SELECT CEIL(EXTRACT(EPOCH FROM (expire - ${now}::timestamp)))::int AS seconds FROM rate_limits WHERE key = ${key}`;
  throw new RateLimitedError(Math.max(1, row?.seconds ?? limit.windowSeconds));
}

/**
 * Takes one point of each counter, in order; when one refuses, gives back the points already taken and
 * refuses: a refused request counts nowhere.
 */
export async function reserveAll(ctx: ThrottleContext, counters: [Limit, string][]): Promise<Reservation[]> {
  const taken: Reservation[] = [];
  try {
    for (const [limit, id] of counters) taken.push(await reserve(ctx, limit, id));
    return taken;
  } catch (e) {
    await giveBack(ctx, taken);
    throw e;
  }
}

/** Returns reserved points (an attempt that turned out not to be a failure). One statement per counter. */
export async function giveBack(ctx: ThrottleContext, reservations: Reservation[]): Promise<void> {
  for (const { key, window } of reservations) {
    await ctx.db.$executeRaw`
      UPDATE rate_limits SET points = points - 1 WHERE key = ${key} AND expire = ${window}::timestamp AND points > 0`;
  }
}
