/**
 * Fulfillment modes (spec §3, §4): how a member gets the box. One list and one set of names for the server (the
 * catalogue's variation names, REST's variation_name) and the web app (alias `@shared`: the mode picker, the page
 * editor and its preview, summaries). Dependency-free.
 */

/** The modes in display order, which is also a variation's ordinal (spec §3: 0 pickup, 1 shipping, 2 delivery). */
export const MODE_ORDER = ["pickup", "shipping", "delivery"] as const;

/** A mode as the web app, its stored selection and variation ids spell it. */
export type FulfillmentModeName = (typeof MODE_ORDER)[number];

/** A mode as the database and the GraphQL enum spell it. */
export type FulfillmentModeCode = Uppercase<FulfillmentModeName>;

/** What a mode is called wherever a person reads it. */
export const MODE_LABELS: Readonly<Record<FulfillmentModeName, string>> = { pickup: "Pickup", shipping: "Shipping", delivery: "Delivery" };

export function toModeCode(mode: FulfillmentModeName): FulfillmentModeCode {
  return mode.toUpperCase() as FulfillmentModeCode;
}

export function fromModeCode(mode: string): FulfillmentModeName {
  return mode.toLowerCase() as FulfillmentModeName;
}

/** The same labels keyed by the database spelling (MODE_NAMES.PICKUP is "Pickup"). */
export const MODE_NAMES = Object.fromEntries(MODE_ORDER.map((mode) => [toModeCode(mode), MODE_LABELS[mode]])) as Readonly<Record<FulfillmentModeCode, string>>;
