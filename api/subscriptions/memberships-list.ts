/**
 * The memberships list of the admin area and partners (spec §2 memberships table): who may read which rows,
 * the status and search filters, newest first, one keyset statement per page.
 */
import type { ServiceContext } from "../context.ts";
import { Prisma, type SubscriptionStatus } from "../generated/prisma/client.ts";
import { businessesWhere } from "../auth/policy.ts";
import { MEMBER_STATUSES } from "../businesses/service.ts";
import { ValidationError } from "../shared/errors.ts";
import { searchTerm } from "../shared/validation.ts";

export type StatusFilter = "ANY" | "ACTIVE" | "PAST_DUE" | "CANCELED";

/**
 * Status filter of the memberships lists (spec §2: any, active, canceled; plus past due, issue 14). "active"
 * means a current member: ACTIVE and PAST_DUE (a failed renewal still being retried); "past due" only the
 * latter, the members whose card needs attention. Checkouts that never completed (INCOMPLETE) are not
 * memberships and are listed under none of them.
 */
export function statusWhere(status: StatusFilter | null | undefined): Prisma.SubscriptionWhereInput {
  switch (status) {
    case "ACTIVE":
      return { status: { in: [...MEMBER_STATUSES] } };
    case "PAST_DUE":
      return { status: "PAST_DUE" };
    case "CANCELED":
      return { status: "CANCELED" };
    default:
      return { status: { not: "INCOMPLETE" } };
  }
}


/** Search by member username, name or email, or by business name or slug (case-insensitive contains). */
export function searchWhere(search: string | null | undefined): Prisma.SubscriptionWhereInput {
  const term = searchTerm(search);
  if (!term) return {};
  const contains = { contains: term, mode: "insensitive" as const };
  return {
    OR: [
      { user: { username: contains } },
      { user: { name: contains } },
      { user: { email: contains } },
      { email: contains },
      { business: { name: contains } },
      { business: { slug: contains } },
    ],
  };
}

export interface MembershipFilter {
  search?: string | null;
  status?: StatusFilter | null;
  businessId?: number | null;
}

/** Memberships the actor may read (admin: all; staff and partner tokens: their businesses), filtered. */
export function membershipsWhere(ctx: ServiceContext, filter: MembershipFilter): Prisma.SubscriptionWhereInput {
  return {
    AND: [
      { business: businessesWhere(ctx, "readMemberships") },
      filter.businessId != null ? { businessId: filter.businessId } : {},
      statusWhere(filter.status),
      searchWhere(filter.search),
    ],
  };
}

/** Newest first in admin tables. */
export const membershipOrder: Prisma.SubscriptionOrderByWithRelationInput[] = [{ startedAt: "desc" }, { id: "desc" }];

/**
 * statusWhere in SQL, on `subscriptions s`. Enum literals, not text parameters: with `status::text = $1`
 * PostgreSQL cannot estimate the filter and may sort the whole table instead of walking the index.
 */
function statusSql(status: StatusFilter | null | undefined): Prisma.Sql {
  switch (status) {
    case "ACTIVE":
      return Prisma.raw(`s.status IN (${MEMBER_STATUSES.map((m) => `'${m}'`).join(", ")})`);
    case "PAST_DUE":
      return Prisma.sql`s.status = 'PAST_DUE'`;
    case "CANCELED":
      return Prisma.sql`s.status = 'CANCELED'`;
    default:
      return Prisma.sql`s.status <> 'INCOMPLETE'`;
  }
}

/**
 * A page of the memberships list in the Prisma cursor form the Relay connections use: `take` rows (negative:
 * the rows before the cursor, for `last`/`before`), starting after row `cursorId` when given (`skip` 1: the
 * cursor row itself is never repeated).
 */
export interface MembershipPage {
  take: number;
  skip?: number;
  cursorId?: number | null;
}

/**
 * The ids of one page of `membershipsWhere(ctx, filter)` in `membershipOrder` (newest first), in one keyset
 * statement: the same rows as that Prisma filter with a Prisma cursor, which joins users three times and
 * businesses twice (one join per relation filter) and compares with the cursor row through subqueries. Here
 * the search joins each table once and the cursor is one row comparison, so PostgreSQL walks the
 * (started_at DESC, id DESC) index from the cursor and stops after the page. Callers load the rows by id
 * (`inIdOrder`). Search is case-insensitive contains, as Prisma's (whose pattern keeps `%` and `_` as wildcards).
 */
export async function membershipPageIds(ctx: ServiceContext, filter: MembershipFilter, page: MembershipPage): Promise<number[]> {
  const rows = await membershipPage<{ id: number }>(ctx, filter, page, Prisma.sql`s.id`, false);
  return rows.map((r) => r.id);
}

/** A row of the admin memberships table (the REST list): the membership with its member and business. */
export interface MembershipListRow {
  id: number;
  providerSubscriptionId: string | null;
  status: SubscriptionStatus;
  startedAt: Date;
  canceledAt: Date | null;
  userId: number;
  user: { publicId: string; username: string };
  business: { slug: string; name: string };
}

/** One page of the memberships list with the table's columns, in one statement (see membershipPageIds). */
export async function membershipListRows(ctx: ServiceContext, filter: MembershipFilter, page: MembershipPage): Promise<MembershipListRow[]> {
  type Flat = Omit<MembershipListRow, "user" | "business"> & { publicId: string; username: string; slug: string; businessName: string };
  const rows = await membershipPage<Flat>(
    ctx,
    filter,
    page,
    Prisma.sql`s.id, s.provider_subscription_id AS "providerSubscriptionId", s.status::text AS status, s.started_at AS "startedAt",
      s.canceled_at AS "canceledAt", s.user_id AS "userId", u.public_id AS "publicId", u.username, b.slug, b.name AS "businessName"`,
    true,
  );
  return rows.map(({ publicId, username, slug, businessName, ...m }) => ({ ...m, user: { publicId, username }, business: { slug, name: businessName } }));
}

/** The keyset statement behind both: `columns` of the page's rows, joining users (u) and businesses (b) when searching or asked. */
async function membershipPage<T>(ctx: ServiceContext, filter: MembershipFilter, page: MembershipPage, columns: Prisma.Sql, joined: boolean): Promise<T[]> {
  if (page.take === 0) return [];
  const conditions = [statusSql(filter.status)];
  // Who may read what stays in the policy: its business filter, resolved to ids unless it allows every business.
  const readable = businessesWhere(ctx, "readMemberships");
  if (Object.keys(readable).length > 0) {
    const ids = "id" in readable && typeof readable.id === "number" ? [readable.id] : (await ctx.db.business.findMany({ where: readable, select: { id: true } })).map((b) => b.id);
    if (ids.length === 0) return [];
    conditions.push(Prisma.sql`s.business_id IN (${Prisma.join(ids)})`);
  }
  if (filter.businessId != null) conditions.push(Prisma.sql`s.business_id = ${filter.businessId}`);
  const term = searchTerm(filter.search);
  const joins = term || joined ? Prisma.sql`JOIN users u ON u.id = s.user_id JOIN businesses b ON b.id = s.business_id` : Prisma.empty;
  if (term) {
    const like = (column: Prisma.Sql) => Prisma.sql`${column} ILIKE ('%' || ${term} || '%')`;
    conditions.push(
      Prisma.sql`(${Prisma.join([like(Prisma.sql`u.username`), like(Prisma.sql`u.name`), like(Prisma.sql`u.email`), like(Prisma.sql`s.email`), like(Prisma.sql`b.name`), like(Prisma.sql`b.slug`)], " OR ")})`,
    );
  }
  const backward = page.take < 0;
  if (page.cursorId == null && page.skip) throw new ValidationError("Unsupported page", [{ path: "skip", message: "Only the cursor row can be skipped" }]);
  if (page.cursorId != null) {
    const cursor = Prisma.sql`(SELECT c.started_at, c.id FROM subscriptions c WHERE c.id = ${page.cursorId})`;
    const skip = page.skip ?? 0;
    if (skip > 1) throw new ValidationError("Unsupported page", [{ path: "skip", message: "At most the cursor row can be skipped" }]);
    const op = backward ? (skip ? Prisma.raw(">") : Prisma.raw(">=")) : skip ? Prisma.raw("<") : Prisma.raw("<=");
    conditions.push(Prisma.sql`(s.started_at, s.id) ${op} ${cursor}`);
  }
  const direction = Prisma.raw(backward ? "ASC" : "DESC");
  const rows = await ctx.db.$queryRaw<T[]>`
    SELECT ${columns} FROM subscriptions s ${joins}
     WHERE ${Prisma.join(conditions, " AND ")}
     ORDER BY s.started_at ${direction}, s.id ${direction}
     LIMIT ${Math.abs(page.take)}`;
  return backward ? rows.reverse() : rows;
}

/** Rows loaded by id, in the order of `ids` (a findMany by id returns them in any order). */
export function inIdOrder<T extends { id: number }>(ids: number[], rows: T[]): T[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
