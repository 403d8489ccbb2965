/**
 * Coupons (spec §2 admin coupons, §3, §5 coupon create): a business's own coupons, managed by its owners and editors
 * (editContent, as its prices), and platform coupons (no business), managed by administrators and valid at every
 * business. Codes never clash across the two (codes.ts); checkout finds and redeems them in redemption.ts; a
 * coupon's terms are its discount, its duration in charges, an optional expiry day, redemption limit and plan list.
 */
import { z } from "zod";
import type { ServiceContext } from "../context.ts";
import type { Coupon, CouponType } from "../generated/prisma/client.ts";
import { assertCan, can, requireAdmin, requireUser } from "../auth/policy.ts";
import { eventActorOf, writeEvents, type NewEvent } from "../events/outbox.ts";
import type { EventPayloads, EventType } from "../events/vocabulary.ts";
import { isoDate, localDate } from "../shared/calendar.ts";
import { COUPON_MONTHS } from "../shared/coupon-terms.ts";
import { globalId } from "../shared/global-id.ts";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "../shared/errors.ts";
import { parseInput, singleLine } from "../shared/validation.ts";
import { assertCodeFree, COUPON_MESSAGES as MESSAGES, expiresAtOf, expiresOnOf, normalizeCode } from "./codes.ts";
import { releaseCoupons } from "./redemption.ts";

const TERMS_MESSAGES = {
  months: `Please enter ${COUPON_MONTHS.min} to ${COUPON_MONTHS.max} months`,
  limit: "The maximum redemptions must be a whole number of at least 1",
  date: "Please enter the expiry date as YYYY-MM-DD",
  past: "The expiry date has passed",
  plans: "Choose plans of this business",
  platformPlans: "Platform coupons apply to every plan: a plan list is for a business's own coupons",
  redeemed: "A redeemed coupon keeps its code, discount and duration: create a new coupon instead.",
  belowCount: (n: number) => `The maximum redemptions cannot be below the ${n} already made`,
} as const;

const CouponInput = z
  .object({
    code: singleLine("Coupon code").transform(normalizeCode).pipe(z.string().min(1, MESSAGES.codeRequired).max(64, "Coupon code is too long")),
    type: z.enum(["PERCENT", "FIXED"]),
    value: z.number({ error: "Please enter a value" }).finite(),
    active: z.boolean().default(true),
    duration: z.enum(["ONCE", "REPEATING", "FOREVER"]).default("FOREVER"),
    durationMonths: z.number().nullish(),
    expiresOn: z.string().trim().regex(/^\d{4}-\d{2}-\d{2}$/, TERMS_MESSAGES.date).nullish(),
    maxRedemptions: z.number().int(TERMS_MESSAGES.limit).min(1, TERMS_MESSAGES.limit).max(10_000_000, TERMS_MESSAGES.limit).nullish(),
    planIds: z.array(z.number().int()).max(500).default([]),
  })
  .superRefine((c, issues) => {
    // Percent is a whole number 0..100; fixed is whole cents ≥ 0 (the form converts dollars to cents).
    if (c.type === "PERCENT" && !(Number.isInteger(c.value) && c.value >= 0 && c.value <= 100)) {
      issues.addIssue({ code: "custom", path: ["value"], message: MESSAGES.percent });
    }
    if (c.type === "FIXED" && !(Number.isInteger(c.value) && c.value >= 0 && c.value <= 100_000_000)) {
      issues.addIssue({ code: "custom", path: ["value"], message: MESSAGES.fixed });
    }
    const months = c.durationMonths;
    if (c.duration === "REPEATING" && !(months != null && Number.isInteger(months) && months >= COUPON_MONTHS.min && months <= COUPON_MONTHS.max)) {
      issues.addIssue({ code: "custom", path: ["durationMonths"], message: TERMS_MESSAGES.months });
    }
    if (c.expiresOn && Number.isNaN(Date.parse(`${c.expiresOn}T00:00:00Z`))) issues.addIssue({ code: "custom", path: ["expiresOn"], message: TERMS_MESSAGES.date });
  });

export type CreateCouponInput = z.input<typeof CouponInput> & {
  /** The business whose own coupon it is (its owners and editors); null or absent: a platform coupon (administrators). */
  businessId?: number | null;
};
/** The terms to change (absent: kept; null: cleared). Code, discount and duration change only before the first redemption. */
export type UpdateCouponInput = Partial<Omit<z.input<typeof CouponInput>, "code" | "type" | "value" | "active">> & {
  code?: string;
  type?: CouponType;
  value?: number;
  active?: boolean;
};

/** Who manages a coupon of `businessId`: its owners and editors (editContent), administrators; platform coupons: administrators. */
async function requireCouponManager(ctx: ServiceContext, businessId: number | null): Promise<void> {
  requireUser(ctx);
  if (businessId === null) requireAdmin(ctx);
  else await assertCan(ctx, businessId, "editContent");
}

/**
 * The coupon `id` for someone who may manage it. A missing or platform coupon is asked of administrators first, so
 * others learn nothing of it; `platformOnly` (REST's platform routes) treats a business's coupon as missing.
 */
async function managedCoupon(ctx: ServiceContext, id: number, platformOnly = false): Promise<Coupon> {
  requireUser(ctx);
  const coupon = await ctx.db.coupon.findUnique({ where: { id } });
  if (!coupon || coupon.businessId === null || platformOnly) {
    requireAdmin(ctx);
    if (!coupon || (platformOnly && coupon.businessId !== null)) throw new NotFoundError("Coupon");
    return coupon;
  }
  if (!(await can(ctx, coupon.businessId, "editContent"))) throw new ForbiddenError();
  // A retention coupon changes with the page's retention discount only (api/coupons/retention.ts).
  if (coupon.kind === "RETENTION") throw new NotFoundError("Coupon");
  return coupon;
}

type Terms = z.output<typeof CouponInput>;

/** The columns of validated terms: the expiry day as its instant, plans of the business only, months only when REPEATING. */
async function couponColumns(ctx: ServiceContext, terms: Terms, business: { id: number; timeZone: string } | null, keptExpiry: string | null) {
  const zone = business?.timeZone ?? null;
  if (terms.expiresOn && terms.expiresOn !== keptExpiry && terms.expiresOn < isoDate(localDate(ctx.clock.now(), zone ?? "UTC"))) {
    throw new ValidationError(TERMS_MESSAGES.past, [{ path: "expiresOn", message: TERMS_MESSAGES.past }]);
  }
  const planIds = [...new Set(terms.planIds)].sort((a, b) => a - b);
  if (planIds.length > 0) {
    if (!business) throw new ValidationError(TERMS_MESSAGES.platformPlans, [{ path: "planIds", message: TERMS_MESSAGES.platformPlans }]);
    const own = await ctx.db.plan.count({ where: { id: { in: planIds }, businessId: business.id } });
    if (own !== planIds.length) throw new ValidationError(TERMS_MESSAGES.plans, [{ path: "planIds", message: TERMS_MESSAGES.plans }]);
  }
  return {
    code: terms.code,
    type: terms.type,
    value: terms.value,
    active: terms.active,
    duration: terms.duration,
    durationMonths: terms.duration === "REPEATING" ? terms.durationMonths! : null,
    expiresAt: terms.expiresOn ? expiresAtOf(terms.expiresOn, zone) : null,
    maxRedemptions: terms.maxRedemptions ?? null,
    planIds,
  };
}

const businessZone = (ctx: ServiceContext, businessId: number | null) =>
  businessId === null ? null : ctx.db.business.findUnique({ where: { id: businessId }, select: { id: true, timeZone: true } });

const codeTaken = (e: unknown) => {
  if ((e as { code?: string }).code === "P2002") throw new ConflictError(MESSAGES.codeTaken, "coupon_code_taken");
  throw e;
};

export async function createCoupon(ctx: ServiceContext, input: CreateCouponInput): Promise<Coupon> {
  const businessId = input.businessId ?? null;
  await requireCouponManager(ctx, businessId);
  if (!input.code?.trim()) throw new ValidationError(MESSAGES.codeRequired, [{ path: "code", message: MESSAGES.codeRequired }]);
  const terms = parseInput(CouponInput, input);
  const business = await businessZone(ctx, businessId);
  if (businessId !== null && !business) throw new NotFoundError("Business");
  const data = await couponColumns(ctx, terms, business, null);
  return ctx.db
    .$transaction(async (tx) => {
      await assertCodeFree(tx, data.code, businessId);
      const coupon = await tx.coupon.create({ data: { ...data, businessId } });
      const { id: couponId, code, type, value, active } = coupon;
      await writeEvents(tx, eventMeta(ctx), [couponEvent("coupon.created.v1", { couponId, businessId, code, type, value, active })]);
      return coupon;
    })
    .catch(codeTaken);
}

/**
 * Changes a coupon's terms. Its expiry, limit, plans and active flag change any time (the limit never below the
 * redemptions made); its code, discount and duration only until it is first redeemed, so a member's terms never
 * change under them.
 */
export async function updateCoupon(ctx: ServiceContext, id: number, input: UpdateCouponInput): Promise<Coupon> {
  const coupon = await managedCoupon(ctx, id);
  const business = await businessZone(ctx, coupon.businessId);
  const keptExpiry = expiresOnOf(coupon.expiresAt, business?.timeZone ?? null);
  const current = { ...coupon, expiresOn: keptExpiry };
  const pick = <K extends keyof UpdateCouponInput & keyof typeof current>(key: K) => (input[key] === undefined ? current[key] : input[key]);
  const terms = parseInput(CouponInput, {
    code: input.code ?? coupon.code,
    type: input.type ?? coupon.type,
    value: input.value ?? coupon.value,
    active: input.active ?? coupon.active,
    duration: input.duration ?? coupon.duration,
    durationMonths: pick("durationMonths"),
    expiresOn: pick("expiresOn"),
    maxRedemptions: pick("maxRedemptions"),
    planIds: input.planIds ?? coupon.planIds,
  });
  const data = await couponColumns(ctx, terms, business, keptExpiry);
  const termsChanged = (["code", "type", "value", "duration", "durationMonths"] as const).some((k) => data[k] !== coupon[k]);
  if (termsChanged && coupon.redemptionCount > 0) throw new ValidationError(TERMS_MESSAGES.redeemed);
  if (data.maxRedemptions !== null && data.maxRedemptions < coupon.redemptionCount) {
    const message = TERMS_MESSAGES.belowCount(coupon.redemptionCount);
    throw new ValidationError(message, [{ path: "maxRedemptions", message }]);
  }
  return ctx.db
    .$transaction(async (tx) => {
      if (data.code !== coupon.code) await assertCodeFree(tx, data.code, coupon.businessId, id);
      // Conditional on the redemptions read: one made meanwhile is decided against again.
      const { count } = await tx.coupon.updateMany({ where: { id, redemptionCount: coupon.redemptionCount }, data });
      if (count === 0) throw new ConflictError("The coupon was changed meanwhile. Please reload.", "stale");
      const updated = await tx.coupon.findUniqueOrThrow({ where: { id } });
      await writeEvents(tx, eventMeta(ctx), [couponEvent("coupon.updated.v1", { couponId: id, businessId: updated.businessId, code: updated.code, active: updated.active })]);
      return updated;
    })
    .catch(codeTaken);
}

/** Activate / deactivate (spec §4: toggle switches active and inactive). `platformOnly`: REST's platform routes. */
export async function toggleCoupon(ctx: ServiceContext, id: number, opts: { platformOnly?: boolean } = {}): Promise<Coupon> {
  const coupon = await managedCoupon(ctx, id, opts.platformOnly);
  return ctx.db.$transaction(async (tx) => {
    // Conditional on the value read, so two concurrent toggles cannot both flip it the same way.
    const { count } = await tx.coupon.updateMany({ where: { id, active: coupon.active }, data: { active: !coupon.active } });
    if (count === 0) throw new ConflictError("The coupon was changed meanwhile. Please reload.", "stale");
    const toggled = await tx.coupon.findUniqueOrThrow({ where: { id } });
    await writeEvents(tx, eventMeta(ctx), [couponEvent("coupon.updated.v1", { couponId: id, businessId: toggled.businessId, code: toggled.code, active: toggled.active })]);
    return toggled;
  });
}

/**
 * Deletes a coupon and its redemptions. Memberships that still hold it renew without it from their next charge
 * (their stored price, as when a coupon is spent); orders keep their amounts and code.
 */
export async function deleteCoupon(ctx: ServiceContext, id: number, opts: { platformOnly?: boolean } = {}): Promise<{ id: number; code: string }> {
  const coupon = await managedCoupon(ctx, id, opts.platformOnly);
  return ctx.db.$transaction(async (tx) => {
    const holders = await tx.subscription.findMany({ where: { couponId: id }, select: { id: true } });
    await releaseCoupons(tx, holders.map((h) => h.id), ctx.clock.now());
    await tx.order.updateMany({ where: { couponId: id }, data: { couponId: null } });
    const { count } = await tx.coupon.deleteMany({ where: { id } });
    if (count === 0) throw new NotFoundError("Coupon");
    await writeEvents(tx, eventMeta(ctx), [couponEvent("coupon.deleted.v1", { couponId: id, businessId: coupon.businessId, code: coupon.code })]);
    return { id, code: coupon.code };
  });
}

/** A business's coupon's events belong to it; a platform coupon's to no business. */
function couponEvent<T extends Extract<EventType, `coupon.${string}`>>(type: T, payload: EventPayloads[T]): NewEvent {
  return { type, businessId: payload.businessId, objectId: globalId("Coupon", payload.couponId), payload } as NewEvent;
}

const eventMeta = (ctx: ServiceContext) => ({ at: ctx.clock.now(), actor: eventActorOf(ctx.actor) });
