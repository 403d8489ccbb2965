/**
 * The sandbox pays out on its schedule whether or not a pass runs on the day, as Stripe does: a pass that comes
 * after a Monday it missed (the demo clock jumped a week, a process was down, a queued pass was folded into one
 * already waiting) makes that Monday's payout as it would have been made, at the start of the business's Monday,
 * from what was available then; a payout whose arrival has also passed is paid in the same pass. Both databases.
 */
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxFor } from "../../api/billing/service.ts";
import { payoutsSandboxJob } from "../../api/jobs/payouts-sandbox-job.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";
import { PAY } from "../support/payments.ts";

const log = pino({ level: "silent" });

let t: TestApp;
let f: Factories;
let seq = 0;

const ctx = () => ({ db: t.db.prisma, clock: t.clock, config: t.config, log });
const pass = () => payoutsSandboxJob(ctx()).run({} as never, new AbortController().signal);
const accountOf = async (businessId: number) => (await t.db.prisma.paymentAccount.findUniqueOrThrow({ where: { businessId } })).accountId;
const providerPayouts = async (businessId: number) => (await sandboxFor(ctx()).listPayouts(await accountOf(businessId), { limit: 20 })).payouts.reverse();
const STATEMENT = `query($slug: String!, $month: String!) { business(slug: $slug) { statement(month: $month) { netCents paidOutCents } } }`;
const statement = async (slug: string, month: string) => (await t.gqlOk(STATEMENT, { slug, month }, { token: await f.session(admin) })).business.statement;
let admin: Awaited<ReturnType<Factories["user"]>>;
const net = async (businessId: number) => (await t.db.prisma.ledgerEntry.aggregate({ where: { businessId }, _sum: { netCents: true } }))._sum.netCents ?? 0;

async function checkout(business: { slug: string }, plan: { ref: string }) {
  seq++;
  const buyer = await f.user({ username: `catchup${seq}` });
  const opts = { token: await f.session(buyer, business.slug), tenant: business.slug };
  const selection = { businessSlug: business.slug, planRef: plan.ref, mode: "PICKUP", addonRefs: [] };
  const started = (await t.gqlOk(PAY.START, { input: { selection, email: `catchup${seq}@example.com`, idempotencyKey: `payouts-catch-up-${seq}-key` } }, opts)).startCheckout;
  await t.gqlOk(PAY.CONFIRM, { s: started.data.clientSecret }, opts);
  expect((await t.gqlOk(PAY.COMPLETE, { id: started.data.paymentIntentId }, opts)).completeCheckout.__typename).toBe("CompleteCheckoutSuccess");
}

beforeAll(async () => {
  // Thursday March 5th, 2026 (New York: daylight time from Sunday the 8th).
  t = await createTestApp({ now: "2026-03-05T15:00:00Z" });
  f = factories(t);
  admin = await f.user({ username: "books", isAdmin: true });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe("a pass that comes after a Monday it missed", () => {
  it("makes that Monday's payout from what was available then, and pays it when its arrival has passed too", async () => {
    const farm = await f.business({ slug: "late-farm", name: "Late Farm", page: { billingDay: 5, pickupEnabled: true } });
    const plan = await f.plan(farm, { prices: { PICKUP: 2900 } });
    await checkout(farm, plan);
    const thursdayNet = await net(farm.id);

    // No pass runs until Wednesday the 11th: Monday the 9th's payout is made as of 00:00 New York time (04:00 UTC),
    // in transit two days, so it has arrived by now.
    t.clock.set("2026-03-11T16:00:00Z");
    expect(await pass()).toMatchObject({ paid: 1, settled: 1, failed: 0 });
    const [first, ...rest] = await providerPayouts(farm.id);
    expect(rest).toEqual([]);
    expect(first).toMatchObject({ amountCents: thursdayNet, status: "paid", createdAt: new Date("2026-03-09T04:00:00Z"), arrivalDate: "2026-03-11" });
    const mirrored = await t.db.prisma.payout.findMany({ where: { businessId: farm.id } });
    expect(mirrored.map((p) => [p.amountCents, p.status])).toEqual([[thursdayNet, "PAID"]]);

    // A checkout on Thursday the 12th; the clock jumps to Wednesday the 25th. Monday the 16th pays it out; Monday
    // the 23rd has nothing available and makes no payout.
    t.clock.set("2026-03-12T15:00:00Z");
    await checkout(farm, plan);
    const secondNet = (await net(farm.id)) - thursdayNet;
    t.clock.set("2026-03-25T16:00:00Z");
    expect(await pass()).toMatchObject({ paid: 1, settled: 1 });
    const payouts = await providerPayouts(farm.id);
    expect(payouts.map((p) => [p.amountCents, p.status, p.createdAt.toISOString()])).toEqual([
      [thursdayNet, "paid", "2026-03-09T04:00:00.000Z"],
      [secondNet, "paid", "2026-03-16T04:00:00.000Z"],
    ]);
    expect((await sandboxFor(ctx()).retrieveBalance(await accountOf(farm.id))).availableCents).toBe(0);

    // March's statement: what it paid out (the mirror), all of the month's net here.
    expect(await statement(farm.slug, "2026-03")).toEqual({ netCents: thursdayNet + secondNet, paidOutCents: thursdayNet + secondNet });

    // Passes after it make nothing more: each Monday is paid once.
    expect(await pass()).toMatchObject({ paid: 0, settled: 0 });
    expect(await providerPayouts(farm.id)).toHaveLength(2);
  });

  it("a failed payout's amount is back before the next missed Monday, which pays it out again", async () => {
    t.clock.set("2026-04-02T15:00:00Z");
    const dairy = await f.business({ slug: "late-dairy", name: "Late Dairy", page: { billingDay: 2, pickupEnabled: true } });
    const account = await t.db.prisma.sandboxObject.findUniqueOrThrow({ where: { id: await accountOf(dairy.id) } });
    await t.db.prisma.sandboxObject.update({ where: { id: account.id }, data: { data: { ...(account.data as object), bankAccountNumber: "000111111116" } } });
    const plan = await f.plan(dairy, { prices: { PICKUP: 1800 } });
    await checkout(dairy, plan);
    const owed = await net(dairy.id);

    // Thursday April 16th: Monday the 6th's payout failed on the 8th (the bank number), and Monday the 13th paid the
    // returned amount out again, which fails in turn when it arrives on the 15th.
    t.clock.set("2026-04-16T16:00:00Z");
    expect(await pass()).toMatchObject({ paid: 2, failed: 2 });
    const payouts = await providerPayouts(dairy.id);
    expect(payouts.map((p) => [p.amountCents, p.status, p.failureCode])).toEqual([
      [owed, "failed", "no_account"],
      [owed, "failed", "no_account"],
    ]);
    expect((await sandboxFor(ctx()).retrieveBalance(await accountOf(dairy.id))).availableCents).toBe(owed);
    // Failed payouts are not paid out.
    expect(await statement(dairy.slug, "2026-04")).toEqual({ netCents: owed, paidOutCents: 0 });
  });
});
