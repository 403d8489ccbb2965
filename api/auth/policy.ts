/**
 * Who may do what (spec §6, decided where the spec is silent). Every service calls these; the GraphQL
 * scopes call the same functions, so both adapters enforce one policy.
 *
 * | permission          | viewer | editor | owner | admin | partner token (own business, scope) |
 * |---------------------|--------|--------|-------|-------|-------------------------------------|
 * | viewDashboard       |   ✓    |   ✓    |   ✓   |   ✓   |                                     |
 * | readMemberships     |   ✓    |   ✓    |   ✓   |   ✓   | memberships:read                    |
 * | readOrders          |   ✓    |   ✓    |   ✓   |   ✓   | orders:read                         |
 * | readFulfilment      |   ✓    |   ✓    |   ✓   |   ✓   | fulfilment:read                     |
 * |  (packing lists and |        |        |       |       |                                     |
 * |  their CSV, members'|        |        |       |       |                                     |
 * |  addresses, phones, |        |        |       |       |                                     |
 * |  gift messages)     |        |        |       |       |                                     |
 * | editContent (page,  |        |   ✓    |   ✓   |   ✓   |                                     |
 * |  catalog, next box, |        |        |       |       |                                     |
 * |  the business's own |        |        |       |       |                                     |
 * |  coupons)           |        |        |       |       |                                     |
 * | manageUsers         |        |        |   ✓   |   ✓   |                                     |
 * | manageApiTokens     |        |        |   ✓   |   ✓   |                                     |
 * | cancelMemberships   |        |        |   ✓   |   ✓   |                                     |
 * | readMail (Sent mail)|        |        |   ✓   |   ✓   |                                     |
 * | readMemberNotes (the|   ✓    |   ✓    |   ✓   |   ✓   |                                     |
 * |  member page and its|        |        |       |       |                                     |
 * |  internal notes)    |        |        |       |       |                                     |
 * | writeMemberNotes    |        |   ✓    |   ✓   |   ✓   |                                     |
 * | managePayouts (the  |        |        |   ✓   |   ✓   |                                     |
 * |  connected account) |        |        |       |       |                                     |
 *
 * A partner token holds a permission only in its own business and only with the scope PARTNER_SCOPES maps it to
 * (chosen when the token is created; tokens made before scopes existed hold memberships:read and orders:read).
 *
 * Platform-wide actions (businesses create/delete, owner attachment, platform coupons, users, home page, platform
 * fees) are admin only.
 */
import type { ServiceContext, UserActor } from "../context.ts";
import type { BusinessRole, Prisma } from "../generated/prisma/client.ts";
import { ForbiddenError, UnauthenticatedError } from "../shared/errors.ts";

export type MaybePromise<T> = T | Promise<T>;

export type BusinessPermission =
  | "viewDashboard"
  | "readMemberships"
  | "readOrders"
  | "readFulfilment"
  | "editContent"
  | "manageUsers"
  | "manageApiTokens"
  | "cancelMemberships"
  | "readMail"
  | "readMemberNotes"
  | "writeMemberNotes"
  | "managePayouts";

const RANK: Record<BusinessRole, number> = { VIEWER: 1, EDITOR: 2, OWNER: 3 };

const MIN_ROLE: Record<BusinessPermission, BusinessRole> = {
  viewDashboard: "VIEWER",
  readMemberships: "VIEWER",
  readOrders: "VIEWER",
  readFulfilment: "VIEWER",
  editContent: "EDITOR",
  manageUsers: "OWNER",
  manageApiTokens: "OWNER",
  cancelMemberships: "OWNER",
  readMail: "OWNER",
  readMemberNotes: "VIEWER",
  writeMemberNotes: "EDITOR",
  managePayouts: "OWNER",
};

/** The scopes a partner API token may be given, and the one each permission needs (the others: never a partner's). */
export const PARTNER_SCOPES = ["memberships:read", "orders:read", "fulfilment:read"] as const;
export type PartnerScope = (typeof PARTNER_SCOPES)[number];

const SCOPE_OF: Partial<Record<BusinessPermission, PartnerScope>> = {
  readMemberships: "memberships:read",
  readOrders: "orders:read",
  readFulfilment: "fulfilment:read",
};

type PartnerActor = Extract<ServiceContext["actor"], { kind: "partner" }>;

/** Whether a partner token holds `permission` in the business: its own business, with the permission's scope. */
function partnerCan(actor: PartnerActor, businessId: number, permission: BusinessPermission): boolean {
  const scope = SCOPE_OF[permission];
  return scope !== undefined && actor.token.businessId === businessId && actor.token.scopes.includes(scope);
}

/**
 * The scope a partner token lacks for `permission` in the business (null: it holds it, or the permission is never
 * a partner's, or the business is another's): the refusal names it ("This API token lacks the … scope.").
 */
export function missingPartnerScope(ctx: Pick<ServiceContext, "actor">, businessId: number, permission: BusinessPermission): PartnerScope | null {
  const a = ctx.actor;
  if (a.kind !== "partner" || a.token.businessId !== businessId) return null;
  const scope = SCOPE_OF[permission];
  return scope !== undefined && !a.token.scopes.includes(scope) ? scope : null;
}

/** The refusal of a partner token outside its scopes. */
export function scopeError(scope: PartnerScope): ForbiddenError {
  return new ForbiddenError(`This API token lacks the ${scope} scope.`);
}

export function isAdmin(ctx: Pick<ServiceContext, "actor">): boolean {
  return ctx.actor.kind === "user" && ctx.actor.user.isAdmin;
}

export function requireUser(ctx: Pick<ServiceContext, "actor">): UserActor {
  if (ctx.actor.kind === "user") return ctx.actor;
  if (ctx.actor.kind === "partner") throw new ForbiddenError("Partner API tokens are read-only.");
  throw new UnauthenticatedError();
}

export function requireAdmin(ctx: Pick<ServiceContext, "actor">): UserActor {
  const actor = requireUser(ctx);
  if (!actor.user.isAdmin) throw new ForbiddenError();
  return actor;
}

/**
 * A member acting on their own data at a business; the callers check that the data is the member's own.
 * On the REST routes (spec §7, `memberSessionScope` "tenant") a session created for tenant A is refused on
 * tenant B: the legacy client only sends the token to its own tenant, and the server checks it too. On
 * GraphQL (`memberSessionScope` "account") one login reaches every membership the member holds, so
 * the session's tenant is not checked here.
 */
export function requireMember(ctx: Pick<ServiceContext, "actor" | "tenant" | "memberSessionScope">, businessSlug?: string): UserActor {
  const actor = requireUser(ctx);
  if (ctx.memberSessionScope === "account") return actor;
  const bound = actor.session.tenantSlug;
  if (bound && ctx.tenant && bound !== ctx.tenant) {
    throw new ForbiddenError("This session belongs to another business. Please log in again.", "tenant_mismatch");
  }
  if (bound && businessSlug && bound !== businessSlug) {
    throw new ForbiddenError("This session belongs to another business. Please log in again.", "tenant_mismatch");
  }
  return actor;
}

async function businessRoleOf(ctx: ServiceContext, businessId: number): Promise<BusinessRole | null> {
  if (ctx.actor.kind !== "user") return null;
  if (ctx.roleCache.has(businessId)) return ctx.roleCache.get(businessId) ?? null;
  const link = await ctx.db.businessUser.findUnique({
    where: { businessId_userId: { businessId, userId: ctx.actor.user.id } },
    select: { role: true },
  });
  ctx.roleCache.set(businessId, link?.role ?? null);
  return link?.role ?? null;
}

/**
 * Whether the actor holds `permission` in the business. Answered at once when no role has to be read (partner
 * tokens, administrators, a role this request has already read), so a list's per-row read rule stays synchronous
 * and its rows complete without a promise each; otherwise after one read of the actor's role there.
 */
export function can(ctx: ServiceContext, businessId: number, permission: BusinessPermission): MaybePromise<boolean> {
  if (ctx.actor.kind === "partner") return partnerCan(ctx.actor, businessId, permission);
  if (ctx.actor.kind !== "user") return false;
  if (ctx.actor.user.isAdmin) return true;
  const holds = (role: BusinessRole | null) => role !== null && RANK[role] >= RANK[MIN_ROLE[permission]];
  if (ctx.roleCache.has(businessId)) return holds(ctx.roleCache.get(businessId) ?? null);
  return businessRoleOf(ctx, businessId).then(holds);
}

export async function assertCan(ctx: ServiceContext, businessId: number, permission: BusinessPermission): Promise<void> {
  if (ctx.actor.kind === "anonymous") throw new UnauthenticatedError();
  if (await can(ctx, businessId, permission)) return;
  const scope = missingPartnerScope(ctx, businessId, permission);
  throw scope ? scopeError(scope) : new ForbiddenError();
}

/** Prisma filter on Business for the businesses whose `permission` the actor holds (lists and searches). */
export function businessesWhere(ctx: ServiceContext, permission: BusinessPermission): Prisma.BusinessWhereInput {
  const a = ctx.actor;
  if (a.kind === "partner") return partnerCan(a, a.token.businessId, permission) ? { id: a.token.businessId } : { id: -1 };
  if (a.kind !== "user") return { id: -1 };
  if (a.user.isAdmin) return {};
  const roles = (Object.keys(RANK) as BusinessRole[]).filter((r) => RANK[r] >= RANK[MIN_ROLE[permission]]);
  return { users: { some: { userId: a.user.id, role: { in: roles } } } };
}
