import { builder } from "../graphql/builder.ts";

// Skeleton; the coupons work adds fields, authorization, lists and mutations.
export const CouponNode = builder.prismaNode("Coupon", {
  id: { field: "id" },
  fields: (t) => ({
    code: t.exposeString("code"),
  }),
});
