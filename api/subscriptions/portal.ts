/** A member's own memberships as the portal shows them (spec §4): which, and in what order. */
import type { Prisma } from "../generated/prisma/client.ts";
import { statusWhere } from "./memberships-list.ts";
import { isActiveStatus } from "./timing.ts";

/**
 * A member's own memberships as the portal lists them (spec §4), optionally at one business: every status but
 * INCOMPLETE (a checkout never paid is not a membership). GraphQL `User.subscriptions` and the REST portal
 * routes read through this one filter; `portalOrder` then orders them.
 */
export function portalMembershipsWhere(userId: number, businessSlug?: string | null): Prisma.SubscriptionWhereInput {
  return { userId, ...statusWhere("ANY"), ...(businessSlug ? { business: { slug: businessSlug.toLowerCase() } } : {}) };
}

/**
 * Spec §4 'One subscription per business shown': prefer one with a payment-provider subscription id, then
 * an active one, then the latest start.
 */
export function compareForPortal(
  a: { providerSubscriptionId: string | null; status: string; startedAt: Date; id: number },
  b: typeof a,
): number {
  const rank = (s: typeof a) => [s.providerSubscriptionId ? 0 : 1, isActiveStatus(s.status) ? 0 : 1];
  const [ra, rb] = [rank(a), rank(b)];
  return ra[0] - rb[0] || ra[1] - rb[1] || b.startedAt.getTime() - a.startedAt.getTime() || b.id - a.id;
}

export function portalOrder<T extends Parameters<typeof compareForPortal>[0] & { businessId: number }>(subs: T[], onePerBusiness: boolean): T[] {
  const sorted = [...subs].sort(compareForPortal);
  if (!onePerBusiness) return sorted;
  const seen = new Set<number>();
  return sorted.filter((s) => !seen.has(s.businessId) && (seen.add(s.businessId), true));
}
