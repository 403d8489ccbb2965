import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_ATTEMPTS, runRenewals } from "../../api/billing/renewals/clock.ts";
import { sandboxFor } from "../../api/billing/service.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";

let t: TestApp;
let f: Factories;
const log = pino({ level: "silent" });
const ctx = () => ({ db: t.db.prisma, clock: t.clock, config: t.config, log });
const run = (businessId: number) => runRenewals(ctx(), { businessId });

/** A business billing on the 3rd, with tax 5.75 %, and a member with a saved test card. */
async function setup(cardNumber = "4242424242424242") {
  const business = await f.business({ page: { billingDay: 3, taxEnabled: true, taxRateBps: 575, pickupEnabled: true, shippingEnabled: true } });
  const plan = await f.plan(business, { prices: { PICKUP: 2000, SHIPPING: 2600 } });
  const bigger = await f.plan(business, { name: "Family Box", prices: { PICKUP: 3000, SHIPPING: 3600 } });
  const eggs = await f.addon(business, { name: "Eggs", amountCents: 500 });
  const user = await f.user();
  const s = sandboxFor(ctx());
  const customerId = await s.ensureCustomer({ userId: user.id });
  await t.db.prisma.user.update({ where: { id: user.id }, data: { paymentCustomerId: customerId } });
  const seti = await s.createSetupIntent({ customerId, idempotencyKey: `setup-${user.id}` });
  const confirmed = await s.confirmSetupIntent(seti.clientSecret, { number: cardNumber, expMonth: 12, expYear: 2031, cvc: "123" });
  const sub = await f.subscription({ user, business, plan, planAmountCents: 2000, totalCents: 2115, paidThroughPeriod: "2026-03" });
  await t.db.prisma.subscription.update({ where: { id: sub.id }, data: { billingDay: 3, taxCents: 115, taxRateBps: 575, providerPaymentMethodId: confirmed.paymentMethodId } });
  return { business, plan, bigger, eggs, user, sub };
}

const orders = (subscriptionId: number) => t.db.prisma.order.findMany({ where: { subscriptionId }, orderBy: { period: "asc" } });
const status = async (id: number) => (await t.db.prisma.subscription.findUniqueOrThrow({ where: { id } })).status;

beforeAll(async () => {
  t = await createTestApp({ now: "2026-04-02T15:00:00Z" });
  f = factories(t);
});
afterAll(() => t.close());

describe("billing clock", () => {
  it("charges on the billing day (business time zone), once per period however often it runs", async () => {
    t.clock.set("2026-04-02T15:00:00Z");
    const { business, sub } = await setup();
    expect(await run(business.id)).toMatchObject({ due: 0, charged: 0 });

    // 2026-04-03 01:00 UTC is still April 2nd in New York: not yet.
    t.clock.set("2026-04-03T01:00:00Z");
    expect((await run(business.id)).charged).toBe(0);

    t.clock.set("2026-04-03T14:00:00Z");
    expect(await run(business.id)).toMatchObject({ due: 1, charged: 1 });
    expect(await run(business.id)).toMatchObject({ due: 0, charged: 0 });
    t.clock.set("2026-04-20T14:00:00Z");
    expect((await run(business.id)).charged).toBe(0);

    const list = await orders(sub.id);
    expect(list.map((o) => [o.period, o.kind, o.totalCents])).toEqual([["2026-04", "RENEWAL", 2115]]);
    const paid = await t.db.prisma.subscription.findUniqueOrThrow({ where: { id: sub.id } });
    expect(paid.paidThroughPeriod).toBe("2026-04");
    expect(await t.db.prisma.payment.count({ where: { subscriptionId: sub.id, status: "SUCCEEDED" } })).toBe(1);
  });

  it("bills on day 1 at the local midnight, not the UTC one", async () => {
    const { business, sub } = await setup();
    await t.db.prisma.subscription.update({ where: { id: sub.id }, data: { billingDay: 1, paidThroughPeriod: "2026-04" } });
    t.clock.set("2026-05-01T03:30:00Z"); // still April 30th, 23:30 in New York
    expect((await run(business.id)).charged).toBe(0);
    t.clock.set("2026-05-01T04:30:00Z"); // May 1st, 00:30 in New York (EDT, UTC−4)
    expect((await run(business.id)).charged).toBe(1);
    expect((await orders(sub.id)).map((o) => o.period)).toEqual(["2026-05"]);
  });

  it("does not charge a skipped month and charges the next one", async () => {
    const { business, sub } = await setup();
    await t.db.prisma.skip.create({ data: { subscriptionId: sub.id, yearMonth: "2026-04" } });
    t.clock.set("2026-04-05T14:00:00Z");
    expect(await run(business.id)).toMatchObject({ charged: 0, skipped: 1 });
    t.clock.set("2026-05-03T14:00:00Z");
    expect(await run(business.id)).toMatchObject({ charged: 1, skipped: 0 });
    expect((await orders(sub.id)).map((o) => o.period)).toEqual(["2026-05"]);
  });

  it("applies a scheduled change from its period, at today's prices with tax", async () => {
    const { business, sub, bigger, eggs } = await setup();
    await t.db.prisma.subscriptionChange.create({
      data: { subscriptionId: sub.id, planId: bigger.id, mode: "SHIPPING", addonIds: [eggs.id], effectivePeriod: "2026-04" },
    });
    t.clock.set("2026-04-03T14:00:00Z");
    expect(await run(business.id)).toMatchObject({ charged: 1, changesApplied: 1 });
    const changed = await t.db.prisma.subscription.findUniqueOrThrow({ where: { id: sub.id }, include: { addons: true, pendingChange: true } });
    // 3600 + 500 = 4100; 5.75 % = 235.75 → 236
    expect(changed).toMatchObject({ planId: bigger.id, mode: "SHIPPING", planAmountCents: 3600, addonsAmountCents: 500, taxCents: 236, totalCents: 4336, pendingChange: null });
    expect(changed.addons.map((a) => a.addonId)).toEqual([eggs.id]);
    const [order] = await orders(sub.id);
    expect(order).toMatchObject({ period: "2026-04", totalCents: 4336 });
    expect(order.selection).toMatchObject({ chosenItemName: "Family Box", chosenVariationName: "Shipping", chosenAddons: [{ name: "Eggs", amountCents: 500 }] });
  });

  it("declined renewals: past due, retried 1, 3 and 7 days after the first decline, then canceled", async () => {
    const { business, sub } = await setup("4000000000000341");
    const expectRun = async (at: string, expected: Record<string, number>) => {
      t.clock.set(at);
      expect(await run(business.id)).toMatchObject(expected);
    };
    await expectRun("2026-04-03T14:00:00Z", { failed: 1 });
    expect(await status(sub.id)).toBe("PAST_DUE");
    await expectRun("2026-04-03T20:00:00Z", { waiting: 1, failed: 0 });
    await expectRun("2026-04-04T14:00:00Z", { failed: 1 }); // day 1
    await expectRun("2026-04-05T14:00:00Z", { waiting: 1, failed: 0 });
    await expectRun("2026-04-06T14:00:00Z", { failed: 1 }); // day 3
    await expectRun("2026-04-09T14:00:00Z", { waiting: 1, failed: 0 });
    await expectRun("2026-04-10T14:00:00Z", { canceled: 1 }); // day 7: last attempt
    expect(await status(sub.id)).toBe("CANCELED");
    expect(await t.db.prisma.payment.count({ where: { subscriptionId: sub.id, status: "FAILED" } })).toBe(MAX_ATTEMPTS);
    expect(await orders(sub.id)).toEqual([]);
  });

  it("a decline late in the month is retried into the next month for the month it owes, never charging the next one meanwhile", async () => {
    const { business, sub } = await setup("4000000000000341");
    await t.db.prisma.subscription.update({ where: { id: sub.id }, data: { billingDay: 28 } });
    const expectRun = async (at: string, expected: Record<string, number>) => {
      t.clock.set(at);
      expect(await run(business.id)).toMatchObject(expected);
    };
    await expectRun("2026-04-28T14:00:00Z", { failed: 1 });
    await expectRun("2026-04-29T14:00:00Z", { failed: 1 }); // day 1
    await expectRun("2026-05-01T14:00:00Z", { failed: 1 }); // day 3, in May: still April's charge
    await expectRun("2026-05-04T14:00:00Z", { waiting: 1, failed: 0 });
    await expectRun("2026-05-05T14:00:00Z", { canceled: 1 }); // day 7: the last attempt
    expect(await status(sub.id)).toBe("CANCELED");
    const keys = (await t.db.prisma.payment.findMany({ where: { subscriptionId: sub.id }, orderBy: { id: "asc" } })).map((p) => [p.idempotencyKey, p.status]);
    expect(keys).toEqual([1, 2, 3, 4].map((n) => [`renewal:${sub.id}:2026-04:${n}`, "FAILED"]));
    expect(await orders(sub.id)).toEqual([]);
    // May's billing day finds nothing to charge.
    await expectRun("2026-05-28T14:00:00Z", { due: 0, charged: 0 });
  });

  it("a retry in the next month that succeeds pays the month owed; that month is billed on its own day", async () => {
    const { business, sub } = await setup("4000000000000341");
    await t.db.prisma.subscription.update({ where: { id: sub.id }, data: { billingDay: 28 } });
    t.clock.set("2026-04-28T14:00:00Z");
    expect(await run(business.id)).toMatchObject({ failed: 1 });
    // The member's bank lets the card through again.
    const pm = (await t.db.prisma.subscription.findUniqueOrThrow({ where: { id: sub.id } })).providerPaymentMethodId!;
    const card = await t.db.prisma.sandboxObject.findUniqueOrThrow({ where: { id: pm } });
    await t.db.prisma.sandboxObject.update({ where: { id: pm }, data: { data: { ...(card.data as object), behavior: "succeed" } } });
    t.clock.set("2026-05-01T14:00:00Z"); // past the day-1 retry, in May
    expect(await run(business.id)).toMatchObject({ charged: 1 });
    expect(await status(sub.id)).toBe("ACTIVE");
    expect((await orders(sub.id)).map((o) => o.period)).toEqual(["2026-04"]);
    t.clock.set("2026-05-27T14:00:00Z");
    expect(await run(business.id)).toMatchObject({ charged: 0 });
    t.clock.set("2026-05-28T14:00:00Z");
    expect(await run(business.id)).toMatchObject({ charged: 1 });
    expect((await orders(sub.id)).map((o) => o.period)).toEqual(["2026-04", "2026-05"]);
  });

  it("a card saved in the next month pays the month owed, not the new one", async () => {
    const { business, sub, user } = await setup("4000000000000341");
    await t.db.prisma.subscription.update({ where: { id: sub.id }, data: { billingDay: 28 } });
    t.clock.set("2026-04-28T14:00:00Z");
    await run(business.id);
    t.clock.set("2026-05-02T14:00:00Z");
    const token = await f.session(user);
    const started = await t.gqlOk(`mutation { startCardUpdate { ... on StartCardUpdateSuccess { data { clientSecret setupIntentId } } } }`, {}, { token });
    const { clientSecret, setupIntentId } = started.startCardUpdate.data;
    await t.gqlOk(`mutation($s: String!) { confirmSandboxSetup(clientSecret: $s, card: { number: "4242424242424242", expMonth: 12, expYear: 2031, cvc: "123" }) { __typename } }`, { s: clientSecret });
    expect((await t.gqlOk(`mutation($id: String!) { finishCardUpdate(setupIntentId: $id) { __typename } }`, { id: setupIntentId }, { token })).finishCardUpdate.__typename).toBe("FinishCardUpdateSuccess");
    expect(await status(sub.id)).toBe("ACTIVE");
    expect((await orders(sub.id)).map((o) => [o.period, o.totalCents])).toEqual([["2026-04", 2115]]);
  });

  it("a past-due membership is charged at once when the member saves a working card", async () => {
    const { business, sub, user } = await setup("4000000000000341");
    t.clock.set("2026-04-03T14:00:00Z");
    await run(business.id);
    expect(await status(sub.id)).toBe("PAST_DUE");

    t.clock.set("2026-04-03T18:00:00Z");
    const token = await f.session(user);
    const started = await t.gqlOk(`mutation { startCardUpdate { ... on StartCardUpdateSuccess { data { clientSecret setupIntentId } } } }`, {}, { token });
    const { clientSecret, setupIntentId } = started.startCardUpdate.data;
    await t.gqlOk(`mutation($s: String!) { confirmSandboxSetup(clientSecret: $s, card: { number: "4242424242424242", expMonth: 12, expYear: 2031, cvc: "123" }) { __typename } }`, { s: clientSecret });
    const finished = await t.gqlOk(`mutation($id: String!) { finishCardUpdate(setupIntentId: $id) { __typename } }`, { id: setupIntentId }, { token });
    expect(finished.finishCardUpdate.__typename).toBe("FinishCardUpdateSuccess");

    expect(await status(sub.id)).toBe("ACTIVE");
    expect((await orders(sub.id)).map((o) => [o.period, o.totalCents])).toEqual([["2026-04", 2115]]);
    expect(await run(business.id)).toMatchObject({ charged: 0, failed: 0 });
  });

  it("two runs at once charge each membership exactly once", async () => {
    const { business, sub } = await setup();
    const second = await setup();
    const third = await setup();
    t.clock.set("2026-04-03T14:00:00Z");
    const reports = await Promise.all([run(business.id), run(business.id), run(second.business.id), run(second.business.id), run(third.business.id)]);
    expect(reports.reduce((n, r) => n + r.charged, 0)).toBe(3);
    for (const id of [sub.id, second.sub.id, third.sub.id]) {
      expect(await orders(id)).toHaveLength(1);
      expect(await t.db.prisma.payment.count({ where: { subscriptionId: id, status: "SUCCEEDED" } })).toBe(1);
    }
  });
});
