import type { ProviderError } from "../provider.ts";

/**
 * The sandbox's cards: Stripe's documented test card numbers with their documented outcomes, and the checks a
 * card form makes (Luhn, expiry, CVC). Any other number is refused, so real card data has no reason to reach
 * this server. No storage here: what a card does, and how its details are read.
 */

/** How a test card behaves (https://docs.stripe.com/testing). */
type CardBehavior =
  | "succeed"
  | "decline"
  | "insufficient_funds"
  | "expired_card"
  | "incorrect_cvc"
  /** Needs 3-D Secure on-session; later off-session charges of the saved card succeed. */
  | "authenticate_on_session"
  /** Needs 3-D Secure every time, off-session charges included. */
  | "authenticate_always"
  /** Can be saved, but every charge of the saved card is declined (renewal failures, dunning). */
  | "decline_after_attach";

interface TestCard {
  brand: string;
  behavior: CardBehavior;
}

const TEST_CARDS: Record<string, TestCard> = {
  "4242424242424242": { brand: "visa", behavior: "succeed" },
  "4000056655665556": { brand: "visa", behavior: "succeed" },
  "5555555555554444": { brand: "mastercard", behavior: "succeed" },
  "2223003122003222": { brand: "mastercard", behavior: "succeed" },
  "378282246310005": { brand: "amex", behavior: "succeed" },
  "6011111111111117": { brand: "discover", behavior: "succeed" },
  "4000000000000002": { brand: "visa", behavior: "decline" },
  "4000000000009995": { brand: "visa", behavior: "insufficient_funds" },
  "4000000000000069": { brand: "visa", behavior: "expired_card" },
  "4000000000000127": { brand: "visa", behavior: "incorrect_cvc" },
  "4000002500003155": { brand: "visa", behavior: "authenticate_on_session" },
  "4000002760003184": { brand: "visa", behavior: "authenticate_always" },
  "4000000000000341": { brand: "visa", behavior: "decline_after_attach" },
};

export const DECLINES: Record<string, ProviderError> = {
  decline: { code: "card_declined", message: "Your card was declined." },
  insufficient_funds: { code: "insufficient_funds", message: "Your card has insufficient funds." },
  expired_card: { code: "expired_card", message: "Your card has expired." },
  incorrect_cvc: { code: "incorrect_cvc", message: "Your card's security code is incorrect." },
  authentication_required: { code: "authentication_required", message: "Your card requires authentication." },
};

/** Card details as the sandbox card form sends them (the Stripe path never sends card data to us). */
export interface SandboxCardInput {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

export class SandboxCardError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/** A card as read from the form: what is kept of it, and how it behaves. */
export interface ReadCard {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  behavior: CardBehavior;
}

/** A saved card (a payment method), attached to a customer or, for a one-off payment, to none. */
export interface StoredCard extends ReadCard {
  customerId: string | null;
}

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Validates card details like Stripe Elements would, and maps the number to its test behaviour. */
export function readTestCard(input: SandboxCardInput, now: Date): ReadCard {
  const number = input.number.replace(/[\s-]/g, "");
  if (!/^\d{12,19}$/.test(number) || !luhnValid(number)) throw new SandboxCardError("invalid_number", "Your card number is invalid.");
  const card = TEST_CARDS[number];
  if (!card) {
    throw new SandboxCardError(
      "sandbox_live_card",
      "The sandbox accepts only test card numbers, such as 4242 4242 4242 4242. Never enter a real card here.",
    );
  }
  const expYear = input.expYear < 100 ? 2000 + input.expYear : input.expYear;
  if (!Number.isInteger(input.expMonth) || input.expMonth < 1 || input.expMonth > 12) {
    throw new SandboxCardError("invalid_expiry_month", "Your card's expiration month is invalid.");
  }
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
  if (expYear * 12 + (input.expMonth - 1) < current) throw new SandboxCardError("invalid_expiry_year", "Your card's expiration year is in the past.");
  if (!/^\d{3,4}$/.test(input.cvc) || (card.brand === "amex" ? input.cvc.length !== 4 : input.cvc.length !== 3)) {
    throw new SandboxCardError("invalid_cvc", "Your card's security code is invalid.");
  }
  return { brand: card.brand, last4: number.slice(-4), expMonth: input.expMonth, expYear, behavior: card.behavior };
}
