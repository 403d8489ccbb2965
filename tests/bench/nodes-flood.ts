/**
 * `npx tsx tests/bench/nodes-flood.ts [--db postgresql://postgres@127.0.0.1:5432/postgres] [--ids 40000] [--probes 20]`
 *
 * A `nodes(ids:)` call with 40,000 ids used to take over 4 s and stall every other request meanwhile.
 * Starts the server (production config, silent logs, billing clock off) on a free loopback port over a fresh
 * database (embedded PGlite in memory; with --db, a throwaway database created on that PostgreSQL server and
 * dropped afterwards), times a small request alone (`node(id:)` of one plan, anonymous: never cached), then
 * sends the flood and keeps sending that small request while the flood is in flight, and prints both figures:
 * the flood's status and time, and the small request's latency during the flood next to its latency alone.
 * Figures only: nothing here asserts a time.
 */
import { parseArgs } from "node:util";
import pino from "pino";
import { loadConfig } from "../../api/config.ts";
import { buildApp } from "../../server/app.ts";
import { FixedClock } from "../../api/shared/clock.ts";
import { createTestDatabase } from "../support/database.ts";

const { values } = parseArgs({
  options: {
    /** A PostgreSQL server URL: the bench creates its own database there and drops it. Default: embedded. */
    db: { type: "string" },
    /** Ids in the flood. */
    ids: { type: "string", default: "40000" },
    /** Small requests timed alone before the flood. */
    probes: { type: "string", default: "20" },
  },
});
const floodSize = Number(values.ids);
const probes = Number(values.probes);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
};
const ms = (x: number) => (Number.isFinite(x) ? `${x.toFixed(1)} ms` : "–");
const gid = (type: string, id: number) => Buffer.from(`${type}:${id}`).toString("base64");

async function main() {
  // createTestDatabase reads the server from TEST_DATABASE_URL (tests/support/database.ts).
  if (values.db) process.env.TEST_DATABASE_URL = values.db;
  else delete process.env.TEST_DATABASE_URL;
  const db = await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: "production",
    LOG_LEVEL: "silent",
    BILLING_INTERVAL_MINUTES: "0",
    SEED_DEMO: "0",
    HOST: "127.0.0.1",
    PORT: "0",
    PUBLIC_HOST: "localhost",
  });
  const app = await buildApp({ config, db, clock: new FixedClock("2026-04-10T15:00:00Z"), logger: pino({ level: "silent" }) });
  try {
    await app.listen({ host: "127.0.0.1", port: 0 });
    const { port } = app.server.address() as { port: number };
    const url = `http://127.0.0.1:${port}/graphql`;

    const business = await db.prisma.business.create({ data: { slug: "flood", name: "Flood Farm", page: { create: { brandName: "Flood Farm" } } } });
    const plan = await db.prisma.plan.create({
      data: { businessId: business.id, ref: "item_flood", name: "Flood box", variations: { create: [{ mode: "PICKUP", amountCents: 3000 }] } },
    });

    const post = (body: unknown) => fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const small = { query: `query($id: ID!) { node(id: $id) { ... on Plan { name } } }`, variables: { id: gid("Plan", plan.id) } };
    const timeSmall = async () => {
      const started = performance.now();
      const res = await post(small);
      const body = (await res.json()) as { data?: { node?: { name?: string } } };
      if (body.data?.node?.name !== "Flood box") throw new Error(`small request failed: ${JSON.stringify(body)}`);
      return performance.now() - started;
    };

    // Alone, after a few warm-up requests.
    for (let i = 0; i < 5; i++) await timeSmall();
    const alone: number[] = [];
    for (let i = 0; i < probes; i++) alone.push(await timeSmall());

    // The flood, with the small request sent again and again (one at a time) until it answers.
    const flood = { query: `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, variables: { ids: Array.from({ length: floodSize }, (_, i) => gid("Plan", i + 1)) } };
    const floodBody = JSON.stringify(flood);
    let done = false;
    const floodStarted = performance.now();
    const floodRun = fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: floodBody }).then(async (res) => {
      const elapsed = performance.now() - floodStarted;
      const body = (await res.json()) as { data?: { nodes?: unknown[] } | null; errors?: { message: string }[] };
      done = true;
      return { status: res.status, elapsed, body };
    });
    const during: number[] = [];
    do during.push(await timeSmall());
    while (!done);
    const result = await floodRun;

    const outcome = result.body.errors?.length
      ? `refused: "${result.body.errors[0].message}"`
      : `${result.body.data?.nodes?.length ?? 0} entries`;
    console.log(`nodes(ids:) flood: ${floodSize.toLocaleString("en-US")} ids (${(floodBody.length / 1024).toFixed(0)} kB body), HTTP ${result.status} in ${ms(result.elapsed)}, ${outcome}`);
    console.log(`concurrent node(id:) during the flood: ${during.length} requests, p50 ${ms(median(during))}, max ${ms(Math.max(...during))}`);
    console.log(`the same request alone:                ${alone.length} requests, p50 ${ms(median(alone))}, max ${ms(Math.max(...alone))}`);
  } finally {
    await app.close();
    await db.drop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
