/**
 * Coupons (spec §2 admin coupons, §3, §5 coupon create): platform-wide codes, administered by admins,
 * applied at checkout through findActiveCoupon + discountCents (api/rules/pricing.ts).
 */
import { z } from "zod";
import type { ServiceContext } from "../context.ts";
import type { Coupon, Prisma } from "../generated/prisma/client.ts";
import { requireAdmin } from "../auth/policy.ts";
import { eventActorOf, writeEvents, type NewEvent } from "../events/outbox.ts";
import type { EventPayloads, EventType } from "../events/vocabulary.ts";
import { globalId } from "../shared/global-id.ts";
import { ConflictError, NotFoundError, ValidationError } from "../shared/errors.ts";
import { parseInput, singleLine } from "../shared/validation.ts";

const MESSAGES = {
  codeRequired: "Please enter a coupon code",
  percent: "Invalid percent value (0-100)",
  fixed: "Invalid fixed amount",
  codeTaken: "A coupon with this code already exists",
  invalidCode: "Invalid or inactive coupon code",
} as const;

/** Codes are stored trimmed and upper-case (the input is displayed upper-case, spec §5). */
const normalizeCode = (code: string) => code.trim().toUpperCase();

const CreateCouponInput = z
  .object({
    code: singleLine("Coupon code").transform(normalizeCode).pipe(z.string().min(1, MESSAGES.codeRequired).max(64, "Coupon code is too long")),
    type: z.enum(["PERCENT", "FIXED"]),
    value: z.number({ error: "Please enter a value" }).finite(),
    active: z.boolean().default(true),
  })
  .superRefine((c, issues) => {
    // Percent is a whole number 0..100; fixed is whole cents ≥ 0 (the form converts dollars to cents).
    if (c.type === "PERCENT" && !(Number.isInteger(c.value) && c.value >= 0 && c.value <= 100)) {
      issues.addIssue({ code: "custom", path: ["value"], message: MESSAGES.percent });
    }
    if (c.type === "FIXED" && !(Number.isInteger(c.value) && c.value >= 0 && c.value <= 100_000_000)) {
      issues.addIssue({ code: "custom", path: ["value"], message: MESSAGES.fixed });
    }
  });

export type CreateCouponInput = z.input<typeof CreateCouponInput>;

export async function createCoupon(ctx: ServiceContext, input: CreateCouponInput): Promise<Coupon> {
  requireAdmin(ctx);
  if (!input.code?.trim()) throw new ValidationError(MESSAGES.codeRequired, [{ path: "code", message: MESSAGES.codeRequired }]);
  const data = parseInput(CreateCouponInput, input);
  try {
    return await ctx.db.$transaction(async (tx) => {
      const coupon = await tx.coupon.create({ data });
      const { id: couponId, code, type, value, active } = coupon;
      await writeEvents(tx, eventMeta(ctx), [couponEvent("coupon.created.v1", { couponId, code, type, value, active })]);
      return coupon;
    });
  } catch (e) {
    if ((e as { code?: string }).code === "P2002") throw new ConflictError(MESSAGES.codeTaken, "coupon_code_taken");
    throw e;
  }
}

/** Coupons are platform-wide: their events belong to no business. */
function couponEvent<T extends Extract<EventType, `coupon.${string}`>>(type: T, payload: EventPayloads[T]): NewEvent {
  return { type, businessId: null, objectId: globalId("Coupon", payload.couponId), payload } as NewEvent;
}

const eventMeta = (ctx: ServiceContext) => ({ at: ctx.clock.now(), actor: eventActorOf(ctx.actor) });

/** The caller's selection and paging (GraphQL passes its connection's `query` through; REST none). */
export type CouponPage = Pick<Prisma.CouponFindManyArgs, "select" | "include" | "take" | "skip" | "cursor">;

/**
 * Every coupon, newest first (administrators): the one read rule of the GraphQL `coupons` connection and
 * REST GET /admin/coupons.
 */
export async function list(ctx: ServiceContext, page: CouponPage = {}): Promise<Coupon[]> {
  requireAdmin(ctx);
  return ctx.db.coupon.findMany({ ...page, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
}

/** Activate / deactivate (spec §4: toggle switches active and inactive). */
export async function toggleCoupon(ctx: ServiceContext, id: number): Promise<Coupon> {
  requireAdmin(ctx);
  const coupon = await ctx.db.coupon.findUnique({ where: { id }, select: { active: true } });
  if (!coupon) throw new NotFoundError("Coupon");
  return ctx.db.$transaction(async (tx) => {
    // Conditional on the value read, so two concurrent toggles cannot both flip it the same way.
    const { count } = await tx.coupon.updateMany({ where: { id, active: coupon.active }, data: { active: !coupon.active } });
    if (count === 0) throw new ConflictError("The coupon was changed meanwhile. Please reload.", "stale");
    const toggled = await tx.coupon.findUniqueOrThrow({ where: { id } });
    await writeEvents(tx, eventMeta(ctx), [couponEvent("coupon.updated.v1", { couponId: id, code: toggled.code, active: toggled.active })]);
    return toggled;
  });
}

/** Deletes a coupon; subscriptions and orders that used it keep their amounts (their coupon link is cleared). */
export async function deleteCoupon(ctx: ServiceContext, id: number): Promise<{ id: number; code: string }> {
  requireAdmin(ctx);
  return ctx.db.$transaction(async (tx) => {
    const coupon = await tx.coupon.findUnique({ where: { id }, select: { id: true, code: true } });
    if (!coupon) throw new NotFoundError("Coupon");
    await tx.subscription.updateMany({ where: { couponId: id }, data: { couponId: null } });
    await tx.order.updateMany({ where: { couponId: id }, data: { couponId: null } });
    await tx.coupon.delete({ where: { id } });
    await writeEvents(tx, eventMeta(ctx), [couponEvent("coupon.deleted.v1", { couponId: id, code: coupon.code })]);
    return coupon;
  });
}

/** Checkout: the active coupon with this code; unknown or inactive codes are refused. */
export async function findActiveCoupon(ctx: Pick<ServiceContext, "db">, code: string): Promise<Coupon> {
  const normalized = normalizeCode(code ?? "");
  const coupon = normalized ? await ctx.db.coupon.findFirst({ where: { code: normalized, businessId: null } }) : null;
  if (!coupon || !coupon.active) {
    throw new ValidationError(MESSAGES.invalidCode, [{ path: "couponCode", message: MESSAGES.invalidCode }]);
  }
  return coupon;
}

