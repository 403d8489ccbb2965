/**
 * `npm exec -- tsx tests/bench/fulfilment.ts --db postgresql://postgres@127.0.0.1:5432/mp_bench`
 *
 * The fulfilment cycle on the benchmark data set (seed-large.ts), on a throw-away copy of the database: the
 * preview and the packing snapshot of one business (as seeded, about 100 members; and a 1,000-member business,
 * made on the copy by moving ten businesses' memberships into one), then the freeze job's pass over every
 * business (the 100,000 memberships); the open month read in keyset pages as the packing lists read it (the
 * screen's first 40 boxes, the CSV's pages of 1,000). Prints time (median of --runs for the preview) and SQL statements.
 */
import { parseArgs } from "node:util";
import pg from "pg";
import pino from "pino";
import { openDatabase } from "../../api/db.ts";
import { packingKeyOf, previewBoxPage, previewBusiness, previewOf, type PackingKey } from "../../api/packing/preview.ts";
import { freeze, freezeDue } from "../../api/packing/snapshot.ts";
import { FixedClock } from "../../api/shared/clock.ts";
import { BENCH_BILLING_INSTANT } from "./seed-large.ts";

const { values } = parseArgs({
  options: { db: { type: "string" }, runs: { type: "string", default: "5" }, keep: { type: "boolean", default: false } },
});
if (!values.db) throw new Error("--db postgresql://… (a database seeded by npm run bench:seed)");
const source = new URL(values.db);
const sourceName = decodeURIComponent(source.pathname.slice(1));
const copyName = `${sourceName}_fulfilment`;
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

const db = await openDatabase({ url: copy.toString(), poolSize: 4, logQueries: true });
let statements = 0;
db.onStatement(() => statements++);
const applied = await db.migrate();
if (applied.length) console.log(`applied ${applied.join(", ")} to the copy`);
const clock = new FixedClock(BENCH_BILLING_INSTANT);
const ctx = { db: db.prisma, clock, log: pino({ level: "silent" }) };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows: string[][] = [];

async function measure(label: string, businessId: number) {
  const members = await db.prisma.subscription.count({ where: { businessId, status: { in: ["ACTIVE", "PAST_DUE"] } } });
  for (const period of ["2026-03", "2026-04"]) {
    const times: number[] = [];
    let count = 0;
    let boxes = 0;
    for (let i = 0; i < Number(values.runs); i++) {
      statements = 0;
      t0 = performance.now();
      const p = await previewOf(db.prisma, businessId, period);
      times.push(performance.now() - t0);
      count = statements;
      boxes = p.boxes.length;
    }
    rows.push([`preview ${period}`, label, String(members), String(boxes), `${median(times).toFixed(1)} ms`, String(count)]);
  }
  // The open month as the packing lists read it, a keyset page at a time: the screen's first 40, and the CSV's walk.
  const business = await previewBusiness(db.prisma, businessId);
  for (const take of [40, 1000]) {
    statements = 0;
    t0 = performance.now();
    let boxes = 0;
    for (let after: PackingKey | null = null; ; ) {
      const page = await previewBoxPage(db.prisma, business, "2026-04", { after, take });
      boxes += page.length;
      if (take === 40 || page.length < take) break;
      after = packingKeyOf(page[page.length - 1]);
    }
    rows.push([take === 40 ? "first 40 boxes 2026-04 (screen)" : "all boxes 2026-04 in pages of 1,000 (CSV)", label, String(members), String(boxes), `${(performance.now() - t0).toFixed(1)} ms`, String(statements)]);
  }
  statements = 0;
  t0 = performance.now();
  const frozen = await freeze(ctx, businessId, "2026-03", { trigger: "operator" });
  rows.push(["snapshot 2026-03", label, String(members), String(frozen.boxes), `${(performance.now() - t0).toFixed(1)} ms`, String(statements)]);
}

const [first, ...rest] = (await db.prisma.business.findMany({ select: { id: true }, orderBy: { id: "asc" }, take: 11 })).map((b) => b.id);
await measure("one business as seeded", rest[0]);
// A 1,000-member business: ten businesses' memberships (and their orders) moved into the first.
const moved = rest.slice(1, 10);
await db.prisma.$executeRawUnsafe(`UPDATE subscriptions SET business_id = ${first} WHERE business_id IN (${moved.join(",")})`);
await db.prisma.$executeRawUnsafe(`UPDATE orders SET business_id = ${first} WHERE business_id IN (${moved.join(",")})`);
await measure("1,000-member business", first);

// The freeze job's pass over every business: March (the month before) for all, April where its freeze time has passed.
statements = 0;
t0 = performance.now();
const report = await freezeDue(ctx);
const boxes = await db.prisma.packingBox.count();
rows.push(["freeze job pass", "every business (100k members)", String(await db.prisma.subscription.count({ where: { status: { in: ["ACTIVE", "PAST_DUE"] } } })), `${boxes} (all snapshots)`, `${((performance.now() - t0) / 1000).toFixed(1)} s`, `${statements} (${report.frozen} months frozen, ${report.waiting} waiting)`]);
statements = 0;
t0 = performance.now();
await freezeDue(ctx);
rows.push(["freeze job pass again", "every business", "", "", `${(performance.now() - t0).toFixed(1)} ms`, String(statements)]);

console.log("\n| what | business | members | boxes | time | statements |\n|---|---|---|---|---|---|");
for (const r of rows) console.log(`| ${r.join(" | ")} |`);

await db.close();
if (!values.keep) await c.query(`DROP DATABASE IF EXISTS "${copyName}" WITH (FORCE)`);
await c.end();
