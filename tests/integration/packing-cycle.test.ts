/**
 * The fulfilment cycle of a month on the injectable clock: a business billing on the 3rd with a cutoff
 * on the 10th (New York), through April 2026. The preview before the billing day equals what the renewal run
 * charges (members and amounts, to the cent: a scheduled change, a skip, a coupon, tax); the freeze job snapshots
 * the month after the cutoff day (a failed charge on hold); later changes come back as differences; totals by
 * point, area and mode; who may read it.
 */
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runRenewals } from "../../api/billing/renewals/clock.ts";
import { sandboxFor } from "../../api/billing/service.ts";
import { cycleOf, cycleState, freezeAt } from "../../api/packing/cycle.ts";
import { previewOf } from "../../api/packing/preview.ts";
import { freeze, freezeDue } from "../../api/packing/snapshot.ts";
import { fulfilmentFreezeJob } from "../../api/jobs/packing-job.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";

let t: TestApp;
let f: Factories;
const log = pino({ level: "silent" });
const ctx = () => ({ db: t.db.prisma, clock: t.clock, config: t.config, log });
const APRIL = "2026-04";
const GOOD_CARD = "4242424242424242";
const DECLINING_CARD = "4000000000000341";

let business: { id: number };
let subs: Record<string, { id: number; userId: number; businessId: number; mode: "PICKUP" | "SHIPPING" | "DELIVERY" }>;
const tokens: Record<string, string> = {};

/** A member with a saved sandbox card. */
async function member(name: string, card = GOOD_CARD) {
  const user = await f.user({ name, email: `${name.toLowerCase()}@example.com` });
  const s = sandboxFor(ctx());
  const customerId = await s.ensureCustomer({ userId: user.id });
  await t.db.prisma.user.update({ where: { id: user.id }, data: { paymentCustomerId: customerId } });
  const seti = await s.createSetupIntent({ customerId, idempotencyKey: `setup-${user.id}` });
  const confirmed = await s.confirmSetupIntent(seti.clientSecret, { number: card, expMonth: 12, expYear: 2031, cvc: "123" });
  return { user, paymentMethodId: confirmed.paymentMethodId };
}

const address = (fullName: string, street: string) => ({ fullName, phone: "555-0100", street, apt: "", city: "Hudson", state: "NY", zip: "12534", country: "US", instructions: "Leave at the side door" });

beforeAll(async () => {
  t = await createTestApp({ now: "2026-04-01T15:00:00Z" });
  f = factories(t);
  business = await f.business({
    slug: "green",
    page: {
      billingDay: 3,
      cutoffDay: 10,
      boxReadyDay: 15,
      taxEnabled: true,
      taxRateBps: 575,
      pickupEnabled: true,
      shippingEnabled: true,
      deliveryEnabled: true,
      pickupPoints: ["Barn", "Market"],
      deliveryAreas: ["Downtown"],
    },
  });
  const small = await f.plan(business, { name: "Small Box", prices: { PICKUP: 2000, SHIPPING: 2600, DELIVERY: 2400 } });
  const family = await f.plan(business, { name: "Family Box", prices: { PICKUP: 3000, SHIPPING: 3600, DELIVERY: 3400 } });
  const eggs = await f.addon(business, { name: "Eggs", amountCents: 500 });
  const coupon = await f.coupon({ code: "TENOFF", type: "PERCENT", value: 10 });

  const sub = async (
    name: string,
    o: { plan?: { id: number }; mode?: "PICKUP" | "SHIPPING" | "DELIVERY"; point?: string; planCents?: number; addons?: { id: number; amountCents: number }[]; totals: { discount?: number; tax: number; total: number }; card?: string; paidThrough?: string; couponId?: number; gift?: { recipient: string; message: string } },
  ) => {
    const m = await member(name, o.card);
    const created = await f.subscription({ user: m.user, business, plan: o.plan ?? small, mode: o.mode ?? "PICKUP", planAmountCents: o.planCents ?? 2000, addons: o.addons, totalCents: o.totals.total, paidThroughPeriod: o.paidThrough ?? "2026-03" });
    await t.db.prisma.subscription.update({
      where: { id: created.id },
      data: {
        billingDay: 3,
        taxCents: o.totals.tax,
        taxRateBps: 575,
        discountCents: o.totals.discount ?? 0,
        couponId: o.couponId ?? null,
        providerPaymentMethodId: m.paymentMethodId,
        fulfillmentPoint: o.point ?? "",
        address: o.gift ? address(o.gift.recipient, "1 Gift Lane") : address(name, `${name.length} Main St`),
        isGift: !!o.gift,
        giftMessage: o.gift?.message ?? "",
      },
    });
    return created;
  };
  subs = {
    // 2000 + 5.75 % = 2115
    alice: await sub("Alice", { point: "Barn", totals: { tax: 115, total: 2115 } }),
    // Delivery 2400 + eggs 500, 10 % off = 2610, tax 150.075 → 150: 2760
    bob: await sub("Bob", { mode: "DELIVERY", point: "Downtown", planCents: 2400, addons: [{ id: eggs.id, amountCents: 500 }], couponId: coupon.id, totals: { discount: 290, tax: 150, total: 2760 } }),
    carol: await sub("Carol", { point: "Barn", couponId: coupon.id, totals: { discount: 200, tax: 104, total: 1904 } }),
    dan: await sub("Dan", { point: "Market", totals: { tax: 115, total: 2115 } }),
    eve: await sub("Eve", { point: "Barn", card: DECLINING_CARD, totals: { tax: 115, total: 2115 } }),
    frank: await sub("Frank", { point: "Market", paidThrough: APRIL, totals: { tax: 115, total: 2115 } }),
    gina: await sub("Gina", { point: "Market", gift: { recipient: "Grandma Rose", message: "Happy birthday!" }, totals: { tax: 115, total: 2115 } }),
  };
  // Frank joined on April 1st: April is paid.
  await f.order({ subscription: subs.frank, period: APRIL, totalCents: 2115, kind: "INITIAL" });
  // Carol changes to the Family Box, shipped, with eggs, from April: 3600 + 500 = 4100, 10 % off = 3690, tax 212.175 → 212: 3902.
  await t.db.prisma.subscriptionChange.create({ data: { subscriptionId: subs.carol.id, planId: family.id, mode: "SHIPPING", addonIds: [eggs.id], effectivePeriod: APRIL } });
  // Dan skips April.
  await t.db.prisma.skip.create({ data: { subscriptionId: subs.dan.id, yearMonth: APRIL } });

  const owner = await f.user();
  const viewer = await f.user();
  const plainMember = await f.user();
  const otherOwner = await f.user();
  const other = await f.business({ slug: "other" });
  await f.attach(business, owner, "OWNER");
  await f.attach(business, viewer, "VIEWER");
  await f.attach(other, otherOwner, "OWNER");
  await f.subscription({ user: plainMember, business, plan: small, paidThroughPeriod: null, status: "CANCELED" });
  tokens.owner = await f.session(owner);
  tokens.viewer = await f.session(viewer);
  tokens.member = await f.session(plainMember);
  tokens.otherOwner = await f.session(otherOwner);
  tokens.partner = await f.partnerToken(business, owner);
  tokens.otherPartner = await f.partnerToken(other, otherOwner);
  // Reading the cycle takes the fulfilment:read scope (the factory's tokens hold memberships and orders).
  await t.db.prisma.apiToken.updateMany({ data: { scopes: ["memberships:read", "orders:read", "fulfilment:read"] } });
  tokens.partnerNoFulfilment = await f.partnerToken(business, owner);
});
afterAll(() => t.close());

const CYCLE = `query($month: String!, $mode: FulfillmentMode) { business(slug: "green") { fulfilment(month: $month) {
  month state freezeAt billingDate cutoffDate boxReadyDate
  totals { expectedRevenueCents paidCents toChargeCents retryCents boxes held byPlan { label count } byMode { label count } byPoint { label count } byAddon { label count } }
  members { membershipId memberName outlook amountCents chargeDate nextRetryAt changeTakesEffect }
  boxes(first: 50, mode: $mode) { edges { node { memberName planName mode fulfillmentPoint addons { name } isGift giftRecipient giftMessage phone totalCents hold address } } }
  differences { kind memberName changes }
} } }`;
const cycleAs = (who: string, month = APRIL, mode?: string) => t.gql(CYCLE, { month, mode }, { token: tokens[who] });

describe("the cycle of a month", () => {
  it("is defined by the billing day, the cutoff day (end of, business time zone) and the box-ready day", () => {
    const b = { timeZone: "America/New_York", page: { billingDay: 3, cutoffDay: 10, boxReadyDay: 15 } };
    const c = cycleOf(b, APRIL);
    expect(c).toMatchObject({ billingDate: { day: 3 }, cutoffDate: { day: 10 }, boxReadyDate: { day: 15 }, trigger: "cutoff" });
    expect(c.freezeAt.toISOString()).toBe("2026-04-11T04:00:00.000Z"); // midnight EDT
    expect(freezeAt(b, "2026-01").toISOString()).toBe("2026-01-11T05:00:00.000Z"); // midnight EST
    expect(cycleState(b, APRIL, new Date("2026-04-11T03:59:59Z"))).toBe("open");
    expect(cycleState(b, APRIL, new Date("2026-04-11T04:00:00Z"))).toBe("frozen");
    // A cutoff before the billing day waits for the billing day; none at all: the renewal run of the billing day.
    expect(freezeAt({ ...b, page: { billingDay: 12, cutoffDay: 5, boxReadyDay: null } }, APRIL).toISOString()).toBe("2026-04-13T04:00:00.000Z");
    expect(cycleOf({ ...b, page: { billingDay: 3, cutoffDay: null, boxReadyDay: null } }, APRIL)).toMatchObject({ trigger: "renewal_run", boxReadyDate: { day: 1 } });
    expect(cycleOf({ timeZone: "UTC", page: { billingDay: 3, cutoffDay: 31, boxReadyDay: null } }, "2026-02").cutoffDate).toEqual({ year: 2026, month: 2, day: 28 });
  });

  it("preview before the billing day equals what the renewal run then charges, to the cent", async () => {
    t.clock.set("2026-04-02T15:00:00Z");
    const preview = await previewOf(t.db.prisma, business.id, APRIL);
    const outlook = Object.fromEntries(preview.members.map((m) => [m.memberName, [m.outlook, m.amountCents]]));
    expect(outlook).toEqual({
      Alice: ["WILL_CHARGE", 2115],
      Bob: ["WILL_CHARGE", 2760],
      Carol: ["WILL_CHARGE", 3902],
      Dan: ["SKIPPED", 0],
      Eve: ["WILL_CHARGE", 2115],
      Frank: ["PAID", 2115],
      Gina: ["WILL_CHARGE", 2115],
    });
    expect(preview.members.find((m) => m.memberName === "Carol")?.changeTakesEffect).toBe(true);
    expect(preview.expectedRevenueCents).toBe(2115 + 2760 + 3902 + 2115 + 2115 + 2115);
    const carolBox = preview.boxes.find((b) => b.memberName === "Carol")!;
    expect(carolBox).toMatchObject({ planName: "Family Box", mode: "SHIPPING", addons: [{ name: "Eggs" }] });

    const api = await cycleAs("owner");
    expect(api.errors).toBeUndefined();
    const cycle = api.data.business.fulfilment;
    expect(cycle).toMatchObject({ month: APRIL, state: "OPEN", billingDate: "2026-04-03", cutoffDate: "2026-04-10", boxReadyDate: "2026-04-15", differences: null });
    expect(cycle.totals.expectedRevenueCents).toBe(preview.expectedRevenueCents);

    t.clock.set("2026-04-03T14:00:00Z");
    const report = await runRenewals(ctx(), { businessId: business.id });
    expect(report).toMatchObject({ charged: 4, failed: 1, skipped: 1, changesApplied: 1 });
    const orders = await t.db.prisma.order.findMany({ where: { businessId: business.id, period: APRIL, kind: "RENEWAL" } });
    const failed = await t.db.prisma.payment.findMany({ where: { subscriptionId: { in: Object.values(subs).map((s) => s.id) }, status: "FAILED" } });
    const charged = new Map([...orders.map((o) => [o.subscriptionId, o.totalCents] as const), ...failed.map((p) => [p.subscriptionId!, p.amountCents] as const)]);
    const predicted = new Map(preview.members.filter((m) => m.outlook === "WILL_CHARGE").map((m) => [m.membershipId, m.amountCents]));
    expect(charged).toEqual(predicted);
  });

  it("after the run: the declined member waits for a retry, on hold", async () => {
    const preview = await previewOf(t.db.prisma, business.id, APRIL);
    const eve = preview.members.find((m) => m.memberName === "Eve")!;
    expect(eve).toMatchObject({ outlook: "RETRY", amountCents: 2115 });
    expect(eve.nextRetryAt?.toISOString()).toBe("2026-04-04T14:00:00.000Z");
    expect(eve.box?.hold).toBe("payment_failed");
    expect(preview.totals).toMatchObject({ boxes: 5, held: 1 });
  });

  it("the freeze job snapshots the month at the end of the cutoff day, once", async () => {
    const job = fulfilmentFreezeJob({ db: t.db.prisma, clock: t.clock, log });
    t.clock.set("2026-04-11T03:30:00Z"); // April 10th, 23:30 in New York
    await job.run({ id: "1", name: "fulfilment-freeze", data: {} } as never, new AbortController().signal);
    expect(await t.db.prisma.packingSnapshot.count({ where: { businessId: business.id, period: APRIL } })).toBe(0);

    t.clock.set("2026-04-11T04:30:00Z");
    const first = await freezeDue(ctx());
    expect(first.frozen).toBeGreaterThanOrEqual(1); // April (and March, the month before)
    const again = await freezeDue(ctx());
    expect(again).toMatchObject({ frozen: 0, errors: 0 });

    const snapshot = await t.db.prisma.packingSnapshot.findUniqueOrThrow({ where: { businessId_period: { businessId: business.id, period: APRIL } }, include: { boxes: true } });
    expect(snapshot).toMatchObject({ trigger: "cutoff", frozenAt: new Date("2026-04-11T04:30:00Z") });
    const boxes = Object.fromEntries(snapshot.boxes.map((b) => [b.memberName, b]));
    expect(Object.keys(boxes).sort()).toEqual(["Alice", "Bob", "Carol", "Eve", "Frank", "Gina"]);
    expect(boxes.Eve.hold).toBe("payment_failed");
    expect(boxes.Carol).toMatchObject({ planName: "Family Box", mode: "SHIPPING", totalCents: 3902, addons: [{ ref: expect.any(String), name: "Eggs" }] });
    expect(boxes.Gina).toMatchObject({ isGift: true, giftRecipient: "Grandma Rose", giftMessage: "Happy birthday!", fulfillmentPoint: "Market" });
    expect(boxes.Bob).toMatchObject({ mode: "DELIVERY", fulfillmentPoint: "Downtown", phone: "555-0100", address: { instructions: "Leave at the side door" } });
    const events = await t.db.prisma.event.findMany({ where: { type: "fulfilment.snapshot_frozen.v1", businessId: business.id } });
    expect(events.filter((e) => (e.payload as { period: string }).period === APRIL).map((e) => e.payload)).toEqual([
      { snapshotId: snapshot.id, businessId: business.id, period: APRIL, trigger: "cutoff", boxes: 5, held: 1 },
    ]);
    // A frozen box is never edited.
    await expect(t.db.prisma.packingBox.update({ where: { id: boxes.Alice.id }, data: { phone: "x" } })).rejects.toThrow(/frozen/);
  });

  it("totals by plan, mode, point and area; boxes in packing order, filtered by mode", async () => {
    const res = await cycleAs("viewer");
    expect(res.errors).toBeUndefined();
    const cycle = res.data.business.fulfilment;
    expect(cycle.state).toBe("FROZEN");
    expect(cycle.totals).toMatchObject({
      boxes: 5,
      held: 1,
      byPlan: [{ label: "Family Box", count: 1 }, { label: "Small Box", count: 4 }],
      byMode: [{ label: "Delivery", count: 1 }, { label: "Pickup", count: 3 }, { label: "Shipping", count: 1 }],
      byPoint: [{ label: "Barn", count: 1 }, { label: "Downtown", count: 1 }, { label: "Market", count: 2 }, { label: "Shipping", count: 1 }],
      byAddon: [{ label: "Eggs", count: 2 }],
    });
    const order = cycle.boxes.edges.map((e: any) => `${e.node.mode}/${e.node.fulfillmentPoint}/${e.node.memberName}`);
    expect(order).toEqual(["PICKUP/Barn/Alice", "PICKUP/Barn/Eve", "PICKUP/Market/Frank", "PICKUP/Market/Gina", "SHIPPING//Carol", "DELIVERY/Downtown/Bob"]);
    const pickup = (await cycleAs("viewer", APRIL, "PICKUP")).data.business.fulfilment.boxes.edges.map((e: any) => e.node.memberName);
    expect(pickup).toEqual(["Alice", "Eve", "Frank", "Gina"]);
    expect(cycle.differences).toEqual([]);
  });

  it("changes after the freeze are differences, never edits of the snapshot", async () => {
    t.clock.set("2026-04-12T15:00:00Z");
    // A late checkout paid for April.
    const { user } = await member("Hank");
    const small = await t.db.prisma.plan.findFirstOrThrow({ where: { businessId: business.id, name: "Small Box" } });
    const hank = await f.subscription({ user, business, plan: small, paidThroughPeriod: APRIL, totalCents: 2115 });
    await f.order({ subscription: hank, period: APRIL, totalCents: 2115, kind: "INITIAL" });
    // Alice canceled with a refund.
    await t.db.prisma.subscription.update({ where: { id: subs.alice.id }, data: { status: "CANCELED", canceledAt: t.clock.now() } });
    await t.db.prisma.order.updateMany({ where: { subscriptionId: subs.alice.id, period: APRIL }, data: { refundedCents: 2115 } });
    // Eve's hold paid (a new card), Gina moved to the Barn.
    await f.order({ subscription: subs.eve, period: APRIL, totalCents: 2115 });
    await t.db.prisma.subscription.update({ where: { id: subs.eve.id }, data: { status: "ACTIVE", paidThroughPeriod: APRIL } });
    await t.db.prisma.subscription.update({ where: { id: subs.gina.id }, data: { fulfillmentPoint: "Barn" } });

    const cycle = (await cycleAs("owner")).data.business.fulfilment;
    expect(cycle.differences).toEqual([
      { kind: "REMOVED", memberName: "Alice", changes: ["Canceled"] },
      { kind: "PAYMENT", memberName: "Eve", changes: ["Hold — payment failed → paid"] },
      { kind: "CHANGED", memberName: "Gina", changes: ["Point: Market → Barn"] },
      { kind: "ADDED", memberName: "Hank", changes: ["Paid for the month after the freeze"] },
    ]);
    // The snapshot is as frozen.
    expect(cycle.boxes.edges.map((e: any) => e.node.memberName)).toEqual(["Alice", "Eve", "Frank", "Gina", "Carol", "Bob"]);
    expect(cycle.totals.byPoint).toContainEqual({ label: "Market", count: 2 });
  });

  it("two freezes at once (two processes) write one snapshot", async () => {
    t.clock.set("2026-05-12T15:00:00Z");
    const [a, b] = await Promise.all([freeze(ctx(), business.id, "2026-05", { trigger: "operator" }), freeze(ctx(), business.id, "2026-05", { trigger: "operator" })]);
    expect([a.created, b.created].sort()).toEqual([false, true]);
    expect(a.snapshotId).toBe(b.snapshotId);
    expect(await t.db.prisma.packingSnapshot.count({ where: { businessId: business.id, period: "2026-05" } })).toBe(1);
  });

  it("without a cutoff day, the month is frozen once its renewal run has completed", async () => {
    const plain = await f.business({ slug: "plain", page: { billingDay: 3 } });
    const plan = await f.plan(plain, { prices: { PICKUP: 1000 } });
    const { user, paymentMethodId } = await member("Ivy");
    const ivy = await f.subscription({ user, business: plain, plan, planAmountCents: 1000, totalCents: 1000, paidThroughPeriod: "2026-05" });
    await t.db.prisma.subscription.update({ where: { id: ivy.id }, data: { billingDay: 3, providerPaymentMethodId: paymentMethodId } });
    t.clock.set("2026-06-03T04:30:00Z"); // June 3rd, 00:30 in New York: the billing day, not yet renewed
    await freezeDue(ctx());
    expect(await t.db.prisma.packingSnapshot.count({ where: { businessId: plain.id, period: "2026-06" } })).toBe(0);
    expect(await runRenewals(ctx(), { businessId: plain.id })).toMatchObject({ charged: 1 });
    await freezeDue(ctx());
    const snapshot = await t.db.prisma.packingSnapshot.findUniqueOrThrow({ where: { businessId_period: { businessId: plain.id, period: "2026-06" } }, include: { boxes: true } });
    expect(snapshot.trigger).toBe("renewal_run");
    expect(snapshot.boxes.map((b) => [b.memberName, b.totalCents, b.hold])).toEqual([["Ivy", 1000, null]]);
  });

  it("is read by the business's staff, administrators and its partner token only", async () => {
    t.clock.set("2026-04-12T15:00:00Z"); // within the sessions' lifetime
    const allowed = async (who: string) => {
      const res = await cycleAs(who);
      return !res.errors?.length && !!res.data?.business?.fulfilment;
    };
    expect(await allowed("viewer")).toBe(true);
    expect(await allowed("owner")).toBe(true);
    expect(await allowed("partner")).toBe(true);
    expect(await allowed("member")).toBe(false);
    expect(await allowed("otherOwner")).toBe(false);
    expect(await allowed("otherPartner")).toBe(false);
    expect(await allowed("partnerNoFulfilment")).toBe(false);
    expect((await cycleAs("partnerNoFulfilment")).errors?.[0]?.message).toBe("This API token lacks the fulfilment:read scope.");
    const bad = await t.gql(`{ business(slug: "green") { fulfilment(month: "April") { state } } }`, {}, { token: tokens.owner });
    expect(bad.errors?.[0]?.message).toMatch(/YYYY-MM/);
  });
});
