/** The member page of a membership (/admin/business/{id}/members/{membershipId}): every list of members links to it. */
export const memberPath = (businessId: number, membershipId: number): string => `/admin/business/${businessId}/members/${membershipId}`;

/** How staff read a member: their full name, else their username. */
export const memberDisplayName = (memberName: string | null | undefined, username: string): string => memberName?.trim() || username;
