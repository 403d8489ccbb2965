import { encodeGlobalID } from "@pothos/plugin-relay";
import { builder } from "../builder.ts";
import { payloadQuery } from "../payload-query.ts";
import { COMMON_ERRORS } from "../errors.ts";
import { CouponType } from "../../generated/prisma/enums.ts";
import { ConflictError } from "../../shared/errors.ts";
import { numericId } from "../ids.ts";
import { canReadCoupon } from "../../auth/read-rules.ts";
import * as coupons from "../../coupons/service.ts";

const CouponTypeEnum = builder.enumType(CouponType, { name: "CouponType" });

/** Coupons are administered by admins only (spec §6). */
const CouponNode = builder.prismaNode("Coupon", {
  id: { field: "id" },
  authScopes: (coupon, ctx) => canReadCoupon(ctx, coupon),
  fields: (t) => ({
    databaseId: t.exposeInt("id"),
    code: t.exposeString("code", { description: "Upper-case, unique platform-wide." }),
    type: t.expose("type", { type: CouponTypeEnum }),
    value: t.exposeInt("value", { description: "PERCENT: whole percent 0–100; FIXED: cents." }),
    active: t.exposeBoolean("active"),
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
    description: "Every coupon, newest first (admins).",
    resolve: (query, _p, _a, ctx) => coupons.list(ctx, query),
  }),
}));

const CreateCouponInput = builder.inputType("CreateCouponInput", {
  fields: (t) => ({
    code: t.string({ required: true }),
    type: t.field({ type: CouponTypeEnum, required: true }),
    value: t.float({ required: true, description: "PERCENT: whole percent 0–100; FIXED: whole cents." }),
    active: t.boolean({ defaultValue: true }),
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

builder.mutationFields((t) => ({
  createCoupon: t.prismaField({
    type: CouponNode,
    errors: { types: [...COMMON_ERRORS, ConflictError] },
    authScopes: { admin: true },
    args: { input: t.arg({ type: CreateCouponInput, required: true }) },
    resolve: async (query, _p, { input }, ctx) => {
      const c = await coupons.createCoupon(ctx, { ...input, active: input.active ?? true });
      return ctx.db.coupon.findUniqueOrThrow({ ...payloadQuery(query), where: { id: c.id } });
    },
  }),
  toggleCoupon: t.prismaField({
    type: CouponNode,
    errors: { types: [...COMMON_ERRORS, ConflictError] },
    authScopes: { admin: true },
    args: { input: t.arg({ type: ToggleCouponInput, required: true }) },
    resolve: async (query, _p, { input }, ctx) => {
      const c = await coupons.toggleCoupon(ctx, numericId(input.id, "Coupon", "id"));
      return ctx.db.coupon.findUniqueOrThrow({ ...payloadQuery(query), where: { id: c.id } });
    },
  }),
  deleteCoupon: t.field({
    type: DeleteCouponPayload,
    errors: { types: COMMON_ERRORS },
    authScopes: { admin: true },
    args: { input: t.arg({ type: DeleteCouponInput, required: true }) },
    resolve: (_p, { input }, ctx) => coupons.deleteCoupon(ctx, numericId(input.id, "Coupon", "id")),
  }),
}));
