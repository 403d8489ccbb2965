import { encodeGlobalID } from "@pothos/plugin-relay";
import { builder } from "../builder.ts";
import { payloadQuery } from "../payload-query.ts";
import { COMMON_ERRORS } from "../errors.ts";
import { CouponDuration, CouponType } from "../../generated/prisma/enums.ts";
import { ConflictError } from "../../shared/errors.ts";
import { couponChargesLeft } from "../../shared/coupon-terms.ts";
import { numericId } from "../ids.ts";
import { canReadCoupon } from "../../auth/read-rules.ts";
import { expiresOnOf } from "../../coupons/codes.ts";
import * as coupons from "../../coupons/service.ts";
import * as couponReads from "../../coupons/reads.ts";

const CouponTypeEnum = builder.enumType(CouponType, { name: "CouponType" });
const CouponDurationEnum = builder.enumType(CouponDuration, {
  name: "CouponDuration",
  description: "How many of a membership's charges a coupon discounts, from its first: ONCE, REPEATING (durationMonths of them), FOREVER.",
});

const CouponRedemptionRef = builder.prismaObject("CouponRedemption", {
  description: "A membership's use of a coupon: who, when, and the charges made with it so far.",
  fields: (t) => ({
    databaseId: t.exposeInt("id"),
    membershipDatabaseId: t.exposeInt("subscriptionId"),
    username: t.string({ select: { user: { select: { username: true } } }, resolve: (r) => r.user.username }),
    memberName: t.string({ nullable: true, select: { user: { select: { name: true } } }, resolve: (r) => r.user.name }),
    businessName: t.string({ description: "Where it was redeemed (a platform coupon's are at any business).", select: { business: { select: { name: true } } }, resolve: (r) => r.business.name }),
    redeemedAt: t.expose("redeemedAt", { type: "DateTime" }),
    chargesUsed: t.exposeInt("chargesUsed", { description: "Months used: the charges made with the coupon so far." }),
    chargesLeft: t.int({
      nullable: true,
      description: "Charges it still discounts (null: every charge, a FOREVER coupon).",
      select: { chargesUsed: true, coupon: { select: { duration: true, durationMonths: true } } },
      resolve: (r) => couponChargesLeft(r.coupon, r.chargesUsed),
    }),
  }),
});

/** A business's own coupons: its owners and editors (and administrators); platform coupons: administrators. */
const CouponNode = builder.prismaNode("Coupon", {
  id: { field: "id" },
  authScopes: (coupon, ctx) => canReadCoupon(ctx, coupon),
  fields: (t) => ({
    databaseId: t.exposeInt("id"),
    code: t.exposeString("code", { description: "Upper-case; never equal to another business's platform code or a business's own (see isPlatform)." }),
    type: t.expose("type", { type: CouponTypeEnum }),
    value: t.exposeInt("value", { description: "PERCENT: whole percent 0–100; FIXED: cents." }),
    active: t.exposeBoolean("active"),
    isPlatform: t.boolean({ description: "A platform coupon (administrators'), valid at every business.", resolve: (c) => c.businessId === null }),
    business: t.relation("business", { nullable: true, description: "The business whose own coupon it is; null for a platform coupon." }),
    duration: t.expose("duration", { type: CouponDurationEnum }),
    durationMonths: t.exposeInt("durationMonths", { nullable: true, description: "REPEATING: the charges it discounts (2–36)." }),
    expiresOn: t.string({
      nullable: true,
      description: "The last day (YYYY-MM-DD) it is accepted, in the business's time zone; null: no expiry.",
      select: { business: { select: { timeZone: true } } },
      resolve: (c) => expiresOnOf(c.expiresAt, c.business?.timeZone ?? null),
    }),
    maxRedemptions: t.exposeInt("maxRedemptions", { nullable: true, description: "How many memberships may redeem it; null: no limit." }),
    redemptionCount: t.exposeInt("redemptionCount", { description: "Memberships that have redeemed it." }),
    planIds: t.exposeIntList("planIds", { description: "Database ids of the plans it applies to; empty: every plan." }),
    redemptions: t.prismaConnection({
      type: CouponRedemptionRef,
      cursor: "id",
      defaultSize: 50,
      maxSize: 200,
      description: "Who redeemed it, newest first.",
      resolve: (query, coupon, _a, ctx) => couponReads.redemptions(ctx, coupon, query),
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

builder.queryFields((t) => ({
  coupons: t.prismaConnection({
    type: CouponNode,
    cursor: "id",
    defaultSize: 100,
    maxSize: 500,
    authScopes: { admin: true },
    description: "Platform coupons, newest first (admins): valid at every business. A business's own are Business.coupons.",
    resolve: (query, _p, _a, ctx) => couponReads.list(ctx, query),
  }),
}));

builder.prismaObjectFields("Business", (t) => ({
  coupons: t.prismaConnection({
    type: CouponNode,
    cursor: "id",
    defaultSize: 100,
    maxSize: 500,
    nullable: true,
    description: "The business's own coupons, newest first (editContent: editors, owners, administrators).",
    authScopes: (b) => ({ business: { id: b.id, permission: "editContent" } }),
    resolve: (query, b, _a, ctx) => couponReads.listForBusiness(ctx, b.id, query),
  }),
}));

const CreateCouponInput = builder.inputType("CreateCouponInput", {
  fields: (t) => ({
    businessId: t.id({ description: "The business whose own coupon it is (its owners and editors); absent: a platform coupon (administrators)." }),
    code: t.string({ required: true }),
    type: t.field({ type: CouponTypeEnum, required: true }),
    value: t.float({ required: true, description: "PERCENT: whole percent 0–100; FIXED: whole cents." }),
    active: t.boolean({ defaultValue: true }),
    duration: t.field({ type: CouponDurationEnum }),
    durationMonths: t.int({ description: "REPEATING: the charges it discounts (2–36)." }),
    expiresOn: t.string({ description: "The last day (YYYY-MM-DD) it is accepted, in the business's time zone (UTC for platform coupons); null: none." }),
    maxRedemptions: t.int({ description: "How many memberships may redeem it (at least 1); null: no limit." }),
    planIds: t.idList({ description: "Plans of the business it applies to (global ids or databaseIds); empty: every plan. Business coupons only." }),
  }),
});

const UpdateCouponInput = builder.inputType("UpdateCouponInput", {
  description: "Fields left out are kept; null clears expiresOn and maxRedemptions. Code, type, value and duration change only before the first redemption.",
  fields: (t) => ({
    id: t.id({ required: true, description: "Coupon global id or numeric databaseId." }),
    code: t.string(),
    type: t.field({ type: CouponTypeEnum }),
    value: t.float(),
    active: t.boolean(),
    duration: t.field({ type: CouponDurationEnum }),
    durationMonths: t.int({ description: "REPEATING: the charges it discounts (2–36)." }),
    expiresOn: t.string({ description: "The last day (YYYY-MM-DD) it is accepted, in the business's time zone (UTC for platform coupons); null: none." }),
    maxRedemptions: t.int({ description: "How many memberships may redeem it (at least 1); null: no limit." }),
    planIds: t.idList({ description: "Plans of the business it applies to (global ids or databaseIds); empty: every plan. Business coupons only." }),
  }),
});

const CouponIdInput = (name: string) =>
  builder.inputType(name, { fields: (t) => ({ id: t.id({ required: true, description: "Coupon global id or numeric databaseId." }) }) });
const ToggleCouponInput = CouponIdInput("ToggleCouponInput");
const DeleteCouponInput = CouponIdInput("DeleteCouponInput");

const DeleteCouponPayload = builder.objectRef<{ id: number; code: string }>("DeleteCouponPayload").implement({
  fields: (t) => ({
    deletedId: t.id({ description: "Global id of the deleted coupon (for Relay @deleteRecord).", resolve: (c) => encodeGlobalID("Coupon", c.id) }),
    databaseId: t.exposeInt("id"),
    code: t.exposeString("code"),
  }),
});

const planIdsOf = (ids: readonly (string | number)[] | null | undefined) => ids?.map((id, i) => numericId(id, "Plan", `planIds.${i}`));
/** Absent stays undefined (kept), null stays null (cleared). */
const orNull = <T>(v: T | null | undefined) => (v === undefined ? undefined : v);

// Who may: the coupon's business's editors and owners, or administrators for platform coupons (the service decides).
builder.mutationFields((t) => ({
  createCoupon: t.prismaField({
    type: CouponNode,
    errors: { types: [...COMMON_ERRORS, ConflictError] },
    args: { input: t.arg({ type: CreateCouponInput, required: true }) },
    resolve: async (query, _p, { input }, ctx) => {
      const c = await coupons.createCoupon(ctx, {
        ...input,
        businessId: input.businessId == null ? null : numericId(input.businessId, "Business", "businessId"),
        active: input.active ?? true,
        duration: input.duration ?? "FOREVER",
        planIds: planIdsOf(input.planIds) ?? [],
      });
      return ctx.db.coupon.findUniqueOrThrow({ ...payloadQuery(query), where: { id: c.id } });
    },
  }),
  updateCoupon: t.prismaField({
    type: CouponNode,
    errors: { types: [...COMMON_ERRORS, ConflictError] },
    args: { input: t.arg({ type: UpdateCouponInput, required: true }) },
    resolve: async (query, _p, { input }, ctx) => {
      const c = await coupons.updateCoupon(ctx, numericId(input.id, "Coupon", "id"), {
        code: input.code ?? undefined,
        type: input.type ?? undefined,
        value: input.value ?? undefined,
        active: input.active ?? undefined,
        duration: input.duration ?? undefined,
        durationMonths: orNull(input.durationMonths),
        expiresOn: orNull(input.expiresOn),
        maxRedemptions: orNull(input.maxRedemptions),
        planIds: planIdsOf(input.planIds) ?? undefined,
      });
      return ctx.db.coupon.findUniqueOrThrow({ ...payloadQuery(query), where: { id: c.id } });
    },
  }),
  toggleCoupon: t.prismaField({
    type: CouponNode,
    errors: { types: [...COMMON_ERRORS, ConflictError] },
    args: { input: t.arg({ type: ToggleCouponInput, required: true }) },
    resolve: async (query, _p, { input }, ctx) => {
      const c = await coupons.toggleCoupon(ctx, numericId(input.id, "Coupon", "id"));
      return ctx.db.coupon.findUniqueOrThrow({ ...payloadQuery(query), where: { id: c.id } });
    },
  }),
  deleteCoupon: t.field({
    type: DeleteCouponPayload,
    errors: { types: COMMON_ERRORS },
    args: { input: t.arg({ type: DeleteCouponInput, required: true }) },
    resolve: (_p, { input }, ctx) => coupons.deleteCoupon(ctx, numericId(input.id, "Coupon", "id")),
  }),
}));
