/**
 * Coupon codes and dates: the messages, how a code is written, which codes may coexist (a business's own codes
 * never equal a platform code, in either order of creation) and the expiry day.
 */
import type { Prisma } from "../generated/prisma/client.ts";
import { addDays, isoDate, localDate, startOfLocalDay } from "../shared/calendar.ts";
import { ConflictError, ValidationError } from "../shared/errors.ts";

export const COUPON_MESSAGES = {
  codeRequired: "Please enter a coupon code",
  percent: "Invalid percent value (0-100)",
  fixed: "Invalid fixed amount",
  codeTaken: "A coupon with this code already exists",
  platformCode: "This code is a platform coupon's. Please choose another.",
  businessCode: "A business uses this code for its own coupon. Please choose another.",
  /** Spec §4 checkout: the one refusal of a code, whatever the reason (unknown, inactive, expired, used up, other plan). */
  invalidCode: "Invalid or inactive coupon code",
} as const;

/** Codes are stored trimmed and upper-case (the input is displayed upper-case, spec §5). */
export const normalizeCode = (code: string) => code.trim().toUpperCase();

export const invalidCouponCode = () =>
  new ValidationError(COUPON_MESSAGES.invalidCode, [{ path: "couponCode", message: COUPON_MESSAGES.invalidCode }]);

/** First key of the two-int advisory lock (pg_advisory_xact_lock(class, hashtext(code))): the coupon-code namespace. */
const COUPON_CODE_LOCK_CLASS = 0x6370_6e63; // "cpnc"

/**
 * Refuses a code that would clash (inside the creating or renaming transaction): a business's code may not equal a
 * platform code, nor a code of its own; a platform code may not equal any business's. The advisory lock on the code,
 * held to the end of the transaction, decides two concurrent creations of one code one after the other, so they
 * cannot both pass (the unique indexes only see equal codes of the same owner).
 */
export async function assertCodeFree(tx: Prisma.TransactionClient, code: string, businessId: number | null, exceptId?: number): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${COUPON_CODE_LOCK_CLASS}::int, hashtext(${code}))`;
  const clashes = await tx.coupon.findMany({
    where: { code, ...(exceptId ? { id: { not: exceptId } } : {}) },
    select: { businessId: true },
  });
  if (clashes.some((c) => c.businessId === businessId)) throw new ConflictError(COUPON_MESSAGES.codeTaken, "coupon_code_taken");
  if (businessId !== null && clashes.some((c) => c.businessId === null)) throw new ConflictError(COUPON_MESSAGES.platformCode, "coupon_code_taken");
  if (businessId === null && clashes.length > 0) throw new ConflictError(COUPON_MESSAGES.businessCode, "coupon_code_taken");
}

/**
 * The zone a coupon's expiry day is counted in when it is stored: its business's, or UTC for a platform coupon
 * (which is refused at each business once that business's own day is past the expiry day: see expiredAt).
 */
const storageZone = (businessZone: string | null) => businessZone ?? "UTC";

/** The instant a coupon is refused from: the end of its expiry day (YYYY-MM-DD) in the zone it is counted in. */
export function expiresAtOf(expiresOn: string, businessZone: string | null): Date {
  const [year, month, day] = expiresOn.split("-").map(Number);
  return startOfLocalDay(addDays({ year, month, day }, 1), storageZone(businessZone));
}

/** The expiry day (YYYY-MM-DD) read back from the stored instant (null: none). */
export function expiresOnOf(expiresAt: Date | null, businessZone: string | null): string | null {
  return expiresAt ? isoDate(localDate(new Date(expiresAt.getTime() - 1), storageZone(businessZone))) : null;
}

/**
 * Whether a coupon is past its expiry day at a business: that business's today (in its zone) is after the day. For a
 * business's own coupon this is exactly `now >= expiresAt`; a platform coupon ends at the end of the day everywhere.
 */
export function expiredAt(coupon: { expiresAt: Date | null; businessId: number | null }, now: Date, business: { timeZone: string }): boolean {
  const lastDay = expiresOnOf(coupon.expiresAt, coupon.businessId === null ? null : business.timeZone);
  return lastDay !== null && isoDate(localDate(now, business.timeZone)) > lastDay;
}
