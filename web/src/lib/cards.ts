/** A saved card as the portal shows it (provider brand ids are lowercase, e.g. "visa", "mastercard"). */
export interface SavedCardLike {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

const BRAND_NAMES: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  discover: "Discover",
  diners: "Diners Club",
  jcb: "JCB",
  unionpay: "UnionPay",
};

export function cardBrandName(brand: string): string {
  return BRAND_NAMES[brand.toLowerCase()] ?? (brand ? brand[0].toUpperCase() + brand.slice(1) : "Card");
}

/** "Visa •••• 4242, expires 12/2031". */
export function savedCardLabel(card: SavedCardLike): string {
  return `${cardBrandName(card.brand)} •••• ${card.last4}, expires ${String(card.expMonth).padStart(2, "0")}/${card.expYear}`;
}
