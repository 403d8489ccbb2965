import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, readRows } from "../../api/db.ts";
import { seedDemoData } from "../../prisma/seed-data.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createTestDatabase } from "../support/database.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: "2026-03-05T15:00:00Z" });
});
afterAll(() => t.close());

const LOGIN = `mutation($input: LoginInput!) { login(input: $input) { __typename ... on LoginSuccess { data { user { username isAdmin } } } } }`;

async function counts() {
  const p = t.db.prisma;
  return {
    users: await p.user.count(),
    businesses: await p.business.count(),
    plans: await p.plan.count(),
    subscriptions: await p.subscription.count(),
    orders: await p.order.count(),
    skips: await p.skip.count(),
    coupons: await p.coupon.count(),
  };
}

describe("migrations", () => {
  it("apply cleanly to an empty database and are not applied twice", async () => {
    // createTestApp migrated a brand-new database; a second run finds nothing pending.
    expect(await t.db.migrate()).toEqual([]);
    const tables = await t.db.prisma.$queryRaw<{ tablename: string }[]>`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`;
    expect(tables.map((r) => r.tablename)).toEqual(
      expect.arrayContaining(["users", "sessions", "businesses", "business_users", "pages", "plans", "plan_variations", "addons", "coupons", "subscriptions", "skips", "orders", "payments", "next_boxes", "uploads", "_prisma_migrations"]),
    );
  });

  it("enforce at most one owner per business in the database itself", async () => {
    const b = await t.db.prisma.business.create({ data: { collectsOnPlatform: true, slug: "one-owner", name: "One Owner" } });
    const [u1, u2] = await Promise.all(
      ["owner-a", "owner-b"].map((username) => t.db.prisma.user.create({ data: { username, passwordHash: "x" } })),
    );
    await t.db.prisma.businessUser.create({ data: { businessId: b.id, userId: u1.id, role: "OWNER" } });
    await expect(t.db.prisma.businessUser.create({ data: { businessId: b.id, userId: u2.id, role: "OWNER" } })).rejects.toThrow();
    await t.db.prisma.business.delete({ where: { id: b.id } });
    await t.db.prisma.user.deleteMany({ where: { username: { in: ["owner-a", "owner-b"] } } });
  });
});

describe("demo seed", () => {
  it("creates the demo data once; a second run changes nothing", async () => {
    expect(await seedDemoData(t.db.prisma, t.clock)).toBe(true);
    const first = await counts();
    expect(first.businesses).toBe(3);
    expect(first.subscriptions).toBeGreaterThanOrEqual(3);
    expect(first.orders).toBeGreaterThan(0);
    expect(first.skips).toBeGreaterThan(0);
    expect(first.coupons).toBeGreaterThanOrEqual(2);
    const statuses = await t.db.prisma.subscription.groupBy({ by: ["status"], _count: true });
    expect(statuses.map((s) => s.status)).toEqual(expect.arrayContaining(["ACTIVE", "CANCELED"]));

    expect(await seedDemoData(t.db.prisma, t.clock)).toBe(false);
    expect(await counts()).toEqual(first);
  });

  it("seeds once when several processes start on one empty database at the same moment", async () => {
    // Two clients of their own (on PostgreSQL, two pools: two sessions racing), each seeding as a starting server does.
    const fresh = await createTestDatabase();
    const second = fresh.connection.url ? await openDatabase({ ...fresh.connection, poolSize: 2 }) : null;
    try {
      const results = await Promise.all([seedDemoData(fresh.prisma, t.clock), seedDemoData((second ?? fresh).prisma, t.clock)]);
      expect(results.sort()).toEqual([false, true]);
      expect(await fresh.prisma.business.count()).toBe(3);
      expect(await fresh.prisma.user.count({ where: { username: "admin" } })).toBe(1);
    } finally {
      await second?.close();
      await fresh.drop();
    }
  });

  it("creates the demo logins listed in the README", async () => {
    for (const [username, password, isAdmin] of [["admin", "admin1234", true], ["owner", "owner1234", false], ["member", "member1234", false]] as const) {
      const r = await t.gqlOk(LOGIN, { input: { username, password } });
      expect(r.login).toEqual({ __typename: "LoginSuccess", data: { user: { username, isAdmin } } });
    }
    const owner = await t.db.prisma.user.findUniqueOrThrow({ where: { username: "owner" }, include: { businessRoles: true } });
    expect(owner.businessRoles.map((r) => r.role)).toEqual(["OWNER"]);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL || !!process.env.TEST_POOLER_URL)("the login session's read on PostgreSQL, by pool mode", () => {
  // One connection, so the statement's own session is the one asked about its prepared statements.
  const prepared = async (poolMode: "session" | "transaction") => {
    const url = t.db.connection.url!;
    const db = await openDatabase({ url, directUrl: url, poolMode, poolSize: 1 });
    try {
      await readRows(db.prisma, "SELECT $1::int AS one", [1], { prepared: "login-session" });
      const rows = await readRows<{ name: string }>(db.prisma, "SELECT name FROM pg_prepared_statements ORDER BY name", []);
      return rows.map((r) => r.name);
    } finally {
      await db.close();
    }
  };

  it("directly (session mode) is a named statement, parsed and planned once per connection", async () => {
    expect(await prepared("session")).toEqual(["login-session"]);
  });

  it("behind a transaction pooler is unnamed: no statement a later transaction on another connection could miss or meet twice", async () => {
    expect(await prepared("transaction")).toEqual([]);
  });
});
