import { z } from "zod";

const cents = z.number().int().nonnegative();

/** What a payment was created to buy: the membership's selection and prices at that moment. */
export const PurchaseSchema = z.object({
  planId: z.number().int(),
  mode: z.enum(["PICKUP", "SHIPPING", "DELIVERY"]),
  /** Absent on payments made before points were chosen: those keep the membership's. */
  fulfillmentPoint: z.string().optional(),
  planAmountCents: cents,
  /** Absent on payments made before the breakdown had a surcharge line. */
  modeSurchargeCents: cents.default(0),
  addonsAmountCents: cents,
  discountCents: cents,
  taxCents: cents,
  totalCents: cents,
  taxRateBps: cents,
  couponId: z.number().int().nullable(),
  billingDay: z.number().int().min(1).max(28),
  isGift: z.boolean(),
  giftMessage: z.string().optional(),
  email: z.string().nullable(),
  address: z.record(z.string(), z.unknown()).nullable(),
  addons: z.array(z.object({ addonId: z.number().int(), amountCents: cents })),
});
export type Purchase = z.infer<typeof PurchaseSchema>;
