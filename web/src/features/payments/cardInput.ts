/** A card as the sandbox provider takes it (Stripe test cards only). */
export interface SandboxCard {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

/** "4242424242424242" → "4242 4242 4242 4242" while typing. */
export function formatCardNumber(value: string): string {
  return value.replace(/\D/g, "").slice(0, 19).replace(/(\d{4})(?=\d)/g, "$1 ");
}

/** "1230" → "12 / 30" while typing. */
export function formatExpiry(value: string): string {
  const digits = value.replace(/\D/g, "").slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
}

/** Validates the three fields; returns the card or the first problem. */
export function parseCard(number: string, expiry: string, cvc: string): SandboxCard | { error: string } {
  const digits = number.replace(/\D/g, "");
  if (digits.length < 13) return { error: "Your card number is incomplete." };
  const exp = expiry.replace(/\D/g, "");
  if (exp.length !== 4) return { error: "Your card's expiration date is incomplete." };
  const expMonth = Number(exp.slice(0, 2));
  if (expMonth < 1 || expMonth > 12) return { error: "Your card's expiration date is invalid." };
  const c = cvc.replace(/\D/g, "");
  if (c.length < 3) return { error: "Your card's security code is incomplete." };
  return { number: digits, expMonth, expYear: 2000 + Number(exp.slice(2)), cvc: c };
}
