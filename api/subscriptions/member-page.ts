/**
 * The member page of the admin area (/admin/business/{id}/members/{membershipId}, docs/admin.md): one membership of a
 * business as its staff read it. Staff only (readMemberNotes: viewers, editors, owners of the business, administrators):
 * the page holds internal notes, so neither the member nor a partner token opens it (they read the membership
 * through `node` and the memberships list). The page's other reads: ./next-charge.ts (the next charge), ./notes.ts
 * (the notes), api/mail (the business's mail to the member, owners only).
 */
import type { ServiceContext } from "../context.ts";
import type { Payment, Prisma } from "../generated/prisma/client.ts";
import { assertCan } from "../auth/policy.ts";

type MembershipQuery = { select?: Prisma.SubscriptionSelect | null; include?: Prisma.SubscriptionInclude | null };

/**
 * The membership `membershipId` of the business, with the caller's selection, for its staff: refused (ForbiddenError,
 * UnauthenticatedError) to anyone else, whatever the membership; null when the business has no such membership
 * (another business's, a checkout never paid, none at all).
 */
export async function membershipOfBusiness<Q extends MembershipQuery>(ctx: ServiceContext, businessId: number, membershipId: number, query: Q) {
  await assertCan(ctx, businessId, "readMemberNotes");
  return ctx.db.subscription.findFirst({ ...(query as object), where: { id: membershipId, businessId, status: { not: "INCOMPLETE" } } }) as Promise<Prisma.SubscriptionGetPayload<Q> | null>;
}

/** What "member since" is read from: the member's memberships (any business; the membership's own business is kept). */
export const memberSinceSelect = {
  businessId: true,
  startedAt: true,
  user: { select: { subscriptions: { where: { status: { not: "INCOMPLETE" } }, select: { businessId: true, startedAt: true } } } },
} as const satisfies Prisma.SubscriptionSelect;

/** Since when the member has been a member of this business: the start of their first membership there (this one, or an earlier one canceled since). */
export function memberSince(sub: Prisma.SubscriptionGetPayload<{ select: typeof memberSinceSelect }>): Date {
  return sub.user.subscriptions.filter((s) => s.businessId === sub.businessId).reduce((first, s) => (s.startedAt < first ? s.startedAt : first), sub.startedAt);
}

/** The member's phone: their profile's, else the one given with the membership's address. */
export function memberPhone(sub: { address: Prisma.JsonValue; user: { phone: string | null } }): string | null {
  const given = sub.address && typeof sub.address === "object" && !Array.isArray(sub.address) ? sub.address.phone : null;
  return sub.user.phone?.trim() || (typeof given === "string" && given.trim()) || null;
}

/** The payments of a membership shown on its page: the latest, newest first. */
const PAYMENTS_SHOWN = 50;

/**
 * A membership's payments (charges tried, paid, declined, refunded), newest first: readOrders of its business (staff,
 * administrators, and partner tokens with orders:read, as for its orders).
 */
export async function paymentsOf(ctx: ServiceContext, membership: { id: number; businessId: number }): Promise<Payment[]> {
  await assertCan(ctx, membership.businessId, "readOrders");
  return ctx.db.payment.findMany({ where: { subscriptionId: membership.id }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: PAYMENTS_SHOWN });
}
