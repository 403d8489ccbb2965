/**
 * The memberships list of the admin area and partners (spec §2 memberships table), for GraphQL (Query.memberships,
 * Business.memberships) and REST (/admin/memberships, /admin/businesses/{id}/memberships, /my/memberships): who
 * may read which rows, the status and search filters, the order (newest first, or by start, member name or next
 * charge), the page, in one keyset statement that returns the page's rows with the columns the caller selects
 * (api/selection-sql: membership columns and the joined member, business and plan; the rest in one Prisma read by id).
 */
import type { ServiceContext } from "../context.ts";
import { Prisma } from "../generated/prisma/client.ts";
import { readRows, timestampOf } from "../db.ts";
import { SubscriptionStatus } from "../generated/prisma/enums.ts";
import { assertCan, businessesWhere, can, requireUser } from "../auth/policy.ts";
import { MEMBER_STATUSES } from "../rules/member.ts";
import { ForbiddenError, NotFoundError, UnauthenticatedError, ValidationError } from "../shared/errors.ts";
import { searchTerm } from "../shared/validation.ts";
import { compileJoined, type Joinable, joinSql, readJoined } from "../selection-sql/index.ts";
import { nextChargeDateSql } from "./next-charge.ts";
import { nextBoxSkippedSql } from "./skips.ts";

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

/**
 * The list's status filter: a status filter, or one of the owners' two views of current members (GraphQL and the web
 * list only; REST's `status` keeps the statuses): PAUSED, ACTIVE memberships whose next box's month is skipped (the
 * rows that say "Paused until …", Membership.pausedThrough); ENDING, current members (ACTIVE or PAST_DUE) with a
 * cancel scheduled (`cancel_after_period`: "Ends after …").
 */
export type ListStatusFilter = StatusFilter | "PAUSED" | "ENDING";

/**
 * The filter in SQL, on `subscriptions s` at `now`: the statuses from statusWhere, PAUSED and ENDING as above; with
 * the joins its condition needs (PAUSED: the business's calendar). Enum literals, not text parameters: with
 * `status::text = $1` PostgreSQL cannot estimate the filter and may sort the whole table instead of walking the index.
 */
function statusSql(status: ListStatusFilter | null | undefined, now: Date): { joins: Prisma.Sql; where: Prisma.Sql } {
  if (status === "PAUSED") {
    const { joins, skipped } = nextBoxSkippedSql("s", now);
    return { joins, where: Prisma.sql`s.status = 'ACTIVE' AND ${skipped}` };
  }
  if (status === "ENDING") return { joins: Prisma.empty, where: Prisma.sql`${statusSql("ACTIVE", now).where} AND s.cancel_after_period IS NOT NULL` };
  const where = statusWhere(status).status as { in?: readonly string[]; not?: string } | string;
  if (typeof where === "string") return { joins: Prisma.empty, where: Prisma.raw(`s.status = '${where}'`) };
  if (where.in) return { joins: Prisma.empty, where: Prisma.raw(`s.status IN (${where.in.map((m) => `'${m}'`).join(", ")})`) };
  return { joins: Prisma.empty, where: Prisma.raw(`s.status <> '${where.not}'`) };
}

export interface MembershipFilter {
  /** Member username, name or email, or business name or slug (case-insensitive contains, as Prisma's: `%` and `_` are wildcards). */
  search?: string | null;
  status?: ListStatusFilter | null;
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
const SORTS: readonly MembershipSort[] = ["STARTED_DESC", "STARTED_ASC", "NAME_ASC", "NAME_DESC", "NEXT_CHARGE_ASC", "NEXT_CHARGE_DESC"];

/** Newest first in admin tables (also the metrics' recent memberships). The keyset statement orders by the same columns. */
export const membershipOrder = [{ startedAt: "desc" }, { id: "desc" }] as const satisfies Prisma.SubscriptionOrderByWithRelationInput[];

/**
 * A row's place in a sort, which a cursor carries (keyset): the sort, the row's value of its key (the start as an
 * ISO instant, the lowercased name, the next charge as an ISO date; null: no next charge) and its id, which breaks
 * ties. A page after (or before) a key starts where that row stood, whatever the row became since.
 */
export interface MembershipKey {
  sort: MembershipSort;
  value: string | null;
  id: number;
}

/** The largest row id (PostgreSQL `integer`) and the longest name a key may hold (users' names and usernames are shorter). */
const MAX_KEY_ID = 2 ** 31 - 1;
const MAX_NAME_KEY = 1000;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A membership's key from a cursor's parts, or null when they are not one of `sort`'s keys (so no value a statement cannot cast gets through). */
export function membershipKey(sort: unknown, value: unknown, id: unknown): MembershipKey | null {
  if (!SORTS.includes(sort as MembershipSort) || !Number.isSafeInteger(id) || (id as number) < 1 || (id as number) > MAX_KEY_ID) return null;
  const key = { sort: sort as MembershipSort, value: value as string | null, id: id as number };
  if (value === null) return sortOf(key.sort).nullable ? key : null;
  if (typeof value !== "string") return null;
  switch (sortOf(key.sort).kind) {
    case "started":
      return isIsoInstant(value) ? key : null;
    case "name":
      return value.length <= MAX_NAME_KEY && !value.includes("\0") ? key : null;
    case "nextCharge":
      return ISO_DATE.test(value) && isIsoInstant(`${value}T00:00:00.000Z`) && !(Object.values(NO_CHARGE_DAY) as string[]).includes(value) ? key : null;
  }
}

/** An instant as toISOString writes it (a real day and time, between years 0 and 9999). */
function isIsoInstant(value: string): boolean {
  const ms = Date.parse(value);
  return /^\d{4}-/.test(value) && Number.isFinite(ms) && new Date(ms).toISOString() === value;
}

/** Where a membership without a next charge sorts: after every date, whichever the direction. */
const NO_CHARGE_DAY = { ASC: "9999-12-31", DESC: "0001-01-01" } as const;

type SortKind = "started" | "name" | "nextCharge";

/**
 * A sort's key: what kind it is, its direction, and its SQL on the membership `s` (and, for the name, its member
 * `u`): the value the rows are ordered by (id after it) with the joins it needs; a cursor's value as the same SQL
 * type. `now` is the clock's: the next charge is counted from the business's today.
 */
function sortOf(sort: MembershipSort) {
  const direction: "ASC" | "DESC" = sort.endsWith("_ASC") ? "ASC" : "DESC";
  const kind: SortKind = sort.startsWith("NAME") ? "name" : sort.startsWith("NEXT_CHARGE") ? "nextCharge" : "started";
  return {
    kind,
    direction,
    /** Only the next charge has rows without a value (canceled memberships). */
    nullable: kind === "nextCharge",
    key: (s: string, u: string, now: Date): { joins: Prisma.Sql; key: Prisma.Sql } => {
      if (kind === "name") return { joins: Prisma.empty, key: Prisma.raw(`lower(COALESCE(NULLIF(btrim(${u}.name), ''), ${u}.username))`) };
      if (kind === "started") return { joins: Prisma.empty, key: Prisma.raw(`${s}.started_at`) };
      // The date as ISO text (drivers read dates in their own time zones), in code point order: the dates' order.
      const nextCharge = nextChargeDateSql(s, now);
      return { joins: nextCharge.joins, key: Prisma.sql`to_char(COALESCE(${nextCharge.date}, DATE '${Prisma.raw(NO_CHARGE_DAY[direction])}'), 'YYYY-MM-DD') COLLATE "C"` };
    },
    /** A key's value as the statement compares it. */
    param: (value: string | null): Prisma.Sql =>
      kind === "name" ? Prisma.sql`${value}::text` : kind === "nextCharge" ? Prisma.sql`${value ?? NO_CHARGE_DAY[direction]}::text` : Prisma.sql`${value}::timestamp`,
    /** The key's value of a row, from the column the statement selects (the start: a Date through Prisma, text through the direct reads). */
    read: (raw: unknown): string | null => {
      if (kind === "started") return timestampOf(raw as string | Date).toISOString();
      return kind === "nextCharge" && raw === NO_CHARGE_DAY[direction] ? null : (raw as string);
    },
  };
}

/** The GraphQL connections' page size (Relay `first`/`last`). */
export const PAGE_SIZE = { default: 50, max: 200 } as const;
/** A list without paging (the REST routes) answers the first LIST_LIMIT rows. */
const LIST_LIMIT = 500;

/**
 * A page: `take` rows (default LIST_LIMIT) after the key `after` and before the key `before` (both exclusive; keys
 * of the list's sort), read backward (the rows nearest `before` first, for Relay's `last`) when `reverse`; with
 * the `select` or `include` of the fields asked for.
 */
export type MembershipPage = { take?: number; after?: MembershipKey | null; before?: MembershipKey | null; reverse?: boolean } & MembershipSelection;

/** The rows as Prisma types them for the page's selection. */
type Rows<P> = P extends { select: infer S extends Prisma.SubscriptionSelect }
  ? Prisma.SubscriptionGetPayload<{ select: S }>[]
  : P extends { include: infer I extends Prisma.SubscriptionInclude }
    ? Prisma.SubscriptionGetPayload<{ include: I }>[]
    : Prisma.SubscriptionGetPayload<true>[];

/** A page's rows, in the order read, and each row's key (its cursor's), at the same index. */
export interface MembershipRows<P> {
  rows: Rows<P>;
  keys: MembershipKey[];
}

/**
 * The memberships the reader may read (administrators: every business; staff: the businesses where they hold
 * readMemberships; a partner token: its business), filtered, in the filter's sort, one page. Anonymous: refused.
 */
export async function list<P extends MembershipPage>(ctx: ServiceContext, filter: MembershipFilter, page: P): Promise<MembershipRows<P>> {
  if (ctx.actor.kind === "anonymous") throw new UnauthenticatedError();
  const status = statusSql(filter.status, ctx.clock.now());
  const conditions = [status.where];
  if (filter.businessId != null) {
    // One business: the policy's check for it (the role is cached for the nodes' own checks).
    if (!(await can(ctx, filter.businessId, "readMemberships"))) return { rows: [] as unknown as Rows<P>, keys: [] };
    conditions.push(Prisma.sql`s.business_id = ${filter.businessId}`);
  } else {
    const readable = await readableSql(ctx);
    if (readable) conditions.push(readable);
  }
  return (await membershipPage(ctx, filter, conditions, page, status.joins)) as MembershipRows<P>;
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
export async function listOfBusiness<P extends MembershipPage>(
  ctx: ServiceContext,
  businessId: number,
  filter: Omit<MembershipFilter, "businessId">,
  page: P,
): Promise<MembershipRows<P>> {
  await assertCan(ctx, businessId, "readMemberships");
  return list(ctx, { ...filter, businessId }, page);
}

/** The memberships of the businesses the logged-in user may read (/my/memberships): partner tokens are refused. */
export async function listForUser<P extends MembershipPage>(ctx: ServiceContext, filter: Omit<MembershipFilter, "businessId">, page: P): Promise<MembershipRows<P>> {
  requireUser(ctx);
  return list(ctx, filter, page);
}

/** One membership the reader may read, with the selected fields (an action's answer row). */
export async function byId<S extends Prisma.SubscriptionSelect>(ctx: ServiceContext, id: number, select: S): Promise<Prisma.SubscriptionGetPayload<{ select: S }>> {
  const readable = await readableSql(ctx);
  const { rows } = await membershipPage(ctx, {}, [Prisma.sql`s.id = ${id}`, ...(readable ? [readable] : [])], { take: 1, select });
  if (!rows[0]) throw new NotFoundError("Subscription");
  return rows[0] as Prisma.SubscriptionGetPayload<{ select: S }>;
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

/** The to-one relations the keyset statement joins (on `subscriptions s`), with their aliases: the search's own, u and b, and pl. */
const JOINABLE: Joinable = { user: "u", business: "b", plan: "pl" };

/**
 * The keyset statement: the page's rows in the sort with the selected columns and the sort's key, joining users (u)
 * and businesses (b) when searching or selected (users also for the name sort), plans (pl) when selected. The
 * search joins each table once and a cursor is one row comparison with the key it carries, so newest first
 * PostgreSQL walks the (started_at DESC, id DESC) index from the cursor and stops after the page. Relations the
 * statement does not carry (lists, deeper levels) load in one more Prisma read by id. `filterJoins`: what the status
 * filter's conditions need (statusSql).
 */
async function membershipPage(
  ctx: ServiceContext,
  filter: MembershipFilter,
  conditions: Prisma.Sql[],
  page: MembershipPage,
  filterJoins: Prisma.Sql = Prisma.empty,
): Promise<{ rows: unknown[]; keys: MembershipKey[] }> {
  const take = page.take ?? LIST_LIMIT;
  if (take <= 0) return { rows: [], keys: [] };
  const sortName = filter.sort ?? "STARTED_DESC";
  const sort = sortOf(sortName);
  const { select, include } = page;
  const selection = compileJoined("Subscription", "s", { select, include }, JOINABLE);
  const term = searchTerm(filter.search);
  const joins = new Set(selection.joins);
  if (term) {
    joins.add("user").add("business");
    // The pattern is built here, once: the same text a concatenation in SQL would build for every row compared.
    const pattern = `%${term}%`;
    const like = (column: string) => Prisma.sql`${Prisma.raw(column)} ILIKE ${pattern}`;
    conditions.push(Prisma.sql`(${Prisma.join(["u.username", "u.name", "u.email", "s.email", "b.name", "b.slug"].map(like), " OR ")})`);
  }
  if (sort.kind === "name") joins.add("user");
  const { joins: keyJoins, key } = sort.key("s", "u", ctx.clock.now());
  // Rows after a key come later in the sort's own direction: a greater key ascending, a smaller one descending.
  const later = sort.direction === "ASC" ? ">" : "<";
  const earlier = sort.direction === "ASC" ? "<" : ">";
  for (const [bound, op] of [["after", later], ["before", earlier]] as const) {
    const cursor = page[bound];
    if (!cursor) continue;
    if (cursor.sort !== sortName) throw new ValidationError("Not a cursor of this order.", [{ path: bound, message: `A cursor of the ${cursor.sort} order, not ${sortName}.` }]);
    conditions.push(Prisma.sql`(${key}, s.id) ${Prisma.raw(op)} (${sort.param(cursor.value)}, ${cursor.id}::int)`);
  }
  const direction = Prisma.raw((sort.direction === "ASC") !== !!page.reverse ? "ASC" : "DESC");
  // The key selected as it is ordered by (the same expression, so computed once a row).
  const statement = Prisma.sql`
    SELECT ${Prisma.raw(selection.columns.join(", "))}, ${key} AS "_key"
      FROM subscriptions s ${Prisma.raw(joinSql("Subscription", "s", JOINABLE, joins))} ${keyJoins} ${filterJoins}
     WHERE ${Prisma.join(conditions, " AND ")}
     ORDER BY ${key} ${direction}, s.id ${direction}
     LIMIT ${take}`;
  const raw = await readRows<Record<string, unknown>>(ctx.db, statement.text, statement.values);
  const keys = raw.map((r) => ({ sort: sortName, value: sort.read(r._key), id: r._id as number }));
  return { rows: await readJoined(ctx, "Subscription", selection, raw), keys };
}
