/**
 * The fast read path answers as Prisma would. A few reads skip Prisma's own loading for statements of ours
 * (api/selection-sql/: one flat statement with joined columns, or one JSON row per record; the session statement
 * of api/auth/sessions.ts), and they are what a Prisma or Pothos upgrade breaks first. Here the screens' own
 * operations (the Relay artifacts the web app sends: the member portal, the dashboard with its recent
 * memberships, the memberships page) run on the demo data while every fast read is recorded with its selection
 * and the rows it answered; then Prisma reads the same selection for the same rows, and the two are compared
 * field by field. A decoder broken on purpose (dates left as the driver gives them) shows the comparison fails.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories } from "../support/factories.ts";
import { relayOperation } from "../bench/queries.ts";
import { seedDemoData } from "../../prisma/seed-data.ts";
import { readRows } from "../../api/db.ts";
import { resolveActor } from "../../api/auth/sessions.ts";
import type { Query } from "../../api/selection-sql/model.ts";
import type * as JoinedModule from "../../api/selection-sql/joined.ts";
import type * as JsonModule from "../../api/selection-sql/json.ts";
import type * as ModelModule from "../../api/selection-sql/model.ts";

/** Everything the fast path answered while an operation ran: the selection, which rows, and what it returned. */
interface FastRead {
  model: string;
  selection: Query;
  /** The rows' ids, in the order the fast path answered them. */
  ids: () => Promise<number[]>;
  rows: Record<string, unknown>[];
}

const recorded = vi.hoisted(() => ({ reads: [] as FastRead[], breakDates: false }));

// The selection compiler's modules, wrapped to record each read (the real functions do the work).
vi.mock("../../api/selection-sql/model.ts", async (importOriginal) => {
  const real = await importOriginal<typeof ModelModule>();
  // The decoder broken on purpose: timestamps stay as the driver hands them over.
  return { ...real, toDate: (v: unknown) => (recorded.breakDates ? v : real.toDate(v)) };
});
vi.mock("../../api/selection-sql/joined.ts", async (importOriginal) => {
  const real = await importOriginal<typeof JoinedModule>();
  return {
    ...real,
    // Every reader of a flat statement's rows goes through its `read` (readJoined then adds what it left to
    // Prisma to the same row objects, so the recorded rows are the final answer).
    compileJoined: (...args: Parameters<typeof real.compileJoined>) => {
      const joined = real.compileJoined(...args);
      const [model, , selection] = args;
      const read = joined.read;
      joined.read = (raw) => {
        const rows = read(raw);
        const ids = raw.map((r) => r._id as number);
        recorded.reads.push({ model, selection, ids: async () => ids, rows });
        return rows;
      };
      return joined;
    },
  };
});
vi.mock("../../api/selection-sql/json.ts", async (importOriginal) => {
  const real = await importOriginal<typeof JsonModule>();
  const { table } = await import("../../api/selection-sql/model.ts");
  return {
    ...real,
    loadRows: async <T,>(...args: Parameters<typeof real.loadRows>) => {
      const rows = await real.loadRows<T>(...args);
      const [ctx, model, query, , q] = args;
      // The same rows, in the same order: the statement's own condition and page, asking for the ids alone.
      const ids = async () => {
        const clause = real.rowsClause(q);
        const found = await readRows<{ id: number }>(ctx.db, `SELECT t0.id FROM ${table(model)} t0 ${clause.sql}`, clause.params);
        return found.map((r) => r.id);
      };
      // A copy: the services add what is not a column to the rows they were handed (a scheduled change's plan).
      recorded.reads.push({ model, selection: (query ?? {}) as Query, ids, rows: structuredClone(rows) as Record<string, unknown>[] });
      return rows;
    },
  };
});

/** The same selection for the same rows, through Prisma, in the fast path's order. */
async function prismaRows(t: TestApp, read: FastRead): Promise<Record<string, unknown>[]> {
  const ids = await read.ids();
  const asksId = !read.selection.select || Boolean(read.selection.select.id);
  const selection = read.selection.select ? { ...read.selection, select: { ...read.selection.select, id: true } } : read.selection;
  const delegate = (t.db.prisma as unknown as Record<string, { findMany(args: object): Promise<Record<string, unknown>[]> }>)[read.model[0].toLowerCase() + read.model.slice(1)];
  const found = await delegate.findMany({ ...selection, where: { id: { in: ids } } });
  const byId = new Map(found.map((row) => [row.id as number, row]));
  const rows = ids.map((id) => {
    const { id: _, ...fields } = byId.get(id) ?? {};
    return asksId ? { id, ...fields } : fields;
  });
  // The portal's statement also loads a scheduled change's plan and add-ons (extras of its shape, which the
  // resolvers would otherwise read in a statement each): Prisma's answer for those is those two reads.
  for (const [i, row] of rows.entries()) {
    const change = row.pendingChange as { planId: number; addonIds: number[] } | null | undefined;
    const fastChange = read.rows[i]?.pendingChange as { changeAddons?: unknown } | null | undefined;
    if (!change || fastChange?.changeAddons === undefined) continue;
    Object.assign(change, {
      changePlan: await t.db.prisma.plan.findUnique({ where: { id: change.planId } }),
      changeAddons: await t.db.prisma.addon.findMany({ where: { id: { in: change.addonIds } }, orderBy: [{ position: "asc" }, { id: "asc" }] }),
    });
  }
  return rows;
}

/** Where two answers differ, field by field: `path: fast … ≠ Prisma …` (Dates compared by instant, objects by key). */
function differences(fast: unknown, prisma: unknown, path = ""): string[] {
  if (fast instanceof Date || prisma instanceof Date) {
    const same = fast instanceof Date && prisma instanceof Date && fast.getTime() === prisma.getTime();
    return same ? [] : [`${path}: fast ${String(fast)} ≠ Prisma ${String(prisma)}`];
  }
  if (Array.isArray(fast) && Array.isArray(prisma)) {
    if (fast.length !== prisma.length) return [`${path}: fast has ${fast.length} items, Prisma ${prisma.length}`];
    return fast.flatMap((item, i) => differences(item, prisma[i], `${path}[${i}]`));
  }
  if (fast && prisma && typeof fast === "object" && typeof prisma === "object" && !Array.isArray(fast) && !Array.isArray(prisma)) {
    const keys = new Set([...Object.keys(fast), ...Object.keys(prisma)]);
    return [...keys].sort().flatMap((k) => differences((fast as Record<string, unknown>)[k], (prisma as Record<string, unknown>)[k], path ? `${path}.${k}` : k));
  }
  return Object.is(fast, prisma) ? [] : [`${path}: fast ${JSON.stringify(fast)} ≠ Prisma ${JSON.stringify(prisma)}`];
}

let t: TestApp;
const tokens: Record<"member" | "owner" | "admin", string> = { member: "", owner: "", admin: "" };
let farmId = 0;

beforeAll(async () => {
  t = await createTestApp({ now: "2026-03-05T15:00:00Z" });
  expect(await seedDemoData(t.db.prisma, t.clock)).toBe(true);
  const f = factories(t);
  const db = t.db.prisma;
  const user = (username: string) => db.user.findUniqueOrThrow({ where: { username } });
  const [member, owner, admin] = await Promise.all([user("member"), user("owner"), user("admin")]);
  const farm = await db.business.findUniqueOrThrow({ where: { slug: "green-acres-farm" } });
  farmId = farm.id;
  // A scheduled change beside the demo's skips, orders and cards: the portal's selection reads it too.
  const sub = await db.subscription.findFirstOrThrow({ where: { userId: member.id, businessId: farm.id, status: "ACTIVE" } });
  const plan = await db.plan.findFirstOrThrow({ where: { businessId: farm.id, id: { not: sub.planId } } });
  const addons = await db.addon.findMany({ where: { businessId: farm.id }, orderBy: { id: "desc" }, take: 2 });
  await db.subscriptionChange.create({ data: { subscriptionId: sub.id, planId: plan.id, mode: "PICKUP", addonIds: addons.map((a) => a.id), effectivePeriod: "2026-04" } });
  tokens.member = await f.session(member);
  tokens.owner = await f.session(owner);
  tokens.admin = await f.session(admin);
});
afterAll(() => t?.close());

/** Runs one of the web app's operations and returns the fast reads it made (`broken`: errors are expected). */
async function fastReadsOf(artifact: string, variables: Record<string, unknown>, token: string, broken = false): Promise<FastRead[]> {
  recorded.reads = [];
  if (broken) await t.gql(relayOperation(artifact), variables, { token });
  else await t.gqlOk(relayOperation(artifact), variables, { token });
  return recorded.reads;
}

/** Every fast read of an operation against Prisma's answer for it. */
async function compare(reads: FastRead[]) {
  const found: string[] = [];
  for (const read of reads) {
    for (const d of differences(read.rows, await prismaRows(t, read))) found.push(`${read.model}${d}`);
  }
  return found;
}

const PORTAL = "web/src/routes/__generated__/MembershipRouteQuery.graphql.ts";
const DASHBOARD = "web/src/routes/admin/__generated__/BusinessDashboardRouteQuery.graphql.ts";
const MEMBERSHIPS = "web/src/routes/admin/__generated__/MembershipsRouteQuery.graphql.ts";

describe("the fast read path against Prisma, on the screens' own selections", () => {
  it("the member portal: memberships (with plan, add-ons, skips, the scheduled change) and orders", async () => {
    const reads = await fastReadsOf(PORTAL, {}, tokens.member);
    expect(reads.map((r) => r.model).sort()).toEqual(expect.arrayContaining(["Order", "Subscription"]));
    expect(reads.reduce((n, r) => n + r.rows.length, 0)).toBeGreaterThan(3);
    const changes = reads.flatMap((r) => r.rows.map((row) => row.pendingChange as { changeAddons?: unknown[] } | null | undefined)).filter(Boolean);
    expect(changes.map((c) => c!.changeAddons?.length)).toEqual([2]);
    expect(await compare(reads)).toEqual([]);
  });

  it("the business dashboard's recent memberships", async () => {
    const reads = await fastReadsOf(DASHBOARD, { id: farmId }, tokens.owner);
    expect(reads.some((r) => r.model === "Subscription" && r.rows.length > 0)).toBe(true);
    expect(await compare(reads)).toEqual([]);
  });

  it("the memberships page", async () => {
    const reads = await fastReadsOf(MEMBERSHIPS, {}, tokens.admin);
    expect(reads.some((r) => r.model === "Subscription" && r.rows.length > 3)).toBe(true);
    expect(await compare(reads)).toEqual([]);
  });

  it("the login session: the user's own row and default card, as Prisma reads them", async () => {
    const { actor } = await resolveActor(t.db.prisma, t.clock, `Bearer ${tokens.member}`, t.config.paymentProvider);
    if (actor.kind !== "user") throw new Error(`expected a user session, got ${actor.kind}`);
    const { passwordHash: _, paymentCustomerId: __, ...account } = await t.db.prisma.user.findUniqueOrThrow({ where: { id: actor.user.id } });
    const card = await t.db.prisma.paymentMethod.findFirst({
      where: { userId: actor.user.id, isDefault: true, provider: t.config.paymentProvider },
      orderBy: { createdAt: "desc" },
    });
    expect(card).not.toBeNull();
    expect(differences({ account: actor.account, card: actor.card }, { account, card })).toEqual([]);
  });

  it("fails on a decoder broken on purpose (timestamps left as the driver gives them), naming the fields", async () => {
    recorded.breakDates = true;
    try {
      const found = await compare(await fastReadsOf(PORTAL, {}, tokens.member, true));
      expect(found.length).toBeGreaterThan(0);
      expect(found.some((d) => /^Subscription\[\d+\]\.startedAt: fast /.test(d))).toBe(true);
    } finally {
      recorded.breakDates = false;
    }
  });
});
