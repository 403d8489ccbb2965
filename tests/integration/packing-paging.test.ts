/**
 * A month's boxes are read in keyset pages in the database, open or frozen. The packing CSV of an open
 * month walks the preview's memberships a page at a time, each page priced by the renewal's code, and its rows are
 * the preview's boxes in the preview's order across page boundaries; a few thousand members stream with bounded
 * memory (peak printed). The GraphQL `boxes` connection pages the same way: first, next and last pages, opaque
 * cursors that name a box (not an offset), on the preview and on the frozen snapshot. The clock is 2026-04-02
 * (New York); April is billed on the 3rd.
 */
import http from "node:http";
import v8 from "node:v8";
import vm from "node:vm";
import type { AddressInfo } from "node:net";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor, ServiceContext } from "../../api/context.ts";
import { packingCsvRows } from "../../api/packing/packing-csv.ts";
import { packingKeyOf, previewBusiness, previewBoxPage, previewOf, type Box, type PackingKey } from "../../api/packing/preview.ts";
import { freeze } from "../../api/packing/snapshot.ts";
import { MODE_NAMES } from "../../api/shared/fulfillment.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";

let t: TestApp;
let f: Factories;
const APRIL = "2026-04";
const tokens: Record<string, string> = {};
let farm: { id: number };
let adminActor: Actor;
let statements = 0;

const address = (fullName: string) => ({ fullName, phone: "555-0100", street: "1 Main St", apt: "", city: "Hudson", state: "NY", zip: "12534", country: "US", instructions: "" });
const ctx = () => ({ db: t.db.prisma, clock: t.clock, config: t.config, log: pino({ level: "silent" }), actor: adminActor, tenant: null, ip: "127.0.0.1", roleCache: new Map() }) as unknown as ServiceContext;

beforeAll(async () => {
  t = await createTestApp({ now: "2026-04-02T15:00:00Z" });
  f = factories(t);
  t.db.onStatement(() => statements++);
  farm = await f.business({
    slug: "farm",
    page: { billingDay: 3, cutoffDay: 10, taxEnabled: true, taxRateBps: 575, pickupEnabled: true, shippingEnabled: true, deliveryEnabled: true, pickupPoints: ["Barn", "Market", "orchard"], deliveryAreas: ["Downtown"] },
  });
  const small = await f.plan(farm, { name: "Small Box", prices: { PICKUP: 2000, SHIPPING: 2600, DELIVERY: 2400 } });
  const family = await f.plan(farm, { name: "Family Box", prices: { PICKUP: 3000, SHIPPING: 3600 } });
  const eggs = await f.addon(farm, { name: "Eggs", amountCents: 500 });
  const honey = await f.addon(farm, { name: "Honey", amountCents: 700 });

  type Mode = "PICKUP" | "SHIPPING" | "DELIVERY";
  const sub = async (
    name: string | null,
    o: { mode?: Mode; point?: string; plan?: { id: number }; paidThrough?: string | null; pastDue?: boolean; addressName?: string; addons?: { id: number; amountCents: number }[]; gift?: string } = {},
  ) => {
    const user = await f.user({ name: name ?? undefined, email: name ? `${name.toLowerCase().replace(/\W/g, "")}@example.com` : undefined });
    const s = await f.subscription({ user, business: farm, plan: o.plan ?? small, mode: o.mode ?? "PICKUP", planAmountCents: 2000, addons: o.addons, paidThroughPeriod: o.paidThrough === undefined ? "2026-03" : o.paidThrough, status: o.pastDue ? "PAST_DUE" : "ACTIVE" });
    await t.db.prisma.subscription.update({
      where: { id: s.id },
      data: { billingDay: 3, fulfillmentPoint: o.point ?? "", address: o.addressName === undefined ? address(name ?? "") : o.addressName ? address(o.addressName) : undefined, isGift: !!o.gift, giftMessage: o.gift ?? "" },
    });
    if (o.pastDue) {
      await t.db.prisma.payment.create({
        data: { userId: user.id, subscriptionId: s.id, provider: "sandbox", providerPaymentId: `pi_declined_${s.id}`, idempotencyKey: `renewal:${s.id}:${APRIL}:1`, amountCents: 2000, status: "FAILED", createdAt: new Date("2026-04-01T14:00:00Z") },
      });
    }
    return s;
  };
  // Three of the same name at the same point (a page boundary between them is ordered by membership), lower and
  // upper case points, a member named by the address or the username only.
  for (let i = 0; i < 3; i++) await sub("Sam", { point: "Barn" });
  await sub("Amy", { point: "Barn", addons: [{ id: eggs.id, amountCents: 500 }, { id: honey.id, amountCents: 700 }] });
  await sub("Dee", { point: "Market", pastDue: true, paidThrough: "2026-03" });
  await sub("zoe", { point: "orchard" });
  await sub(null, { point: "Market", addressName: "Hal from the address" });
  await sub(null, { point: "Market", addressName: "" });
  await sub("Cy", { mode: "SHIPPING" });
  await sub("Bo", { mode: "DELIVERY", point: "Downtown", gift: "Happy birthday" });
  // Paid for April already.
  const paid = await sub("Pia", { point: "orchard", paidThrough: APRIL });
  await f.order({ subscription: paid, period: APRIL, totalCents: 2115, kind: "INITIAL" });
  // A change to the Family Box, shipped, with eggs, from April: the April box moves to Shipping at the new price.
  const carol = await sub("Carol", { point: "Barn" });
  await t.db.prisma.subscriptionChange.create({ data: { subscriptionId: carol.id, planId: family.id, mode: "SHIPPING", addonIds: [eggs.id], effectivePeriod: APRIL } });
  // A change from May: April is packed as it is.
  const mo = await sub("Mo", { point: "Market" });
  await t.db.prisma.subscriptionChange.create({ data: { subscriptionId: mo.id, planId: family.id, mode: "SHIPPING", addonIds: [], effectivePeriod: "2026-05" } });
  // A change to a mode its plan has no price for: the renewal keeps the current selection.
  const nel = await sub("Nel", { point: "Barn" });
  await t.db.prisma.subscriptionChange.create({ data: { subscriptionId: nel.id, planId: family.id, mode: "DELIVERY", fulfillmentPoint: "Downtown", addonIds: [], effectivePeriod: APRIL } });
  // No box: skipped, refunded, canceled.
  const skip = await sub("Skip", { point: "Barn" });
  await t.db.prisma.skip.create({ data: { subscriptionId: skip.id, yearMonth: APRIL } });
  const refunded = await sub("Ref", { point: "Barn", paidThrough: APRIL });
  await f.order({ subscription: refunded, period: APRIL, totalCents: 2115, refundedCents: 2115 });
  await sub("Cass", { point: "Barn" }).then((s) => t.db.prisma.subscription.update({ where: { id: s.id }, data: { status: "CANCELED" } }));

  const admin = await f.user({ isAdmin: true, username: "paging-admin" });
  adminActor = { kind: "user", user: { id: admin.id, publicId: admin.publicId, username: admin.username, isAdmin: true }, session: { id: 0, tenantSlug: null } };
  const owner = await f.user();
  await f.attach(farm, owner, "OWNER");
  tokens.owner = await f.session(owner);
});
afterAll(() => t?.close());

const hold = (b: Box) => (b.hold ? "hold — payment failed" : "");
/** The CSV columns that tell a box apart, as the preview's box gives them. */
const csvOf = (b: Box) => [MODE_NAMES[b.mode], b.fulfillmentPoint, b.memberName, b.planName, b.addons.map((a) => a.name).join("; "), b.isGift ? b.giftMessage : "", hold(b), (b.totalCents / 100).toFixed(2)];
const csvCols = (row: (string | number | null)[]) => [row[0], row[1], row[2], row[5], row[6], row[15], row[16], row[17]];

async function collect<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const r of rows) out.push(r);
  return out;
}

describe("the open month's boxes in keyset pages", () => {
  it("are the preview's boxes, in its order, whatever the page size (page boundaries between equal names, across modes)", async () => {
    const preview = await previewOf(t.db.prisma, farm.id, APRIL);
    const names = preview.boxes.map((b) => `${b.mode}/${b.fulfillmentPoint}/${b.memberName}`);
    // The database's order (the frozen month's too): points in its collation, equal names by membership.
    expect(names).toEqual([
      "PICKUP/Barn/Amy",
      "PICKUP/Barn/Nel",
      "PICKUP/Barn/Sam",
      "PICKUP/Barn/Sam",
      "PICKUP/Barn/Sam",
      "PICKUP/Market/Dee",
      "PICKUP/Market/Hal from the address",
      "PICKUP/Market/Mo",
      expect.stringMatching(/^PICKUP\/Market\/user\d+$/),
      "PICKUP/orchard/Pia",
      "PICKUP/orchard/zoe",
      "SHIPPING//Carol",
      "SHIPPING//Cy",
      "DELIVERY/Downtown/Bo",
    ]);
    expect(preview.boxes.find((b) => b.memberName === "Carol")).toMatchObject({ planName: "Family Box", addons: [{ name: "Eggs" }], totalCents: 4336 });

    const business = await previewBusiness(t.db.prisma, farm.id);
    for (const take of [1, 2, 3, 5, 14, 100]) {
      const walked: Box[] = [];
      for (let after: PackingKey | null = null; ; ) {
        const page = await previewBoxPage(t.db.prisma, business, APRIL, { after, take });
        walked.push(...page);
        if (page.length < take) break;
        after = packingKeyOf(page[page.length - 1]);
      }
      expect(walked, `pages of ${take}`).toEqual(preview.boxes);

      const rows = await collect(await packingCsvRows(ctx(), farm.id, APRIL, { pageRows: take }));
      expect(rows.map(csvCols), `CSV pages of ${take}`).toEqual(preview.boxes.map(csvOf));
    }
    const pickup = await collect(await packingCsvRows(ctx(), farm.id, APRIL, { mode: "PICKUP", pageRows: 2 }));
    expect(pickup.map(csvCols)).toEqual(preview.boxes.filter((b) => b.mode === "PICKUP").map(csvOf));
    // Backwards (the connection's `last`): the same boxes, nearest the cursor first.
    const last = await previewBoxPage(t.db.prisma, business, APRIL, { before: packingKeyOf(preview.boxes[12]), take: 4, reverse: true });
    expect(last).toEqual(preview.boxes.slice(8, 12).reverse());
  });

  it("the download stops at the next page once the client has gone (no further statements)", async () => {
    const left = new AbortController();
    const rows = await packingCsvRows(ctx(), farm.id, APRIL, { pageRows: 2 }, left.signal);
    const first = await rows.next();
    expect(first.done).toBe(false);
    await rows.next(); // the rest of the first page, already read
    left.abort();
    statements = 0;
    expect((await rows.next()).done).toBe(true);
    expect(statements).toBe(0);
  });
});

const BOXES = `query($first: Int, $after: String, $last: Int, $before: String, $mode: FulfillmentMode) { business(slug: "farm") { fulfilment(month: "2026-04") {
  state
  boxes(first: $first, after: $after, last: $last, before: $before, mode: $mode) {
    edges { cursor node { membershipId memberName mode fulfillmentPoint planName totalCents hold } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
} } }`;
type Conn = { edges: { cursor: string; node: { membershipId: string; memberName: string; mode: string; fulfillmentPoint: string; planName: string; totalCents: number; hold: string | null } }[]; pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string; endCursor: string } };

async function boxes(vars: { first?: number; after?: string; last?: number; before?: string; mode?: string }): Promise<Conn & { state: string }> {
  const res = await t.gql(BOXES, vars, { token: tokens.owner });
  expect(res.errors).toBeUndefined();
  return { ...res.data.business.fulfilment.boxes, state: res.data.business.fulfilment.state };
}

/** Every page of `size` from the first: the pages and their boxes in order. */
async function walkPages(size: number, mode?: string) {
  const pages: Conn[] = [];
  for (let after: string | undefined; ; ) {
    const page = await boxes({ first: size, after, mode });
    pages.push(page);
    if (!page.pageInfo.hasNextPage) break;
    after = page.pageInfo.endCursor;
  }
  return { pages, nodes: pages.flatMap((p) => p.edges.map((e) => e.node)) };
}

const label = (b: { memberName: string; mode: string; fulfillmentPoint: string; totalCents: number }) => `${b.mode}/${b.fulfillmentPoint}/${b.memberName}/${b.totalCents}`;

describe("the boxes connection (the Fulfilment screen's packing lists)", () => {
  it("pages an open month in the database: first, next and last pages; the pages together are the preview's boxes", async () => {
    const expected = (await previewOf(t.db.prisma, farm.id, APRIL)).boxes.map((b) => label(b));
    expect(expected).toHaveLength(14);
    const { pages, nodes } = await walkPages(4);
    expect(pages.map((p) => p.edges.length)).toEqual([4, 4, 4, 2]);
    expect(pages[0].pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false, startCursor: pages[0].edges[0].cursor, endCursor: pages[0].edges[3].cursor });
    expect(pages[1].pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    expect(pages[3].pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    expect(nodes.map(label)).toEqual(expected);
    expect((await boxes({ first: 100 })).edges.map((e) => label(e.node))).toEqual(expected);
    // A page size that divides the list: the second full page is the last.
    const exact = await walkPages(7);
    expect(exact.pages.map((p) => [p.edges.length, p.pageInfo.hasNextPage])).toEqual([[7, true], [7, false]]);
    expect(exact.nodes.map(label)).toEqual(expected);
    // The last boxes, backwards from the end or before a cursor.
    const last = await boxes({ last: 3 });
    expect(last.edges.map((e) => label(e.node))).toEqual(expected.slice(-3));
    expect(last.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });
    const before = await boxes({ last: 2, before: pages[1].edges[0].cursor });
    expect(before.edges.map((e) => label(e.node))).toEqual(expected.slice(2, 4));
    // One list, paged.
    const pickup = await walkPages(3, "PICKUP");
    expect(pickup.nodes.map(label)).toEqual(expected.filter((l) => l.startsWith("PICKUP/")));
    expect(pickup.pages).toHaveLength(4);
  });

  it("a cursor names a box, not a position: the next page is the same when a box is added before it; a foreign cursor is refused", async () => {
    const first = await boxes({ first: 4 });
    const next = await boxes({ first: 4, after: first.pageInfo.endCursor });
    const small = await t.db.prisma.plan.findFirstOrThrow({ where: { businessId: farm.id, name: "Small Box" } });
    const user = await f.user({ name: "Aaron" });
    const aaron = await f.subscription({ user, business: farm, plan: small, paidThroughPeriod: APRIL });
    await t.db.prisma.subscription.update({ where: { id: aaron.id }, data: { fulfillmentPoint: "Barn" } });
    expect((await boxes({ first: 1 })).edges[0].node.memberName).toBe("Aaron");
    expect(await boxes({ first: 4, after: first.pageInfo.endCursor })).toEqual(next);
    await t.db.prisma.subscription.update({ where: { id: aaron.id }, data: { status: "CANCELED" } });

    for (const cursor of ["bm90IGEgY3Vyc29y", Buffer.from('PackingBox:["DRONE","","x",1]').toString("base64url"), Buffer.from("OffsetConnection:3").toString("base64")]) {
      const res = await t.gql(BOXES, { first: 2, after: cursor }, { token: tokens.owner });
      expect(res.errors?.[0]?.message, cursor).toBe("Not a cursor of these boxes.");
    }
  });

  it("pages a frozen month from its snapshot the same way; a cursor read before the freeze continues after it", async () => {
    // Everyone paid for April (Dee's charge still failed: on hold; Skip paid ahead before skipping), so the snapshot
    // holds every box of the preview: 15.
    await t.db.prisma.subscription.updateMany({ where: { businessId: farm.id, status: "ACTIVE" }, data: { paidThroughPeriod: APRIL } });
    const expected = (await previewOf(t.db.prisma, farm.id, APRIL)).boxes.map((b) => label(b));
    const open = await boxes({ first: 5 });
    expect(open.state).toBe("OPEN");

    const frozen = await freeze({ db: t.db.prisma, clock: t.clock }, farm.id, APRIL, { trigger: "operator" });
    expect(frozen.boxes).toBe(expected.length);
    const { pages, nodes } = await walkPages(5);
    expect(pages.map((p) => p.edges.length)).toEqual([5, 5, 5]);
    expect(pages[0].pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    expect(pages[2].pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    expect(nodes.map(label)).toEqual(expected);
    expect(nodes.find((b) => b.memberName === "Dee")?.hold).toBe("payment_failed");
    expect((await boxes({ first: 100 })).state).toBe("FROZEN");
    expect((await boxes({ first: 100 })).edges.map((e) => label(e.node))).toEqual(expected);
    expect((await boxes({ first: 5, after: open.pageInfo.endCursor })).edges.map((e) => e.cursor)).toEqual(pages[1].edges.map((e) => e.cursor));
    expect((await boxes({ last: 3 })).edges.map((e) => label(e.node))).toEqual(expected.slice(-3));
    expect((await boxes({ last: 2, before: pages[1].edges[0].cursor })).edges.map((e) => label(e.node))).toEqual(expected.slice(3, 5));
    const pickup = await walkPages(2, "PICKUP");
    expect(pickup.nodes.map(label)).toEqual(expected.filter((l) => l.startsWith("PICKUP/")));
  });
});

describe("a few thousand members", () => {
  it("stream as the packing CSV of an open month with bounded memory (peak printed)", { timeout: 120_000 }, async () => {
    const db = t.db.prisma;
    const n = 5_000;
    const big = await f.business({ slug: "big", page: { billingDay: 3, cutoffDay: 10, pickupEnabled: true, deliveryEnabled: true, pickupPoints: ["Barn", "Market"], deliveryAreas: ["Downtown"] } });
    const plan = await f.plan(big, { name: "Bulk", prices: { PICKUP: 2000, DELIVERY: 2400 } });
    const owner = await f.user({ username: "owner-of-big" });
    await f.attach(big, owner, "OWNER");
    const token = await f.session(owner);
    await db.$executeRawUnsafe(
      `INSERT INTO users (username, public_id, password_hash, name, email, updated_at)
       SELECT 'big-' || g, 'big-public-' || g, 'x', 'Member ' || lpad((g % 997)::text, 4, '0'), 'big' || g || '@example.com', now() FROM generate_series(1, ${n}) g`,
    );
    await db.$executeRawUnsafe(
      `INSERT INTO subscriptions (user_id, business_id, plan_id, status, mode, fulfillment_point, plan_amount_cents, total_cents, paid_through_period, billing_day, started_at, updated_at)
       SELECT u.id, ${big.id}, ${plan.id}, 'ACTIVE', (CASE WHEN u.id % 3 = 0 THEN 'DELIVERY' ELSE 'PICKUP' END)::"FulfillmentMode",
              CASE WHEN u.id % 3 = 0 THEN 'Downtown' WHEN u.id % 3 = 1 THEN 'Barn' ELSE 'Market' END, 2000, 2000,
              CASE WHEN u.id % 2 = 0 THEN '2026-04' ELSE '2026-03' END, 3, now(), now()
         FROM users u WHERE u.username LIKE 'big-%'`,
    );
    // Every tenth changes to delivery from April: priced page by page.
    await db.$executeRawUnsafe(
      `INSERT INTO subscription_changes (subscription_id, plan_id, mode, fulfillment_point, addon_ids, effective_period)
       SELECT s.id, ${plan.id}, 'DELIVERY', 'Downtown', '{}', '2026-04' FROM subscriptions s WHERE s.business_id = ${big.id} AND s.id % 10 = 0`,
    );
    const preview = await previewOf(db, big.id, APRIL);
    expect(preview.boxes).toHaveLength(n);
    const expected = preview.boxes.map((b) => `${MODE_NAMES[b.mode]},${b.fulfillmentPoint},${b.memberName},${(b.totalCents / 100).toFixed(2)}`);

    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = t.app.server.address() as AddressInfo;
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc") as () => void;
    gc();
    const base = process.memoryUsage();
    let peakHeap = base.heapUsed;
    let peakLive = base.heapUsed;
    let nextLiveAt = 500;
    const sample = () => {
      peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    };
    statements = 0;
    const t0 = Date.now();
    // Only the columns compared are kept (a few short strings a row), not the file.
    const { status, lines, bytes } = await new Promise<{ status: number; lines: string[]; bytes: number }>((resolve, reject) => {
      http
        .get({ host: "127.0.0.1", port, path: `/api/admin/businesses/${big.id}/fulfilment/${APRIL}/packing.csv`, headers: { authorization: `Bearer ${token}` } }, (res) => {
          const lines: string[] = [];
          let bytes = 0;
          let rest = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => {
            bytes += Buffer.byteLength(chunk);
            const parts = (rest + chunk).split("\r\n");
            rest = parts.pop()!;
            for (const l of parts) {
              const c = l.split(",");
              lines.push(`${c[0]},${c[1]},${c[2]},${c[17]}`);
            }
            sample();
            if (lines.length >= nextLiveAt) {
              nextLiveAt += 500;
              gc();
              peakLive = Math.max(peakLive, process.memoryUsage().heapUsed);
            }
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, lines, bytes }));
          res.on("error", reject);
        })
        .on("error", reject);
    });
    const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
    console.log(
      `packing CSV (open month, ${n} members): ${lines.length} lines, ${mb(bytes)} in ${Date.now() - t0} ms, ${statements} statements; heap ${mb(base.heapUsed)} -> peak ${mb(peakHeap)} ` +
        `(+${mb(peakHeap - base.heapUsed)}, garbage included), live heap after collection every 500 rows: peak +${mb(peakLive - base.heapUsed)}`,
    );
    expect(status).toBe(200);
    expect(lines).toHaveLength(n + 1);
    expect(lines.slice(1)).toEqual(expected);
  });
});
