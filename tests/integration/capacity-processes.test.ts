import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { openSession } from "../../api/auth/sessions.ts";
import { testConfig } from "../../api/config.ts";
import { FixedClock } from "../../api/shared/clock.ts";
import { expectMoneyBalanced, PAY } from "../support/payments.ts";
import { killProcessGroup, serverEnv, startServer, tenantGraphql, waitUntilHealthy } from "../support/server-process.ts";

/**
 * Capacity across server processes (`tsx server/main.ts`) on one PostgreSQL database: 20 members check out
 * the last place of a plan at once, half on each server. Every checkout opens (an unpaid checkout holds no place)
 * and every card is charged; the settlements then race for the place under the business's capacity lock
 * (api/catalog/capacity.ts): exactly one becomes a membership, the 19 others answer "sold out" and their payments
 * are refunded, none kept.
 *
 * Needs TEST_DATABASE_URL: skipped otherwise (capacity.test.ts runs the same decisions one after another on both
 * databases).
 */

const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl) console.warn("capacity-processes.test.ts skipped: set TEST_DATABASE_URL=postgresql://… (server processes need a shared PostgreSQL database)");

const CLOCK = "2026-03-05T15:00:00Z";
const MEMBERS = 20;

describe.skipIf(!serverUrl)("capacity across server processes (PostgreSQL)", () => {
  let db: TestDatabase;
  const children: ChildProcess[] = [];
  const logs: string[] = [];
  const servers: string[] = [];
  let businessId = 0;
  let planId = 0;

  beforeAll(async () => {
    db = await createTestDatabase({ poolSize: 4 });

    const booting = ["a", "b"].map((name) => {
      const server = startServer(name, serverEnv(db.env, { CLOCK_START: CLOCK }), logs);
      children.push(server.child);
      return server.url;
    });

    const business = await db.prisma.business.create({
      data: { collectsOnPlatform: true, slug: "full-farm", name: "Full Farm", timeZone: "America/New_York", page: { create: { brandName: "Full Farm", billingDay: 3, cutoffDay: 25 } } },
    });
    businessId = business.id;
    // Five places, four taken: one left.
    const plan = await db.prisma.plan.create({ data: { businessId, ref: "item_last", name: "Last Box", capacity: 5, variations: { create: [{ mode: "PICKUP", amountCents: 2500 }] } } });
    planId = plan.id;
    for (let i = 0; i < 4; i++) {
      const user = await db.prisma.user.create({ data: { username: `holder${i}`, passwordHash: "x" } });
      await db.prisma.subscription.create({ data: { userId: user.id, businessId, planId, status: "ACTIVE", mode: "PICKUP", planAmountCents: 2500, totalCents: 2500, paidThroughPeriod: "2026-03" } });
    }

    servers.push(...(await Promise.all(booting)));
    await waitUntilHealthy(servers, logs);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(children.map((child) => killProcessGroup(child)));
    await db?.drop();
  }, 30_000);

  const gql = tenantGraphql("full-farm");

  it("20 concurrent checkouts for the last place: exactly one membership, 19 sold out and refunded", async () => {
    const clock = new FixedClock(CLOCK);
    const members = await Promise.all(
      Array.from({ length: MEMBERS }, async (_, i) => {
        const user = await db.prisma.user.create({ data: { username: `buyer${i}`, passwordHash: "x", email: `buyer${i}@example.com` } });
        const token = (await openSession({ db: db.prisma, clock, config: testConfig() }, user.id, { tenantSlug: "full-farm" })).token;
        return { user, token, server: servers[i % 2] };
      }),
    );
    const input = (i: number) => ({
      input: { selection: { businessSlug: "full-farm", planRef: "item_last", mode: "PICKUP", addonRefs: [] }, email: `buyer${i}@example.com`, idempotencyKey: `last-place-${i}-${randomBytes(4).toString("hex")}` },
    });
    // Every checkout opens while the place is free, and every card is charged.
    const started = await Promise.all(members.map((m, i) => gql(m.server, PAY.START, input(i), m.token).then((d) => d.startCheckout)));
    expect(started.map((s) => s.__typename)).toEqual(Array(MEMBERS).fill("StartCheckoutSuccess"));
    await Promise.all(members.map((m, i) => gql(m.server, PAY.CONFIRM, { s: started[i].data.clientSecret }, m.token)));
    // The settlements race, on the other server than the one that opened each checkout.
    const completed = await Promise.all(members.map((m, i) => gql(servers[(i + 1) % 2], PAY.COMPLETE, { id: started[i].data.paymentIntentId }, m.token).then((d) => d.completeCheckout)));

    const won = completed.filter((c) => c.__typename === "CompleteCheckoutSuccess");
    const soldOut = completed.filter((c) => c.__typename === "RuleViolationError" && c.reason === "sold_out");
    expect(won, JSON.stringify(completed)).toHaveLength(1);
    expect(soldOut).toHaveLength(MEMBERS - 1);
    expect(soldOut[0].message).toBe("This box is sold out. Your payment of $25.00 was refunded.");
    expect(await db.prisma.subscription.count({ where: { planId, status: { in: ["ACTIVE", "PAST_DUE"] } } })).toBe(5);

    const payments = await db.prisma.payment.findMany({ where: { userId: { in: members.map((m) => m.user.id) } } });
    expect(payments).toHaveLength(MEMBERS);
    expect(payments.filter((p) => p.orderId !== null && p.refundedCents === 0)).toHaveLength(1);
    expect(payments.filter((p) => p.refundReason === "sold_out" && p.refundedCents === 2500 && p.orderId === null)).toHaveLength(MEMBERS - 1);
    for (const m of members) await expectMoneyBalanced(db.prisma, m.user.id, businessId);
  }, 120_000);
});
