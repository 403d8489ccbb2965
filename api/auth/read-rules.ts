/**
 * Who may read each GraphQL Node type: one predicate per type, on the loaded row. Each Node type declares its
 * predicate as its type-level `authScopes` (so every field that returns the type enforces it, whatever list or
 * relation it came from), and `node`/`nodes` (api/graphql/node.ts) apply the same `authScopes` to the rows they
 * load: a row the caller may not read answers `null`, exactly like a missing one.
 *
 * | Node type    | readable by                                                                                   |
 * |--------------|-----------------------------------------------------------------------------------------------|
 * | Business     | everyone (the public businesses grid and pages; staff-only fields carry their own scopes)     |
 * | Plan, Addon  | everyone while listed and not archived; otherwise staff of its business (viewer and up),      |
 * |              | administrators, the business's partner tokens, and members whose membership has it (current   |
 * |              | selection or scheduled change)                                                                |
 * | Membership   | the member, readMemberships of its business (staff viewer and up, administrators, the         |
 * |              | business's partner tokens with memberships:read)                                              |
 * | Order        | the member, readOrders of its business (the same, partner tokens with orders:read)            |
 * | User         | the user themself (also right after register/login, in that request) and administrators       |
 * | BusinessUser | manageUsers of its business (owner, administrators)                                           |
 * | ApiToken     | manageApiTokens of its business (owner, administrators)                                       |
 * | Coupon       | a business's own: editContent of its business (editor, owner, administrators); a platform     |
 * |              | coupon: administrators                                                                        |
 *
 * The lists that return these types are the domain services' reads, with narrower rules of their own (the
 * public catalogue, the memberships list's readable businesses, a member's own memberships); the predicates
 * here bound whatever any of them returns.
 */
import type { ServiceContext } from "../context.ts";
import { can, isAdmin, type MaybePromise } from "./policy.ts";

const isSelf = (ctx: ServiceContext, userId: number) => ctx.actor.kind === "user" && ctx.actor.user.id === userId;

/** Everyone: the public businesses grid and business pages. */
export function canReadBusiness(_ctx: ServiceContext, _business: { id: number }): boolean {
  return true;
}

/** The member, or readMemberships in its business: staff (viewer and up), administrators, its partner tokens. */
export function canReadMembership(ctx: ServiceContext, row: { userId: number; businessId: number }): MaybePromise<boolean> {
  return isSelf(ctx, row.userId) || can(ctx, row.businessId, "readMemberships");
}

/** The member, or readOrders in its business: staff (viewer and up), administrators, its partner tokens with orders:read. */
export function canReadOrder(ctx: ServiceContext, row: { userId: number; businessId: number }): MaybePromise<boolean> {
  return isSelf(ctx, row.userId) || can(ctx, row.businessId, "readOrders");
}

type CatalogRow = { id: number; businessId: number; listed: boolean; archivedAt: Date | null };

/** catalog/service.ts publicCatalogWhere() on a loaded row: shown on the business page. */
const isPublicCatalogItem = (row: CatalogRow) => row.listed && row.archivedAt === null;

/**
 * Public while listed and not archived. Otherwise readMemberships in its business (staff viewer and up,
 * administrators, its partner tokens: whoever reads the memberships that show it), or a member whose own
 * membership has it, now or in a scheduled change (their portal shows it even once it is unlisted or archived).
 */
export function canReadPlan(ctx: ServiceContext, plan: CatalogRow): MaybePromise<boolean> {
  return canReadCatalogItem(ctx, plan, "planIds");
}

/** As canReadPlan, for add-ons. */
export function canReadAddon(ctx: ServiceContext, addon: CatalogRow): MaybePromise<boolean> {
  return canReadCatalogItem(ctx, addon, "addonIds");
}

function canReadCatalogItem(ctx: ServiceContext, row: CatalogRow, kind: keyof OwnSelection): MaybePromise<boolean> {
  // Synchronous for the public catalogue: the business page checks every plan it lists.
  return isPublicCatalogItem(row) || canReadHiddenCatalogItem(ctx, row, kind);
}

async function canReadHiddenCatalogItem(ctx: ServiceContext, row: CatalogRow, kind: keyof OwnSelection): Promise<boolean> {
  if (await can(ctx, row.businessId, "readMemberships")) return true;
  if (ctx.actor.kind !== "user") return false;
  return (await ownSelection(ctx))[kind].has(row.id);
}

interface OwnSelection {
  planIds: Set<number>;
  addonIds: Set<number>;
}

/** Per request: the plans and add-ons of the actor's own memberships (current and scheduled), one statement. */
const ownSelections = new WeakMap<ServiceContext, Promise<OwnSelection>>();
function ownSelection(ctx: ServiceContext): Promise<OwnSelection> {
  let found = ownSelections.get(ctx);
  if (!found) {
    const userId = ctx.actor.kind === "user" ? ctx.actor.user.id : -1;
    found = ctx.db.subscription
      .findMany({
        where: { userId },
        select: { planId: true, addons: { select: { addonId: true } }, pendingChange: { select: { planId: true, addonIds: true } } },
      })
      .then((subs) => ({
        planIds: new Set(subs.flatMap((s) => [s.planId, ...(s.pendingChange ? [s.pendingChange.planId] : [])])),
        addonIds: new Set(subs.flatMap((s) => [...s.addons.map((a) => a.addonId), ...(s.pendingChange?.addonIds ?? [])])),
      }));
    ownSelections.set(ctx, found);
  }
  return found;
}

/**
 * Users who authenticated in this request (register/login): the request's actor is still anonymous, but the
 * mutation's payload shows them their own record.
 */
const authenticatedInRequest = new WeakMap<ServiceContext, Set<number>>();
export function grantSelf(ctx: ServiceContext, userId: number): void {
  const set = authenticatedInRequest.get(ctx) ?? new Set<number>();
  set.add(userId);
  authenticatedInRequest.set(ctx, set);
}

/** The user themself (including right after register/login in this request) and administrators. */
export function canReadUser(ctx: ServiceContext, user: { id: number }): boolean {
  return isAdmin(ctx) || isSelf(ctx, user.id) || !!authenticatedInRequest.get(ctx)?.has(user.id);
}

/** manageUsers in its business: the owner and administrators. */
export function canReadBusinessUser(ctx: ServiceContext, link: { businessId: number }): MaybePromise<boolean> {
  return can(ctx, link.businessId, "manageUsers");
}

/** manageApiTokens in its business: the owner and administrators (never a partner token, its own included). */
export function canReadApiToken(ctx: ServiceContext, token: { businessId: number }): MaybePromise<boolean> {
  return can(ctx, token.businessId, "manageApiTokens");
}

/** A business's own coupon: who edits its content (its prices and coupons); a platform coupon: administrators. */
export function canReadCoupon(ctx: ServiceContext, coupon: { businessId: number | null }): MaybePromise<boolean> {
  return coupon.businessId === null ? isAdmin(ctx) : can(ctx, coupon.businessId, "editContent");
}
