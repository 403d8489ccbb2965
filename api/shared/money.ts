/** Money is integer cents everywhere; these format it at the edge (USD, spec §9). */
const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

export function formatCents(cents: number): string {
  return usd.format(cents / 100);
}

/** Dollars as typed by a person ("12.5") to whole cents, rounding half away from zero; null if not a number. */
export function dollarsToCents(dollars: number | string): number | null {
  const n = typeof dollars === "number" ? dollars : Number(String(dollars).trim());
  if (!Number.isFinite(n)) return null;
  return Math.sign(n) * Math.round(Math.abs(n) * 100);
}
