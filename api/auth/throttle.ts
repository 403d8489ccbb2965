import { RateLimiterPrisma, RateLimiterRes } from "rate-limiter-flexible";
import type { PrismaClient } from "../db.ts";
import { RateLimitedError } from "../shared/errors.ts";

/**
 * Login and registration throttles. Counters live in the database (rate-limiter-flexible's Prisma store), so
 * every server process on the same database shares them.
 */
export interface Throttles {
  /** Failed logins per username+IP: 5 per 15 minutes. */
  loginByUserIp: RateLimiterPrisma;
  /** Failed logins per IP, whatever the username (credential stuffing): 50 per 15 minutes. */
  loginFailuresByIp: RateLimiterPrisma;
  /**
   * Every login attempt per IP, successful ones included: 300 per 15 minutes. Caps the password-hashing work
   * one address can ask for, high enough for an office or a test suite behind one address.
   */
  loginByIp: RateLimiterPrisma;
  /** Registrations per IP: 10 per hour. */
  registerByIp: RateLimiterPrisma;
}

const cache = new WeakMap<PrismaClient, Throttles>();

export function throttlesFor(db: PrismaClient): Throttles {
  let t = cache.get(db);
  if (!t) {
    const make = (keyPrefix: string, points: number, duration: number) =>
      new RateLimiterPrisma({ storeClient: db, tableName: "rateLimiterFlexible", keyPrefix, points, duration, clearExpiredByTimeout: false });
    t = {
      loginByUserIp: make("login_user_ip", 5, 15 * 60),
      loginFailuresByIp: make("login_fail_ip", 50, 15 * 60),
      loginByIp: make("login_ip", 300, 15 * 60),
      registerByIp: make("register_ip", 10, 60 * 60),
    };
    cache.set(db, t);
  }
  return t;
}

/** Refuses with RateLimitedError when `key` has no points left (without consuming one). */
export async function assertNotThrottled(limiter: RateLimiterPrisma, key: string): Promise<void> {
  const res = await limiter.get(key);
  if (res && res.remainingPoints <= 0) throw new RateLimitedError(Math.max(1, Math.ceil(res.msBeforeNext / 1000)));
}

/** Counts one attempt against `key`; refuses when the limit is exceeded. */
export async function consume(limiter: RateLimiterPrisma, key: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (e) {
    if (e instanceof RateLimiterRes) throw new RateLimitedError(Math.max(1, Math.ceil(e.msBeforeNext / 1000)));
    throw e;
  }
}
