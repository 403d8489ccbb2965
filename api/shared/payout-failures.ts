/**
 * Why a payout failed, in words an owner acts on, from the provider's failure code (Stripe's payout failure codes,
 * https://docs.stripe.com/api/payouts/failures). One place for the Payouts page (GraphQL `Payout.failureReason`)
 * and the `payout_failed` email. A code not known here falls back to the provider's own message, else the code.
 */
const REASONS: Record<string, string> = {
  no_account: "The bank couldn't find an account with the bank details on file.",
  account_closed: "The bank account on file has been closed.",
  account_frozen: "The bank account on file is frozen.",
  bank_account_restricted: "The bank account on file doesn't accept this kind of payment.",
  bank_ownership_changed: "The bank account on file has changed owner.",
  invalid_account_number: "The bank account number on file isn't valid.",
  invalid_currency: "The bank account on file can't receive US dollars.",
  debit_not_authorized: "The bank refused the payout: it isn't authorized on this account.",
  declined: "The bank declined the payout.",
  insufficient_funds: "The balance didn't cover the payout.",
  could_not_process: "The bank couldn't process the payout.",
  incorrect_account_holder_name: "The account holder's name doesn't match the bank's records.",
};

export function payoutFailureReason(code: string | null, message: string | null): string {
  return (code && REASONS[code]) || message || (code ? `The bank refused the payout (${code}).` : "The bank refused the payout.");
}
