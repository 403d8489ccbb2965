import { toModeCode, type FulfillmentModeName } from "@shared/fulfillment.ts";
import { readJson, STORAGE_KEYS, writeItem, type KeyValueStore } from "./storage.ts";

interface SelectionAddon {
  id: string;
  name: string;
  price: string;
  amount: number;
  amountCents: number;
}

export interface SelectionAddress {
  fullName: string;
  phone: string;
  street: string;
  apt: string;
  city: string;
  state: string;
  zip: string;
  country: string;
  /** Delivery instructions (delivery only; optional). */
  instructions?: string;
}

/** Spec §3 membership_selection, stored as the spec names its fields (the legacy /checkout page reads them). */
export interface MembershipSelection {
  businessSlug: string;
  mode: FulfillmentModeName;
  fulfillmentMode: FulfillmentModeName;
  fulfillmentDetails: string;
  itemIds: string[];
  chosenItemId: string;
  chosenItemName: string;
  chosenItemAmountCents: number;
  chosenItemPrice: string;
  chosenVariationId: string;
  chosenVariationName: string;
  chosenAddonIds: string[];
  chosenAddons: SelectionAddon[];
  chosenUpgrades: { amount: number }[];
  pickupAddress: string;
  /** Display string of the monthly price before tax, e.g. "$12.00". */
  price: string;
  taxEnabled: boolean;
  taxRate: number;
  billingDay: number;
  email: string;
  isGift: boolean;
  /** The message packed with a gift box (kept only when isGift). */
  giftMessage?: string;
  couponCode: string;
  isChange: boolean;
  address: SelectionAddress | null;
  account: { username: string } | null;
  /** When it was stored (ms since epoch); spec §9: the selection expires by this stamp. */
  ts: number;
}

/** How long a stored selection stays usable (the spec leaves the period open). */
export const SELECTION_TTL_MS = 24 * 60 * 60 * 1000;

export function saveSelection(selection: Omit<MembershipSelection, "ts"> & { ts?: number }, now = Date.now(), store?: KeyValueStore | null): MembershipSelection {
  const stored: MembershipSelection = { ...selection, ts: now };
  writeItem(STORAGE_KEYS.membershipSelection, JSON.stringify(stored), store);
  return stored;
}

/** The stored selection, or null when there is none, it is malformed or older than the TTL (then removed). */
export function readSelection(now = Date.now(), store?: KeyValueStore | null): MembershipSelection | null {
  const sel = readJson<MembershipSelection>(STORAGE_KEYS.membershipSelection, store);
  if (!sel || typeof sel !== "object" || typeof sel.businessSlug !== "string") return null;
  if (typeof sel.ts !== "number" || now - sel.ts > SELECTION_TTL_MS || sel.ts - now > SELECTION_TTL_MS) {
    writeItem(STORAGE_KEYS.membershipSelection, null, store);
    return null;
  }
  return sel;
}

/** Merges fields into the stored selection (address step, coupon), keeping its original ts. */
export function updateSelection(patch: Partial<MembershipSelection>, store?: KeyValueStore | null): MembershipSelection | null {
  const current = readJson<MembershipSelection>(STORAGE_KEYS.membershipSelection, store);
  if (!current) return null;
  const next = { ...current, ...patch };
  writeItem(STORAGE_KEYS.membershipSelection, JSON.stringify(next), store);
  return next;
}

export function clearSelection(store?: KeyValueStore | null): void {
  writeItem(STORAGE_KEYS.membershipSelection, null, store);
}

/**
 * The pickup point or delivery area the selection chose: pickupAddress for pickup, fulfillmentDetails
 * for delivery; none for shipping. The server refuses anything its page does not list.
 */
export function chosenPoint(selection: Pick<MembershipSelection, "mode" | "pickupAddress" | "fulfillmentDetails">): string {
  if (selection.mode === "pickup") return selection.pickupAddress ?? "";
  if (selection.mode === "delivery") return selection.fulfillmentDetails ?? "";
  return "";
}

/**
 * The checkout route query's variables (routes/CheckoutRoute.tsx): the business and what is bought, priced by the
 * server with the coupon when there is one, and without it too, to show when the coupon is refused. The router
 * preloads the query with the stored selection, so both must build them here alike.
 */
export function checkoutQueryVariables(selection: MembershipSelection, couponCode: string) {
  return {
    slug: selection.businessSlug,
    planRef: selection.chosenItemId,
    addonRefs: selection.chosenAddonIds ?? [],
    mode: toModeCode(selection.mode),
    fulfillmentPoint: chosenPoint(selection) || null,
    couponCode: couponCode || null,
    withCoupon: !!couponCode,
  };
}
