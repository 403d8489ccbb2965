/**
 * The spec §3 row shapes shared by member and admin routes: Membership row, Order, User, Skip. Each has its
 * zod schema (the OpenAPI document) and the Prisma selection it is built from.
 */
import { z } from "zod";
import type { Prisma } from "../api/generated/prisma/client.ts";
import { addressSchema } from "../api/users/service.ts";
import { orderSelectionView } from "../api/billing/orders.ts";
import { formatCents } from "../api/shared/money.ts";

/** Spec status words: lower-case (active, canceled, past_due, incomplete). */
export const statusWord = (s: string) => s.toLowerCase();

/** The memberships status filter of §2 (any, active, canceled; plus past_due), as the services spell it. */
/**
 * The pickup point or delivery area a §6 membership selection names: its pickupAddress for pickup, else its
 * fulfillmentDetails, which the domain takes as a choice only when it is exactly one of the mode's list.
 */
export function selectionPoint(sel: { pickupAddress?: string | null; fulfillmentDetails?: string | null }, mode: string) {
  return { fulfillmentPoint: (mode === "pickup" && sel.pickupAddress) || undefined, fulfillmentDetails: sel.fulfillmentDetails ?? undefined };
}

export const StatusFilter = z
  .enum(["any", "active", "past_due", "canceled", ""])
  .optional()
  .transform((s) => (s ? (s.toUpperCase() as "ANY" | "ACTIVE" | "PAST_DUE" | "CANCELED") : "ANY"));

export const MembershipRow = z.object({
  subscription_id: z.number().int(),
  provider_subscription_id: z.string().nullable().describe("The payment provider's subscription id"),
  public_id: z.string(),
  user_id: z.number().int(),
  username: z.string(),
  business_slug: z.string(),
  business_name: z.string(),
  status: z.string().describe("active, past_due, canceled"),
  started_at: z.string().describe("ISO instant"),
  canceled_at: z.string().nullable(),
});

export const membershipRowSelect = {
  id: true,
  providerSubscriptionId: true,
  status: true,
  startedAt: true,
  canceledAt: true,
  userId: true,
  user: { select: { publicId: true, username: true } },
  business: { select: { slug: true, name: true } },
} as const satisfies Prisma.SubscriptionSelect;

export function membershipRow(s: Prisma.SubscriptionGetPayload<{ select: typeof membershipRowSelect }>): z.infer<typeof MembershipRow> {
  return {
    subscription_id: s.id,
    provider_subscription_id: s.providerSubscriptionId,
    public_id: s.user.publicId,
    user_id: s.userId,
    username: s.user.username,
    business_slug: s.business.slug,
    business_name: s.business.name,
    status: statusWord(s.status),
    started_at: s.startedAt.toISOString(),
    canceled_at: s.canceledAt?.toISOString() ?? null,
  };
}

const AddressShape = z.object({
  fullName: z.string(),
  street: z.string(),
  apt: z.string(),
  city: z.string(),
  state: z.string(),
  zip: z.string(),
  country: z.string(),
  phone: z.string(),
});

const ChosenAddon = z.object({ id: z.string().nullable(), name: z.string(), price: z.string(), amount: z.number().int(), amountCents: z.number().int() });

export const OrderShape = z.object({
  id: z.number().int(),
  created_at: z.string(),
  business_slug: z.string(),
  email: z.string().nullable(),
  address: AddressShape.nullable(),
  refund_meta: z.array(z.object({ amount: z.number().int().describe("cents") })),
  selection: z.object({
    mode: z.enum(["pickup", "shipping", "delivery"]),
    chosenItemId: z.string().nullable(),
    chosenItemName: z.string().nullable(),
    chosenVariationName: z.string().nullable(),
    chosenItemPrice: z.string().nullable(),
    chosenAddons: z.array(ChosenAddon),
    chosenUpgrades: z.array(z.object({ amount: z.number().int() })),
    chosenAddonIds: z.array(z.string()),
    chosenUpgradeIds: z.array(z.string()),
    pickupAddress: z.string().nullable(),
    addons: z.array(ChosenAddon),
    upgrades: z.array(z.object({ amount: z.number().int() })),
  }),
  isGift: z.boolean(),
  account: z.object({ username: z.string() }),
});

export const orderSelect = {
  id: true,
  createdAt: true,
  email: true,
  address: true,
  refundedCents: true,
  selection: true,
  mode: true,
  isGift: true,
  business: { select: { slug: true } },
  user: { select: { username: true } },
} as const satisfies Prisma.OrderSelect;

const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

export function orderJson(o: Prisma.OrderGetPayload<{ select: typeof orderSelect }>): z.infer<typeof OrderShape> {
  const snapshot = (o.selection && typeof o.selection === "object" ? o.selection : {}) as Record<string, unknown>;
  const view = orderSelectionView(o.selection);
  const addons = view.addons.map((a) => ({ id: a.id, name: a.name, price: formatCents(a.amountCents), amount: a.amountCents, amountCents: a.amountCents }));
  const upgrades = Array.isArray(snapshot.chosenUpgrades)
    ? snapshot.chosenUpgrades.flatMap((u) => (u && typeof (u as { amount?: unknown }).amount === "number" ? [{ amount: (u as { amount: number }).amount }] : []))
    : [];
  const address = o.address ? addressSchema.safeParse(o.address) : null;
  return {
    id: o.id,
    created_at: o.createdAt.toISOString(),
    business_slug: o.business.slug,
    email: o.email,
    address: address?.success ? address.data : null,
    refund_meta: o.refundedCents > 0 ? [{ amount: o.refundedCents }] : [],
    selection: {
      mode: o.mode.toLowerCase() as "pickup" | "shipping" | "delivery",
      chosenItemId: str(snapshot.chosenItemId),
      chosenItemName: view.planName,
      chosenVariationName: view.variationName,
      chosenItemPrice: str(snapshot.chosenItemPrice),
      chosenAddons: addons,
      chosenUpgrades: upgrades,
      chosenAddonIds: addons.flatMap((a) => (a.id ? [a.id] : [])),
      chosenUpgradeIds: Array.isArray(snapshot.chosenUpgradeIds) ? snapshot.chosenUpgradeIds.filter((x): x is string => typeof x === "string") : [],
      pickupAddress: str(snapshot.pickupAddress),
      addons,
      upgrades,
    },
    isGift: o.isGift,
    account: { username: o.user.username },
  };
}

export const UserShape = z.object({
  id: z.number().int(),
  public_id: z.string(),
  username: z.string(),
  is_admin: z.boolean(),
  created_at: z.string(),
});

export function userJson(u: { id: number; publicId: string; username: string; isAdmin: boolean; createdAt: Date }): z.infer<typeof UserShape> {
  return { id: u.id, public_id: u.publicId, username: u.username, is_admin: u.isAdmin, created_at: u.createdAt.toISOString() };
}

export const BusinessRef = z.object({ id: z.number().int(), name: z.string(), slug: z.string() });
export const businessRefSelect = { id: true, name: true, slug: true } as const;

export const UserResult = z.object({ id: z.number().int(), username: z.string() });
