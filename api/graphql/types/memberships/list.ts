/** Memberships and orders of businesses (spec §2 admin memberships table; partners): Business fields and Query.memberships. */
import { queryFromInfo } from "@pothos/plugin-prisma";
import { resolveCursorConnection } from "@pothos/plugin-relay";
import type { GraphQLResolveInfo } from "graphql";
import { builder } from "../../builder.ts";
import { CURSOR_DECODER } from "../../cursors.ts";
import type { ServiceContext } from "../../../context.ts";
import type { Prisma, Subscription } from "../../../generated/prisma/client.ts";
import { ValidationError } from "../../../shared/errors.ts";
import * as membershipsList from "../../../subscriptions/memberships-list.ts";
import { MembershipNode, MembershipStatusFilterEnum } from "./membership.ts";

const MembershipSortEnum = builder.enumType("MembershipSort", {
  description: "The memberships list's order; ties by id. Memberships without a next charge (canceled) come last in either NEXT_CHARGE order.",
  values: {
    STARTED_DESC: { description: "Newest first (the default)." },
    STARTED_ASC: { description: "Oldest first." },
    NAME_ASC: { description: "By the member's full name (else username), A to Z, case-insensitive." },
    NAME_DESC: { description: "By the member's full name (else username), Z to A." },
    NEXT_CHARGE_ASC: { description: "Soonest next charge first." },
    NEXT_CHARGE_DESC: { description: "Latest next charge first." },
  } as const satisfies Record<membershipsList.MembershipSort, { description: string }>,
});

/** A membership's cursor: its place in the list's sort (membershipsList.MembershipKey: sort, key value, id), opaque to clients. */
const CURSOR_PREFIX = "Membership:";
export const membershipCursor = (k: membershipsList.MembershipKey) => Buffer.from(CURSOR_PREFIX + JSON.stringify([k.sort, k.value, k.id])).toString("base64url");

/** The key a cursor carries, or a ValidationError at `arg` when it is not one of the list's cursors in the order `sort`. */
function keyOfCursor(cursor: string | null | undefined, arg: string, sort: unknown): membershipsList.MembershipKey | null {
  if (cursor == null) return null;
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  let parts: unknown;
  try {
    parts = text.startsWith(CURSOR_PREFIX) ? JSON.parse(text.slice(CURSOR_PREFIX.length)) : null;
  } catch {
    parts = null;
  }
  const key = Array.isArray(parts) && parts.length === 3 ? membershipsList.membershipKey(parts[0], parts[1], parts[2]) : null;
  if (!key) throw new ValidationError("Not a cursor of this list.", [{ path: arg, message: "Not a cursor of this list." }]);
  if (key.sort !== (sort ?? "STARTED_DESC")) {
    const message = `Not a cursor of this order: a cursor of ${key.sort}, not ${String(sort ?? "STARTED_DESC")}.`;
    throw new ValidationError(message, [{ path: arg, message }]);
  }
  return key;
}

type ConnectionArgs = { first?: number | null; last?: number | null; after?: string | null; before?: string | null; sort?: membershipsList.MembershipSort | null };

/**
 * A page of a memberships connection: the rows the query's nodes select, read by `read` (the service, with the
 * list's filter) in one keyset statement, each edge's cursor carrying the row's key. As the other connections,
 * `after` with `last` and `before` with `first` are refused.
 */
async function membershipConnection(
  ctx: ServiceContext,
  info: GraphQLResolveInfo,
  args: ConnectionArgs,
  read: (page: membershipsList.MembershipPage) => Promise<membershipsList.MembershipRows<membershipsList.MembershipPage>>,
) {
  for (const [cursor, size] of [["after", "last"], ["before", "first"]] as const) {
    if (args[cursor] != null && args[size] != null) {
      throw new ValidationError(`"${cursor}" with "${size}" is not supported.`, [{ path: cursor, message: `Page with "${cursor}" and "first", or "before" and "last".` }]);
    }
  }
  const after = keyOfCursor(args.after, "after", args.sort);
  const before = keyOfCursor(args.before, "before", args.sort);
  const query = (await queryFromInfo({ context: ctx, info, path: ["edges", "node"], awaitSelections: true })) as { select?: Prisma.SubscriptionSelect; include?: Prisma.SubscriptionInclude };
  const keys = new Map<object, membershipsList.MembershipKey>();
  return resolveCursorConnection<Promise<Subscription[]>>(
    { args, toCursor: (row) => membershipCursor(keys.get(row)!), defaultSize: membershipsList.PAGE_SIZE.default, maxSize: membershipsList.PAGE_SIZE.max },
    async ({ limit, inverted }) => {
      const page = await read({ ...query, take: limit, after, before, reverse: inverted });
      page.rows.forEach((row, i) => keys.set(row, page.keys[i]));
      return page.rows;
    },
  );
}

/** Cursors are checked before the operation runs (api/graphql/cursors.ts), in the order the field is asked for. */
const cursorArgs = { extensions: { [CURSOR_DECODER]: (cursor: string, path: string, args: Record<string, unknown>) => keyOfCursor(cursor, path, args.sort) } };

// Both memberships lists pass the fields their nodes select to the service: one keyset statement returns the
// page's rows with them and with each row's key, which its cursor carries.
builder.prismaObjectFields("Business", (t) => ({
  memberships: t.connection({
    type: MembershipNode,
    ...cursorArgs,
    description: "Memberships of this business (readMemberships: staff, administrators, the business's partner tokens).",
    args: {
      search: t.arg.string(),
      status: t.arg({ type: MembershipStatusFilterEnum, defaultValue: "ANY" }),
      sort: t.arg({ type: MembershipSortEnum, defaultValue: "STARTED_DESC" }),
    },
    resolve: (business, args, ctx, info) => membershipConnection(ctx, info, args, (page) => membershipsList.listOfBusiness(ctx, business.id, args, page)),
  }),
  orders: t.relatedConnection("orders", {
    cursor: "id",
    defaultSize: 50,
    maxSize: 200,
    description: "Orders of this business, newest first (readOrders: staff, administrators, partner tokens with orders:read).",
    authScopes: (b) => ({ business: { id: b.id, permission: "readOrders" } }),
    query: () => ({ orderBy: [{ createdAt: "desc" }, { id: "desc" }] }),
  }),
}));

builder.queryFields((t) => ({
  memberships: t.connection({
    type: MembershipNode,
    ...cursorArgs,
    description:
      "Memberships the viewer may read: every business for administrators, otherwise the businesses where they hold readMemberships (a partner token: its business).",
    args: {
      search: t.arg.string({ description: "Username, member name or email, business name or slug." }),
      status: t.arg({ type: MembershipStatusFilterEnum, defaultValue: "ANY" }),
      businessId: t.arg.int({ description: "Numeric business id (databaseId)." }),
      sort: t.arg({ type: MembershipSortEnum, defaultValue: "STARTED_DESC" }),
    },
    resolve: (_p, args, ctx, info) => membershipConnection(ctx, info, args, (page) => membershipsList.list(ctx, args, page)),
  }),
}));
