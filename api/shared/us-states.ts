/**
 * The states a US address may name: the 50 state codes of spec §2's select, and DC (the District of Columbia:
 * not a state, but its addresses need a code too). The domain's address validation refuses any other state on a
 * US address (api/users/service.ts); the web's select keeps its own labelled list ("OH — Ohio").
 */
export const US_STATE_CODES: readonly string[] = [
  "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "DC", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS",
  "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV",
  "WI", "WY",
];

/** How people write the United States in an address's country ("" counts: the form's default is the US). */
const US_NAMES = new Set(["", "us", "usa", "u.s.", "u.s.a.", "united states", "united states of america"]);

/** Whether an address's country is the United States (where the state must be a code of the list). */
export function isUsCountry(country: string): boolean {
  return US_NAMES.has(country.trim().toLowerCase());
}
