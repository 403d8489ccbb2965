/**
 * Who may do what (spec §6, decided where the spec is silent). Every service calls these; the GraphQL
 * scopes call the same functions, so both adapters enforce one policy.
 *
 * | permission          | viewer | editor | owner | admin | partner token |
 * |---------------------|--------|--------|-------|-------|---------------|
 * | viewDashboard       |   ✓    |   ✓    |   ✓   |   ✓   |               |
 * | readMemberships     |   ✓    |   ✓    |   ✓   |   ✓   | own business  |
 * | editContent (page,  |        |   ✓    |   ✓   |   ✓   |               |
 * |  catalog, next box) |        |        |       |       |               |
 * | manageUsers         |        |        |   ✓   |   ✓   |               |
 * | manageApiTokens     |        |        |   ✓   |   ✓   |               |
 * | cancelMemberships   |        |        |   ✓   |   ✓   |               |
 * | readMail (Sent mail)|        |        |   ✓   |   ✓   |               |
 *
 * Platform-wide actions (businesses create/delete, owner attachment, coupons, users, home page) are admin only.
 */
import type { ServiceContext, UserActor } from "../context.ts";
import type { BusinessRole, Prisma } from "../generated/prisma/client.ts";
import { ForbiddenError, UnauthenticatedError } from "../shared/errors.ts";

export type MaybePromise<T> = T | Promise<T>;

export type BusinessPermission =
  | "viewDashboard"
  | "readMemberships"
  | "editContent"
  | "manageUsers"
  | "manageApiTokens"
  | "cancelMemberships"
  | "readMail";

const RANK: Record<BusinessRole, number> = { VIEWER: 1, EDITOR: 2, OWNER: 3 };

const MIN_ROLE: Record<BusinessPermission, BusinessRole> = {
  viewDashboard: "VIEWER",
  readMemberships: "VIEWER",
  editContent: "EDITOR",
  manageUsers: "OWNER",
  manageApiTokens: "OWNER",
  cancelMemberships: "OWNER",
  readMail: "OWNER",
};

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
 * GraphQL (`memberSessionScope` "account", issue 14) one login reaches every membership the member holds, so
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
  if (ctx.actor.kind === "partner") return permission === "readMemberships" && ctx.actor.token.businessId === businessId;
  if (ctx.actor.kind !== "user") return false;
  if (ctx.actor.user.isAdmin) return true;
  const holds = (role: BusinessRole | null) => role !== null && RANK[role] >= RANK[MIN_ROLE[permission]];
  if (ctx.roleCache.has(businessId)) return holds(ctx.roleCache.get(businessId) ?? null);
  return businessRoleOf(ctx, businessId).then(holds);
}

export async function assertCan(ctx: ServiceContext, businessId: number, permission: BusinessPermission): Promise<void> {
  if (ctx.actor.kind === "anonymous") throw new UnauthenticatedError();
  if (!(await can(ctx, businessId, permission))) throw new ForbiddenError();
}

/** Prisma filter on Business for the businesses whose `permission` the actor holds (lists and searches). */
export function businessesWhere(ctx: ServiceContext, permission: BusinessPermission): Prisma.BusinessWhereInput {
  const a = ctx.actor;
  if (a.kind === "partner") return permission === "readMemberships" ? { id: a.token.businessId } : { id: -1 };
  if (a.kind !== "user") return { id: -1 };
  if (a.user.isAdmin) return {};
  const roles = (Object.keys(RANK) as BusinessRole[]).filter((r) => RANK[r] >= RANK[MIN_ROLE[permission]]);
  return { users: { some: { userId: a.user.id, role: { in: roles } } } };
}
