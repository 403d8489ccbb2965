const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2 });

/** Spec §9: amounts are integer cents; shown as US dollars with 2 decimals ("$12.00"). */
export function formatCents(amountCents: number): string {
  return usd.format(Math.round(amountCents) / 100);
}

/** A surcharge shown only when positive, e.g. shipping over pickup: "(+$7.00)", else "". */
export function formatSurcharge(extraCents: number): string {
  return extraCents > 0 ? `(+${formatCents(extraCents)})` : "";
}
