const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2 });

/** Spec §9: amounts are integer cents; shown as US dollars with 2 decimals ("$12.00"). */
export function formatCents(amountCents: number): string {
  return usd.format(Math.round(amountCents) / 100);
}

/** A surcharge shown only when positive, e.g. shipping over pickup: "(+$7.00)", else "". */
export function formatSurcharge(extraCents: number): string {
  return extraCents > 0 ? `(+${formatCents(extraCents)})` : "";
}

/** A decimal as people type dollars: an optional sign, digits, an optional fraction ("12.5", "-3", ".5"). */
const DECIMAL_DOLLARS = /^([+-]?)(\d*)(?:\.(\d*))?$/;

/**
 * Typed dollars (" 12.5 ") to whole cents, rounding the decimal as written half away from zero ("1.005" → 101);
 * null for anything else (empty, "1e3", "1,000", "$5"). On the digits, not on floats: 1.005 is 1.00499999… as a
 * double, so multiplying by 100 and rounding gave 100. The server parses the same way (api/shared/money.ts).
 */
export function dollarsToCents(typed: string): number | null {
  const match = DECIMAL_DOLLARS.exec(typed.trim());
  if (!match) return null;
  const [, sign, whole, fraction = ""] = match;
  if (whole === "" && fraction === "") return null;
  const digits = fraction.padEnd(3, "0");
  const cents = Number(whole || "0") * 100 + Number(digits.slice(0, 2)) + (digits[2] >= "5" ? 1 : 0);
  if (!Number.isSafeInteger(cents)) return null;
  return sign === "-" && cents !== 0 ? -cents : cents;
}
