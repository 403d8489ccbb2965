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
  type StatusFilter,
} from "../../api/subscriptions/memberships-list.ts";
import { column as columnName } from "../../api/selection-sql/index.ts";
import { membershipRowSelect } from "../../rest-compat/rows.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories } from "../support/factories.ts";

/**
 * The memberships list (memberships-list.ts `list`) runs as one keyset statement instead of
 * Prisma's relation filters and cursor. It must return exactly the rows, in exactly the order and with exactly
 * the fields, that the Prisma filter below (the rule written as Prisma would: membershipsWhere + membershipOrder +
 * cursor) returns, for every filter, page, selection and reader; and the GraphQL connections keep their Relay
 * semantics (first/after forward, last/before backward, page info).
 */

let t: TestApp;
let admin: Actor;
let owner: Actor;
let partner: Actor;
let member: Actor;
let acmeId = 0;
const all: number[] = [];

/** The list's rule in Prisma's words: the reference the keyset statement is compared with. */
function membershipsWhere(ctx: ServiceContext, filter: MembershipFilter): Prisma.SubscriptionWhereInput {
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

/** The ids of a page of the list. */
async function membershipPageIds(ctx: ServiceContext, filter: MembershipFilter, page: { take: number; skip?: number; cursorId?: number }) {
  const rows = await list(ctx, filter, { take: page.take, skip: page.skip, cursor: page.cursorId != null ? { id: page.cursorId } : undefined, select: { id: true } });
  return rows.map((r) => r.id);
}

const ctxOf = (actor: Actor): ServiceContext =>
  ({ db: t.db.prisma, clock: t.clock, config: t.config, log: console, actor, tenant: null, ip: "127.0.0.1", roleCache: new Map() });

/** What the Prisma filter returns for the same page (the behaviour kept). */
async function prismaIds(actor: Actor, filter: MembershipFilter, take: number, cursorId?: number) {
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
  const filters: MembershipFilter[] = [];
  for (const status of ["ACTIVE", "PAST_DUE", "CANCELED", null] as (StatusFilter | null)[]) {
    for (const search of [null, "  ADA ", "adam1", "orchard", "adamail", "a_a", "3.carl"]) filters.push({ status, search });
  }
  filters.push({ status: "ANY", search: "", businessId: 1 }, { status: "ACTIVE", search: "a", businessId: 2 }, { search: "nobody" });

  it("returns the Prisma filter's rows in its order, for every filter, reader, page size and cursor", async () => {
    let compared = 0;
    for (const actor of [admin, owner, partner, member]) {
      for (const filter of filters) {
        const expected = await prismaIds(actor, filter, 1000);
        expect(await membershipPageIds(ctxOf(actor), filter, { take: 1000 })).toEqual(expected);
        // Forward pages of 4 (take 5, as the connection asks for one more), from the start and from rows of the list.
        for (const cursor of [undefined, expected[0], expected[4], expected[9]].filter((c, i) => i === 0 || c != null)) {
          expect(await membershipPageIds(ctxOf(actor), filter, { take: 5, skip: cursor == null ? 0 : 1, cursorId: cursor })).toEqual(
            await prismaIds(actor, filter, 5, cursor),
          );
          compared++;
        }
        // Backward pages (last/before): Prisma's negative take.
        for (const cursor of [undefined, expected.at(-1), expected.at(-5)].filter((c, i) => i === 0 || c != null)) {
          expect(await membershipPageIds(ctxOf(actor), filter, { take: -5, skip: cursor == null ? 0 : 1, cursorId: cursor })).toEqual(
            await prismaIds(actor, filter, -5, cursor),
          );
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
        expect(await list(ctxOf(actor), filter, { take: 7, select })).toEqual(expected);
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
    expect((await listOfBusiness(ctxOf(owner), acmeId, {}, { select: { id: true } })).length).toBe(24);
    // /my/memberships: logged-in users only, not partner tokens.
    await expect(listForUser(ctxOf(partner), {}, { select: { id: true } })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await listForUser(ctxOf(owner), {}, { select: { id: true } })).length).toBe(24);
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
      expect(await list(ctxOf(admin), { search: "a" }, { ...s, take: 9 } as never)).toEqual(expected);
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
