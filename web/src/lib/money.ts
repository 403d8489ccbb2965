const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2 });

/** Spec §9: amounts are integer cents; shown as US dollars with 2 decimals ("$12.00"). */
export function formatCents(amountCents: number): string {
  return usd.format(Math.round(amountCents) / 100);
}

/** A surcharge shown only when positive, e.g. shipping over pickup: "(+$7.00)", else "". */
export function formatSurcharge(extraCents: number): string {
  return extraCents > 0 ? `(+${formatCents(extraCents)})` : "";
}

/**
 * Typed dollars (" 12.5 ") to whole cents, rounding the decimal as written half away from zero ("1.005" → 101);
 * null for anything else. The server's own parser (dependency-free), so a price typed in the editor is read exactly
 * as the server reads it.
 */
export { dollarsToCents } from "../../../api/shared/money.ts";
