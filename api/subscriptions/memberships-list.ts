/**
 * The memberships list of the admin area and partners (spec §2 memberships table), for GraphQL (Query.memberships,
 * Business.memberships) and REST (/admin/memberships, /admin/businesses/{id}/memberships, /my/memberships): who
 * may read which rows, the status and search filters, the order (newest first, or by start, member name or next
 * charge), the page, in one keyset statement that returns the page's rows with the columns the caller selects
 * (api/selection-sql: membership columns and the joined member, business and plan; the rest in one Prisma read by id).
 */
import type { ServiceContext } from "../context.ts";
import { Prisma } from "../generated/prisma/client.ts";
import { readRows } from "../db.ts";
import { SubscriptionStatus } from "../generated/prisma/enums.ts";
import { assertCan, businessesWhere, can, requireUser } from "../auth/policy.ts";
import { MEMBER_STATUSES } from "../rules/member.ts";
import { ForbiddenError, NotFoundError, UnauthenticatedError, ValidationError } from "../shared/errors.ts";
import { searchTerm } from "../shared/validation.ts";
import { column, compileJoined, type Joinable, joinSql, readJoined } from "../selection-sql/index.ts";
import { nextChargeDateSql } from "./next-charge.ts";

type MembershipSelection = { select?: Prisma.SubscriptionSelect | null; include?: Prisma.SubscriptionInclude | null };

export type StatusFilter = "ANY" | "ACTIVE" | "PAST_DUE" | "CANCELED";

/**
 * Status filter of the memberships lists (spec §2: any, active, canceled; plus past due). "active"
 * means a current member: ACTIVE and PAST_DUE (a failed renewal still being retried); "past due" only the
 * latter, the members whose card needs attention. Checkouts that never completed (INCOMPLETE) are not
 * memberships and are listed under none of them. (The member portal's own list uses the Prisma form.)
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

/** The statuses a filter admits, from statusWhere: for statements that name them as a list. */
export function statusesOf(status: StatusFilter | null | undefined): SubscriptionStatus[] {
  const where = statusWhere(status).status as { in?: readonly string[]; not?: string } | string;
  return Object.values(SubscriptionStatus).filter((s) => (typeof where === "string" ? s === where : where.in ? where.in.includes(s) : s !== where.not));
}

/** The same filter in SQL, on `subscriptions s`, from statusWhere. Enum literals, not text parameters: with
 * `status::text = $1` PostgreSQL cannot estimate the filter and may sort the whole table instead of walking the index. */
function statusSql(status: StatusFilter | null | undefined): Prisma.Sql {
  const where = statusWhere(status).status as { in?: readonly string[]; not?: string } | string;
  if (typeof where === "string") return Prisma.raw(`s.status = '${where}'`);
  if (where.in) return Prisma.raw(`s.status IN (${where.in.map((m) => `'${m}'`).join(", ")})`);
  return Prisma.raw(`s.status <> '${where.not}'`);
}

export interface MembershipFilter {
  /** Member username, name or email, or business name or slug (case-insensitive contains, as Prisma's: `%` and `_` are wildcards). */
  search?: string | null;
  status?: StatusFilter | null;
  /** Only this business's memberships; none when the reader may not read them (the admin table's business filter). */
  businessId?: number | null;
  /** The order (not a filter): newest first when left out. */
  sort?: MembershipSort | null;
}

/**
 * The orders of the admin table: by start (newest first, the default, or oldest first), by the member's name (their
 * full name, else their username; case-insensitive) and by the next charge date (memberships without one, canceled
 * ones, last either way). Ties are broken by id in the same direction, so a cursor is one row comparison.
 */
export type MembershipSort = "STARTED_DESC" | "STARTED_ASC" | "NAME_ASC" | "NAME_DESC" | "NEXT_CHARGE_ASC" | "NEXT_CHARGE_DESC";

/** Newest first in admin tables (also the metrics' recent memberships). The keyset statement orders by the same columns. */
export const membershipOrder = [{ startedAt: "desc" }, { id: "desc" }] as const satisfies Prisma.SubscriptionOrderByWithRelationInput[];
/** Its columns, for the keyset statement (one direction for all, so the cursor is one row comparison). */
const orderColumns = membershipOrder.map((o) => column(Object.keys(o)[0]));

/** Where a membership without a next charge sorts: after every date, whichever the direction. */
const NO_CHARGE = { ASC: Prisma.sql`DATE '9999-12-31'`, DESC: Prisma.sql`DATE '0001-01-01'` } as const;

/**
 * A sort's key on the membership `s` (and, for the name, its member `u`), id last, and its direction. `now` is the
 * clock's: the next charge is counted from the business's today.
 */
function sortOf(sort: MembershipSort | null | undefined, now: Date): { key: (s: string, u: string) => Prisma.Sql[]; direction: "ASC" | "DESC"; byName: boolean } {
  const direction = sort?.endsWith("_ASC") ? "ASC" : "DESC";
  const id = (s: string) => Prisma.raw(`${s}.id`);
  switch (sort ?? "STARTED_DESC") {
    case "NAME_ASC":
    case "NAME_DESC":
      return { key: (s, u) => [Prisma.raw(`lower(COALESCE(NULLIF(btrim(${u}.name), ''), ${u}.username))`), id(s)], direction, byName: true };
    case "NEXT_CHARGE_ASC":
    case "NEXT_CHARGE_DESC":
      return { key: (s) => [Prisma.sql`COALESCE(${nextChargeDateSql(s, now)}, ${NO_CHARGE[direction]})`, id(s)], direction, byName: false };
    default:
      return { key: (s) => orderColumns.map((c) => Prisma.raw(`${s}.${c}`)), direction, byName: false };
  }
}

/** The GraphQL connections' page size (Relay `first`/`last`). */
export const PAGE_SIZE = { default: 50, max: 200 } as const;
/** A list without paging (the REST routes) answers the first LIST_LIMIT rows. */
const LIST_LIMIT = 500;

/**
 * A page in the Prisma form the Pothos connections pass (their `query`): `take` rows (negative: the rows before
 * the cursor, for `last`/`before`; default LIST_LIMIT), after the `cursor` row (`skip` 1: the cursor row itself
 * is not repeated), with the `select` or `include` of the fields asked for.
 */
export type MembershipPage = Pick<Prisma.SubscriptionFindManyArgs, "take" | "skip"> & { cursor?: { id?: number } } & MembershipSelection;

/** The rows as Prisma types them for the page's selection. */
type Rows<P> = P extends { select: infer S extends Prisma.SubscriptionSelect }
  ? Prisma.SubscriptionGetPayload<{ select: S }>[]
  : P extends { include: infer I extends Prisma.SubscriptionInclude }
    ? Prisma.SubscriptionGetPayload<{ include: I }>[]
    : Prisma.SubscriptionGetPayload<true>[];

/**
 * The memberships the reader may read (administrators: every business; staff: the businesses where they hold
 * readMemberships; a partner token: its business), filtered, newest first, one page. Anonymous: refused.
 */
export async function list<P extends MembershipPage>(ctx: ServiceContext, filter: MembershipFilter, page: P): Promise<Rows<P>> {
  if (ctx.actor.kind === "anonymous") throw new UnauthenticatedError();
  const conditions = [statusSql(filter.status)];
  if (filter.businessId != null) {
    // One business: the policy's check for it (the role is cached for the nodes' own checks).
    if (!(await can(ctx, filter.businessId, "readMemberships"))) return [] as unknown as Rows<P>;
    conditions.push(Prisma.sql`s.business_id = ${filter.businessId}`);
  } else {
    const readable = await readableSql(ctx);
    if (readable) conditions.push(readable);
  }
  return (await membershipPage(ctx, filter, conditions, page)) as Rows<P>;
}

/**
 * Refuses a reader who would get no rows for want of a role, where the list itself answers empty: the
 * filtered business without readMemberships there, or no readable business at all (the memberships CSV).
 */
export async function assertMayList(ctx: ServiceContext, filter: MembershipFilter): Promise<void> {
  if (ctx.actor.kind === "anonymous") throw new UnauthenticatedError();
  if (filter.businessId != null) return assertCan(ctx, filter.businessId, "readMemberships");
  const ids = await readableBusinessIds(ctx);
  if (ids !== null && ids.length === 0) throw new ForbiddenError();
}

/** The memberships of one business (its own list): refused unless the reader holds readMemberships there. */
export async function listOfBusiness<P extends MembershipPage>(ctx: ServiceContext, businessId: number, filter: Omit<MembershipFilter, "businessId">, page: P): Promise<Rows<P>> {
  await assertCan(ctx, businessId, "readMemberships");
  return list(ctx, { ...filter, businessId }, page);
}

/** The memberships of the businesses the logged-in user may read (/my/memberships): partner tokens are refused. */
export async function listForUser<P extends MembershipPage>(ctx: ServiceContext, filter: Omit<MembershipFilter, "businessId">, page: P): Promise<Rows<P>> {
  requireUser(ctx);
  return list(ctx, filter, page);
}

/** One membership the reader may read, with the selected fields (an action's answer row). */
export async function byId<S extends Prisma.SubscriptionSelect>(ctx: ServiceContext, id: number, select: S): Promise<Prisma.SubscriptionGetPayload<{ select: S }>> {
  const readable = await readableSql(ctx);
  const [row] = await membershipPage(ctx, {}, [Prisma.sql`s.id = ${id}`, ...(readable ? [readable] : [])], { take: 1, select });
  if (!row) throw new NotFoundError("Subscription");
  return row as Prisma.SubscriptionGetPayload<{ select: S }>;
}

/** The policy's readable businesses as a condition on their ids (null: every business), so the statement filters on the index. */
async function readableSql(ctx: ServiceContext): Promise<Prisma.Sql | null> {
  const ids = await readableBusinessIds(ctx);
  if (ids === null) return null;
  return ids.length > 0 ? Prisma.sql`s.business_id IN (${Prisma.join(ids)})` : Prisma.sql`FALSE`;
}

/** The ids of the businesses whose memberships the reader may read (null: every business). */
async function readableBusinessIds(ctx: ServiceContext): Promise<number[] | null> {
  const readable = businessesWhere(ctx, "readMemberships");
  if (Object.keys(readable).length === 0) return null;
  return "id" in readable && typeof readable.id === "number" ? [readable.id] : (await ctx.db.business.findMany({ where: readable, select: { id: true } })).map((b) => b.id);
}

/**
 * The keyset statement: the page's rows in membershipOrder with the selected columns, joining users (u) and
 * businesses (b) when searching or selected, plans (pl) when selected. The search joins each table once and the
 * cursor is one row comparison, so PostgreSQL walks the (started_at DESC, id DESC) index from the cursor and
 * stops after the page. Relations the statement does not carry (lists, deeper levels) load in one more Prisma
 * read by id.
 */
/** The to-one relations the keyset statement joins (on `subscriptions s`), with their aliases: the search's own, u and b, and pl. */
const JOINABLE: Joinable = { user: "u", business: "b", plan: "pl" };

async function membershipPage(ctx: ServiceContext, filter: MembershipFilter, conditions: Prisma.Sql[], page: MembershipPage): Promise<unknown[]> {
  const take = page.take ?? LIST_LIMIT;
  if (take === 0) return [];
  const selection = compileJoined("Subscription", "s", page, JOINABLE);
  const term = searchTerm(filter.search);
  const joins = new Set(selection.joins);
  if (term) {
    joins.add("user").add("business");
    // The pattern is built here, once: the same text a concatenation in SQL would build for every row compared.
    const pattern = `%${term}%`;
    const like = (column: string) => Prisma.sql`${Prisma.raw(column)} ILIKE ${pattern}`;
    conditions.push(Prisma.sql`(${Prisma.join(["u.username", "u.name", "u.email", "s.email", "b.name", "b.slug"].map(like), " OR ")})`);
  }
  const backward = take < 0;
  const cursorId = page.cursor?.id;
  const skip = page.skip ?? 0;
  if (skip > (cursorId == null ? 0 : 1)) throw new ValidationError("Unsupported page", [{ path: "skip", message: "Only the cursor row can be skipped" }]);
  const sort = sortOf(filter.sort, ctx.clock.now());
  if (sort.byName) joins.add("user");
  const ascending = (sort.direction === "ASC") !== backward;
  if (cursorId != null) {
    // The rows after the cursor's in the sort's direction (before it, backward); its key read from its own row,
    // so a cursor row that has since left the filter still places the page.
    const op = (ascending ? ">" : "<") + (skip ? "" : "=");
    const cursorRow = sort.byName ? Prisma.sql`subscriptions c JOIN users cu ON cu.id = c.user_id` : Prisma.sql`subscriptions c`;
    conditions.push(Prisma.sql`(${Prisma.join(sort.key("s", "u"))}) ${Prisma.raw(op)} (SELECT ${Prisma.join(sort.key("c", "cu"))} FROM ${cursorRow} WHERE c.id = ${cursorId})`);
  }
  const direction = Prisma.raw(ascending ? "ASC" : "DESC");
  const statement = Prisma.sql`
    SELECT ${Prisma.raw(selection.columns.join(", "))} FROM subscriptions s ${Prisma.raw(joinSql("Subscription", "s", JOINABLE, joins))}
     WHERE ${Prisma.join(conditions, " AND ")}
     ORDER BY ${Prisma.join(sort.key("s", "u").map((term) => Prisma.sql`${term} ${direction}`))}
     LIMIT ${Math.abs(take)}`;
  const raw = await readRows<Record<string, unknown>>(ctx.db, statement.text, statement.values);
  return readJoined(ctx, "Subscription", selection, backward ? raw.reverse() : raw);
}
