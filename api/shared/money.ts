/**
 * Money is integer cents everywhere; these format it at the edge (USD, spec §9) and read typed dollars.
 * Dependency-free: the server and the web app (alias `@shared`) use this one copy.
 */
const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * Cents as US dollars with two decimals ("$1,234.56", "-$5.00"). Amounts are whole cents; anything else is first
 * rounded to a whole cent half away from zero, the rule dollarsToCents reads with (12.5 → "$0.13",
 * -12.5 → "-$0.13"), and never shows as "-$0.00".
 */
export function formatCents(cents: number): string {
  const whole = Math.sign(cents) * Math.round(Math.abs(cents));
  return usd.format((whole || 0) / 100);
}

/** A surcharge shown only when positive, e.g. shipping over pickup: "(+$7.00)", else "". */
export function formatSurcharge(extraCents: number): string {
  return extraCents > 0 ? `(+${formatCents(extraCents)})` : "";
}

/** A decimal as people and JSON write dollars: an optional sign, digits, an optional fraction ("12.5", "-3", ".5"). */
const DECIMAL_DOLLARS = /^([+-]?)(\d*)(?:\.(\d*))?$/;

/**
 * Dollars as typed by a person ("12.5", " 3 ") or sent as a JSON number to whole cents, rounding the decimal as
 * written half away from zero ("1.005" → 101, "-1.005" → -101); null for anything else (empty, "1e3", "1,000",
 * "$5", hex) or an amount too large for exact cents. Done on the digits, not on floats: 1.005 is
 * 1.00499999999999989… as a double, so multiplying by 100 and rounding gave 100. A number is read by its
 * shortest decimal form (1.005 → "1.005"), the one JavaScript prints and JSON carries.
 */
export function dollarsToCents(dollars: number | string): number | null {
  let text: string;
  if (typeof dollars === "number") {
    if (!Number.isFinite(dollars)) return null;
    // Below a millionth JavaScript writes an exponent ("5e-7"): far less than half a cent.
    if (Math.abs(dollars) < 1e-6) return 0;
    text = String(dollars);
  } else {
    text = dollars.trim();
  }
  const match = DECIMAL_DOLLARS.exec(text);
  if (!match) return null;
  const [, sign, whole, fraction = ""] = match;
  if (whole === "" && fraction === "") return null;
  const digits = fraction.padEnd(3, "0");
  // The third decimal decides: 5 or more is at least half a cent, whatever follows.
  const cents = Number(whole || "0") * 100 + Number(digits.slice(0, 2)) + (digits[2] >= "5" ? 1 : 0);
  if (!Number.isSafeInteger(cents)) return null;
  return sign === "-" && cents !== 0 ? -cents : cents;
}
