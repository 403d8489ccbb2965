import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runRenewals } from "../../api/billing/renewals/clock.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";
import { PAY } from "../support/payments.ts";

/**
 * The member's pickup point or delivery area: chosen at checkout from the page's lists (one entry is
 * the default; anything not listed is refused naming the field), stored on the membership when the payment
 * settles and on each order (initial, renewal, restart); delivery instructions with the address; a gift message;
 * a change of point alone at once, a change of box with its point from the next period; the REST selection's
 * pickupAddress / fulfillmentDetails.
 */

let t: TestApp;
let f: Factories;
let farm: { id: number; slug: string };
let plan: { id: number; ref: string };
let seq = 0;

const NOW = "2026-03-05T15:00:00Z";
const gid = (type: string, id: number) => Buffer.from(`${type}:${id}`).toString("base64");
const log = pino({ level: "silent" });

const START = `mutation($input: StartCheckoutInput!) { startCheckout(input: $input) {
  __typename ... on StartCheckoutSuccess { data { clientSecret paymentIntentId quote { totalCents fulfillmentPoint } membership { databaseId } } }
  ... on ValidationError { message issues { path message } } ... on Error { message reason } } }`;
const MEMBERSHIP = `query($id: ID!) { node(id: $id) { ... on Membership { fulfillmentPoint giftMessage isGift
  orders(first: 5) { edges { node { fulfillmentPoint selection address { instructions } } } } } } }`;
const CHANGE = `mutation($input: ChangeSubscriptionInput!) { changeSubscription(input: $input) {
  __typename ... on ChangeSubscriptionSuccess { data { fulfillmentPoint pendingChange { mode fulfillmentPoint effectivePeriod } } }
  ... on ValidationError { message issues { path } } ... on Error { message reason } } }`;
const RESTART = `mutation($input: RestartSubscriptionInput!) { restartSubscription(input: $input) {
  __typename ... on RestartSubscriptionSuccess { data { outcome orderId } } ... on ValidationError { message issues { path } } ... on Error { message reason } } }`;

beforeAll(async () => {
  t = await createTestApp({ now: NOW });
  f = factories(t);
  farm = await f.business({
    slug: "farm",
    page: {
      pickupEnabled: true,
      shippingEnabled: true,
      deliveryEnabled: true,
      pickupPoints: ["Market Hall", "North Barn"],
      deliveryAreas: ["Riverside"],
      billingDay: 3,
      cutoffDay: 20,
      changeWindowStart: 1,
      changeWindowEnd: 28,
    },
  });
  plan = await f.plan(farm, { name: "Veg Box", prices: { PICKUP: 3000, SHIPPING: 3500, DELIVERY: 3300 } });
});
afterAll(() => t.close());
beforeEach(() => t.clock.set(NOW));

async function member() {
  const user = await f.user({ username: `pt${++seq}`, email: `pt${seq}@example.com` });
  return { user, token: await f.session(user, "farm") };
}

async function gqlData(query: string, variables: Record<string, unknown>, token: string | null) {
  const res = await t.gql(query, variables, { token, tenant: "farm" });
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return res.data;
}

const start = (token: string, selection: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  gqlData(START, { input: { selection: { businessSlug: "farm", planRef: plan.ref, ...selection }, email: "pat@example.com", idempotencyKey: `pt-attempt-${++seq}`, ...extra } }, token).then(
    (d) => d.startCheckout,
  );
const pay = async (token: string, started: { data: { clientSecret: string; paymentIntentId: string } }) => {
  await gqlData(PAY.CONFIRM, { s: started.data.clientSecret }, token);
  return (await gqlData(PAY.COMPLETE, { id: started.data.paymentIntentId }, token)).completeCheckout;
};
const membershipOf = async (id: number, token: string) => (await gqlData(MEMBERSHIP, { id: gid("Membership", id) }, token)).node;

describe("checkout", () => {
  it("stores the chosen pickup point, delivery instructions and gift message on the membership and its order", async () => {
    const { token } = await member();
    const address = { fullName: "Pat Lee", street: "1 Main St", city: "Springfield", state: "IL", zip: "62701", country: "US", instructions: "Gate code 1234\nLeave by the shed" };
    const started = await start(token, { mode: "PICKUP", fulfillmentPoint: "North Barn" }, { isGift: true, giftMessage: "Happy birthday, Sam!", address });
    expect(started.__typename).toBe("StartCheckoutSuccess");
    expect(started.data.quote.fulfillmentPoint).toBe("North Barn");
    expect((await pay(token, started)).__typename).toBe("CompleteCheckoutSuccess");

    const id = started.data.membership.databaseId;
    const m = await membershipOf(id, token);
    expect(m).toMatchObject({ fulfillmentPoint: "North Barn", giftMessage: "Happy birthday, Sam!", isGift: true });
    const order = m.orders.edges[0].node;
    expect(order.fulfillmentPoint).toBe("North Barn");
    expect(order.selection.pickupAddress).toBe("North Barn");
    expect(order.address.instructions).toBe("Gate code 1234\nLeave by the shed");
    const row = await t.db.prisma.order.findFirstOrThrow({ where: { subscriptionId: id } });
    expect(row.fulfillmentPoint).toBe("North Barn");
  });

  it("refuses a point the page does not list, naming the field, and writes nothing", async () => {
    const { user, token } = await member();
    const refused = await start(token, { mode: "PICKUP", fulfillmentPoint: "Town Square" });
    expect(refused).toEqual({
      __typename: "ValidationError",
      message: "This pickup point is not offered. Please choose another.",
      issues: [{ path: "fulfillmentPoint", message: "This pickup point is not offered. Please choose another." }],
      reason: "invalid_input",
    });
    // Two points and none chosen: asked for one.
    const missing = await start(token, { mode: "PICKUP" });
    expect(missing.issues).toEqual([{ path: "fulfillmentPoint", message: "Please choose a pickup point." }]);
    expect(await t.db.prisma.subscription.count({ where: { userId: user.id } })).toBe(0);
    expect(await t.db.prisma.payment.count({ where: { userId: user.id } })).toBe(0);
  });

  it("takes the only delivery area when none is given; shipping has none; a gift message needs a gift", async () => {
    const { token } = await member();
    const delivery = await start(token, { mode: "DELIVERY" }, { giftMessage: "not a gift" });
    expect(delivery.data.quote.fulfillmentPoint).toBe("Riverside");
    await pay(token, delivery);
    const m = await membershipOf(delivery.data.membership.databaseId, token);
    expect(m).toMatchObject({ fulfillmentPoint: "Riverside", giftMessage: "", isGift: false });
    expect(m.orders.edges[0].node.selection.pickupAddress).toBe("");

    const other = await member();
    const shipping = await start(other.token, { mode: "SHIPPING", fulfillmentPoint: "North Barn" });
    expect(shipping.data.quote.fulfillmentPoint).toBe("");
  });

  it("REST: the selection's pickupAddress is the pickup point; fulfillmentDetails is the area only when it names one", async () => {
    const rest = async (token: string, selection: Record<string, unknown>) => {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/create-payment-intent",
        headers: { authorization: `Bearer ${token}`, "x-tenant": "farm", "content-type": "application/json" },
        payload: { selection: { businessSlug: "farm", chosenItemId: plan.ref, email: "pat@example.com", ...selection } },
      });
      return { status: res.statusCode, body: res.json() };
    };
    const pointOf = async (subscriptionId: number) => (await t.db.prisma.payment.findFirstOrThrow({ where: { subscriptionId } })).purchase as { fulfillmentPoint: string };

    const a = await member();
    const pickup = await rest(a.token, { mode: "pickup", pickupAddress: "Market Hall", fulfillmentDetails: "Pickup at Market Hall" });
    expect(pickup.status).toBe(200);
    expect((await pointOf(pickup.body.subscription_id)).fulfillmentPoint).toBe("Market Hall");

    const b = await member();
    const unknown = await rest(b.token, { mode: "pickup", pickupAddress: "Town Square" });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toContain("fulfillmentPoint");

    const c = await member();
    const area = await rest(c.token, { mode: "delivery", fulfillmentDetails: "Riverside" });
    expect((await pointOf(area.body.subscription_id)).fulfillmentPoint).toBe("Riverside");
    const d = await member();
    // Free text that names no area: the single area is the default.
    const text = await rest(d.token, { mode: "delivery", fulfillmentDetails: "Local delivery" });
    expect((await pointOf(text.body.subscription_id)).fulfillmentPoint).toBe("Riverside");
  });
});

describe("after checkout", () => {
  async function paidMember(point = "Market Hall") {
    const { user, token } = await member();
    const started = await start(token, { mode: "PICKUP", fulfillmentPoint: point });
    await pay(token, started);
    return { user, token, id: started.data.membership.databaseId as number };
  }

  it("a change of point alone takes effect at once; a change of box carries its point from the next period", async () => {
    const { token, id } = await paidMember();
    const input = { subscriptionId: gid("Membership", id), planId: gid("Plan", plan.id), mode: "PICKUP", addonIds: [] };
    const moved = (await gqlData(CHANGE, { input: { ...input, fulfillmentPoint: "North Barn" } }, token)).changeSubscription;
    expect(moved.data).toEqual({ fulfillmentPoint: "North Barn", pendingChange: null });
    const refused = (await gqlData(CHANGE, { input: { ...input, fulfillmentPoint: "Nowhere" } }, token)).changeSubscription;
    expect(refused.issues).toEqual([{ path: "fulfillmentPoint" }]);

    const toDelivery = (await gqlData(CHANGE, { input: { ...input, mode: "DELIVERY" } }, token)).changeSubscription;
    expect(toDelivery.data).toEqual({ fulfillmentPoint: "North Barn", pendingChange: { mode: "DELIVERY", fulfillmentPoint: "Riverside", effectivePeriod: "2026-04" } });
  });

  it("REST: the portal lists the point; the change flow's pickupAddress moves it at once, fulfillmentDetails schedules an area", async () => {
    const { token, id } = await paidMember("Market Hall");
    const call = async (method: "GET" | "POST", url: string, payload?: unknown) => {
      const res = await t.app.inject({ method, url, headers: { authorization: `Bearer ${token}`, "x-tenant": "farm", ...(payload ? { "content-type": "application/json" } : {}) }, ...(payload ? { payload: payload } : {}) });
      return { status: res.statusCode, body: res.json() };
    };
    const listed = async () => (await call("GET", "/api/my/subscriptions")).body.subscriptions.find((s: { id: number }) => s.id === id);
    expect((await listed()).fulfillment_point).toBe("Market Hall");

    const moved = await call("POST", "/api/my/subscriptions/farm/change", { new_selection: { chosenItemId: plan.ref, mode: "pickup", pickupAddress: "North Barn", chosenAddons: [] } });
    expect(moved).toEqual({ status: 200, body: { message: "Subscription updated. Your new pickup point or delivery area applies from your next box; nothing is charged today.", charged_amount: 0 } });
    expect((await listed()).fulfillment_point).toBe("North Barn");

    const scheduled = await call("POST", "/api/my/subscriptions/farm/apply-change", { selection: { chosenItemId: plan.ref, mode: "delivery", fulfillmentDetails: "Riverside", chosenAddons: [] } });
    expect(scheduled).toEqual({ status: 200, body: { ok: true, effective_period: "2026-04" } });
    expect(await t.db.prisma.subscriptionChange.findUniqueOrThrow({ where: { subscriptionId: id } })).toMatchObject({ mode: "DELIVERY", fulfillmentPoint: "Riverside" });
  });

  it("the renewal's order carries the point, and a scheduled change's new point once applied", async () => {
    // The checkout's card is the one renewals charge.
    const { user, id } = await paidMember("North Barn");
    const ctx = { db: t.db.prisma, clock: t.clock, config: t.config, log };
    t.clock.set("2026-04-03T15:00:00Z");
    await runRenewals(ctx, { businessId: farm.id });
    const april = await t.db.prisma.order.findFirstOrThrow({ where: { subscriptionId: id, period: "2026-04" } });
    expect(april).toMatchObject({ kind: "RENEWAL", fulfillmentPoint: "North Barn" });
    expect((april.selection as { pickupAddress: string }).pickupAddress).toBe("North Barn");

    t.clock.set("2026-04-10T15:00:00Z");
    const token = await f.session(user, "farm");
    const change = { subscriptionId: gid("Membership", id), planId: gid("Plan", plan.id), mode: "DELIVERY", addonIds: [], fulfillmentPoint: "Riverside" };
    expect((await gqlData(CHANGE, { input: change }, token)).changeSubscription.data.pendingChange.effectivePeriod).toBe("2026-05");
    t.clock.set("2026-05-03T15:00:00Z");
    await runRenewals(ctx, { businessId: farm.id });
    const may = await t.db.prisma.order.findFirstOrThrow({ where: { subscriptionId: id, period: "2026-05" } });
    expect(may).toMatchObject({ mode: "DELIVERY", fulfillmentPoint: "Riverside" });
    expect((await t.db.prisma.subscription.findUniqueOrThrow({ where: { id } })).fulfillmentPoint).toBe("Riverside");
  });

  it("a restart keeps the stored point while offered, and asks for one when it is gone", async () => {
    const { user, id } = await paidMember("North Barn");
    await t.db.prisma.subscription.update({ where: { id }, data: { status: "CANCELED", canceledAt: new Date("2026-03-06T15:00:00Z") } });
    t.clock.set("2026-04-06T15:00:00Z");
    const token = await f.session(user, "farm");
    const kept = (await gqlData(RESTART, { input: { subscriptionId: gid("Membership", id) } }, token)).restartSubscription;
    expect(kept.data?.outcome, JSON.stringify(kept)).toBe("PAID");
    expect((await t.db.prisma.order.findUniqueOrThrow({ where: { id: kept.data.orderId } })).fulfillmentPoint).toBe("North Barn");

    // The business drops North Barn: the restart asks for a point that is still offered.
    await t.db.prisma.page.update({ where: { businessId: farm.id }, data: { pickupPoints: ["Market Hall", "Mill Lane"] } });
    try {
      await t.db.prisma.subscription.update({ where: { id }, data: { status: "CANCELED", canceledAt: new Date("2026-04-07T15:00:00Z"), paidThroughPeriod: "2026-03" } });
      await t.db.prisma.order.deleteMany({ where: { subscriptionId: id, period: "2026-04" } });
      const asked = (await gqlData(RESTART, { input: { subscriptionId: gid("Membership", id) } }, token)).restartSubscription;
      expect(asked).toEqual({ __typename: "ValidationError", message: "Please choose a pickup point.", issues: [{ path: "fulfillmentPoint" }], reason: "invalid_input" });
      // REST: the restart route's body names the new point.
      const res = await t.app.inject({
        method: "POST",
        url: `/api/my/subscriptions/${id}/restart`,
        headers: { authorization: `Bearer ${token}`, "x-tenant": "farm", "content-type": "application/json" },
        payload: { fulfillment_point: "Mill Lane" },
      });
      expect(res.json()).toMatchObject({ ok: true, outcome: "paid" });
      expect((await t.db.prisma.order.findUniqueOrThrow({ where: { id: res.json().order_id } })).fulfillmentPoint).toBe("Mill Lane");
    } finally {
      await t.db.prisma.page.update({ where: { businessId: farm.id }, data: { pickupPoints: ["Market Hall", "North Barn"] } });
    }
  });
});
