/**
 * What the payment provider still needs of a payout account, as its requirement codes (Stripe's
 * `requirements.currently_due`: "external_account", "representative.first_name"…), said in words.
 */
const KNOWN: Record<string, string> = {
  external_account: "Bank account for payouts",
  "business_profile.url": "Business website",
  "business_profile.mcc": "Business category",
  "representative.first_name": "Representative's first name",
  "representative.last_name": "Representative's last name",
  "representative.dob.day": "Representative's date of birth",
  "tos_acceptance.date": "Acceptance of the provider's terms",
};

/** A requirement code in words: the known ones by name, any other from its parts ("individual.id_number" → "Individual id number"). */
export function requirementLabel(code: string): string {
  const known = KNOWN[code];
  if (known) return known;
  const words = code.replace(/[._]+/g, " ").trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : code;
}
