import http from "node:http";
import v8 from "node:v8";
import vm from "node:vm";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor, ServiceContext } from "../../api/context.ts";
import { list, type MembershipFilter } from "../../api/subscriptions/memberships-list.ts";
import { membershipCsvRows, MEMBERSHIP_CSV_HEADER } from "../../api/subscriptions/memberships-export.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories } from "../support/factories.ts";

/**
 * GET /api/admin/memberships.csv streams the filtered memberships list as CSV: the list's filters,
 * readers and order (memberships-list.ts), its columns plus fulfillment mode, next charge date, a pause's last month
 * and a scheduled cancel's, every cell through the shared formula guard; 50,000 rows with bounded memory. The clock
 * is 2026-03-05 (New York).
 */

let t: TestApp;
const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};
let farmId = 0;
let bakeryId = 0;

async function download(url: string, token?: string) {
  const res = await t.app.inject({ method: "GET", url, headers: token ? { authorization: `Bearer ${token}` } : {} });
  const lines = res.body.split("\r\n");
  return { status: res.statusCode, headers: res.headers, body: res.body, lines: lines.slice(0, -1), json: res.headers["content-type"]?.includes("json") ? res.json() : null };
}

const ctxOf = (actor: Actor) => ({ db: t.db.prisma, clock: t.clock, config: t.config, log: console, actor, tenant: null, ip: "127.0.0.1", roleCache: new Map() }) as ServiceContext;

/** The list's own answer for the same reader and filter: the ids, in its order. */
async function listIds(actor: Actor, filter: MembershipFilter) {
  return (await list(ctxOf(actor), filter, { take: 500, select: { id: true } })).rows.map((r) => r.id);
}

/** The CSV's rows as the service walks them (the REST route's `status` takes the statuses only), by column name. */
async function csvRecords(actor: Actor, filter: MembershipFilter) {
  const out: Record<(typeof MEMBERSHIP_CSV_HEADER)[number], string | number | null>[] = [];
  for await (const row of await membershipCsvRows(ctxOf(actor), filter)) out.push(Object.fromEntries(MEMBERSHIP_CSV_HEADER.map((name, i) => [name, row[i]])) as never);
  return out;
}

const adminActor = async (): Promise<Actor> => ({
  kind: "user",
  user: await t.db.prisma.user.findUniqueOrThrow({ where: { username: "root" }, select: { id: true, publicId: true, username: true, isAdmin: true } }),
  session: { id: 0, tenantSlug: null },
});

const idsOf = (lines: string[]) => lines.slice(1).map((l) => Number(l.split(",")[0]));

beforeAll(async () => {
  t = await createTestApp();
  const f = factories(t);
  const farm = await f.business({ slug: "farm", name: "Green Farm, Inc." });
  const bakery = await f.business({ slug: "bakery", name: "Bakery" });
  farmId = farm.id;
  bakeryId = bakery.id;
  const veg = await f.plan(farm, { name: "Veg Box", prices: { PICKUP: 2400, DELIVERY: 2900 } });
  const bread = await f.plan(bakery, { name: "Bread" });
  const users = {
    admin: await f.user({ username: "root", isAdmin: true }),
    owner: await f.user({ username: "olivia" }),
    viewer: await f.user({ username: "vera" }),
    bakerOwner: await f.user({ username: "ben" }),
    member: await f.user({ username: "mara", email: "mara@example.com", name: "Mara" }),
  };
  await f.attach(farm, users.owner, "OWNER");
  await f.attach(farm, users.viewer, "VIEWER");
  await f.attach(bakery, users.bakerOwner, "OWNER");
  for (const [k, u] of Object.entries(users)) tokens[k] = await f.session(u);
  tokens.partner = await f.partnerToken(farm, users.owner);

  const m = (username: string, o: { email?: string; name?: string } = {}) => f.user({ username, ...o });
  const active = await f.subscription({ user: users.member, business: farm, plan: veg, startedAt: "2026-01-01T12:00:00Z", providerSubscriptionId: "sub_1", email: "box@example.com" });
  const skipping = await f.subscription({ user: await m("sam"), business: farm, plan: veg, mode: "DELIVERY", startedAt: "2026-01-02T12:00:00Z" });
  await t.db.prisma.skip.create({ data: { subscriptionId: skipping.id, yearMonth: "2026-04" } });
  const pastDue = await f.subscription({ user: await m("pat"), business: farm, plan: veg, status: "PAST_DUE", paidThroughPeriod: "2026-02", startedAt: "2026-01-03T12:00:00Z" });
  // Declined on its billing day (Mar 1 in New York): retried one day later.
  await t.db.prisma.payment.create({
    data: { userId: pastDue.userId, subscriptionId: pastDue.id, provider: "sandbox", providerPaymentId: "pi_declined", idempotencyKey: `renewal:${pastDue.id}:2026-03:1`, amountCents: 3000, status: "FAILED", createdAt: new Date("2026-03-01T14:00:00Z") },
  });
  const pastDueNoAttempt = await f.subscription({ user: await m("quinn"), business: farm, plan: veg, status: "PAST_DUE", paidThroughPeriod: "2026-02", startedAt: "2026-01-04T12:00:00Z" });
  const canceled = await f.subscription({ user: await m("cora"), business: farm, plan: veg, status: "CANCELED", startedAt: "2026-01-05T12:00:00Z", canceledAt: "2026-02-10T09:30:00Z" });
  const injected = await f.subscription({ user: await m("=HYPERLINK(\"http://evil\",\"x\")", { email: "@evil.example" }), business: farm, plan: veg, startedAt: "2026-01-06T12:00:00Z" });
  const incomplete = await f.subscription({ user: await m("ivan"), business: farm, plan: veg, status: "INCOMPLETE", startedAt: "2026-01-07T12:00:00Z" });
  const baker = await f.subscription({ user: await m("bea"), business: bakery, plan: bread, startedAt: "2026-01-08T12:00:00Z" });
  // Cancels the members scheduled: after their paid-through month (past due: the last month paid).
  const ending = await f.subscription({ user: await m("erin"), business: farm, plan: veg, startedAt: "2026-01-09T12:00:00Z" });
  await t.db.prisma.subscription.update({ where: { id: ending.id }, data: { cancelAfterPeriod: "2026-03" } });
  await t.db.prisma.subscription.update({ where: { id: pastDueNoAttempt.id }, data: { cancelAfterPeriod: "2026-02" } });
  Object.assign(ids, { active: active.id, skipping: skipping.id, pastDue: pastDue.id, pastDueNoAttempt: pastDueNoAttempt.id, canceled: canceled.id, injected: injected.id, incomplete: incomplete.id, baker: baker.id, ending: ending.id });
});
afterAll(() => t?.close());

describe("GET /api/admin/memberships.csv", () => {
  it("answers the filtered list as a CSV attachment: the browser export's columns plus mode, next charge date, pause and cancel", async () => {
    const res = await download(`/api/admin/memberships.csv?business=farm`, tokens.owner);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toBe('attachment; filename="memberships-farm-2026-03-05.csv"');
    expect(res.lines[0]).toBe(
      "subscription_id,provider_subscription_id,public_id,username,email,business_slug,business_name,plan,status,started_at,canceled_at,fulfillment_mode,next_charge_date,paused_through,cancel_after",
    );
    const row = (id: number) => res.lines.find((l) => l.startsWith(`${id},`))!;
    const publicId = async (id: number) => (await t.db.prisma.subscription.findUniqueOrThrow({ where: { id }, select: { user: { select: { publicId: true } } } })).user.publicId;
    expect(row(ids.active)).toBe(`${ids.active},sub_1,${await publicId(ids.active)},mara,box@example.com,farm,"Green Farm, Inc.",Veg Box,Active,2026-01-01T12:00:00.000Z,,Pickup,2026-04-01,,`);
    // Paid through March with April skipped: charged next on May's billing day; paused through April (April's box is the next one).
    expect(row(ids.skipping)).toBe(`${ids.skipping},,${await publicId(ids.skipping)},sam,,farm,"Green Farm, Inc.",Veg Box,Active,2026-01-02T12:00:00.000Z,,Delivery,2026-05-01,2026-04,`);
    // Past due: the next retry of the declined March renewal (1 day after it), or March's billing day while none was tried.
    expect(row(ids.pastDue)).toMatch(/,Veg Box,Past due,2026-01-03T12:00:00.000Z,,Pickup,2026-03-02,,$/);
    // Ending after February, the month it is paid through: no next charge (the renewal run cancels it instead).
    expect(row(ids.pastDueNoAttempt)).toMatch(/,Past due,2026-01-04T12:00:00.000Z,,Pickup,,,2026-02$/);
    expect(row(ids.canceled)).toMatch(/,Canceled,2026-01-05T12:00:00.000Z,2026-02-10T09:30:00.000Z,Pickup,,,$/);
    expect(row(ids.ending)).toMatch(/,erin,,farm,"Green Farm, Inc.",Veg Box,Active,2026-01-09T12:00:00.000Z,,Pickup,,,2026-03$/);
    // Newest first, as the list; checkouts never completed are no memberships.
    expect(idsOf(res.lines)).toEqual([ids.ending, ids.injected, ids.canceled, ids.pastDueNoAttempt, ids.pastDue, ids.skipping, ids.active]);
  });

  it("guards formula cells with the shared rule (a quote in front), quoting as CSV needs", async () => {
    const res = await download(`/api/admin/memberships.csv?q=evil`, tokens.admin);
    expect(res.lines).toHaveLength(2);
    expect(res.lines[1]).toContain(`,"'=HYPERLINK(""http://evil"",""x"")",'@evil.example,farm,`);
  });

  it("filters exactly as the list: status, search and business, for each reader", async () => {
    const admin = await adminActor();
    const cases: [string, MembershipFilter][] = [
      ["", {}],
      ["?status=past_due", { status: "PAST_DUE" }],
      ["?status=active", { status: "ACTIVE" }],
      ["?status=canceled", { status: "CANCELED" }],
      ["?q=MAR", { search: "MAR" }],
      ["?q=bakery&status=active", { search: "bakery", status: "ACTIVE" }],
      [`?business=${bakeryId}`, { businessId: bakeryId }],
    ];
    for (const [query, filter] of cases) {
      const res = await download(`/api/admin/memberships.csv${query}`, tokens.admin);
      expect(res.status, query).toBe(200);
      expect(idsOf(res.lines), query).toEqual(await listIds(admin, filter));
    }
    expect((await download(`/api/admin/memberships.csv`, tokens.admin)).headers["content-disposition"]).toBe('attachment; filename="memberships-all-2026-03-05.csv"');
    expect(idsOf((await download(`/api/admin/memberships.csv?status=past_due`, tokens.admin)).lines).sort()).toEqual([ids.pastDue, ids.pastDueNoAttempt].sort());
  });

  it("tenant isolation: staff get their businesses' rows only; a viewer and the partner token may export; a member may not", async () => {
    const owner = await download(`/api/admin/memberships.csv`, tokens.owner);
    expect(owner.lines.length).toBe(8);
    expect(idsOf(owner.lines)).not.toContain(ids.baker);
    expect(idsOf((await download(`/api/admin/memberships.csv`, tokens.viewer)).lines)).toEqual(idsOf(owner.lines));
    expect(idsOf((await download(`/api/admin/memberships.csv`, tokens.partner)).lines)).toEqual(idsOf(owner.lines));
    expect(idsOf((await download(`/api/admin/memberships.csv`, tokens.bakerOwner)).lines)).toEqual([ids.baker]);

    const other = await download(`/api/admin/memberships.csv?business=${farmId}`, tokens.bakerOwner);
    expect(other.status).toBe(403);
    expect(other.json).toMatchObject({ reason: "forbidden" });
    const member = await download(`/api/admin/memberships.csv`, tokens.member);
    expect(member.status).toBe(403);
    expect(member.json).toMatchObject({ error: "You do not have permission to do this." });
    expect((await download(`/api/admin/memberships.csv`)).status).toBe(401);
  });

  it("the service's Paused and Ending filters (the web list's; REST's status does not take them) list exactly those rows, with their months", async () => {
    const admin = await adminActor();
    const paused = await csvRecords(admin, { status: "PAUSED" });
    expect(paused.map((r) => r.subscription_id)).toEqual([ids.skipping]);
    expect(paused[0]).toMatchObject({ status: "Active", paused_through: "2026-04", cancel_after: null });
    const ending = await csvRecords(admin, { status: "ENDING" });
    expect(ending.map((r) => [r.subscription_id, r.status, r.cancel_after])).toEqual([
      [ids.ending, "Active", "2026-03"],
      [ids.pastDueNoAttempt, "Past due", "2026-02"],
    ]);
    expect(ending.map((r) => r.subscription_id)).toEqual(await listIds(admin, { status: "ENDING" }));
    expect((await download(`/api/admin/memberships.csv?status=paused`, tokens.admin)).status).toBe(400);
  });

  it("a bad filter is a 400 naming it; an unknown business a 404", async () => {
    const bad = await download(`/api/admin/memberships.csv?status=sleeping`, tokens.admin);
    expect(bad.status).toBe(400);
    expect(bad.json.issues.map((i: { path: string }) => i.path)).toEqual(["status"]);
    expect((await download(`/api/admin/memberships.csv?business=nowhere`, tokens.admin)).status).toBe(404);
  });
});

describe("50,000 memberships", () => {
  let port = 0;
  let token = "";
  let statements = 0;
  let fullWalkStatements = 0;
  it("stream with bounded memory (peak printed)", { timeout: 240_000 }, async () => {
    t.db.onStatement(() => statements++);
    const db = t.db.prisma;
    const n = 50_000;
    const started = Date.now();
    await db.$executeRawUnsafe(
      `INSERT INTO users (username, public_id, password_hash, email, updated_at)
       SELECT 'bulk-' || g, 'bulk-public-' || g, 'x', 'bulk' || g || '@example.com', now() FROM generate_series(1, ${n}) g`,
    );
    const f = factories(t);
    const bulk = await f.business({ slug: "bulk", name: "Bulk Box" });
    const plan = await f.plan(bulk, { name: "Bulk" });
    const owner = await f.user({ username: "owner-of-bulk" });
    await f.attach(bulk, owner, "OWNER");
    token = await f.session(owner);
    await db.$executeRawUnsafe(
      `INSERT INTO subscriptions (user_id, business_id, plan_id, status, mode, plan_amount_cents, total_cents, paid_through_period, started_at, updated_at)
       SELECT u.id, ${bulk.id}, ${plan.id}, (CASE WHEN u.id % 10 = 0 THEN 'PAST_DUE' ELSE 'ACTIVE' END)::"SubscriptionStatus", 'PICKUP', 3000, 3000, '2026-03',
              timestamp '2025-01-01' + (u.id || ' seconds')::interval, now()
         FROM users u WHERE u.username LIKE 'bulk-%'`,
    );
    // Every seventh paused for April and May (the next box's month: April), every eleventh ending after March.
    await db.$executeRawUnsafe(
      `INSERT INTO skips (subscription_id, year_month) SELECT s.id, m FROM subscriptions s, unnest(ARRAY['2026-04', '2026-05']) m WHERE s.business_id = ${bulk.id} AND s.user_id % 7 = 0`,
    );
    await db.$executeRawUnsafe(`UPDATE subscriptions SET cancel_after_period = '2026-03' WHERE business_id = ${bulk.id} AND user_id % 11 = 0`);
    console.log(`inserted ${n} memberships in ${Date.now() - started} ms`);

    await t.app.listen({ port: 0, host: "127.0.0.1" });
    port = (t.app.server.address() as AddressInfo).port;
    // Warm up first with a whole walk (the route's code compiled and optimised for pages of 1,000 rows, the pool's
    // connection and its buffers grown), so the figures are the stream's own: a short warm-up left the first half
    // of the measured walk still growing the heap by a megabyte or two of code and buffers, then flat.
    await download(`/api/admin/memberships.csv?business=bulk`, token);
    // A collection before each live-heap sample, so garbage not yet collected does not count as held.
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc") as () => void;
    gc();
    const base = process.memoryUsage();
    let peakHeap = base.heapUsed;
    let peakRss = base.rss;
    let peakLive = base.heapUsed;
    let nextLiveAt = 5_000;
    const liveSamples: number[] = [];
    const sample = () => {
      const m = process.memoryUsage();
      peakHeap = Math.max(peakHeap, m.heapUsed);
      peakRss = Math.max(peakRss, m.rss);
    };
    const timer = setInterval(sample, 20);
    const t0 = Date.now();
    statements = 0;
    // Read as it arrives, counting lines and bytes, keeping nothing.
    const { status, lines, bytes } = await new Promise<{ status: number; lines: number; bytes: number }>((resolve, reject) => {
      http
        .get({ host: "127.0.0.1", port, path: `/api/admin/memberships.csv?business=bulk`, headers: { authorization: `Bearer ${token}` } }, (res) => {
          let lines = 0;
          let bytes = 0;
          res.on("data", (chunk: Buffer) => {
            bytes += chunk.length;
            for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
            sample();
            if (lines >= nextLiveAt) {
              nextLiveAt += 5_000;
              gc();
              const live = process.memoryUsage().heapUsed;
              liveSamples.push(live);
              peakLive = Math.max(peakLive, live);
            }
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, lines, bytes }));
          res.on("error", reject);
        })
        .on("error", reject);
    });
    clearInterval(timer);
    fullWalkStatements = statements;
    const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
    console.log(
      `memberships CSV: ${lines} lines, ${mb(bytes)} in ${Date.now() - t0} ms; heap ${mb(base.heapUsed)} -> peak ${mb(peakHeap)} (+${mb(peakHeap - base.heapUsed)}, garbage included), ` +
        `live heap after collection, every 5,000 rows: peak ${mb(peakLive)} (+${mb(peakLive - base.heapUsed)}; ${liveSamples.map((b) => (b - base.heapUsed) / 1024 / 1024).map((x) => x.toFixed(1)).join(", ")}); rss ${mb(base.rss)} -> peak ${mb(peakRss)} (+${mb(peakRss - base.rss)})`,
    );
    expect(status).toBe(200);
    expect(lines).toBe(n + 1);
    // Loose: what the stream holds (a 1,000-row page and the socket's buffers) stays well under the whole file,
    // which as row objects would be several times its size as text.
    expect(peakLive - base.heapUsed).toBeLessThan(bytes * 2);
    // And it does not grow with the rows: the second half of the stream holds no more than the first.
    const half = Math.floor(liveSamples.length / 2);
    expect(Math.max(...liveSamples.slice(half)) - Math.max(...liveSamples.slice(0, half))).toBeLessThan(bytes / 4);
  });

  it("a client that leaves mid-download stops the database walk within the page it was reading", { timeout: 60_000 }, async () => {
    statements = 0;
    let rows = 0;
    let atAbort = 0;
    // The whole file is 50 pages of 1,000, each with its page's retry dates (the download above); the client reads
    // its first chunk and hangs up (the socket's buffers have taken the first pages by then).
    await new Promise<void>((resolve, reject) => {
      const req = http.get({ host: "127.0.0.1", port, path: `/api/admin/memberships.csv?business=bulk`, headers: { authorization: `Bearer ${token}` } }, (res) => {
        res.once("data", (chunk: Buffer) => {
          for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) rows++;
          atAbort = statements;
          req.destroy();
          resolve();
        });
      });
      req.on("error", (err) => (req.destroyed ? undefined : reject(err)));
    });
    // Wait for the walk to settle: no statement for a second (a walk going on issues one every few milliseconds).
    for (let seen = -1; seen !== statements; ) {
      seen = statements;
      await new Promise((r) => setTimeout(r, 1000));
    }
    const after = statements - atAbort;
    console.log(`memberships CSV left after its first chunk (${rows} lines): ${atAbort} statements before the client left, ${after} after; the whole download: ${fullWalkStatements}`);
    expect(rows).toBeLessThan(50_000);
    // At most what the page being read when the client left takes (its rows and their retry dates), far from the
    // whole walk.
    expect(after).toBeLessThanOrEqual(Math.ceil(fullWalkStatements / 50));
    expect(fullWalkStatements).toBeGreaterThanOrEqual(100);
    expect(atAbort + after).toBeLessThan(fullWalkStatements / 2);
  });

  it("the Paused and Ending filters walk their thousands of rows page by page (keyset), each once, newest first", { timeout: 60_000 }, async () => {
    const bulk = await t.db.prisma.business.findUniqueOrThrow({ where: { slug: "bulk" }, select: { id: true } });
    const owner = await t.db.prisma.user.findUniqueOrThrow({ where: { username: "owner-of-bulk" }, select: { id: true, publicId: true, username: true, isAdmin: true } });
    const actor: Actor = { kind: "user", user: owner, session: { id: 0, tenantSlug: null } };
    const members = await t.db.prisma.subscription.findMany({ where: { businessId: bulk.id }, select: { id: true, userId: true, status: true, startedAt: true } });
    const newestFirst = (a: { startedAt: Date; id: number }, b: { startedAt: Date; id: number }) => b.startedAt.getTime() - a.startedAt.getTime() || b.id - a.id;
    const expected = {
      PAUSED: members.filter((m) => m.status === "ACTIVE" && m.userId % 7 === 0).sort(newestFirst).map((m) => m.id),
      ENDING: members.filter((m) => m.userId % 11 === 0).sort(newestFirst).map((m) => m.id),
    };
    for (const status of ["PAUSED", "ENDING"] as const) {
      statements = 0;
      const rows = await csvRecords(actor, { status, businessId: bulk.id });
      // More than a page of 1,000: the walk goes on from each page's last key.
      expect(expected[status].length).toBeGreaterThan(4000);
      expect(rows.map((r) => r.subscription_id)).toEqual(expected[status]);
      if (status === "PAUSED") expect(new Set(rows.map((r) => r.paused_through))).toEqual(new Set(["2026-05"]));
      else expect(new Set(rows.map((r) => r.cancel_after))).toEqual(new Set(["2026-03"]));
      console.log(`memberships CSV, ${status}: ${rows.length} rows in ${statements} statements`);
    }
  });
});
