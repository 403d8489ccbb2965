import { z } from "zod";
import type { ServiceContext } from "../context.ts";
import type { BusinessRole, Prisma } from "../generated/prisma/client.ts";
import { assertCan, businessesWhere, isAdmin, PARTNER_SCOPES, requireAdmin, requireUser, type PartnerScope } from "../auth/policy.ts";
import { hashToken, newToken, PARTNER_TOKEN_PREFIX } from "../auth/tokens.ts";
import { isValidSlug, normalizeSlug } from "../shared/slug.ts";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "../shared/errors.ts";
import { parseInput, singleLine } from "../shared/validation.ts";
import { eventActorOf, writeEvents, type NewEvent } from "../events/outbox.ts";
import { globalId } from "../shared/global-id.ts";
import { publicPageChanged } from "../cache/public-pages.ts";
import { MEMBER_STATUSES } from "../rules/member.ts";
import { richTextToPlain } from "../rules/richtext.ts";

/** Public business list: every business is listed (spec §2 /businesses). */
function publicBusinessesWhere(): Prisma.BusinessWhereInput {
  return {};
}


/** A business's id, name and slug (the reference the admin routes answer with); NotFound when it does not exist. */
export async function businessById(ctx: Pick<ServiceContext, "db">, id: number) {
  const business = await ctx.db.business.findUnique({ where: { id }, select: { id: true, name: true, slug: true } });
  if (!business) throw new NotFoundError("Business");
  return business;
}

export async function businessBySlug(ctx: ServiceContext, slug: string) {
  const business = await ctx.db.business.findUnique({ where: { slug: slug.toLowerCase() } });
  if (!business) throw new NotFoundError("Business");
  return business;
}

/** The business the request's tenant names (X-Tenant header or subdomain); refused when there is none. */
export async function tenantBusiness(ctx: ServiceContext) {
  if (!ctx.tenant) throw new ValidationError("Name the business with the X-Tenant header", [{ path: "X-Tenant", message: "Required" }]);
  return businessBySlug(ctx, ctx.tenant);
}

// ── Reads: each list's who, which and order, for GraphQL and REST alike ───────────────────────────────

/** The caller's selection and paging (GraphQL passes its connection's `query` through; REST its own select). */
export type BusinessPage = Pick<Prisma.BusinessFindManyArgs, "select" | "include" | "take" | "skip" | "cursor">;
type Business = Prisma.BusinessGetPayload<object>;

/** The public business list (spec §2 /businesses): every business, by name. GraphQL `businesses`, REST GET /businesses. */
export function list(ctx: Pick<ServiceContext, "db">, page: BusinessPage = {}): Promise<Business[]> {
  return ctx.db.business.findMany({ ...page, where: publicBusinessesWhere(), orderBy: { name: "asc" } });
}

/** A card's logo: the page's, when it has one. */
export const cardLogoUrl = (page: { logoUrl: string | null } | null) => page?.logoUrl || null;
/** A card's description: the page's rich text as plain text, when there is any. */
export const cardDescription = (page: { descriptionHtml: string } | null) => richTextToPlain(page?.descriptionHtml) || null;

const cardSelect = { id: true, slug: true, name: true, page: { select: { logoUrl: true, descriptionHtml: true } } } as const;

/** The business cards of the public list: logo, plain-text description and member count (one grouped count). */
export async function cards(ctx: Pick<ServiceContext, "db">) {
  const rows = (await list(ctx, { select: cardSelect })) as unknown as Prisma.BusinessGetPayload<{ select: typeof cardSelect }>[];
  return Promise.all(
    rows.map(async (b) => ({
      id: b.id,
      slug: b.slug,
      name: b.name,
      logoUrl: cardLogoUrl(b.page),
      description: cardDescription(b.page),
      memberCount: await memberCount(ctx, b.id),
    })),
  );
}

/**
 * Businesses the viewer may open (attached with any role; administrators: all), by name. GraphQL
 * `myBusinesses`, REST GET /my/businesses.
 */
export async function openable(ctx: ServiceContext, page: BusinessPage = {}): Promise<Business[]> {
  requireUser(ctx);
  return ctx.db.business.findMany({ ...page, where: businessesWhere(ctx, "viewDashboard"), orderBy: [{ name: "asc" }, { id: "asc" }] });
}

/** The admin business list (REST GET /admin/businesses): administrators only; every business, by name, with its user count. */
export async function adminList(ctx: ServiceContext) {
  requireAdmin(ctx);
  const select = { id: true, name: true, slug: true, _count: { select: { users: true } } } as const;
  const rows = (await openable(ctx, { select })) as unknown as Prisma.BusinessGetPayload<{ select: typeof select }>[];
  return rows.map((b) => ({ id: b.id, name: b.name, slug: b.slug, userCount: b._count.users }));
}

/** Attached users in attachment order (the GraphQL connection Business.users orders by this too). */
export const BUSINESS_USERS_ORDER = { id: "asc" } as const;

/** The users attached to a business with their roles (owners and administrators; NotFound when no such business). */
export async function users(ctx: ServiceContext, businessId: number) {
  await businessById(ctx, businessId);
  await assertCan(ctx, businessId, "manageUsers");
  return ctx.db.businessUser.findMany({
    where: { businessId },
    select: { role: true, user: { select: { id: true, username: true } } },
    orderBy: BUSINESS_USERS_ORDER,
  });
}

/**
 * Loads the viewer's roles in a page of businesses with one query, so per-business permission checks on
 * list fields (userCount, users, …) answer from the policy's per-request cache instead of one query each.
 */
async function primeViewerRoles(ctx: ServiceContext, businessIds: number[]): Promise<void> {
  if (ctx.actor.kind !== "user" || ctx.actor.user.isAdmin) return;
  const missing = businessIds.filter((id) => !ctx.roleCache.has(id));
  if (!missing.length) return;
  const links = await ctx.db.businessUser.findMany({
    where: { userId: ctx.actor.user.id, businessId: { in: missing } },
    select: { businessId: true, role: true },
  });
  const roles = new Map(links.map((l) => [l.businessId, l.role]));
  for (const id of missing) ctx.roleCache.set(id, roles.get(id) ?? null);
}

/** Runs a business list query, then primes the viewer's roles for the rows it returned. */
export async function withViewerRoles<B extends { id: number }>(ctx: ServiceContext, rows: Promise<B[]>): Promise<B[]> {
  const list = await rows;
  await primeViewerRoles(ctx, list.map((b) => b.id));
  return list;
}

const isUniqueViolation = (e: unknown) => (e as { code?: string } | null)?.code === "P2002";

const SLUG_TAKEN = "A business with this subdomain already exists";
const ONE_OWNER = "A business can have only one owner";
const HAS_MEMBERS = "This business has active memberships. Cancel them before deleting the business.";
const HAS_ORDERS = "This business has order history, which must be kept, so it cannot be deleted.";

const roleSchema = z.enum(["OWNER", "EDITOR", "VIEWER"], { error: "Role must be owner, editor or viewer" });

const CreateBusinessInput = z
  .object({
    name: singleLine("Business name", { error: "Business name is required" }).trim().min(1, "Business name is required").max(200, "Business name is too long"),
    slug: singleLine("Subdomain").trim().max(100).nullish(),
    attachments: z.array(z.object({ userId: z.number().int(), role: roleSchema })).max(50).nullish(),
  })
  .transform((b) => ({ ...b, slug: normalizeSlug(b.slug || b.name), attachments: b.attachments ?? [] }))
  .superRefine((b, ctx) => {
    if (!isValidSlug(b.slug)) {
      ctx.addIssue({ code: "custom", path: ["slug"], message: "Subdomain may only contain lowercase letters, digits and single dashes (at most 63)" });
    }
    if (b.attachments.filter((a) => a.role === "OWNER").length > 1) ctx.addIssue({ code: "custom", path: ["attachments"], message: ONE_OWNER });
    if (new Set(b.attachments.map((a) => a.userId)).size !== b.attachments.length) {
      ctx.addIssue({ code: "custom", path: ["attachments"], message: "Each user can be attached only once" });
    }
  });

/** Admin: creates a business with its page (brand name = business name, §3 defaults) and Next Box. */
export async function createBusiness(ctx: ServiceContext, input: z.input<typeof CreateBusinessInput>) {
  requireAdmin(ctx);
  const data = parseInput(CreateBusinessInput, input);
  const userIds = data.attachments.map((a) => a.userId);
  if (userIds.length) {
    const found = new Set((await ctx.db.user.findMany({ where: { id: { in: userIds } }, select: { id: true } })).map((u) => u.id));
    const missing = data.attachments.flatMap((a, i) => (found.has(a.userId) ? [] : [{ path: `attachments.${i}.userId`, message: `User ${a.userId} not found` }]));
    if (missing.length) throw new ValidationError(missing[0].message, missing);
  }
  if (await ctx.db.business.findUnique({ where: { slug: data.slug }, select: { id: true } })) throw new ConflictError(SLUG_TAKEN, "slug_taken");
  try {
    // One transaction: business, page, next box and attachments together, with their events.
    const business = await ctx.db.$transaction(async (tx) => {
      const { users, ...created } = await tx.business.create({
        data: {
          name: data.name,
          slug: data.slug,
          page: { create: { brandName: data.name } },
          nextBox: { create: {} },
          users: { create: data.attachments.map((a) => ({ userId: a.userId, role: a.role })) },
        },
        include: { users: { orderBy: { id: "asc" } } },
      });
      await writeEvents(tx, { at: ctx.clock.now(), actor: eventActorOf(ctx.actor) }, [
        { type: "business.created.v1", businessId: created.id, objectId: globalId("Business", created.id), payload: { businessId: created.id, slug: created.slug, name: created.name } },
        ...users.map((link) => roleEvent("business.role_granted.v1", link)),
      ]);
      return created;
    });
    // A page read before the business existed ("not found") may be cached under its slug.
    await publicPageChanged(ctx, null);
    return business;
  } catch (e) {
    if (isUniqueViolation(e)) throw new ConflictError(SLUG_TAKEN, "slug_taken");
    throw e;
  }
}

/** Admin: deletes a business with its page, catalogue and attachments, unless members still pay. */
export async function deleteBusiness(ctx: ServiceContext, id: number) {
  requireAdmin(ctx);
  const business = await ctx.db.business.findUnique({ where: { id }, select: { id: true, name: true, slug: true } });
  if (!business) throw new NotFoundError("Business");
  const deleted = await ctx.db.$transaction(async (tx) => {
    const members = await tx.subscription.count({ where: { businessId: id, status: { in: [...MEMBER_STATUSES] } } });
    if (members > 0) throw new ConflictError(HAS_MEMBERS, "has_active_memberships");
    // Orders and payments are financial records: a business that has taken money keeps them.
    if (await tx.order.count({ where: { businessId: id } })) throw new ConflictError(HAS_ORDERS, "has_order_history");
    // Ended subscriptions without orders reference plans (restrict); remove them before the cascade removes the plans.
    await tx.subscription.deleteMany({ where: { businessId: id } });
    await tx.business.delete({ where: { id } });
    await writeEvents(tx, { at: ctx.clock.now(), actor: eventActorOf(ctx.actor) }, [
      { type: "business.deleted.v1", businessId: id, objectId: globalId("Business", id), payload: { businessId: id, slug: business.slug, name: business.name } },
    ]);
    return business;
  });
  await publicPageChanged(ctx, id);
  return deleted;
}

/** A role event of a business user (the link's Relay id is the object). */
function roleEvent(
  type: "business.role_granted.v1" | "business.role_revoked.v1",
  link: { id: number; businessId: number; userId: number; role: BusinessRole },
): NewEvent {
  return { type, businessId: link.businessId, objectId: globalId("BusinessUser", link.id), payload: { businessId: link.businessId, userId: link.userId, role: link.role } };
}

const AttachInput = z.object({ businessId: z.number().int(), userId: z.number().int(), role: roleSchema });

/**
 * Attaches a user to a business or changes their role (manageUsers). Only administrators grant, change or
 * remove the owner: owners manage editors and viewers.
 */
export async function attachBusinessUser(ctx: ServiceContext, input: { businessId: number; userId: number; role: BusinessRole }) {
  await assertCan(ctx, input.businessId, "manageUsers");
  const data = parseInput(AttachInput, input);
  const admin = isAdmin(ctx);
  if (data.role === "OWNER" && !admin) throw new ForbiddenError("Only administrators can make a user the owner.", "owner_admin_only");
  const [business, user, current, owner] = await Promise.all([
    ctx.db.business.findUnique({ where: { id: data.businessId }, select: { id: true } }),
    ctx.db.user.findUnique({ where: { id: data.userId }, select: { id: true } }),
    ctx.db.businessUser.findUnique({ where: { businessId_userId: { businessId: data.businessId, userId: data.userId } } }),
    ctx.db.businessUser.findFirst({ where: { businessId: data.businessId, role: "OWNER" }, select: { userId: true } }),
  ]);
  if (!business) throw new NotFoundError("Business");
  if (!user) throw new NotFoundError("User");
  if (current?.role === "OWNER" && !admin) throw new ForbiddenError("Only administrators can change the owner.", "owner_admin_only");
  if (data.role === "OWNER" && owner && owner.userId !== data.userId) throw new ConflictError(ONE_OWNER, "owner_exists");
  try {
    return await ctx.db.$transaction(async (tx) => {
      const link = await tx.businessUser.upsert({
        where: { businessId_userId: { businessId: data.businessId, userId: data.userId } },
        create: { businessId: data.businessId, userId: data.userId, role: data.role },
        update: { role: data.role },
      });
      // Attaching with the role the user already has changes nothing: nothing to announce.
      const previousRole = current?.role;
      if (previousRole !== link.role) {
        await writeEvents(tx, { at: ctx.clock.now(), actor: eventActorOf(ctx.actor) }, [
          previousRole
            ? { type: "business.role_changed.v1", businessId: link.businessId, objectId: globalId("BusinessUser", link.id), payload: { businessId: link.businessId, userId: link.userId, role: link.role, previousRole } }
            : roleEvent("business.role_granted.v1", link),
        ]);
      }
      return link;
    });
  } catch (e) {
    // Concurrent attaches: the partial unique index business_users_one_owner or the (business, user) key decided.
    if (isUniqueViolation(e)) throw new ConflictError(data.role === "OWNER" ? ONE_OWNER : "This user was attached at the same time. Please reload.", "conflict");
    throw e;
  }
}

/** Removes a user from a business (manageUsers); the owner only by an administrator. */
export async function detachBusinessUser(ctx: ServiceContext, input: { businessId: number; userId: number }) {
  await assertCan(ctx, input.businessId, "manageUsers");
  const link = await ctx.db.businessUser.findUnique({ where: { businessId_userId: { businessId: input.businessId, userId: input.userId } } });
  if (!link) throw new NotFoundError("Business user");
  if (link.role === "OWNER" && !isAdmin(ctx)) throw new ForbiddenError("Only administrators can remove the owner.", "owner_admin_only");
  await ctx.db.$transaction(async (tx) => {
    await tx.businessUser.delete({ where: { id: link.id } });
    await writeEvents(tx, { at: ctx.clock.now(), actor: eventActorOf(ctx.actor) }, [roleEvent("business.role_revoked.v1", link)]);
  });
  return link;
}

// ── Partner API tokens ───────────────────────────────────────────────────────────────────────────────

/** Characters of a token kept in clear so owners can tell their tokens apart ("mpt_" + 4). */
const TOKEN_PREFIX_LENGTH = 8;

/** The scopes of a token created without naming any (and of every token made before scopes existed). */
const LEGACY_SCOPES: readonly PartnerScope[] = ["memberships:read", "orders:read"];

const CreateApiTokenInput = z.object({
  businessId: z.number().int(),
  name: singleLine("Token name", { error: "Please name the token" }).trim().min(1, "Please name the token").max(100, "Token name is too long"),
  // Omitted (clients from before scopes): what tokens made before scopes hold. Given: at least one, all known.
  scopes: z
    .array(z.string({ error: "Unknown scope" }), { error: "Choose at least one scope" })
    .max(20, "Too many scopes")
    .min(1, "Choose at least one scope")
    .superRefine((scopes, c) => {
      const unknown = scopes.filter((s) => !(PARTNER_SCOPES as readonly string[]).includes(s));
      if (unknown.length > 0) c.addIssue({ code: "custom", message: `Unknown scope: ${unknown.join(", ").slice(0, 200)}. Known scopes: ${PARTNER_SCOPES.join(", ")}.` });
    })
    .transform((scopes) => PARTNER_SCOPES.filter((s) => scopes.includes(s)))
    .default([...LEGACY_SCOPES]),
});

/**
 * Creates a read-only partner token for a business, with the scopes it may read (api/auth/policy.ts PARTNER_SCOPES).
 * The token itself is returned once and never stored.
 */
export async function createApiToken(ctx: ServiceContext, input: { businessId: number; name: string; scopes?: readonly string[] | null }) {
  const actor = requireUser(ctx);
  await assertCan(ctx, input.businessId, "manageApiTokens");
  const data = parseInput(CreateApiTokenInput, { ...input, scopes: input.scopes ?? undefined });
  const business = await ctx.db.business.findUnique({ where: { id: data.businessId }, select: { id: true } });
  if (!business) throw new NotFoundError("Business");
  const token = newToken(PARTNER_TOKEN_PREFIX);
  const now = ctx.clock.now();
  const apiToken = await ctx.db.$transaction(async (tx) => {
    const created = await tx.apiToken.create({
      data: {
        name: data.name,
        scopes: data.scopes,
        tokenHash: hashToken(token),
        prefix: token.slice(0, TOKEN_PREFIX_LENGTH),
        businessId: business.id,
        createdById: actor.user.id,
        createdAt: now,
      },
    });
    await writeEvents(tx, { at: now, actor: eventActorOf(ctx.actor) }, [tokenEvent("api_token.created.v1", created)]);
    return created;
  });
  return { token, apiToken };
}

/** Revokes a partner token: it reads as anonymous from the next request on. Revoking twice is harmless. */
export async function revokeApiToken(ctx: ServiceContext, id: number) {
  requireUser(ctx);
  const token = await ctx.db.apiToken.findUnique({ where: { id }, select: { id: true, businessId: true, revokedAt: true } });
  if (!token) throw new NotFoundError("API token");
  await assertCan(ctx, token.businessId, "manageApiTokens");
  if (token.revokedAt) return ctx.db.apiToken.findUniqueOrThrow({ where: { id } });
  const now = ctx.clock.now();
  return ctx.db.$transaction(async (tx) => {
    // Conditional: of two concurrent revokes, one revokes (and announces it), the other finds it done.
    const { count } = await tx.apiToken.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: now } });
    const revoked = await tx.apiToken.findUniqueOrThrow({ where: { id } });
    if (count) await writeEvents(tx, { at: now, actor: eventActorOf(ctx.actor) }, [tokenEvent("api_token.revoked.v1", revoked)]);
    return revoked;
  });
}

function tokenEvent(type: "api_token.created.v1" | "api_token.revoked.v1", token: { id: number; businessId: number; name: string; prefix: string }): NewEvent {
  return { type, businessId: token.businessId, objectId: globalId("ApiToken", token.id), payload: { tokenId: token.id, businessId: token.businessId, name: token.name, prefix: token.prefix } };
}

const memberCountBatches = new WeakMap<object, { ids: number[]; counts: Promise<Map<number, number>> }>();

/**
 * A business's member count (active or past due). The counts asked for in one tick of a request (a list of
 * businesses) are read together: one grouped statement over the index on (business_id, status).
 */
export function memberCount(ctx: Pick<ServiceContext, "db">, businessId: number): Promise<number> {
  let batch = memberCountBatches.get(ctx);
  if (!batch) {
    const ids: number[] = [];
    const counts = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      memberCountBatches.delete(ctx);
      const groups = await ctx.db.subscription.groupBy({
        by: ["businessId"],
        where: { businessId: { in: ids }, status: { in: [...MEMBER_STATUSES] } },
        _count: { _all: true },
      });
      return new Map(groups.map((g) => [g.businessId, g._count._all]));
    });
    batch = { ids, counts };
    memberCountBatches.set(ctx, batch);
  }
  batch.ids.push(businessId);
  return batch.counts.then((m) => m.get(businessId) ?? 0);
}
