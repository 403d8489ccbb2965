/**
 * Platform fee schedules (administrators): the platform's default and each business's own, from a month on. A
 * schedule only starts at a month no business concerned has begun, so every charge of a month, and every retry of
 * it, carries the fees it was first sent with (fees.ts `ratesFor` reads them by the charge's period).
 */
import { z } from "zod";
import type { ServiceContext } from "../context.ts";
import { requireAdmin } from "../auth/policy.ts";
import { eventActorOf, writeEvents } from "../events/outbox.ts";
import { addMonths, localDate, parseYearMonth, yearMonthOf } from "../shared/calendar.ts";
import { NotFoundError, ValidationError } from "../shared/errors.ts";
import { globalId } from "../shared/global-id.ts";
import { parseInput } from "../shared/validation.ts";
import { ratesFor, type FeeRates } from "./fees.ts";

const bps = (label: string) => z.number().int(`${label} is a whole number of basis points`).min(0, `${label} cannot be negative`).max(5_000, `${label} can be at most 50 %`);
const cents = (label: string) => z.number().int(`${label} is whole cents`).min(0, `${label} cannot be negative`).max(10_000, `${label} can be at most $100.00`);

const ScheduleFeeSchema = z.object({
  /** null: the platform's default, for every business without its own. */
  businessId: z.number().int().positive().nullable(),
  effectivePeriod: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, "Choose a month (YYYY-MM)"),
  platformBps: bps("The platform fee"),
  platformCents: cents("The platform fee's fixed part"),
  processingBps: bps("The processing fee"),
  processingCents: cents("The processing fee's fixed part"),
});
export type ScheduleFeeInput = z.input<typeof ScheduleFeeSchema>;

/**
 * The first month a schedule may start: the month after the latest month any business concerned has begun (the
 * business's own time zone; for the default, every business's).
 */
export async function firstSchedulableMonth(ctx: Pick<ServiceContext, "db" | "clock">, businessId: number | null): Promise<string> {
  const zones = await ctx.db.business.findMany({ where: businessId === null ? {} : { id: businessId }, select: { timeZone: true }, distinct: ["timeZone"] });
  const now = ctx.clock.now();
  const begun = zones.map((z) => yearMonthOf(localDate(now, z.timeZone))).reduce((a, b) => (a > b ? a : b), yearMonthOf(localDate(now, "UTC")));
  return yearMonthOf(addMonths(parseYearMonth(begun), 1));
}

/** Sets the fees from a month on (replacing a schedule already set for that same month, which no charge has used). */
export async function scheduleFee(ctx: ServiceContext, input: ScheduleFeeInput) {
  requireAdmin(ctx);
  const data = parseInput(ScheduleFeeSchema, input);
  if (data.businessId !== null && !(await ctx.db.business.findUnique({ where: { id: data.businessId }, select: { id: true } }))) throw new NotFoundError("Business");
  const first = await firstSchedulableMonth(ctx, data.businessId);
  if (data.effectivePeriod < first) {
    throw new ValidationError(`Fees can change from ${first} on: a month that has begun keeps its fees.`, [{ path: "effectivePeriod", message: `From ${first} on` }]);
  }
  const { businessId, effectivePeriod, ...rates } = data;
  const now = ctx.clock.now();
  return ctx.db.$transaction(async (tx) => {
    await tx.feeSchedule.deleteMany({ where: { businessId, effectivePeriod } });
    const row = await tx.feeSchedule.create({ data: { businessId, effectivePeriod, ...rates, createdAt: now } });
    await writeEvents(tx, { at: now, actor: eventActorOf(ctx.actor) }, [
      {
        type: "platform_fee.scheduled.v1",
        businessId,
        objectId: globalId("FeeSchedule", row.id),
        payload: { businessId, effectivePeriod, rates },
      },
    ]);
    return row;
  });
}

/** Every schedule, the default's first, then by business and month (administrators). */
export async function listFeeSchedules(ctx: ServiceContext) {
  requireAdmin(ctx);
  return ctx.db.feeSchedule.findMany({ orderBy: [{ businessId: { sort: "asc", nulls: "first" } }, { effectivePeriod: "asc" }], include: { business: { select: { name: true } } } });
}

/** The rates a business's charges of `period` carry (administrators, and the business's Payouts page). */
export async function ratesInForce(ctx: Pick<ServiceContext, "db">, businessId: number, period: string): Promise<FeeRates> {
  const schedules = await ctx.db.feeSchedule.findMany({ where: { OR: [{ businessId }, { businessId: null }], effectivePeriod: { lte: period } } });
  return ratesFor(schedules, businessId, period);
}

