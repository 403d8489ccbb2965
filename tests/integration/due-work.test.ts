/**
 * What falls due on the application's clock runs without waiting for a schedule's next occurrence: moving the
 * demo clock queues a renewal pass (whose completion freezes the month), a server start queues the passes that
 * catch up (a month past its freeze time frozen by that pass), and the Jobs screen's service folds runs that
 * found nothing due and queues a run by hand. No cron schedule is registered here, so only these can run a job.
 */
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceContext } from "../../api/context.ts";
import { moveDemoClock } from "../../api/jobs/demo-clock.ts";
import { queueDueWork } from "../../api/jobs/due-work.ts";
import { FULFILMENT_FREEZE_QUEUE, fulfilmentFreezeJob } from "../../api/jobs/packing-job.ts";
import { startJobQueue, type JobDefinition, type JobQueue } from "../../api/queue/job-queue.ts";
import { renewalsJob } from "../../api/jobs/renewals-job.ts";
import { recentRuns, runNow } from "../../api/jobs/service.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";

const log = pino({ level: "silent" });
const timing = { cronWorkerIntervalSeconds: 1, cronMonitorIntervalSeconds: 1, superviseIntervalSeconds: 1, monitorIntervalSeconds: 1 };
const adminActor = { kind: "user" as const, user: { id: 1, publicId: "u1", username: "admin", isAdmin: true }, session: { id: 1, tenantSlug: null } };

let t: TestApp;
let f: Factories;
let jobs: JobQueue;
const idle = { results: [] as number[] };

/** A test-only queue whose runs report `sent` from a script: 0 is a run that found nothing due. */
const scripted: JobDefinition = {
  queue: { name: "test-scripted", policy: "stately", retryLimit: 0 },
  async run() {
    return { sent: idle.results.shift() ?? 0 };
  },
};
const perMessage: JobDefinition = { queue: { name: "test-per-message" }, runByHand: false, run: async () => ({ sent: 1 }) };

beforeAll(async () => {
  t = await createTestApp({ now: "2026-04-01T14:00:00Z" });
  f = factories(t);
  const ctx = { db: t.db.prisma, clock: t.clock, config: t.config, log };
  jobs = await startJobQueue({
    db: t.db,
    log,
    definitions: [renewalsJob(ctx, { afterPass: async () => jobs.boss.send(FULFILMENT_FREEZE_QUEUE, {}) }), fulfilmentFreezeJob(ctx), scripted, perMessage],
    schedules: [],
    pollingIntervalSeconds: 0.5,
    timing,
  });
});
afterAll(async () => {
  await jobs?.stop();
  await t?.close();
});

const service = () => ({ db: t.db.prisma, clock: t.clock, config: t.config, log, actor: adminActor, tenant: null, jobs, roleCache: new Map() }) as unknown as ServiceContext;

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A member with a card that succeeds (sandbox) and an April renewal due on the business's billing day. */
async function dueMembership(business: { id: number }) {
  const plan = await f.plan(business, { name: "Box", prices: { PICKUP: 2500 } });
  const user = await f.user();
  const customerId = `cus_due_${user.id}`;
  await t.db.prisma.user.update({ where: { id: user.id }, data: { paymentCustomerId: customerId } });
  await t.db.prisma.sandboxObject.createMany({
    data: [
      { id: customerId, kind: "customer", data: { userId: user.id, email: user.email, name: null } },
      { id: `pm_due_${user.id}`, kind: "payment_method", data: { customerId, brand: "visa", last4: "4242", expMonth: 12, expYear: 2031, behavior: "succeed" } },
    ],
  });
  const sub = await f.subscription({ user, business, plan, planAmountCents: 2500, paidThroughPeriod: "2026-03" });
  return t.db.prisma.subscription.update({ where: { id: sub.id }, data: { billingDay: 3, providerPaymentMethodId: `pm_due_${user.id}` } });
}

const snapshot = (businessId: number, period: string) => t.db.prisma.packingSnapshot.findFirst({ where: { businessId, period } });

describe("moving the demo clock", () => {
  it("charges what became due and freezes the month within one pass, with no schedule firing", async () => {
    const business = await f.business({ timeZone: "America/New_York", page: { billingDay: 3, pickupEnabled: true } });
    const membership = await dueMembership(business);

    const moved = await moveDemoClock(service(), new Date("2026-04-03T14:00:00Z"));
    expect(moved.renewalQueued).toBe(true);

    const renewed = await until("the April renewal", async () => {
      const s = await t.db.prisma.subscription.findUniqueOrThrow({ where: { id: membership.id }, include: { orders: true } });
      return s.paidThroughPeriod === "2026-04" && s;
    });
    expect(renewed.orders.map((o) => ({ period: o.period, totalCents: o.totalCents }))).toEqual([{ period: "2026-04", totalCents: 2500 }]);
    // The business has no cutoff day: April freezes once its renewal run completed, which queued the freeze.
    expect(await until("April's packing snapshot", () => snapshot(business.id, "2026-04"))).toMatchObject({ period: "2026-04" });
  }, 60_000);
});

describe("a server start", () => {
  it("queues a freeze pass that freezes a month whose freeze time has passed", async () => {
    // Cutoff on the 10th: April freezes at the start of April 11 (New York). The clock is past that already.
    const business = await f.business({ timeZone: "America/New_York", page: { billingDay: 3, cutoffDay: 10, pickupEnabled: true } });
    t.clock.set("2026-04-12T09:00:00Z");
    expect(await snapshot(business.id, "2026-04")).toBeNull();

    expect(await queueDueWork(jobs, { renewals: false })).toEqual([FULFILMENT_FREEZE_QUEUE]);
    expect(await until("April's packing snapshot", () => snapshot(business.id, "2026-04"))).toMatchObject({ period: "2026-04" });
  }, 60_000);
});

describe("the Jobs screen's service", () => {
  const scriptedRows = async () => (await recentRuns(service())).find((q) => q.queue === "test-scripted")!;
  const runAndWait = async (result: number) => {
    idle.results.push(result);
    const run = await runNow(service(), "test-scripted");
    return until(`run ${run.id}`, async () => (await scriptedRows()).runs.find((r) => r.id === run.id && r.state === "completed"));
  };

  it("folds consecutive runs that found nothing due into one row, newest first", async () => {
    for (const result of [0, 0, 0, 2, 0, 0]) await runAndWait(result);
    const { runs, runnable } = await scriptedRows();
    expect(runnable).toBe(true);
    expect(runs.map((r) => ({ nothingDue: r.nothingDue, foldedRuns: r.foldedRuns, counts: r.counts }))).toEqual([
      { nothingDue: true, foldedRuns: 2, counts: { sent: 0 } },
      { nothingDue: false, foldedRuns: 1, counts: { sent: 2 } },
      { nothingDue: true, foldedRuns: 3, counts: { sent: 0 } },
    ]);
    const [newest, , oldest] = runs;
    expect(newest.firstCreatedAt.getTime()).toBeLessThan(newest.createdAt.getTime());
    expect(oldest.firstCreatedAt.getTime()).toBeLessThan(oldest.createdAt.getTime());
    expect(oldest.createdAt.getTime()).toBeLessThan(runs[1].createdAt.getTime());
  }, 60_000);

  it("Run now brings a run that waits forward instead of queueing a second one", async () => {
    const waiting = (await jobs.boss.send("test-scripted", {}, { startAfter: 3600 }))!;
    idle.results.push(5);
    const run = await runNow(service(), "test-scripted");
    expect(run.id).toBe(waiting);
    const done = await until("the waiting run to start now", async () => (await scriptedRows()).runs.find((r) => r.id === waiting && r.state === "completed"));
    expect(done.counts).toEqual({ sent: 5 });
  }, 60_000);

  it("refuses a queue whose jobs carry their own work, an unknown queue, and anyone but an administrator", async () => {
    await expect(runNow(service(), "test-per-message")).rejects.toThrow("This queue's runs each carry their own work (one email each): they are not run by hand.");
    expect((await recentRuns(service())).find((q) => q.queue === "test-per-message")!.runnable).toBe(false);
    await expect(runNow(service(), "no-such-queue")).rejects.toThrow("Queue not found");
    const member = { ...service(), actor: { ...adminActor, user: { ...adminActor.user, isAdmin: false } } } as ServiceContext;
    await expect(runNow(member, "test-scripted")).rejects.toThrow("permission");
  });
});
