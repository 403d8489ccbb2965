import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/database.ts";
import { openSession } from "../../api/auth/sessions.ts";
import { hashPassword } from "../../api/auth/passwords.ts";
import { testConfig } from "../../api/config.ts";
import { FixedClock } from "../../api/shared/clock.ts";
import { runRenewals } from "../../api/billing/renewals/clock.ts";
import pino from "pino";
import { killProcessGroup, serverEnv, spawnProcessGroup, startServer, tenantGraphql, waitUntilHealthy } from "../support/server-process.ts";

/**
 * Scale-out: two real server processes (`tsx server/main.ts`) on one PostgreSQL database, two billing
 * runs (`scripts/billing-run.ts`) at the same time, and duplicate checkouts sent to both servers at once.
 * Exactly one charge and one order per membership and period, one membership per member and business, and
 * login throttling shared by both processes (its counters live in the database).
 *
 * Needs TEST_DATABASE_URL (a PostgreSQL server on which it may create and drop a database): skipped otherwise.
 */

const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl) console.warn("scale-out.test.ts skipped: set TEST_DATABASE_URL=postgresql://… (two server processes need a shared PostgreSQL database)");

/** Billing day 28 of April in every zone used: all memberships below are due for 2026-04. */
const CLOCK_START = "2026-04-28T15:00:00Z";
const AS_OF = "2026-04-28T16:00:00Z";
const PERIOD = "2026-04";
const tsx = "node_modules/.bin/tsx";


describe.skipIf(!serverUrl)("scale-out: two server processes and two billing runs on one PostgreSQL database", () => {
  let db: TestDatabase;
  const children: ChildProcess[] = [];
  const servers: string[] = [];
  const logs: string[] = [];
  const renewing: number[] = [];
  const tokens: Record<string, string> = {};
  let businessId = 0;
  let planRef = "";

  /** Runs a command to its end; resolves with its output (rejects on a non-zero exit). */
  const run = (args: string[], extra: Record<string, string> = {}) =>
    new Promise<string>((resolve, reject) => {
      const child = spawnProcessGroup(tsx, args, { env: serverEnv(db.env, extra), stdio: ["ignore", "pipe", "pipe"] });
      children.push(child);
      let out = "";
      child.stdout!.on("data", (d) => (out += d));
      child.stderr!.on("data", (d) => (out += d));
      child.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`${args.join(" ")} exited ${code}:\n${out}`))));
    });

  const gql = tenantGraphql("scale-farm");

  beforeAll(async () => {
    db = await createTestDatabase({ poolSize: 4 });

    // The servers boot (tsx start-up takes a while) while the rows below are written.
    const booting: Promise<string>[] = [];
    for (const name of ["a", "b"]) {
      const server = startServer(name, serverEnv(db.env, { CLOCK_START }), logs);
      children.push(server.child);
      booting.push(server.url);
    }

    // Two businesses billing on the 28th, six members each with a saved sandbox card, paid through March.
    const prisma = db.prisma;
    const clock = new FixedClock(CLOCK_START);
    const config = testConfig();
    for (const [slug, zone] of [["scale-farm", "America/New_York"], ["scale-bakery", "Europe/Berlin"]] as const) {
      const business = await prisma.business.create({ data: { collectsOnPlatform: true, slug, name: slug, timeZone: zone, page: { create: { brandName: slug, billingDay: 28 } } } });
      const plan = await prisma.plan.create({ data: { businessId: business.id, ref: `item_${slug}`, name: "Box", variations: { create: [{ mode: "PICKUP", amountCents: 3000 }] } } });
      if (slug === "scale-farm") [businessId, planRef] = [business.id, plan.ref];
      for (let i = 0; i < 6; i++) {
        const user = await prisma.user.create({ data: { username: `${slug}-member-${i}`, passwordHash: "x", paymentCustomerId: `cus_scale_${slug}_${i}` } });
        const pm = `pm_scale_${slug}_${i}`;
        await prisma.sandboxObject.createMany({
          data: [
            { id: `cus_scale_${slug}_${i}`, kind: "customer", data: { userId: user.id, email: null, name: null } },
            { id: pm, kind: "payment_method", data: { customerId: `cus_scale_${slug}_${i}`, brand: "visa", last4: "4242", expMonth: 12, expYear: 2031, behavior: "succeed" } },
          ],
        });
        await prisma.paymentMethod.create({ data: { userId: user.id, provider: "sandbox", providerPaymentMethodId: pm, brand: "visa", last4: "4242", expMonth: 12, expYear: 2031 } });
        const sub = await prisma.subscription.create({
          data: {
            userId: user.id, businessId: business.id, planId: plan.id, status: "ACTIVE", mode: "PICKUP", planAmountCents: 3000, totalCents: 3000,
            billingDay: 28, providerPaymentMethodId: pm, paidThroughPeriod: "2026-03", startedAt: new Date("2026-01-28T15:00:00Z"),
          },
        });
        renewing.push(sub.id);
      }
    }
    // Checkout members (sessions bound to the farm, as a tenant login makes them) and one with a password.
    for (const who of ["double", "twokeys"]) {
      const user = await prisma.user.create({ data: { username: `scale-${who}`, passwordHash: "x", email: `${who}@example.com` } });
      tokens[who] = (await openSession({ db: prisma, clock, config }, user.id, { tenantSlug: "scale-farm" })).token;
    }
    await prisma.user.create({ data: { username: "scale-throttled", passwordHash: await hashPassword("right-password-1") } });

    servers.push(...(await Promise.all(booting)));
    await waitUntilHealthy(servers, logs, 90_000);
    // Runs in ~50 s on a busy 2-core machine; the limits leave room for a slower one.
  }, 150_000);

  afterAll(async () => {
    // The whole process group of each: a SIGKILL to tsx alone left the server it runs alive after the suite.
    await Promise.all(children.map((child) => killProcessGroup(child)));
    await db?.drop();
  }, 30_000);

  const START = `mutation($input: StartCheckoutInput!) { startCheckout(input: $input) { __typename ... on StartCheckoutSuccess { data { clientSecret paymentIntentId } } ... on Error { message } } }`;
  const CONFIRM = `mutation($s: String!) { confirmSandboxPayment(clientSecret: $s, card: { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" }) { __typename } }`;
  const COMPLETE = `mutation($id: String!) { completeCheckout(paymentIntentId: $id) { __typename ... on CompleteCheckoutSuccess { data { chargedCents order { period } } } ... on Error { message } } }`;
  const LOGIN = `mutation($u: String!, $p: String!) { login(input: { username: $u, password: $p }) { __typename } }`;

  it("charges once per membership and period while two billing runs and duplicate checkouts hit both servers", async () => {
    const selection = { businessSlug: "scale-farm", planRef, mode: "PICKUP", addonRefs: [] };
    const checkout = async (who: string, server: string, key: string) => {
      const r = await gql(server, START, { input: { selection, email: `${who}@example.com`, idempotencyKey: key } }, tokens[who]);
      return r.startCheckout;
    };
    type Started = { data: { clientSecret: string; paymentIntentId: string } };
    const confirmAll = (started: Started[]) => Promise.all(started.map((s, i) => gql(servers[i % 2], CONFIRM, { s: s.data.clientSecret })));

    const [runA, runB, double, twoKeys] = await Promise.all([
      run(["scripts/billing-run.ts", "--as-of", AS_OF]),
      run(["scripts/billing-run.ts", "--as-of", AS_OF]),
      // The same member, the same idempotency key, half of the submits to each server.
      Promise.all(Array.from({ length: 8 }, (_, i) => checkout("double", servers[i % 2], "same-click-key-0001"))),
      // Another member in two tabs: a different key on each server.
      Promise.all([checkout("twokeys", servers[0], "tab-one-key-0001"), checkout("twokeys", servers[1], "tab-two-key-0002")]),
    ]);

    const doubleOk = double.filter((r) => r.__typename === "StartCheckoutSuccess");
    expect(doubleOk.length).toBeGreaterThan(0);
    expect(double.every((r) => r.__typename === "StartCheckoutSuccess" || r.__typename === "ConflictError"), JSON.stringify(double)).toBe(true);
    expect(new Set(doubleOk.map((r) => r.data.paymentIntentId)).size).toBe(1);
    await confirmAll([doubleOk[0]]);
    // The card form's completion, sent to both servers at once, twice each.
    const doubleDone = await Promise.all([...servers, ...servers].map((server) => gql(server, COMPLETE, { id: doubleOk[0].data.paymentIntentId }, tokens.double)));
    expect(doubleDone.every((c) => c.completeCheckout.__typename === "CompleteCheckoutSuccess"), JSON.stringify(doubleDone)).toBe(true);

    // Each tab pays and completes its own checkout on its own server, at the same time.
    const twoKeysOk = twoKeys.filter((r) => r.__typename === "StartCheckoutSuccess");
    expect(twoKeysOk.length, JSON.stringify(twoKeys)).toBeGreaterThan(0);
    await confirmAll(twoKeysOk);
    const twoKeysDone = await Promise.all(twoKeysOk.map((s, i) => gql(servers[i % 2], COMPLETE, { id: s.data.paymentIntentId }, tokens.twokeys)));
    expect(twoKeysDone.every((c) => c.completeCheckout.__typename === "CompleteCheckoutSuccess"), JSON.stringify(twoKeysDone)).toBe(true);

    // The two runs together charged every due membership once (one of them may have found it busy or paid).
    const reports = [runA, runB].map((out) => JSON.parse(out.slice(out.indexOf("{"))) as { charged: number; due: number });
    expect(reports[0].charged + reports[1].charged).toBe(renewing.length);

    const q = (sql: string, params: unknown[] = []) => db.prisma.$queryRawUnsafe<any[]>(sql, ...params);
    // Renewals: one order and one successful (not refunded) payment per membership for the period.
    const renewals = await q(
      `SELECT s.id, (SELECT count(*)::int FROM orders o WHERE o.subscription_id = s.id AND o.period = $1) AS orders,
              (SELECT count(*)::int FROM payments p WHERE p.subscription_id = s.id AND p.status = 'SUCCEEDED' AND p.refunded_cents = 0) AS charges,
              s.paid_through_period AS paid
         FROM subscriptions s WHERE s.id = ANY($2::int[]) ORDER BY s.id`,
      [PERIOD, renewing],
    );
    expect(renewals).toEqual(renewing.map((id) => ({ id, orders: 1, charges: 1, paid: PERIOD })));
    // Checkouts: one membership per member and business, one order, one charge kept (a second one is refunded).
    for (const who of ["double", "twokeys"]) {
      const [row] = await q(
        `SELECT (SELECT count(*)::int FROM subscriptions s WHERE s.user_id = u.id AND s.business_id = $2) AS memberships,
                (SELECT count(*)::int FROM orders o WHERE o.user_id = u.id) AS orders,
                (SELECT count(*)::int FROM payments p WHERE p.user_id = u.id AND p.status = 'SUCCEEDED' AND p.refunded_cents < p.amount_cents) AS charges
           FROM users u WHERE u.username = $1`,
        [`scale-${who}`, businessId],
      );
      expect({ who, ...row }).toEqual({ who, memberships: 1, orders: 1, charges: 1 });
    }

    // A billing run for the same period afterwards charges nothing.
    const again = await runRenewals({ db: db.prisma, clock: new FixedClock(AS_OF), config: testConfig(), log: pino({ level: "silent" }) });
    expect(again.charged).toBe(0);
  }, 90_000);

  it("shares login throttling between the processes: 5 failures spread over both, then 429 on either", async () => {
    for (let i = 0; i < 5; i++) {
      const r = await gql(servers[i % 2], LOGIN, { u: "scale-throttled", p: "wrong-password" });
      expect(r.login.__typename).toBe("UnauthenticatedError");
    }
    for (const server of servers) {
      const r = await gql(server, LOGIN, { u: "scale-throttled", p: "right-password-1" });
      expect(r.login.__typename).toBe("RateLimitedError");
    }
    const rest = await fetch(`${servers[1]}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "scale-throttled", password: "right-password-1" }),
    });
    expect(rest.status).toBe(429);
  }, 30_000);
});
