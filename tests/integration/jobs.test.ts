/**
 * The job queue (api/jobs/): the renewal pass as a pg-boss cron schedule. Two server processes' queues on one
 * PostgreSQL database turn each occurrence into one job and each due membership is charged once; a worker
 * killed (SIGKILL) after the provider charged a batch and before it was recorded leaves the job to be retried,
 * and the retry records the same charges (same idempotency keys) without charging again. Runs on both
 * databases (one queue on the embedded one, which one process owns); the SIGKILL test needs PostgreSQL.
 */
import path from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../api/db.ts";
import { EVENTS_PRUNE_QUEUE, eventsPruneJob, eventsPruneSchedule } from "../../api/jobs/events-prune-job.ts";
import { startJobQueue, type JobQueue } from "../../api/queue/job-queue.ts";
import { readEvents, SYSTEM_ACTOR, writeEvents } from "../../api/events/outbox.ts";
import { globalId } from "../../api/shared/global-id.ts";
import { RENEWALS_QUEUE, renewalSchedule, renewalsJob } from "../../api/jobs/renewals-job.ts";
import { recentRuns, retryRun } from "../../api/jobs/service.ts";
import { FixedClock } from "../../api/shared/clock.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createTestDatabase } from "../support/database.ts";
import { factories, type Factories } from "../support/factories.ts";
import { killProcessGroup, spawnProcessGroup } from "../support/server-process.ts";

const BILLING_INSTANT = "2026-04-03T14:00:00Z";
const PERIOD = "2026-04";
const log = pino({ level: "silent" });
const onPostgres = !!process.env.TEST_DATABASE_URL;
/** Fast pg-boss timers: a schedule's occurrence becomes a job within a second or two; a silent worker is failed after 10 s (pg-boss's least). */
const timing = { cronWorkerIntervalSeconds: 1, cronMonitorIntervalSeconds: 1, superviseIntervalSeconds: 1, monitorIntervalSeconds: 1 };
const queueSettings = { heartbeatSeconds: 10, retryDelay: 1, retryDelayMax: 2 };

let t: TestApp;
let f: Factories;
const opened: { stop(): Promise<void> }[] = [];

beforeAll(async () => {
  t = await createTestApp({ now: BILLING_INSTANT });
  f = factories(t);
});
afterAll(async () => {
  for (const o of opened.reverse()) await o.stop();
  await t.close();
});

let memberSeq = 0;
/** `count` memberships billed on the 3rd in New York, each with a saved card that succeeds, due now. */
async function dueMemberships(count: number): Promise<number[]> {
  const business = await f.business({ page: { billingDay: 3, pickupEnabled: true } });
  const plan = await f.plan(business, { name: "Box", prices: { PICKUP: 2000 } });
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const n = ++memberSeq;
    const customerId = `cus_jobs_${n}`;
    const user = await t.db.prisma.user.create({ data: { username: `jobs-member-${n}`, passwordHash: "x", email: `jobs${n}@example.com`, paymentCustomerId: customerId } });
    await t.db.prisma.sandboxObject.createMany({
      data: [
        { id: customerId, kind: "customer", data: { userId: user.id, email: user.email, name: null } },
        { id: `pm_jobs_${n}`, kind: "payment_method", data: { customerId, brand: "visa", last4: "4242", expMonth: 12, expYear: 2031, behavior: "succeed" } },
      ],
    });
    const sub = await t.db.prisma.subscription.create({
      data: {
        userId: user.id,
        businessId: business.id,
        planId: plan.id,
        status: "ACTIVE",
        mode: "PICKUP",
        planAmountCents: 2000,
        totalCents: 2000,
        billingDay: 3,
        providerPaymentMethodId: `pm_jobs_${n}`,
        paidThroughPeriod: "2026-03",
        startedAt: new Date("2026-01-03T15:00:00Z"),
      },
    });
    ids.push(sub.id);
  }
  return ids;
}

/** Every membership: one April order, one successful payment, one provider payment intent, lease released. */
async function expectChargedOnce(ids: number[]) {
  const intents = await t.db.prisma.$queryRaw<{ sub: string; n: bigint }[]>`
    SELECT data->'metadata'->>'subscription_id' AS sub, count(*) AS n FROM sandbox_objects
     WHERE kind = 'payment_intent' AND data->'metadata'->>'subscription_id' = ANY(${ids.map(String)}::text[]) GROUP BY 1`;
  expect(new Map(intents.map((r) => [Number(r.sub), Number(r.n)]))).toEqual(new Map(ids.map((id) => [id, 1])));
  for (const id of ids) {
    const s = await t.db.prisma.subscription.findUniqueOrThrow({ where: { id }, include: { orders: true, payments: true } });
    expect(s.orders.filter((o) => o.period === PERIOD), `orders of ${id}`).toHaveLength(1);
    expect(s.payments.filter((p) => p.status === "SUCCEEDED"), `payments of ${id}`).toHaveLength(1);
    expect(s).toMatchObject({ paidThroughPeriod: PERIOD, renewalLeaseUntil: null });
  }
}

async function queueOn(db: Database, o: { clock?: FixedClock; work?: boolean; cron?: string } = {}): Promise<JobQueue> {
  const ctx = { db: db.prisma, clock: o.clock ?? new FixedClock(BILLING_INSTANT), config: t.config, log };
  const jobs = await startJobQueue({
    db,
    log,
    definitions: [renewalsJob(ctx, { queue: queueSettings })],
    schedules: o.cron ? [{ queue: RENEWALS_QUEUE, cron: o.cron }] : [],
    work: o.work,
    pollingIntervalSeconds: 0.5,
    timing,
  });
  opened.push(jobs);
  return jobs;
}

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("the renewal schedule", () => {
  it(`runs as one job across ${onPostgres ? "two app instances' queues (own pools)" : "the embedded database's queue"} and charges each due membership once`, async () => {
    const ids = await dueMemberships(6);
    const second = onPostgres && t.db.jobsConnection.kind === "postgres" ? await openDatabase({ ...t.db.connection, poolSize: 3 }) : null;
    if (second) opened.push({ stop: () => second.close() });
    // Every minute, so the current minute's occurrence is due as soon as the queues start.
    const queues = [await queueOn(t.db, { cron: "* * * * *" }), ...(second ? [await queueOn(second, { cron: "* * * * *" })] : [])];
    const [done] = await until("a completed renewal job", async () => {
      const jobs = await queues[0].boss.findJobs<object>(RENEWALS_QUEUE);
      return jobs.some((j) => j.state === "completed") && jobs;
    });
    await expectChargedOnce(ids);
    expect(done.output).toMatchObject({ due: 6, charged: 6, errors: 0, busy: 0 });
    // At most one job per minute's occurrence, however many queues saw it.
    const jobs = await queues[0].boss.findJobs<object>(RENEWALS_QUEUE);
    const perMinute = new Map<string, number>();
    for (const j of jobs) perMinute.set(j.createdOn.toISOString().slice(0, 16), (perMinute.get(j.createdOn.toISOString().slice(0, 16)) ?? 0) + 1);
    expect(Math.max(...perMinute.values())).toBe(1);
    for (const q of queues) await q.boss.unschedule(RENEWALS_QUEUE);
    for (const q of queues) await q.stop();
  }, 60_000);
});

describe("BILLING_INTERVAL_MINUTES as the schedule", () => {
  it("becomes a cron expression, and 0 removes the schedule a previous start left", async () => {
    expect(renewalSchedule(15)).toEqual([{ queue: RENEWALS_QUEUE, cron: "*/15 * * * *" }]);
    expect(renewalSchedule(60)[0].cron).toBe("0 */1 * * *");
    expect(renewalSchedule(360)[0].cron).toBe("0 */6 * * *");
    expect(renewalSchedule(1440)[0].cron).toBe("0 0 * * *");
    expect(renewalSchedule(0)).toEqual([]);

    const ctx = { db: t.db.prisma, clock: new FixedClock(BILLING_INSTANT), config: t.config, log };
    const start = (minutes: number) => startJobQueue({ db: t.db, log, definitions: [renewalsJob(ctx)], schedules: renewalSchedule(minutes), work: false });
    const first = await start(60);
    expect((await first.boss.getSchedules()).map((s) => [s.name, s.cron])).toEqual([[RENEWALS_QUEUE, "0 */1 * * *"]]);
    await first.stop();
    const again = await start(0);
    expect(await again.boss.getSchedules()).toEqual([]);
    await again.stop();
  });
});

describe("the outbox's retention job", () => {
  it("runs daily and deletes only the events past 90 days, by the application's clock", async () => {
    const clock = new FixedClock(BILLING_INSTANT);
    const event = (membershipId: number) => ({
      type: "membership.skipped.v1" as const,
      businessId: null,
      objectId: globalId("Membership", membershipId),
      payload: { membershipId, userId: 1, month: "2026-05", resumeDate: "2026-06-03" },
    });
    const at = (iso: string) => ({ at: new Date(iso), actor: SYSTEM_ACTOR });
    await t.db.prisma.$transaction((tx) => writeEvents(tx, at("2025-12-01T00:00:00Z"), [event(9101)])); // 123 days before
    await t.db.prisma.$transaction((tx) => writeEvents(tx, at("2026-01-10T00:00:00Z"), [event(9102)])); // 83 days before

    const jobs = await startJobQueue({ db: t.db, log, definitions: [eventsPruneJob({ db: t.db.prisma, clock })], schedules: [eventsPruneSchedule], pollingIntervalSeconds: 0.5, timing });
    opened.push(jobs);
    expect((await jobs.boss.getSchedules()).map((s) => [s.name, s.cron])).toEqual([[EVENTS_PRUNE_QUEUE, "30 3 * * *"]]);
    const id = await jobs.boss.send(EVENTS_PRUNE_QUEUE, {});
    await until("the prune job to complete", async () => (await jobs.boss.getJobById(EVENTS_PRUNE_QUEUE, id!))?.state === "completed");
    expect((await jobs.boss.getJobById(EVENTS_PRUNE_QUEUE, id!))?.output).toEqual({ deleted: 1, kept: 0 });
    const left = (await readEvents(t.db.prisma, { after: 0, limit: 10_000 })).map((e) => (e.payload as { membershipId?: number }).membershipId);
    expect(left).not.toContain(9101);
    expect(left).toContain(9102);
  });
});

describe("the first scheduled run on a brand-new database", () => {
  it("comes within seconds of start with pg-boss's own timers: the first cron pass already sees the schedules", async () => {
    const db = await createTestDatabase();
    try {
      let firstRunAt = 0;
      const started = Date.now();
      const probe = {
        queue: { name: "first-run-probe", policy: "stately" as const },
        async run() {
          firstRunAt ||= Date.now();
          return {};
        },
      };
      // Default timers (a cron pass every 30 s): before the schedules were stored ahead of the running instance,
      // the first pass found none and this took 35 s or more.
      const jobs = await startJobQueue({ db, log, definitions: [probe], schedules: [{ queue: "first-run-probe", cron: "* * * * *" }] });
      try {
        await until("the first scheduled run", async () => firstRunAt > 0, 20_000);
        expect(firstRunAt - started).toBeLessThan(15_000);
      } finally {
        await jobs.stop();
      }
    } finally {
      await db.drop();
    }
  }, 40_000);
});

describe.skipIf(!onPostgres)("a worker killed mid-job (PostgreSQL: the worker is another process)", () => {
  it("leaves the charged batch unrecorded but leased, and the retry records the same charges without charging again", async () => {
    const ids = await dueMemberships(4);
    const root = path.resolve(import.meta.dirname, "../..");
    const imp = (file: string) => JSON.stringify(path.join(root, file));
    // The worker process: the product's queue and renewal job, with the sandbox provider stopping for good right
    // after it charged a batch (before the batch is recorded): the test kills it there.
    const worker = `
      import pino from "pino";
      import { openDatabase } from ${imp("api/db.ts")};
      import { testConfig } from ${imp("api/config.ts")};
      import { FixedClock } from ${imp("api/shared/clock.ts")};
      import { SandboxProvider } from ${imp("api/billing/providers/sandbox/provider.ts")};
      import { startJobQueue } from ${imp("api/queue/job-queue.ts")};
      import { renewalsJob } from ${imp("api/jobs/renewals-job.ts")};
      const charge = SandboxProvider.prototype.chargeSavedCards;
      SandboxProvider.prototype.chargeSavedCards = async function (requests) {
        await charge.call(this, requests);
        console.log("CHARGED " + requests.length);
        return new Promise(() => {});
      };
      const db = await openDatabase({ ...${JSON.stringify(t.db.connection)}, poolSize: 3 });
      const log = pino({ level: "silent" });
      const ctx = { db: db.prisma, clock: new FixedClock(${JSON.stringify(BILLING_INSTANT)}), config: testConfig(), log };
      await startJobQueue({ db, log, definitions: [renewalsJob(ctx, { queue: ${JSON.stringify(queueSettings)} })], schedules: [], pollingIntervalSeconds: 0.5, timing: ${JSON.stringify(timing)} });
      console.log("READY");
    `;
    const child = spawnProcessGroup(path.join(root, "node_modules/.bin/node"), ["--input-type=module", "-e", worker], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
    try {
      await until("the worker process to start", async () => out.includes("READY") || (child.exitCode !== null && Promise.reject(new Error(out))));
      const sender = await queueOn(t.db, { work: false });
      const jobId = (await sender.boss.send(RENEWALS_QUEUE, {}))!;
      await until("the worker to charge the batch", async () => out.includes("CHARGED 4")).catch((e: Error) => Promise.reject(new Error(`${e.message}; worker said: ${out}`)));
      await killProcessGroup(child);
      await sender.stop();

      // Killed between the provider's charge and the write: charged at the provider, nothing recorded, still leased.
      const intents = await t.db.prisma.sandboxObject.count({ where: { kind: "payment_intent", id: { startsWith: "pi_" } } });
      expect(intents).toBeGreaterThanOrEqual(4);
      for (const id of ids) {
        const s = await t.db.prisma.subscription.findUniqueOrThrow({ where: { id }, include: { orders: true, payments: true } });
        expect(s).toMatchObject({ orders: [], payments: [], paidThroughPeriod: "2026-03" });
        expect(s.renewalLeaseUntil).not.toBeNull();
      }

      // Another process takes over once the dead worker's heartbeat is stale; its clock is past the 5-minute lease.
      const later = new FixedClock(new Date(Date.parse(BILLING_INSTANT) + 6 * 60_000).toISOString());
      const retrying = await queueOn(t.db, { clock: later });
      const job = await until("the job to complete after its retry", async () => {
        const j = await retrying.boss.getJobById<object>(RENEWALS_QUEUE, jobId);
        return j?.state === "completed" && j;
      });
      expect(job.retryCount).toBeGreaterThanOrEqual(1);
      expect(job.output).toMatchObject({ due: 4, charged: 4, errors: 0 });
      await expectChargedOnce(ids);
    } finally {
      await killProcessGroup(child);
    }
  }, 90_000);
});

describe("the Jobs screen's service", () => {
  it("lists a failed run with its error and counts to administrators only, and retries it", async () => {
    // A test-only queue whose job fails like an incomplete renewal pass: an error carrying its report.
    let attempts = 0;
    const flaky = {
      queue: { name: "test-flaky", retryLimit: 0 },
      async run() {
        attempts++;
        if (attempts === 1) throw Object.assign(new Error("renewal pass incomplete: 2 not renewed because of an error"), { report: { due: 3, charged: 1, errors: 2 } });
        return { due: 2, charged: 2, errors: 0 };
      },
    };
    const jobs = await startJobQueue({ db: t.db, log, definitions: [flaky], schedules: [], pollingIntervalSeconds: 0.5, timing });
    opened.push(jobs);
    const id = (await jobs.boss.send("test-flaky", {}))!;
    const admin = { actor: { kind: "user" as const, user: { id: 1, publicId: "u1", username: "admin", isAdmin: true }, session: { id: 1, tenantSlug: null } }, jobs };
    const member = { ...admin, actor: { ...admin.actor, user: { ...admin.actor.user, isAdmin: false } } };

    const failed = await until("the run to fail", async () => {
      const [q] = await recentRuns(admin);
      return q.runs[0]?.state === "failed" && q.runs[0];
    });
    expect(failed).toMatchObject({ id, queue: "test-flaky", error: "renewal pass incomplete: 2 not renewed because of an error", counts: { due: 3, charged: 1, errors: 2 } });
    expect(failed.finishedAt!.getTime()).toBeGreaterThanOrEqual(failed.startedAt!.getTime());
    await expect(recentRuns(member)).rejects.toThrow("permission");
    await expect(retryRun(member, "test-flaky", id)).rejects.toThrow("permission");
    await expect(retryRun(admin, "billing-renewals", id)).rejects.toThrow("Queue not found");

    await retryRun(admin, "test-flaky", id);
    const retried = await until("the retried run to complete", async () => {
      const [q] = await recentRuns(admin);
      return q.runs[0]?.state === "completed" && q.runs[0];
    });
    expect(retried).toMatchObject({ id, error: null, counts: { due: 2, charged: 2, errors: 0 } });
    await expect(retryRun(admin, "test-flaky", id)).rejects.toThrow("Only a failed run can be retried.");
  }, 60_000);
});
