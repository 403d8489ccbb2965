/**
 * What the platform keeps of a charge routed to a business's own account: its platform fee and the card
 * processing fee it passes on, both taken on the amount charged (tax and discounts included, as charged), rounded
 * half up to the cent and never more than the charge. The schedule in force is the one of the charge's period, so
 * a charge and every retry of it carry the same fees (Stripe refuses an idempotency key reused with other
 * parameters). Pure: no clock, no database.
 */

/** A fee schedule: each fee is a rate in basis points (500 = 5 %) plus a fixed amount in cents. */
export interface FeeRates {
  platformBps: number;
  platformCents: number;
  processingBps: number;
  processingCents: number;
}

/** Where no schedule was set: a 5 % platform fee, and card processing at 2.9 % + 30¢. */
export const DEFAULT_FEE_RATES: Readonly<FeeRates> = { platformBps: 500, platformCents: 0, processingBps: 290, processingCents: 30 };

/** A schedule as stored: for one business, or the platform's default (`businessId` null), from a month on. */
export interface FeeSchedule extends FeeRates {
  businessId: number | null;
  /** The first month it applies to (YYYY-MM). */
  effectivePeriod: string;
}

export interface Fees {
  grossCents: number;
  platformFeeCents: number;
  processingFeeCents: number;
  /** What the business receives: gross = platform fee + processing fee + net, always. */
  netCents: number;
  /** Both fees together: the application fee of a destination charge. */
  applicationFeeCents: number;
}

/** A rate in basis points of an amount, rounded half up to the cent (integer arithmetic: no float drift). */
function bpsOf(amountCents: number, bps: number): number {
  return Math.floor((amountCents * bps + 5_000) / 10_000);
}

/** The fees of one charge of `grossCents` under `rates`; the platform's fee first, processing capped at what is left. */
export function feesFor(grossCents: number, rates: FeeRates): Fees {
  if (!Number.isSafeInteger(grossCents) || grossCents < 0) throw new RangeError(`A charge is whole, non-negative cents, not ${grossCents}`);
  const platformFeeCents = grossCents === 0 ? 0 : Math.min(grossCents, bpsOf(grossCents, rates.platformBps) + rates.platformCents);
  const left = grossCents - platformFeeCents;
  const processingFeeCents = grossCents === 0 ? 0 : Math.min(left, bpsOf(grossCents, rates.processingBps) + rates.processingCents);
  const netCents = left - processingFeeCents;
  return { grossCents, platformFeeCents, processingFeeCents, netCents, applicationFeeCents: platformFeeCents + processingFeeCents };
}

/**
 * The rates in force for a business's charge of `period`: its own latest schedule that has begun by then, else the
 * platform's latest default that has, else DEFAULT_FEE_RATES.
 */
export function ratesFor(schedules: readonly FeeSchedule[], businessId: number, period: string): FeeRates {
  const latest = (owner: number | null) =>
    schedules
      .filter((s) => s.businessId === owner && s.effectivePeriod <= period)
      .reduce<FeeSchedule | null>((best, s) => (best === null || s.effectivePeriod > best.effectivePeriod ? s : best), null);
  const found = latest(businessId) ?? latest(null);
  if (!found) return { ...DEFAULT_FEE_RATES };
  const { platformBps, platformCents, processingBps, processingCents } = found;
  return { platformBps, platformCents, processingBps, processingCents };
}
