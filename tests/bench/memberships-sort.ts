/**
 * `npm exec -- tsx tests/bench/memberships-sort.ts --db postgresql://postgres@127.0.0.1:5432/mp_bench [--members 10000] [--runs 7] [--no-jit]`
 *
 * The memberships list of one large business in each sort (api/subscriptions/memberships-list.ts, as the admin
 * table and partners page it), on the benchmark data set (seed-large.ts) in a throw-away copy of the database: a
 * business of --members memberships is made on the copy by moving the first businesses' memberships (and their
 * orders) into one, and payments are added for the orders (the seed writes none). For each sort: the first page
 * of 50 and a deep page (after the row at the middle of the list, by the key a cursor carries); the median and
 * best of --runs and the SQL statements of one read. Prints a table. `--no-jit`: the copy's sessions run with
 * `jit = off` (PostgreSQL JIT-compiles a statement whose estimated cost passes jit_above_cost, 100,000 by default).
 */
import { parseArgs } from "node:util";
import pg from "pg";
import pino from "pino";
import type { ServiceContext } from "../../api/context.ts";
import { testConfig } from "../../api/config.ts";
import { openDatabase } from "../../api/db.ts";
import { FixedClock } from "../../api/shared/clock.ts";
import { list, type MembershipSort } from "../../api/subscriptions/memberships-list.ts";
import { membershipRowSelect } from "../../rest-compat/rows.ts";
import { BENCH_BILLING_INSTANT } from "./seed-large.ts";

const { values } = parseArgs({
  options: {
    db: { type: "string" },
    members: { type: "string", default: "10000" },
    runs: { type: "string", default: "7" },
    keep: { type: "boolean", default: false },
    "no-jit": { type: "boolean", default: false },
  },
});
if (!values.db) throw new Error("--db postgresql://… (a database seeded by npm run bench:seed)");
const source = new URL(values.db);
const sourceName = decodeURIComponent(source.pathname.slice(1));
const copyName = `${sourceName}_sort`;
const admin = new URL(values.db);
admin.pathname = "/postgres";
const copy = new URL(values.db);
copy.pathname = `/${copyName}`;

const c = new pg.Client({ connectionString: admin.toString() });
await c.connect();
await c.query(`DROP DATABASE IF EXISTS "${copyName}" WITH (FORCE)`);
let t0 = performance.now();
await c.query(`CREATE DATABASE "${copyName}" TEMPLATE "${sourceName}"`);
console.log(`copied ${sourceName} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
if (values["no-jit"]) await c.query(`ALTER DATABASE "${copyName}" SET jit = off`);

const db = await openDatabase({ url: copy.toString(), poolSize: 4, logQueries: true });
let statements = 0;
db.onStatement(() => statements++);
const applied = await db.migrate();
if (applied.length) console.log(`applied ${applied.join(", ")} to the copy`);

// One business of --members memberships: the first businesses' memberships (each member has one) moved into the first.
const counts = await db.prisma.$queryRawUnsafe<{ business_id: number; n: number }[]>(
  `SELECT business_id, count(*)::int AS n FROM subscriptions GROUP BY business_id ORDER BY business_id`,
);
const wanted = Number(values.members);
const moved: number[] = [];
let total = 0;
for (const row of counts) {
  if (total >= wanted) break;
  moved.push(row.business_id);
  total += row.n;
}
const [businessId, ...others] = moved;
if (others.length) {
  await db.prisma.$executeRawUnsafe(`UPDATE subscriptions SET business_id = ${businessId} WHERE business_id IN (${others.join(",")})`);
  await db.prisma.$executeRawUnsafe(`UPDATE orders SET business_id = ${businessId} WHERE business_id IN (${others.join(",")})`);
}
// The seed writes orders but no payments: one succeeded payment per order, and two declined attempts for each
// past-due membership at the period it owes, so the next charge's reads of payments see a paid history.
await db.prisma.$executeRawUnsafe(`
  INSERT INTO payments (user_id, subscription_id, order_id, provider, provider_payment_id, idempotency_key, amount_cents, status, created_at, updated_at, business_id, paid_at)
  SELECT o.user_id, o.subscription_id, o.id, 'sandbox', 'bench_pi_' || o.id, 'renewal:' || o.subscription_id || ':' || o.period || ':1', o.total_cents,
         'SUCCEEDED', o.created_at, o.created_at, o.business_id, o.created_at
    FROM orders o`);
await db.prisma.$executeRawUnsafe(`
  INSERT INTO payments (user_id, subscription_id, provider, provider_payment_id, idempotency_key, amount_cents, status, created_at, updated_at, business_id)
  SELECT s.user_id, s.id, 'sandbox', 'bench_pi_due_' || s.id || '_' || n, 'renewal:' || s.id || ':' || to_char(to_date(s.paid_through_period, 'YYYY-MM') + interval '1 month', 'YYYY-MM') || ':' || (n + 1),
         s.total_cents, 'FAILED', to_date(s.paid_through_period, 'YYYY-MM') + interval '1 month' + (s.billing_day - 1 + n - 1) * interval '1 day', now(), s.business_id
    FROM subscriptions s CROSS JOIN generate_series(1, 2) n WHERE s.status = 'PAST_DUE'`);
await db.prisma.$executeRawUnsafe(`ANALYZE`);
const listed = await db.prisma.subscription.count({ where: { businessId, status: { not: "INCOMPLETE" } } });
const current = await db.prisma.subscription.count({ where: { businessId, status: { in: ["ACTIVE", "PAST_DUE"] } } });
console.log(`business ${businessId}: ${listed} memberships listed (${current} current), clock ${BENCH_BILLING_INSTANT}, jit ${values["no-jit"] ? "off" : "as the server has it"}`);

const clock = new FixedClock(BENCH_BILLING_INSTANT);
const root = await db.prisma.user.findFirstOrThrow({ where: { isAdmin: true }, select: { id: true, publicId: true, username: true } });
const ctx = (): ServiceContext => ({
  db: db.prisma,
  clock,
  config: testConfig(),
  log: pino({ level: "silent" }),
  actor: { kind: "user", user: { ...root, isAdmin: true }, session: { id: 0, tenantSlug: null } },
  tenant: null,
  ip: "127.0.0.1",
  roleCache: new Map(),
});
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows: string[][] = [];

const SORTS: MembershipSort[] = ["STARTED_DESC", "NAME_ASC", "NEXT_CHARGE_ASC", "NEXT_CHARGE_DESC"];
for (const sort of SORTS) {
  const filter = { businessId, sort, status: "ANY" as const };
  // The deep page starts after the middle row, by the key its cursor carries.
  const ids = await list(ctx(), filter, { take: Math.ceil(listed / 2), select: { id: true } });
  const middle = ids.keys.at(-1)!;
  for (const [label, after] of [["first page, 50", null], [`after row ${ids.keys.length}, 50`, middle]] as const) {
    const times: number[] = [];
    let count = 0;
    for (let i = 0; i < Number(values.runs); i++) {
      statements = 0;
      t0 = performance.now();
      const page = await list(ctx(), filter, { take: 51, after, select: membershipRowSelect });
      times.push(performance.now() - t0);
      count = statements;
      if (page.rows.length !== 51) throw new Error(`${sort} ${label}: ${page.rows.length} rows`);
    }
    rows.push([sort, label, String(listed), `${median(times).toFixed(1)} ms`, `${Math.min(...times).toFixed(1)} ms`, String(count)]);
  }
}

console.log("\n| sort | page | memberships | median | best | statements |\n|---|---|---|---|---|---|");
for (const r of rows) console.log(`| ${r.join(" | ")} |`);

await db.close();
if (!values.keep) await c.query(`DROP DATABASE IF EXISTS "${copyName}" WITH (FORCE)`);
await c.end();
