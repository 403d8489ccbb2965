import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { openSession } from "../../api/auth/sessions.ts";
import { testConfig } from "../../api/config.ts";
import { FixedClock } from "../../api/shared/clock.ts";
import { IDEMPOTENCY_LEASE_MS } from "../../api/billing/providers/sandbox/store.ts";
import { expectMoneyBalanced, PAY, seedSavedCard } from "../support/payments.ts";
import { killProcessGroup, serverEnv, startServer, tenantGraphql, waitUntilHealthy } from "../support/server-process.ts";

/**
 * Money under races and crashes, with real server processes (`tsx server/main.ts`) on one PostgreSQL
 * database: a restart racing a checkout of the same business (20 rounds), two checkout attempts paid crosswise at
 * once, and servers killed (SIGKILL, via the test-only CRASH_AT points of api/shared/crash-points.ts) (a) while
 * holding an idempotency claim before calling the provider and (b) after the provider took the charge but before
 * our transaction committed. After every scenario each charge is kept by exactly one order of the same amount or
 * refunded, and a member never holds two open memberships at one business.
 *
 * Needs TEST_DATABASE_URL: skipped otherwise (payment-integrity.test.ts runs the same decisions one after another
 * on both databases).
 */

const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl) console.warn("payment-races.test.ts skipped: set TEST_DATABASE_URL=postgresql://… (server processes need a shared PostgreSQL database)");

/** The crashing servers live before the others by more than a claim's lease: their claims have expired for the others. */
const CRASH_CLOCK = "2026-03-05T15:00:00Z";
const CLOCK = new Date(new Date(CRASH_CLOCK).getTime() + IDEMPOTENCY_LEASE_MS + 5 * 60_000).toISOString();


describe.skipIf(!serverUrl)("payments across server processes and crashes (PostgreSQL)", () => {
  let db: TestDatabase;
  const children: ChildProcess[] = [];
  const logs: string[] = [];
  const servers: Record<"a" | "b" | "claimCrash" | "settleCrash" | "restartCrash", { url: string; child: ChildProcess }> = {} as never;
  let businessId = 0;
  let cheapRef = "";
  let dearRef = "";
  let cheapId = 0;

  beforeAll(async () => {
    db = await createTestDatabase({ poolSize: 4 });

    const booting: Promise<void>[] = [];
    const boot = (key: keyof typeof servers, extra: Record<string, string>) => {
      const server = startServer(key, serverEnv(db.env, { CLOCK_START: CLOCK, ...extra }), logs);
      children.push(server.child);
      booting.push(server.url.then((url) => void (servers[key] = { url, child: server.child })));
    };
    boot("a", {});
    boot("b", {});
    boot("claimCrash", { CRASH_AT: "sandbox:claimed", CLOCK_START: CRASH_CLOCK });
    boot("settleCrash", { CRASH_AT: "settle:before-commit" });
    boot("restartCrash", { CRASH_AT: "settle:before-commit" });

    const business = await db.prisma.business.create({
      data: { collectsOnPlatform: true, slug: "race-farm", name: "Race Farm", timeZone: "America/New_York", page: { create: { brandName: "Race Farm", billingDay: 3, cutoffDay: 25 } } },
    });
    businessId = business.id;
    const cheap = await db.prisma.plan.create({ data: { businessId, ref: "item_small", name: "Small", variations: { create: [{ mode: "PICKUP", amountCents: 1000 }] } } });
    const dear = await db.prisma.plan.create({ data: { businessId, ref: "item_large", name: "Large", variations: { create: [{ mode: "PICKUP", amountCents: 5000 }] } } });
    [cheapRef, dearRef, cheapId] = [cheap.ref, dear.ref, cheap.id];

    await Promise.all(booting);
    await waitUntilHealthy(Object.values(servers).map((s) => s.url), logs);
  }, 180_000);

  afterAll(async () => {
    // The whole process group of each: a SIGKILL to tsx alone left the server it runs alive after the suite.
    await Promise.all(children.map((child) => killProcessGroup(child)));
    await db?.drop();
  }, 30_000);

  /** A GraphQL answer, or the failure of the request itself (a killed server). */
  const gql = tenantGraphql("race-farm");

  /** The types of the events about a member (the outbox, api/events/), in sequence order. */
  const eventTypesOf = async (userId: number) =>
    (await db.prisma.event.findMany({ where: { payload: { path: ["userId"], equals: userId } }, orderBy: { sequence: "asc" } })).map((e) => e.type);

  let seq = 0;
  async function member(o: { canceled?: boolean } = {}) {
    const clock = new FixedClock(CLOCK);
    const user = await db.prisma.user.create({ data: { username: `racer${++seq}`, passwordHash: "x", email: `racer${seq}@example.com` } });
    const token = (await openSession({ db: db.prisma, clock, config: testConfig() }, user.id, { tenantSlug: "race-farm" })).token;
    let canceledId = 0;
    if (o.canceled) {
      const pm = await seedSavedCard(db.prisma, user);
      const sub = await db.prisma.subscription.create({
        data: {
          userId: user.id, businessId, planId: cheapId, status: "CANCELED", mode: "PICKUP", planAmountCents: 1000, totalCents: 1000, billingDay: 3,
          providerPaymentMethodId: pm, paidThroughPeriod: "2026-01", startedAt: new Date("2025-12-10T15:00:00Z"), canceledAt: new Date("2026-02-10T15:00:00Z"),
        },
      });
      canceledId = sub.id;
    }
    return { user, token, canceledId };
  }

  const startInput = (planRef: string, key: string) => ({
    input: { selection: { businessSlug: "race-farm", planRef, mode: "PICKUP", addonRefs: [] }, email: "racer@example.com", idempotencyKey: key },
  });

  /** Start, confirm with the test card and complete one checkout attempt on one server; the answers of each step. */
  async function checkout(server: string, token: string, planRef: string) {
    const started = (await gql(server, PAY.START, startInput(planRef, `race-${++seq}-${randomBytes(4).toString("hex")}`), token)).startCheckout;
    if (started.__typename !== "StartCheckoutSuccess") return { started };
    await gql(server, PAY.CONFIRM, { s: started.data.clientSecret }, token);
    return { started, completed: (await gql(server, PAY.COMPLETE, { id: started.data.paymentIntentId }, token)).completeCheckout };
  }

  it("a restart racing a new checkout of the same business, 20 rounds: every charge is kept by one order or refunded", async () => {
    const outcomes: string[] = [];
    for (let round = 0; round < 20; round++) {
      const m = await member({ canceled: true });
      const [servA, servB] = round % 2 ? [servers.a.url, servers.b.url] : [servers.b.url, servers.a.url];
      const [restart, flow] = await Promise.all([gql(servA, PAY.RESTART, { id: String(m.canceledId) }, m.token), checkout(servB, m.token, dearRef)]);
      outcomes.push(`${restart.restartSubscription.__typename}/${restart.restartSubscription.reason ?? restart.restartSubscription.data?.outcome} + ${flow.completed?.__typename ?? flow.started.reason}/${flow.completed?.reason ?? ""}`);
      expect(["RestartSubscriptionSuccess", "ConflictError"]).toContain(restart.restartSubscription.__typename);
      const { kept } = await expectMoneyBalanced(db.prisma, m.user.id, businessId);
      // Exactly one of them became the membership, and it is paid.
      expect(kept).toHaveLength(1);
      expect(await db.prisma.subscription.count({ where: { userId: m.user.id, businessId, status: "ACTIVE" } })).toBe(1);
    }
    console.log(`restart vs checkout, 20 rounds: ${[...new Set(outcomes)].map((o) => `${o} ×${outcomes.filter((x) => x === o).length}`).join("; ")}`);
  }, 240_000);

  it("two checkout attempts of one member paid crosswise on two servers at once: one kept at its own price, the other refunded", async () => {
    for (let round = 0; round < 5; round++) {
      const m = await member();
      const keys = [`cross-a-${round}-${seq}`, `cross-b-${round}-${seq}`];
      const [small, large] = await Promise.all([
        gql(servers.a.url, PAY.START, startInput(cheapRef, keys[0]), m.token),
        gql(servers.b.url, PAY.START, startInput(dearRef, keys[1]), m.token),
      ]);
      const started = [small.startCheckout, large.startCheckout].filter((s) => s.__typename === "StartCheckoutSuccess");
      expect(started.length).toBeGreaterThan(0);
      const confirmed = await Promise.all(started.map((s, i) => gql(i ? servers.b.url : servers.a.url, PAY.CONFIRM, { s: s.data.clientSecret }, m.token)));
      // Completed crosswise: each attempt on the other server.
      const completed = await Promise.all(started.map((s, i) => gql(i ? servers.a.url : servers.b.url, PAY.COMPLETE, { id: s.data.paymentIntentId }, m.token)));
      const { kept } = await expectMoneyBalanced(db.prisma, m.user.id, businessId);
      expect(kept, JSON.stringify({ started, confirmed, completed })).toHaveLength(1);
      const sub = await db.prisma.subscription.findFirstOrThrow({ where: { userId: m.user.id, status: "ACTIVE" } });
      expect(sub.totalCents).toBe(kept[0].amountCents);
    }
  }, 120_000);

  it("(a) a server killed while holding the checkout's idempotency claim: the retry after the lease charges once", async () => {
    const m = await member();
    const input = startInput(cheapRef, `crash-claim-${seq}`);
    await expect(gql(servers.claimCrash.url, PAY.START, input, m.token)).rejects.toThrow();
    await waitForExit(servers.claimCrash.child);
    // The claim is still there, held by nobody.
    const held = await db.prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM sandbox_objects WHERE kind = 'idempotency' AND data->>'objectId' IS NULL`;
    expect(held[0].n).toBe(1);

    const retry = (await gql(servers.a.url, PAY.START, input, m.token)).startCheckout;
    expect(retry.__typename, JSON.stringify(retry)).toBe("StartCheckoutSuccess");
    const again = (await gql(servers.b.url, PAY.START, input, m.token)).startCheckout;
    expect(again.data.paymentIntentId).toBe(retry.data.paymentIntentId);
    await gql(servers.b.url, PAY.CONFIRM, { s: retry.data.clientSecret }, m.token);
    const done = (await gql(servers.a.url, PAY.COMPLETE, { id: retry.data.paymentIntentId }, m.token)).completeCheckout;
    expect(done).toMatchObject({ __typename: "CompleteCheckoutSuccess", data: { chargedCents: 1000 } });
    expect(await db.prisma.payment.count({ where: { userId: m.user.id } })).toBe(1);
    expect(await expectMoneyBalanced(db.prisma, m.user.id, businessId)).toMatchObject({ kept: [{ amountCents: 1000 }], refunded: 0 });
  }, 60_000);

  it("(b) a server killed after the provider took the checkout's charge, before our transaction committed: the retry settles it once", async () => {
    const m = await member();
    const started = (await gql(servers.a.url, PAY.START, startInput(dearRef, `crash-settle-${seq}`), m.token)).startCheckout;
    await gql(servers.a.url, PAY.CONFIRM, { s: started.data.clientSecret }, m.token);
    await expect(gql(servers.settleCrash.url, PAY.COMPLETE, { id: started.data.paymentIntentId }, m.token)).rejects.toThrow();
    await waitForExit(servers.settleCrash.child);
    expect(await db.prisma.order.count({ where: { userId: m.user.id } })).toBe(0);
    // The killed settlement had written its events, uncommitted: none announced.
    expect(await eventTypesOf(m.user.id)).toEqual([]);

    const done = (await gql(servers.b.url, PAY.COMPLETE, { id: started.data.paymentIntentId }, m.token)).completeCheckout;
    expect(done).toMatchObject({ __typename: "CompleteCheckoutSuccess", data: { chargedCents: 5000 } });
    expect(await expectMoneyBalanced(db.prisma, m.user.id, businessId)).toMatchObject({ kept: [{ amountCents: 5000 }], refunded: 0 });
    expect(await eventTypesOf(m.user.id)).toEqual(["order.created.v1", "membership.started.v1", "card.updated.v1"]);
  }, 60_000);

  it("(b) a server killed after a restart's off-session charge, before our transaction committed: the retry reuses that charge", async () => {
    const m = await member({ canceled: true });
    await expect(gql(servers.restartCrash.url, PAY.RESTART, { id: String(m.canceledId) }, m.token)).rejects.toThrow();
    await waitForExit(servers.restartCrash.child);
    expect(await db.prisma.subscription.findUniqueOrThrow({ where: { id: m.canceledId } })).toMatchObject({ status: "CANCELED" });
    expect(await eventTypesOf(m.user.id)).toEqual([]);

    const retry = (await gql(servers.a.url, PAY.RESTART, { id: String(m.canceledId) }, m.token)).restartSubscription;
    expect(retry).toMatchObject({ __typename: "RestartSubscriptionSuccess", data: { outcome: "PAID" } });
    expect(await eventTypesOf(m.user.id)).toEqual(["order.created.v1", "membership.restarted.v1"]);
    const { kept, refunded } = await expectMoneyBalanced(db.prisma, m.user.id, businessId);
    expect([kept.length, refunded]).toEqual([1, 0]);
    expect(await db.prisma.sandboxObject.count({ where: { kind: "payment_intent", data: { path: ["customerId"], equals: `cus_test_${m.user.id}` } } })).toBe(1);
  }, 60_000);
});

function waitForExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}
