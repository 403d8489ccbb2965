import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSession } from "../../api/auth/sessions.ts";
import type { Actor, ServiceContext } from "../../api/context.ts";
import type { Prisma } from "../../api/generated/prisma/client.ts";
import { businessesWhere } from "../../api/auth/policy.ts";
import { searchTerm } from "../../api/shared/validation.ts";
import {
  byId,
  list,
  listForUser,
  listOfBusiness,
  membershipOrder,
  statusWhere,
  type MembershipFilter,
  type MembershipKey,
  type MembershipSort,
  type StatusFilter,
} from "../../api/subscriptions/memberships-list.ts";
import { nextChargeOf } from "../../api/subscriptions/next-charge.ts";
import { column as columnName } from "../../api/selection-sql/index.ts";
import { membershipRowSelect } from "../../rest-compat/rows.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories } from "../support/factories.ts";

/**
 * The memberships list (memberships-list.ts `list`) runs as one keyset statement instead of
 * Prisma's relation filters and cursor. It must return exactly the rows, in exactly the order and with exactly
 * the fields, that the Prisma filter below (the rule written as Prisma would: membershipsWhere + membershipOrder +
 * cursor) returns, for every filter, page, selection and reader; and the GraphQL connections keep their Relay
 * semantics (first/after forward, last/before backward, page info). The Paused and Ending filters, which Prisma
 * cannot write, are held to their rules in memberships-list-pause.test.ts.
 */

let t: TestApp;
let admin: Actor;
let owner: Actor;
let partner: Actor;
let member: Actor;
let acmeId = 0;
const all: number[] = [];

/** The list's rule in Prisma's words: the reference the keyset statement is compared with (the statuses alone: Paused and Ending are in memberships-list-pause.test.ts). */
function membershipsWhere(ctx: ServiceContext, filter: MembershipFilter & { status?: StatusFilter | null }): Prisma.SubscriptionWhereInput {
  const term = searchTerm(filter.search);
  const contains = { contains: term ?? "", mode: "insensitive" as const };
  return {
    AND: [
      { business: businessesWhere(ctx, "readMemberships") },
      filter.businessId != null ? { businessId: filter.businessId } : {},
      statusWhere(filter.status),
      term
        ? { OR: [{ user: { username: contains } }, { user: { name: contains } }, { user: { email: contains } }, { email: contains }, { business: { name: contains } }, { business: { slug: contains } }] }
        : {},
    ],
  };
}

/** The ids of a page of the list, in the list's order (a `reverse` page is read backward and turned back). */
async function membershipPageIds(ctx: ServiceContext, filter: MembershipFilter, page: { take: number; after?: MembershipKey; before?: MembershipKey; reverse?: boolean }) {
  const { rows } = await list(ctx, filter, { ...page, select: { id: true } });
  const ids = rows.map((r) => r.id);
  return page.reverse ? ids.reverse() : ids;
}

const ctxOf = (actor: Actor): ServiceContext =>
  ({ db: t.db.prisma, clock: t.clock, config: t.config, log: console, actor, tenant: null, ip: "127.0.0.1", roleCache: new Map() });

/** What the Prisma filter returns for the same page (the behaviour kept). */
async function prismaIds(actor: Actor, filter: MembershipFilter & { status?: StatusFilter | null }, take: number, cursorId?: number) {
  const rows = await t.db.prisma.subscription.findMany({
    where: membershipsWhere(ctxOf(actor), filter),
    orderBy: membershipOrder,
    take,
    ...(cursorId != null ? { cursor: { id: cursorId }, skip: 1 } : {}),
    select: { id: true },
  });
  return rows.map((r) => r.id);
}

beforeAll(async () => {
  t = await createTestApp();
  const f = factories(t);
  const acme = await f.business({ slug: "acme", name: "Acme Dairy" });
  const ada = await f.business({ slug: "ada-farm", name: "Orchard" });
  acmeId = acme.id;
  const plans = [await f.plan(acme), await f.plan(ada)];
  // Members: some with a name, some without; "ada" in usernames, names, emails and a business slug.
  const people = [
    { username: "adam", name: "Adam Ant", email: "adam@example.com" },
    { username: "bea", email: "bea@example.com" },
    { username: "carl", name: "Carl Adair", email: "c@example.com" },
    { username: "dora", name: "Dora", email: "dora@ADA.example" },
  ];
  const statuses = ["ACTIVE", "PAST_DUE", "CANCELED", "INCOMPLETE"] as const;
  let first: { id: number; publicId: string } | null = null;
  // 48 memberships; every third pair shares a start instant (ties are ordered by id, newest id first).
  for (let i = 0; i < 48; i++) {
    const business = i % 3 === 0 ? ada : acme;
    const day = 1 + Math.floor(i / 2);
    const p = people[i % 4];
    const user = await f.user({ ...p, username: `${p.username}${i}`, email: `${i}.${p.email}` });
    first ??= user;
    const sub = await f.subscription({
      user,
      business,
      plan: business === ada ? plans[1] : plans[0],
      status: statuses[i % 4],
      startedAt: `2026-01-${String(Math.min(day, 28)).padStart(2, "0")}T${i % 2 === 0 || i % 6 === 1 ? "10" : "11"}:00:00Z`,
      email: i % 5 === 0 ? `gift-${i}@adamail.test` : undefined,
    });
    all.push(sub.id);
  }
  const adminUser = await f.user({ username: "root", isAdmin: true });
  const ownerUser = await f.user({ username: "olive" });
  await f.attach(acme, ownerUser, "VIEWER");
  admin = { kind: "user", user: { id: adminUser.id, publicId: adminUser.publicId, username: "root", isAdmin: true }, session: { id: 1, tenantSlug: null } };
  owner = { kind: "user", user: { id: ownerUser.id, publicId: ownerUser.publicId, username: "olive", isAdmin: false }, session: { id: 2, tenantSlug: null } };
  partner = { kind: "partner", token: { id: 1, businessId: ada.id, scopes: ["memberships:read", "orders:read"] } };
  member = { kind: "user", user: { id: first!.id, publicId: first!.publicId, username: "adam0", isAdmin: false }, session: { id: 3, tenantSlug: null } };
});
afterAll(() => t?.close());

describe("memberships list", () => {
  const filters: (MembershipFilter & { status?: StatusFilter | null })[] = [];
  for (const status of ["ACTIVE", "PAST_DUE", "CANCELED", null] as (StatusFilter | null)[]) {
    for (const search of [null, "  ADA ", "adam1", "orchard", "adamail", "a_a", "3.carl"]) filters.push({ status, search });
  }
  filters.push({ status: "ANY", search: "", businessId: 1 }, { status: "ACTIVE", search: "a", businessId: 2 }, { search: "nobody" });

  it("returns the Prisma filter's rows in its order, for every filter, reader, page size and cursor", async () => {
    let compared = 0;
    for (const actor of [admin, owner, partner, member]) {
      for (const filter of filters) {
        const expected = await prismaIds(actor, filter, 1000);
        const whole = await list(ctxOf(actor), filter, { take: 1000, select: { id: true } });
        expect(whole.rows.map((r) => r.id)).toEqual(expected);
        const keyOf = (id: number | undefined) => (id == null ? undefined : whole.keys[expected.indexOf(id)]);
        // Forward pages of 4 (take 5, as the connection asks for one more), from the start and after rows of the list (their keys).
        for (const cursor of [undefined, expected[0], expected[4], expected[9]].filter((c, i) => i === 0 || c != null)) {
          expect(await membershipPageIds(ctxOf(actor), filter, { take: 5, after: keyOf(cursor) })).toEqual(await prismaIds(actor, filter, 5, cursor));
          compared++;
        }
        // Backward pages (last/before: read backward): Prisma's negative take.
        for (const cursor of [undefined, expected.at(-1), expected.at(-5)].filter((c, i) => i === 0 || c != null)) {
          expect(await membershipPageIds(ctxOf(actor), filter, { take: 5, before: keyOf(cursor), reverse: true })).toEqual(await prismaIds(actor, filter, -5, cursor));
        }
      }
    }
    expect(compared).toBeGreaterThan(150);
  });

  it("the REST table's columns as Prisma loads them", async () => {
    const select = membershipRowSelect;
    await t.db.prisma.subscription.updateMany({ where: { id: all[0] }, data: { providerSubscriptionId: "sub_1", canceledAt: new Date("2026-02-01T00:00:00Z") } });
    for (const filter of [{}, { status: "ACTIVE" as const, search: "ada" }, { search: "orchard" }, { status: "CANCELED" as const }]) {
      for (const actor of [admin, owner]) {
        const expected = await t.db.prisma.subscription.findMany({ where: membershipsWhere(ctxOf(actor), filter), orderBy: membershipOrder, take: 7, select });
        expect((await list(ctxOf(actor), filter, { take: 7, select })).rows).toEqual(expected);
      }
    }
  });

  it("the past-due filter lists exactly the PAST_DUE memberships, through GraphQL and REST", async () => {
    const expected = (await t.db.prisma.subscription.findMany({ where: { status: "PAST_DUE" }, orderBy: membershipOrder, select: { id: true } })).map((r) => r.id);
    expect(expected.length).toBe(12);
    expect(await membershipPageIds(ctxOf(admin), { status: "PAST_DUE" }, { take: 100 })).toEqual(expected);
    const root = await t.db.prisma.user.findUniqueOrThrow({ where: { username: "root" } });
    const { token: bearer } = await openSession({ db: t.db.prisma, clock: t.clock, config: t.config }, root.id, { tenantSlug: null });
    const gql = await t.gqlOk(`{ memberships(first: 50, status: PAST_DUE) { edges { node { databaseId status } } } }`, {}, { token: bearer });
    expect(gql.memberships.edges.map((e: any) => e.node.databaseId)).toEqual(expected);
    expect(new Set(gql.memberships.edges.map((e: any) => e.node.status))).toEqual(new Set(["PAST_DUE"]));
    const rest = await t.app.inject({ method: "GET", url: "/api/admin/memberships?status=past_due", headers: { authorization: `Bearer ${bearer}` } });
    expect(rest.statusCode).toBe(200);
    expect(rest.json().items.map((r: any) => r.subscription_id)).toEqual(expected);
    expect(new Set(rest.json().items.map((r: any) => r.status))).toEqual(new Set(["past_due"]));
  });

  it("readers see only what the policy lets them read; one business's list and anonymous readers are refused", async () => {
    expect(await membershipPageIds(ctxOf(member), {}, { take: 100 })).toEqual([]);
    await expect(membershipPageIds(ctxOf({ kind: "anonymous" }), {}, { take: 100 })).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    expect((await membershipPageIds(ctxOf(owner), {}, { take: 100 })).length).toBe(24);
    // A business filter the reader may not read lists none; that business's own list refuses.
    const other = (await t.db.prisma.business.findUniqueOrThrow({ where: { slug: "ada-farm" } })).id;
    expect(await membershipPageIds(ctxOf(owner), { businessId: other }, { take: 100 })).toEqual([]);
    await expect(listOfBusiness(ctxOf(owner), other, {}, { select: { id: true } })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(listOfBusiness(ctxOf(member), acmeId, {}, { select: { id: true } })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await listOfBusiness(ctxOf(owner), acmeId, {}, { select: { id: true } })).rows.length).toBe(24);
    // /my/memberships: logged-in users only, not partner tokens.
    await expect(listForUser(ctxOf(partner), {}, { select: { id: true } })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await listForUser(ctxOf(owner), {}, { select: { id: true } })).rows.length).toBe(24);
  });

  it("byId: one membership the reader may read, whatever its status", async () => {
    const incomplete = (await t.db.prisma.subscription.findFirstOrThrow({ where: { status: "INCOMPLETE", businessId: acmeId } })).id;
    expect(await byId(ctxOf(owner), incomplete, { id: true, status: true, user: { select: { username: true } } })).toMatchObject({ id: incomplete, status: "INCOMPLETE" });
    await expect(byId(ctxOf(partner), incomplete, { id: true })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("rows have the shape Prisma gives them for any selection (joined columns, and what is left to Prisma)", async () => {
    const selections: Prisma.SubscriptionFindManyArgs[] = [
      { include: { user: { select: { publicId: true, username: true, email: true } }, plan: { select: { name: true } }, business: true } },
      { include: { user: true, plan: { include: { variations: true } }, business: { include: { page: true } }, skips: true, addons: { include: { addon: true } }, pendingChange: true } },
      { select: { id: true, address: true, email: true, status: true, mode: true, user: { select: { address: true, isAdmin: true } }, _count: { select: { orders: true } } } },
      {},
    ];
    for (const s of selections) {
      const expected = await t.db.prisma.subscription.findMany({ ...s, where: membershipsWhere(ctxOf(admin), { search: "a" }), orderBy: membershipOrder, take: 9 });
      expect((await list(ctxOf(admin), { search: "a" }, { ...s, take: 9 } as never)).rows).toEqual(expected);
    }
  });

  it("column names are the fields' names in snake case (what the keyset statement assumes)", () => {
    const models = (t.db.prisma as any)._runtimeDataModel.models;
    for (const model of ["Subscription", "User", "Business", "Plan"]) {
      for (const f of models[model].fields.filter((f: any) => f.kind !== "object")) expect(columnName(f.name)).toBe(f.dbName ?? f.name);
    }
  });
});

describe("Query.memberships connection", () => {
  const Q = `query($first: Int, $after: String, $last: Int, $before: String, $search: String, $status: MembershipStatusFilter) {
    memberships(first: $first, after: $after, last: $last, before: $before, search: $search, status: $status) {
      edges { cursor node { databaseId } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`;
  let token: string;
  beforeAll(async () => {
    const f = factories(t);
    const u = await t.db.prisma.user.findUniqueOrThrow({ where: { username: "root" } });
    token = await f.session(u);
  });
  const page = async (v: Record<string, unknown>) => (await t.gqlOk(Q, v, { token })).memberships;

  it("nodes carry the same fields as when Prisma loads them (Business.memberships), whatever the query selects", async () => {
    const NODE = `databaseId status username userPublicId memberName email planName startedAt canceledAt nextBoxDate
      business { id slug name timeZone memberCount page { billingDay } } plan { id ref name variations { mode amountCents } }
      addons { name amountCents } skips { yearMonth } pendingChange { effectivePeriod } skipWindow { open opensOn }`;
    const root = await t.gqlOk(`{ memberships(first: 30, search: "a", status: ANY, businessId: ${acmeId}) { edges { node { ${NODE} } } } }`, {}, { token });
    const related = await t.gqlOk(`{ business(slug: "acme") { memberships(first: 30, search: "a", status: ANY) { edges { node { ${NODE} } } } } }`, {}, { token });
    expect(root.memberships.edges.length).toBeGreaterThan(5);
    expect(root.memberships.edges).toEqual(related.business.memberships.edges);
  });

  it("walks every row forward with first/after and back with last/before, with Relay page info", async () => {
    const expected = await prismaIds(admin, { status: "ACTIVE", search: "a" }, 1000);
    expect(expected.length).toBeGreaterThan(10);
    const forward: number[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const p: any = await page({ first: 4, after, status: "ACTIVE", search: "a" });
      forward.push(...p.edges.map((e: any) => e.node.databaseId));
      expect(p.pageInfo.hasPreviousPage).toBe(after != null);
      expect(p.pageInfo.endCursor).toBe(p.edges.at(-1)?.cursor ?? null);
      pages++;
      if (!p.pageInfo.hasNextPage) break;
      after = p.pageInfo.endCursor;
    }
    expect(forward).toEqual(expected);
    expect(pages).toBe(Math.ceil(expected.length / 4));

    const backward: number[] = [];
    let before: string | null = null;
    for (;;) {
      const p: any = await page({ last: 4, before, status: "ACTIVE", search: "a" });
      backward.unshift(...p.edges.map((e: any) => e.node.databaseId));
      expect(p.pageInfo.hasNextPage).toBe(before != null);
      if (!p.pageInfo.hasPreviousPage) break;
      before = p.pageInfo.startCursor;
    }
    expect(backward).toEqual(expected);
  });
});

describe("each sort, paged by the key its cursors carry", () => {
  const SORTS: MembershipSort[] = ["STARTED_DESC", "STARTED_ASC", "NAME_ASC", "NAME_DESC", "NEXT_CHARGE_ASC", "NEXT_CHARGE_DESC"];
  const Q = `query($sort: MembershipSort, $first: Int, $after: String, $last: Int, $before: String) {
    memberships(sort: $sort, first: $first, after: $after, last: $last, before: $before) {
      edges { cursor node { databaseId } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`;
  let token: string;
  const page = async (v: Record<string, unknown>) => (await t.gqlOk(Q, v, { token })).memberships;
  const ids = (p: any): number[] => p.edges.map((e: any) => e.node.databaseId);

  beforeAll(async () => {
    token = await factories(t).session(await t.db.prisma.user.findUniqueOrThrow({ where: { username: "root" } }));
    // Next charges that differ and tie: billing days, months paid through, skipped months in a row, past and later
    // (canceled ones have none; the starts tie in pairs, the names in dozens).
    for (const [i, id] of all.entries()) {
      await t.db.prisma.subscription.update({
        where: { id },
        data: { billingDay: [1, 6, 28][i % 3], paidThroughPeriod: [null, "2026-03", "2026-04", "2026-03"][i % 4], ...(i % 7 === 0 ? { skips: { create: ["2026-02", "2026-04", "2026-05", "2026-07"].map((yearMonth) => ({ yearMonth })) } } : {}) },
      });
    }
  });

  /** The listed memberships (never-paid checkouts aside) ordered in JS from their own values: names, starts, next charges (next-charge.ts). */
  async function reference(sort: MembershipSort): Promise<number[]> {
    const rows = await t.db.prisma.subscription.findMany({ where: { status: { not: "INCOMPLETE" } }, select: { id: true, startedAt: true, user: { select: { name: true, username: true } } } });
    const charges = await Promise.all(rows.map((r) => nextChargeOf(ctxOf(admin), r.id)));
    const dir = sort.endsWith("_ASC") ? 1 : -1;
    const keys = rows.map((r, i) =>
      sort.startsWith("NAME") ? (r.user.name?.trim() || r.user.username).toLowerCase() : sort.startsWith("STARTED") ? r.startedAt.toISOString() : (charges[i]?.date ?? (dir > 0 ? "9999" : "0000")),
    );
    const order = rows.map((r, i) => ({ id: r.id, key: keys[i] }));
    return order.sort((a, b) => dir * (a.key < b.key ? -1 : a.key > b.key ? 1 : a.id - b.id)).map((r) => r.id);
  }

  /** Every row of `sort`, `size` at a time: forward with first/after, or backward with last/before. */
  async function walk(sort: MembershipSort, size: number, backward = false): Promise<number[]> {
    const out: number[] = [];
    let cursor: string | null = null;
    for (let guard = 0; guard < 100; guard++) {
      const p = await page(backward ? { sort, last: size, before: cursor } : { sort, first: size, after: cursor });
      if (backward) out.unshift(...ids(p));
      else out.push(...ids(p));
      if (!(backward ? p.pageInfo.hasPreviousPage : p.pageInfo.hasNextPage)) return out;
      cursor = backward ? p.pageInfo.startCursor : p.pageInfo.endCursor;
    }
    throw new Error("did not end");
  }

  it.each(SORTS)("%s: pages of 5, forward and backward, walk every row once in the rows' own order (ties by id, no next charge last)", async (sort) => {
    const expected = await reference(sort);
    expect(expected.length).toBe(36);
    expect(await walk(sort, 5)).toEqual(expected);
    expect(await walk(sort, 5, true)).toEqual(expected);
    expect(ids(await page({ sort, first: 50 }))).toEqual(expected);
    if (sort.startsWith("NEXT_CHARGE")) expect((await nextChargeOf(ctxOf(admin), expected.at(-1)!))).toBeNull();
  });

  it("a page goes on from where its cursor's row stood, though that row was renamed or deleted since", async () => {
    const byName = await reference("NAME_ASC");
    const first = await page({ sort: "NAME_ASC", first: 5 });
    const renamed = await t.db.prisma.subscription.findUniqueOrThrow({ where: { id: byName[4] }, select: { userId: true } });
    await t.db.prisma.user.update({ where: { id: renamed.userId }, data: { name: "Zz Last" } });
    expect(ids(await page({ sort: "NAME_ASC", first: 5, after: first.pageInfo.endCursor }))).toEqual(byName.slice(5, 10));
    const byCharge = await reference("NEXT_CHARGE_DESC");
    const charged = await page({ sort: "NEXT_CHARGE_DESC", first: 7 });
    await t.db.prisma.skip.deleteMany({ where: { subscriptionId: byCharge[6] } });
    await t.db.prisma.subscription.delete({ where: { id: byCharge[6] } });
    expect(ids(await page({ sort: "NEXT_CHARGE_DESC", first: 7, after: charged.pageInfo.endCursor }))).toEqual(byCharge.slice(7, 14));
    expect(ids(await page({ sort: "NEXT_CHARGE_DESC", last: 3, before: charged.pageInfo.endCursor }))).toEqual(byCharge.slice(3, 6));
  });

  it("a malformed cursor, or one of another sort, is refused with a ValidationError naming the argument", async () => {
    const cursorOf = (parts: unknown) => Buffer.from(`Membership:${JSON.stringify(parts)}`).toString("base64url");
    const malformed = [
      "not a cursor",
      Buffer.from("GPC:N:12").toString("base64"),
      cursorOf(["NAME_ASC", 5, 1]),
      cursorOf(["NAME_ASC", "ann", 0]),
      cursorOf(["NAME_ASC", "x".repeat(1001), 1]),
      cursorOf(["STARTED_DESC", "2026-02-30T10:00:00.000Z", 1]),
      cursorOf(["STARTED_DESC", null, 1]),
      cursorOf(["NEXT_CHARGE_ASC", "2026-13-01", 1]),
      cursorOf(["NEXT_CHARGE_ASC", "9999-12-31", 1]),
      cursorOf(["BY_PRICE", "1", 1]),
      cursorOf(["NAME_ASC", "ann"]),
    ];
    for (const cursor of malformed) {
      const res = await t.gql(Q, { sort: "NAME_ASC", first: 5, after: cursor }, { token });
      expect(res.errors?.[0]?.extensions?.code, cursor).toBe("BAD_USER_INPUT");
      expect((res.errors![0].extensions!.issues as { path: string }[])[0].path).toBe("memberships.after");
    }
    const named = (await page({ sort: "NAME_ASC", first: 2 })).pageInfo.endCursor;
    for (const [sort, arg] of [["NEXT_CHARGE_ASC", "after"], ["NAME_DESC", "before"], [undefined, "after"]]) {
      const res = await t.gql(Q, { sort, [arg!]: named, [arg === "after" ? "first" : "last"]: 5 }, { token });
      expect(res.errors?.[0]).toMatchObject({ message: `Not a cursor of this order: a cursor of NAME_ASC, not ${sort ?? "STARTED_DESC"}.`, extensions: { code: "BAD_USER_INPUT", issues: [{ path: `memberships.${arg}` }] } });
    }
    await expect(list(ctxOf(admin), { sort: "STARTED_ASC" }, { before: { sort: "STARTED_DESC", value: "2026-01-01T10:00:00.000Z", id: 1 } })).rejects.toMatchObject({
      code: "VALIDATION",
      issues: [{ path: "before" }],
    });
  });
});
