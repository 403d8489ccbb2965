/**
 * `npm run bench:seed -- --db postgresql://postgres@127.0.0.1:5432/mp_bench [--seed 42] [--scale 1] [--reset]`
 *
 * Creates (or, with --reset, re-creates) a PostgreSQL database, applies the migrations and fills it with the
 * benchmark data set: 1,000 businesses (page, plans with variations, add-ons, an owner each),
 * 100,000 members with one membership each (active, skipped this month, canceled, past due), a saved sandbox
 * card per member, 1,000,000 orders and coupons. Rows are generated from a seeded PRNG (same seed, same rows)
 * and loaded with multi-row `INSERT … SELECT FROM unnest($1, $2, …)`, tens of thousands of rows per
 * statement, not through Prisma. `--scale 0.01` gives a quick 1 % data set.
 *
 * The billing clock of the benchmarks stands on BENCH_BILLING_INSTANT: every active or past-due membership
 * is then due for BENCH_PERIOD (paid through the month before), except the skipped ones.
 */
import { parseArgs } from "node:util";
import pg from "pg";
import { hashPassword } from "../../api/auth/passwords.ts";
import { openDatabase } from "../../api/db.ts";

export const BENCH_PASSWORD = "bench1234";
/** Day 28, the last possible billing day, in every zone of the data set: all unpaid memberships are due. */
export const BENCH_BILLING_INSTANT = "2026-04-28T18:00:00Z";
export const BENCH_PERIOD = "2026-04";
/** Ten paid periods per membership: 2025-06 … 2026-03. */
const PAID_PERIODS = Array.from({ length: 10 }, (_, i) => {
  const m = 5 + i; // months since 2025-01, zero-based
  return `${2025 + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, "0")}`;
});

const ZONES = ["America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles", "Europe/London", "Europe/Berlin"];
const FIRST = ["Ada", "Ben", "Cara", "Dev", "Elena", "Farid", "Grace", "Hugo", "Ines", "Jonas", "Kemal", "Lena", "Mila", "Noah", "Omar", "Priya", "Quinn", "Rosa", "Sami", "Tara", "Uma", "Viktor", "Wen", "Yara", "Zoe"];
const LAST = ["Abbott", "Brooks", "Castillo", "Dubois", "Eriksen", "Fischer", "Garcia", "Hughes", "Ivanova", "Jensen", "Kowalski", "Larsen", "Moreau", "Nakamura", "Okafor", "Patel", "Quist", "Rossi", "Silva", "Tanaka", "Umarov", "Vargas", "Weber", "Xu", "Young"];
const KINDS = ["Farm", "Roasters", "Bakery", "Creamery", "Apiary", "Orchard", "Fishery", "Vineyard"];
const PLACES = ["Green", "Hill", "River", "Oak", "Sunny", "Cedar", "Maple", "Stone", "Willow", "Harbor"];

/** mulberry32: small, fast, seedable. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)] };
}

type Column = [name: string, sqlType: string, values: unknown[]];

/** Multi-row insert of column arrays: one `INSERT … SELECT * FROM unnest(…)` per chunk. */
async function insertColumns(client: pg.Client, table: string, columns: Column[], chunk = 20_000): Promise<number> {
  const rows = columns[0][2].length;
  const names = columns.map(([n]) => `"${n}"`).join(", ");
  const params = columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(", ");
  const sql = `INSERT INTO "${table}" (${names}) SELECT * FROM unnest(${params})`;
  for (let from = 0; from < rows; from += chunk) {
    await client.query(sql, columns.map(([, , values]) => values.slice(from, from + chunk)));
  }
  return rows;
}

const ts = (d: Date) => d.toISOString().replace("T", " ").replace("Z", "");

export interface SeedOptions {
  url: string;
  seed?: number;
  scale?: number;
  reset?: boolean;
  log?: (line: string) => void;
}

export interface SeedSummary {
  businesses: number;
  members: number;
  subscriptions: number;
  orders: number;
  coupons: number;
  seconds: number;
}

export async function seedLarge(opts: SeedOptions): Promise<SeedSummary> {
  const log = opts.log ?? (() => {});
  const started = performance.now();
  const scale = opts.scale ?? 1;
  const rnd = prng(opts.seed ?? 42);
  const nBusinesses = Math.max(2, Math.round(1000 * scale));
  const nMembers = Math.max(20, Math.round(100_000 * scale));
  const nCoupons = Math.max(5, Math.round(200 * scale));

  // Create the database when missing (or re-create it with --reset); refuse to fill a non-empty one.
  const target = new URL(opts.url);
  const dbName = decodeURIComponent(target.pathname.slice(1));
  if (!/^[A-Za-z0-9_]+$/.test(dbName)) throw new Error(`Unexpected database name "${dbName}"`);
  const adminUrl = new URL(opts.url);
  adminUrl.pathname = "/postgres";
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  if (opts.reset) await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
  const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [dbName]);
  if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${dbName}"`);
  await admin.end();

  const db = await openDatabase({ url: opts.url, poolSize: 2 });
  await db.migrate();
  await db.close();

  const client = new pg.Client({ connectionString: opts.url });
  await client.connect();
  try {
    const { rows: [{ n }] } = await client.query(`SELECT count(*)::int AS n FROM businesses`);
    if (n > 0) throw new Error(`${dbName} already holds ${n} businesses: pass --reset to re-create it`);
    await client.query("SET synchronous_commit = off");
    const now = ts(new Date("2026-04-01T00:00:00Z"));
    const passwordHash = await hashPassword(BENCH_PASSWORD);

    // ---- users: one admin, one owner per business, the members ----------------------------------------------
    const nUsers = 1 + nBusinesses + nMembers;
    const users = { id: [] as number[], publicId: [] as string[], username: [] as string[], name: [] as (string | null)[], email: [] as (string | null)[], isAdmin: [] as boolean[], customer: [] as (string | null)[] };
    for (let id = 1; id <= nUsers; id++) {
      const first = rnd.pick(FIRST);
      const last = rnd.pick(LAST);
      const username = id === 1 ? "bench-admin" : id <= 1 + nBusinesses ? `owner-${id - 1}` : `${first}.${last}.${id}`.toLowerCase();
      users.id.push(id);
      users.publicId.push(`00000000-0000-4000-8000-${String(id).padStart(12, "0")}`);
      users.username.push(username);
      users.name.push(`${first} ${last}`);
      users.email.push(`${username}@example.com`);
      users.isAdmin.push(id === 1);
      users.customer.push(id > 1 + nBusinesses ? `cus_bench_${id}` : null);
    }
    await insertColumns(client, "users", [
      ["id", "int", users.id],
      ["public_id", "text", users.publicId],
      ["username", "text", users.username],
      ["password_hash", "text", users.id.map(() => passwordHash)],
      ["name", "text", users.name],
      ["email", "text", users.email],
      ["is_admin", "boolean", users.isAdmin],
      ["payment_customer_id", "text", users.customer],
      ["updated_at", "timestamp", users.id.map(() => now)],
    ]);
    log(`users: ${nUsers}`);

    // ---- businesses, pages, owners, catalogue --------------------------------------------------------------
    const biz = { id: [] as number[], slug: [] as string[], name: [] as string[], zone: [] as string[], billingDay: [] as number[], tax: [] as boolean[] };
    for (let id = 1; id <= nBusinesses; id++) {
      biz.id.push(id);
      biz.slug.push(`bench-${id}`);
      biz.name.push(`${rnd.pick(PLACES)} ${rnd.pick(PLACES)} ${rnd.pick(KINDS)} ${id}`);
      biz.zone.push(rnd.pick(ZONES));
      biz.billingDay.push(1 + rnd.int(28));
      biz.tax.push(rnd.next() < 0.3);
    }
    const bizNow = biz.id.map(() => now);
    await insertColumns(client, "businesses", [["id", "int", biz.id], ["slug", "text", biz.slug], ["name", "text", biz.name], ["time_zone", "text", biz.zone], ["updated_at", "timestamp", bizNow]]);
    const description = "<p>Seasonal produce, picked the morning of your box. Every month brings something new.</p>".repeat(4);
    await insertColumns(client, "pages", [
      ["business_id", "int", biz.id],
      ["brand_name", "text", biz.name],
      ["description_html", "text", biz.id.map(() => description)],
      ["gallery", "jsonb", biz.id.map((id) => JSON.stringify([{ url: `/uploads/bench-${id}-1.jpg` }, { url: `/uploads/bench-${id}-2.jpg` }]))],
      ["theme", "jsonb", biz.id.map(() => JSON.stringify({ primary: "#2f855a", pageBg: "#ffffff" }))],
      ["faqs", "jsonb", biz.id.map(() => JSON.stringify([{ q: "When is pickup?", a: "<p>Saturdays 9–12.</p>" }, { q: "Can I skip?", a: "<p>Yes, before the cutoff.</p>" }]))],
      ["shipping_enabled", "boolean", biz.id.map((id) => id % 2 === 0)],
      ["delivery_enabled", "boolean", biz.id.map((id) => id % 3 === 0)],
      ["tax_enabled", "boolean", biz.tax],
      ["billing_day", "int", biz.billingDay],
      ["updated_at", "timestamp", bizNow],
    ]);
    // Two pickup points each, and three delivery areas where delivery is offered (packing lists group by them).
    await client.query(`UPDATE pages SET pickup_points = ARRAY[business_id || ' Market Street', business_id || ' Station Square'],
      delivery_areas = CASE WHEN delivery_enabled THEN ARRAY['North side', 'South side', 'East side'] ELSE '{}' END`);
    await insertColumns(client, "business_users", [["business_id", "int", biz.id], ["user_id", "int", biz.id.map((id) => 1 + id)], ["role", `"BusinessRole"`, biz.id.map(() => "OWNER")]]);

    const PLANS_PER = 3;
    const ADDONS_PER = 4;
    const plan = { id: [] as number[], businessId: [] as number[], ref: [] as string[], name: [] as string[], position: [] as number[] };
    const variation = { planId: [] as number[], mode: [] as string[], amount: [] as number[] };
    const planPrice: number[] = [];
    for (const b of biz.id) {
      for (let p = 0; p < PLANS_PER; p++) {
        const id = plan.id.length + 1;
        const base = 2000 + 500 * rnd.int(9);
        plan.id.push(id);
        plan.businessId.push(b);
        plan.ref.push(`item_${id}`);
        plan.name.push(["Small box", "Family box", "Big box"][p]);
        plan.position.push(p);
        planPrice[id] = base;
        for (const [mode, extra] of [["PICKUP", 0], ["SHIPPING", 900], ["DELIVERY", 500]] as const) {
          variation.planId.push(id);
          variation.mode.push(mode);
          variation.amount.push(base + extra);
        }
      }
    }
    const planNow = plan.id.map(() => now);
    await insertColumns(client, "plans", [["id", "int", plan.id], ["business_id", "int", plan.businessId], ["ref", "text", plan.ref], ["name", "text", plan.name], ["description", "text", plan.id.map(() => "A box of what is in season.")], ["position", "int", plan.position], ["updated_at", "timestamp", planNow]]);
    await insertColumns(client, "plan_variations", [["plan_id", "int", variation.planId], ["mode", `"FulfillmentMode"`, variation.mode], ["amount_cents", "int", variation.amount]]);
    const addon = { id: [] as number[], businessId: [] as number[], ref: [] as string[], name: [] as string[], amount: [] as number[], position: [] as number[] };
    for (const b of biz.id) {
      for (let a = 0; a < ADDONS_PER; a++) {
        const id = addon.id.length + 1;
        addon.id.push(id);
        addon.businessId.push(b);
        addon.ref.push(`addon_${id}`);
        addon.name.push(["Eggs", "Honey", "Flowers", "Bread"][a]);
        addon.amount.push(300 + 100 * rnd.int(8));
        addon.position.push(a);
      }
    }
    await insertColumns(client, "addons", [["id", "int", addon.id], ["business_id", "int", addon.businessId], ["ref", "text", addon.ref], ["name", "text", addon.name], ["amount_cents", "int", addon.amount], ["position", "int", addon.position], ["updated_at", "timestamp", addon.id.map(() => now)]]);
    log(`businesses: ${nBusinesses} (pages, ${plan.id.length} plans, ${variation.planId.length} variations, ${addon.id.length} add-ons)`);

    // ---- coupons -------------------------------------------------------------------------------------------
    const coupon = { id: [] as number[], code: [] as string[], type: [] as string[], value: [] as number[], active: [] as boolean[] };
    for (let id = 1; id <= nCoupons; id++) {
      const percent = rnd.next() < 0.6;
      coupon.id.push(id);
      coupon.code.push(`BENCH${String(id).padStart(4, "0")}`);
      coupon.type.push(percent ? "PERCENT" : "FIXED");
      coupon.value.push(percent ? 5 + 5 * rnd.int(4) : 200 + 100 * rnd.int(4));
      coupon.active.push(rnd.next() < 0.9);
    }
    await insertColumns(client, "coupons", [["id", "int", coupon.id], ["code", "text", coupon.code], ["type", `"CouponType"`, coupon.type], ["value", "int", coupon.value], ["active", "boolean", coupon.active], ["updated_at", "timestamp", coupon.id.map(() => now)]]);

    // ---- memberships (one per member), their add-ons, skips, saved cards --------------------------------------
    const sub = {
      id: [] as number[], userId: [] as number[], businessId: [] as number[], status: [] as string[], planId: [] as number[], mode: [] as string[],
      planAmount: [] as number[], addonsAmount: [] as number[], discount: [] as number[], tax: [] as number[], total: [] as number[], taxBps: [] as number[],
      couponId: [] as (number | null)[], billingDay: [] as number[], email: [] as string[], pm: [] as string[], paidThrough: [] as string[],
      startedAt: [] as string[], canceledAt: [] as (string | null)[], selection: [] as string[],
    };
    const subAddon = { subscriptionId: [] as number[], addonId: [] as number[], amount: [] as number[] };
    const skip = { subscriptionId: [] as number[], yearMonth: [] as string[] };
    const card = { userId: [] as number[], pm: [] as string[], last4: [] as string[] };
    const sandbox = { id: [] as string[], kind: [] as string[], data: [] as string[] };
    const MODES = ["PICKUP", "SHIPPING", "DELIVERY"] as const;
    for (let m = 0; m < nMembers; m++) {
      const id = m + 1;
      const userId = 2 + nBusinesses + m;
      const b = 1 + rnd.int(nBusinesses);
      const r = rnd.next();
      // 75 % active, 8 % active with the coming month skipped, 10 % canceled, 7 % past due.
      const status = r < 0.83 ? "ACTIVE" : r < 0.93 ? "CANCELED" : "PAST_DUE";
      if (r >= 0.75 && r < 0.83) {
        skip.subscriptionId.push(id);
        skip.yearMonth.push(BENCH_PERIOD);
      }
      const planId = (b - 1) * PLANS_PER + 1 + rnd.int(PLANS_PER);
      const modeIdx = rnd.int(3);
      const planAmount = planPrice[planId] + [0, 900, 500][modeIdx];
      let addonsAmount = 0;
      const chosen: { id: string; name: string; amountCents: number }[] = [];
      for (let a = 0; a < ADDONS_PER; a++) {
        if (rnd.next() < 0.25) {
          const addonId = (b - 1) * ADDONS_PER + 1 + a;
          const amount = addon.amount[addonId - 1];
          subAddon.subscriptionId.push(id);
          subAddon.addonId.push(addonId);
          subAddon.amount.push(amount);
          addonsAmount += amount;
          chosen.push({ id: addon.ref[addonId - 1], name: addon.name[addonId - 1], amountCents: amount });
        }
      }
      const couponId = rnd.next() < 0.1 ? 1 + rnd.int(nCoupons) : null;
      const subtotal = planAmount + addonsAmount;
      const discount = couponId === null ? 0 : coupon.type[couponId - 1] === "PERCENT" ? Math.round((subtotal * coupon.value[couponId - 1]) / 100) : Math.min(subtotal, coupon.value[couponId - 1]);
      const taxBps = biz.tax[b - 1] ? 575 : 0;
      const tax = Math.round(((subtotal - discount) * taxBps) / 10_000);
      const billingDay = biz.billingDay[b - 1];
      const pm = `pm_bench_${userId}`;
      // 2 % of the saved cards decline every off-session charge (dunning path in the renewal run).
      const behavior = rnd.next() < 0.02 ? "decline_after_attach" : "succeed";
      sub.id.push(id);
      sub.userId.push(userId);
      sub.businessId.push(b);
      sub.status.push(status);
      sub.planId.push(planId);
      sub.mode.push(MODES[modeIdx]);
      sub.planAmount.push(planAmount);
      sub.addonsAmount.push(addonsAmount);
      sub.discount.push(discount);
      sub.tax.push(tax);
      sub.total.push(subtotal - discount + tax);
      sub.taxBps.push(taxBps);
      sub.couponId.push(couponId);
      sub.billingDay.push(billingDay);
      sub.email.push(users.email[userId - 1]!);
      sub.pm.push(pm);
      sub.paidThrough.push(status === "PAST_DUE" ? PAID_PERIODS[PAID_PERIODS.length - 2] : PAID_PERIODS[PAID_PERIODS.length - 1]);
      sub.startedAt.push(ts(new Date(Date.UTC(2025, 5, billingDay, 15))));
      sub.canceledAt.push(status === "CANCELED" ? ts(new Date(Date.UTC(2026, 2, 20, 12))) : null);
      sub.selection.push(JSON.stringify({
        mode: MODES[modeIdx].toLowerCase(),
        chosenItemId: plan.ref[planId - 1],
        chosenItemName: plan.name[planId - 1],
        chosenVariationName: ["Pickup", "Shipping", "Delivery"][modeIdx],
        chosenItemAmountCents: planAmount,
        chosenAddons: chosen,
        chosenAddonIds: chosen.map((c) => c.id),
      }));
      card.userId.push(userId);
      card.pm.push(pm);
      card.last4.push(behavior === "succeed" ? "4242" : "0341");
      sandbox.id.push(`cus_bench_${userId}`, pm);
      sandbox.kind.push("customer", "payment_method");
      sandbox.data.push(
        JSON.stringify({ userId, email: users.email[userId - 1], name: users.name[userId - 1] }),
        JSON.stringify({ customerId: `cus_bench_${userId}`, brand: "visa", last4: card.last4[m], expMonth: 12, expYear: 2031, behavior }),
      );
    }
    const subNow = sub.id.map(() => now);
    await insertColumns(client, "subscriptions", [
      ["id", "int", sub.id], ["user_id", "int", sub.userId], ["business_id", "int", sub.businessId], ["status", `"SubscriptionStatus"`, sub.status],
      ["plan_id", "int", sub.planId], ["mode", `"FulfillmentMode"`, sub.mode], ["plan_amount_cents", "int", sub.planAmount],
      ["addons_amount_cents", "int", sub.addonsAmount], ["discount_cents", "int", sub.discount], ["tax_cents", "int", sub.tax],
      ["total_cents", "int", sub.total], ["tax_rate_bps", "int", sub.taxBps], ["coupon_id", "int", sub.couponId], ["billing_day", "int", sub.billingDay],
      ["email", "text", sub.email], ["provider_payment_method_id", "text", sub.pm], ["paid_through_period", "text", sub.paidThrough],
      ["started_at", "timestamp", sub.startedAt], ["canceled_at", "timestamp", sub.canceledAt], ["created_at", "timestamp", sub.startedAt], ["updated_at", "timestamp", subNow],
    ]);
    await client.query(`UPDATE subscriptions s SET fulfillment_point = CASE s.mode
        WHEN 'PICKUP' THEN p.pickup_points[1 + s.id % 2] WHEN 'DELIVERY' THEN coalesce(p.delivery_areas[1 + s.id % 3], '') ELSE '' END
      FROM pages p WHERE p.business_id = s.business_id`);
    await insertColumns(client, "subscription_addons", [["subscription_id", "int", subAddon.subscriptionId], ["addon_id", "int", subAddon.addonId], ["amount_cents", "int", subAddon.amount]]);
    await insertColumns(client, "skips", [["subscription_id", "int", skip.subscriptionId], ["year_month", "text", skip.yearMonth]]);
    await insertColumns(client, "payment_methods", [["user_id", "int", card.userId], ["provider", "text", card.userId.map(() => "sandbox")], ["provider_payment_method_id", "text", card.pm], ["brand", "text", card.userId.map(() => "visa")], ["last4", "text", card.last4], ["exp_month", "int", card.userId.map(() => 12)], ["exp_year", "int", card.userId.map(() => 2031)]]);
    await insertColumns(client, "sandbox_objects", [["id", "text", sandbox.id], ["kind", "text", sandbox.kind], ["data", "jsonb", sandbox.data], ["updated_at", "timestamp", sandbox.id.map(() => now)]]);
    log(`memberships: ${nMembers} (${skip.subscriptionId.length} skipping ${BENCH_PERIOD}, ${subAddon.subscriptionId.length} add-on rows), saved cards: ${nMembers}`);

    // ---- orders: ten paid periods per membership, generated and inserted in slices to bound memory ------------
    const SLICE = 5_000;
    let orders = 0;
    for (let from = 0; from < nMembers; from += SLICE) {
      const o = { subscriptionId: [] as number[], userId: [] as number[], businessId: [] as number[], kind: [] as string[], period: [] as string[], mode: [] as string[], email: [] as string[], selection: [] as string[], couponId: [] as (number | null)[], subtotal: [] as number[], discount: [] as number[], tax: [] as number[], total: [] as number[], createdAt: [] as string[] };
      for (let m = from; m < Math.min(nMembers, from + SLICE); m++) {
        PAID_PERIODS.forEach((period, i) => {
          const [y, mo] = period.split("-").map(Number);
          o.subscriptionId.push(sub.id[m]);
          o.userId.push(sub.userId[m]);
          o.businessId.push(sub.businessId[m]);
          o.kind.push(i === 0 ? "INITIAL" : "RENEWAL");
          o.period.push(period);
          o.mode.push(sub.mode[m]);
          o.email.push(sub.email[m]);
          o.selection.push(sub.selection[m]);
          o.couponId.push(sub.couponId[m]);
          o.subtotal.push(sub.planAmount[m] + sub.addonsAmount[m]);
          o.discount.push(sub.discount[m]);
          o.tax.push(sub.tax[m]);
          o.total.push(sub.total[m]);
          o.createdAt.push(ts(new Date(Date.UTC(y, mo - 1, sub.billingDay[m], 8 + (m % 10), m % 60))));
        });
      }
      orders += await insertColumns(client, "orders", [
        ["subscription_id", "int", o.subscriptionId], ["user_id", "int", o.userId], ["business_id", "int", o.businessId], ["kind", `"OrderKind"`, o.kind],
        ["period", "text", o.period], ["mode", `"FulfillmentMode"`, o.mode], ["email", "text", o.email], ["selection", "jsonb", o.selection],
        ["coupon_id", "int", o.couponId], ["subtotal_cents", "int", o.subtotal], ["discount_cents", "int", o.discount], ["tax_cents", "int", o.tax],
        ["total_cents", "int", o.total], ["created_at", "timestamp", o.createdAt],
      ], 25_000);
      if ((from / SLICE) % 4 === 3) log(`orders: ${orders}`);
    }
    log(`orders: ${orders}`);

    for (const table of ["users", "businesses", "plans", "addons", "coupons", "subscriptions"]) {
      await client.query(`SELECT setval(pg_get_serial_sequence('"${table}"', 'id'), (SELECT max(id) FROM "${table}"))`);
    }
    await client.query("VACUUM ANALYZE");
    const seconds = (performance.now() - started) / 1000;
    return { businesses: nBusinesses, members: nMembers, subscriptions: nMembers, orders, coupons: nCoupons, seconds };
  } finally {
    await client.end();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { db: { type: "string" }, seed: { type: "string", default: "42" }, scale: { type: "string", default: "1" }, reset: { type: "boolean", default: false } },
  });
  const url = values.db ?? process.env.DATABASE_URL;
  if (!url) {
    console.error("usage: npm run bench:seed -- --db postgresql://postgres@127.0.0.1:5432/mp_bench [--seed 42] [--scale 1] [--reset]");
    process.exit(2);
  }
  const summary = await seedLarge({ url, seed: Number(values.seed), scale: Number(values.scale), reset: values.reset, log: (l) => console.log(`  ${l}`) });
  console.log(
    `seeded ${summary.businesses} businesses, ${summary.members} members/memberships, ${summary.orders} orders, ${summary.coupons} coupons in ${summary.seconds.toFixed(1)} s`,
  );
}
