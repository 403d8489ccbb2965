/**
 * api/selection-sql by itself: the decoding of each column type (enum, Json — object, string, null —, DateTime,
 * Boolean, Int, null), against Prisma's rows for the same selection, through both forms (flat joined columns
 * and JSON rows); what a selection leaves to Prisma (`rest`) and loads by id; and `covers`, the rule that sends
 * a selection the statement cannot answer back to Prisma. Both databases (PGlite, TEST_DATABASE_URL).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories } from "../support/factories.ts";
import { column, compileJoined, covers, joinSql, loadRows, type Query, readJoined, type Shape } from "../../api/selection-sql/index.ts";
import * as metrics from "../../api/metrics/service.ts";
import type { ServiceContext } from "../../api/context.ts";
import { readRows, timestampOf } from "../../api/db.ts";

let t: TestApp;
let statements = 0;
const ids: number[] = [];

beforeAll(async () => {
  t = await createTestApp({ now: "2026-03-05T15:00:00Z", logQueries: true });
  t.db.onStatement(() => void statements++);
  const f = factories(t);
  const acme = await f.business({ slug: "acme", name: "Acme" });
  const plan = await f.plan(acme);
  const withObject = await f.user({ username: "object", name: "Ann" });
  const withString = await f.user({ username: "string", isAdmin: true });
  const withNull = await f.user({ username: "nothing" });
  await t.db.prisma.user.update({ where: { id: withObject.id }, data: { address: { city: "Oslo", lines: ["1 Main St"] } } });
  await t.db.prisma.user.update({ where: { id: withString.id }, data: { address: "just text" } });
  const a = await f.subscription({ user: withObject, business: acme, plan, startedAt: "2026-01-02T03:04:05.678Z" });
  const b = await f.subscription({ user: withString, business: acme, plan, status: "CANCELED", startedAt: "2025-12-01T00:00:00Z", canceledAt: "2026-02-01T10:00:00Z" });
  const c = await f.subscription({ user: withNull, business: acme, plan, status: "PAST_DUE", startedAt: "2026-02-28T23:59:59.999Z" });
  await t.db.prisma.skip.create({ data: { subscriptionId: a.id, yearMonth: "2026-04" } });
  ids.push(a.id, b.id, c.id);
});
afterAll(() => t.close());

const db = () => ({ db: t.db.prisma }) as unknown as ServiceContext;
const JOINABLE = { user: "u", business: "b", plan: "pl" };

/** The flat statement's rows for `selection`, in id order. */
async function joinedRows(selection: Query) {
  const joined = compileJoined("Subscription", "s", selection, JOINABLE);
  const raw = await t.db.prisma.$queryRawUnsafe<Record<string, unknown>[]>(
    `SELECT ${joined.columns.join(", ")} FROM subscriptions s ${joinSql("Subscription", "s", JOINABLE, joined.joins)} WHERE s.id = ANY($1::int[]) ORDER BY s.id`,
    ids,
  );
  return { joined, rows: await readJoined(db(), "Subscription", joined, raw) };
}
const prismaRows = (selection: Query) => t.db.prisma.subscription.findMany({ ...(selection as object), where: { id: { in: ids } }, orderBy: { id: "asc" } });

describe("columns", () => {
  it("are the fields' names in snake case", () => {
    expect(column("publicId")).toBe("public_id");
    expect(column("providerSubscriptionId")).toBe("provider_subscription_id");
    expect(column("id")).toBe("id");
  });
});

describe("flat statement with joined relations", () => {
  const selections: Record<string, Query> = {
    "include: every scalar, joined user (Json object, string, null; Boolean) and business": { include: { user: true, business: true } },
    "select: enum, DateTimes (null too), Int": { select: { id: true, status: true, startedAt: true, canceledAt: true, totalCents: true } },
    "select of the relations' scalars": { select: { status: true, user: { select: { address: true, isAdmin: true, createdAt: true } }, plan: { select: { name: true } } } },
  };
  for (const [name, selection] of Object.entries(selections)) {
    it(`answers as Prisma: ${name}`, async () => {
      const { joined, rows } = await joinedRows(selection);
      expect(joined.rest).toBeNull();
      expect(rows).toEqual(await prismaRows(selection));
    });
  }

  it("leaves lists, deeper relations and counts to one Prisma read by id, merged into the rows", async () => {
    const selection = { select: { id: true, skips: true, user: { select: { name: true, subscriptions: { select: { id: true } } } }, _count: { select: { skips: true } } } };
    const { joined, rows } = await joinedRows(selection);
    expect(joined.rest).toEqual({ skips: true, user: selection.select.user, _count: selection.select._count });
    expect(joined.joins).toEqual([]);
    expect(rows).toEqual(await prismaRows(selection));
    expect(rows[0].skips).toHaveLength(1);
  });

  it("joins only the relations not outside the joinable ones", () => {
    const joined = compileJoined("Subscription", "s", { include: { user: true, plan: true } }, { user: "u" });
    expect(joined.joins).toEqual(["user"]);
    expect(joined.rest).toEqual({ plan: true });
    expect(joinSql("Subscription", "s", { user: "u", business: "b" }, ["business", "user"])).toBe("JOIN users u ON u.id = s.user_id JOIN businesses b ON b.id = s.business_id");
  });
});

describe("JSON rows", () => {
  const shape: Shape = { relations: { user: {}, business: { relations: { page: {} } }, plan: {}, skips: { orderBy: (c) => `${c}.year_month`, accepts: { yearMonth: "asc" } } } };
  const where = { where: "t0.id = ANY($1::int[])", params: [ids], orderBy: "t0.id" };

  it("answers as Prisma: every scalar (Json, enum, DateTime, null), nested and list relations", async () => {
    const query = { include: { user: true, business: { include: { page: true } }, plan: true, skips: { orderBy: { yearMonth: "asc" } } } };
    expect(covers("Subscription", query, shape)).toBe(true);
    const rows = await loadRows(db(), "Subscription", query, shape, { ...where, params: [ids] });
    expect(rows).toEqual(await prismaRows(query));
  });

  it("answers a select as Prisma: only the scalars selected, at every level", async () => {
    const query = {
      select: { id: true, startedAt: true, status: true, user: { select: { username: true } }, business: { select: { name: true, page: { select: { theme: true, pickupEnabled: true } } } }, skips: { select: { yearMonth: true }, orderBy: { yearMonth: "asc" } } },
    };
    expect(covers("Subscription", query, shape)).toBe(true);
    const rows = await loadRows<Record<string, any>>(db(), "Subscription", query, shape, { ...where, params: [ids] });
    expect(rows).toEqual(await prismaRows(query));
    expect(Object.keys(rows[0]).sort()).toEqual(["business", "id", "skips", "startedAt", "status", "user"]);
    expect(Object.keys(rows[0].business).sort()).toEqual(["name", "page"]);
  });

  it("loads only the relations asked for", async () => {
    const rows = await loadRows<Record<string, unknown>>(db(), "Subscription", { include: { plan: true } }, shape, { ...where, params: [ids] });
    expect(Object.keys(rows[0])).toContain("plan");
    expect(Object.keys(rows[0])).not.toContain("user");
  });
});

describe("covers: what the statement cannot answer goes to Prisma", () => {
  const shape: Shape = { relations: { user: {}, skips: { accepts: { yearMonth: "asc" } } } };
  it.each([
    ["scalars and shaped relations", { select: { id: true, user: { select: { name: true } } } }, true],
    ["no selection", undefined, true],
    ["a relation outside the shape", { include: { business: true } }, false],
    ["a relation's relation outside the shape", { include: { user: { include: { orders: true } } } }, false],
    ["a count", { select: { _count: true } }, false],
    ["a filter on a relation", { include: { skips: { where: { yearMonth: "2026-04" } } } }, false],
    ["the relation order the shape accepts", { include: { skips: { orderBy: { yearMonth: "asc" } } } }, true],
    ["another order", { include: { skips: { orderBy: { id: "desc" } } } }, false],
  ])("%s", (_, query, expected) => expect(covers("Subscription", query, shape)).toBe(expected));

  it("the dashboard's recent memberships: a selection it cannot join is read by Prisma, same rows", async () => {
    const scope = { businessId: null, timeZone: "UTC" };
    const selection = { select: { id: true, status: true, user: { select: { username: true } } } };
    const before = statements;
    const joined = await metrics.recentSubscriptions(db(), scope, selection);
    expect(statements - before).toBe(1);
    const fallback = { select: { ...selection.select, _count: { select: { skips: true } } } };
    const viaPrisma = await metrics.recentSubscriptions(db(), scope, fallback);
    expect(viaPrisma.map(({ _count: _, ...r }) => r)).toEqual(joined);
    expect(viaPrisma.map((r) => r._count.skips).sort()).toEqual([0, 0, 1]);
  });
});

describe("readRows (api/db.ts): the read statements on the driver, a transaction's through Prisma", () => {
  const sql = `SELECT id, started_at AS "startedAt", status::text AS status FROM subscriptions WHERE id = $1`;

  it("reads the same row on the driver as Prisma does, timestamps as text that read back to the same instant, and reports the statement", async () => {
    const before = statements;
    const [direct] = await readRows<{ id: number; startedAt: string | Date; status: string }>(t.db.prisma, sql, [ids[0]]);
    expect(statements).toBe(before + 1);
    const [prisma] = await t.db.prisma.$queryRawUnsafe<{ id: number; startedAt: Date; status: string }[]>(sql, ids[0]);
    expect(typeof direct.startedAt).toBe("string");
    expect(timestampOf(direct.startedAt)).toEqual(prisma.startedAt);
    expect(timestampOf(direct.startedAt).toISOString()).toBe("2026-01-02T03:04:05.678Z");
    expect({ ...direct, startedAt: null }).toEqual({ ...prisma, startedAt: null });
  });

  it("inside a transaction reads on its connection: the transaction's own uncommitted write", async () => {
    await expect(
      t.db.prisma.$transaction(async (tx) => {
        await tx.subscription.update({ where: { id: ids[0] }, data: { status: "PAST_DUE" } });
        const [row] = await readRows<{ status: string }>(tx as never, sql, [ids[0]]);
        expect(row.status).toBe("PAST_DUE");
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    const [after] = await readRows<{ status: string }>(t.db.prisma, sql, [ids[0]]);
    expect(after.status).toBe("ACTIVE");
  });
});
