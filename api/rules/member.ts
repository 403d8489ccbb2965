/** Who counts as a member of a business, and where their mail goes: read by billing, metrics, mail and the lists. */

/** Members counted on business cards: active (and past-due, still members) subscriptions. */
export const MEMBER_STATUSES = ["ACTIVE", "PAST_DUE"] as const;

/** Where a member's mail about a membership goes: their profile's email, else the one given at checkout ("" for none). */
export const memberAddress = (m: { email: string | null; user: { email: string | null } }): string => m.user.email?.trim() || m.email?.trim() || "";
