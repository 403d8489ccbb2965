import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { placesTaken } from "../../api/catalog/capacity.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";
import { expectMoneyBalanced, PAY, seedSavedCard } from "../support/payments.ts";

/**
 * Capacity: which memberships hold a place, a plan's and a plan-and-mode's maximum, the refusal at
 * checkout (before paying, and when the place went while paying: refunded), restart and change, the public
 * soldOut flags, and the editor's capacity fields. Concurrency across processes: capacity-processes.test.ts.
 */

let t: TestApp;
let f: Factories;
let farm: { id: number; slug: string };
let seq = 0;

const NOW = "2026-03-05T15:00:00Z";
const SOLD_OUT = "This box is sold out.";
const gid = (type: string, id: number) => Buffer.from(`${type}:${id}`).toString("base64");

beforeAll(async () => {
  t = await createTestApp({ now: NOW });
  f = factories(t);
  farm = await f.business({
    slug: "farm",
    page: { pickupEnabled: true, shippingEnabled: true, billingDay: 3, cutoffDay: 20, changeWindowStart: 1, changeWindowEnd: 28 },
  });
});
afterAll(() => t.close());
beforeEach(() => t.clock.set(NOW));

async function member() {
  const user = await f.user({ username: `cap${++seq}`, email: `cap${seq}@example.com` });
  return { user, token: await f.session(user, "farm") };
}

async function gqlData(query: string, variables: Record<string, unknown>, token: string | null) {
  const res = await t.gql(query, variables, { token, tenant: "farm" });
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return res.data;
}

const start = (token: string, planRef: string, mode = "PICKUP") =>
  gqlData(PAY.START, { input: { selection: { businessSlug: "farm", planRef, mode }, email: "pat@example.com", idempotencyKey: `cap-attempt-${++seq}` } }, token).then((d) => d.startCheckout);
const pay = (token: string, started: { data: { clientSecret: string; paymentIntentId: string } }) =>
  gqlData(PAY.CONFIRM, { s: started.data.clientSecret }, token).then(() => gqlData(PAY.COMPLETE, { id: started.data.paymentIntentId }, token)).then((d) => d.completeCheckout);

/** A plan with prices per mode and the given capacities. */
async function boxPlan(o: { capacity?: number | null; pickup?: number | null; shipping?: number | null } = {}) {
  const plan = await f.plan(farm, { name: `Box ${++seq}`, prices: { PICKUP: 3000, SHIPPING: 3500 } });
  await t.db.prisma.plan.update({ where: { id: plan.id }, data: { capacity: o.capacity ?? null } });
  await t.db.prisma.planVariation.update({ where: { planId_mode: { planId: plan.id, mode: "PICKUP" } }, data: { capacity: o.pickup ?? null } });
  await t.db.prisma.planVariation.update({ where: { planId_mode: { planId: plan.id, mode: "SHIPPING" } }, data: { capacity: o.shipping ?? null } });
  return plan;
}

/** Memberships of other members holding (or not) a place in `plan`. */
async function holders(plan: { id: number }, statuses: ("ACTIVE" | "PAST_DUE" | "CANCELED" | "INCOMPLETE")[], mode: "PICKUP" | "SHIPPING" = "PICKUP") {
  const subs = [];
  for (const status of statuses) {
    const { user } = await member();
    subs.push(await f.subscription({ user, business: farm, plan, status, mode, canceledAt: status === "CANCELED" ? "2026-02-10T15:00:00Z" : null }));
  }
  return subs;
}

const PUBLIC_PLANS = `{ business(slug: "farm") { plans(first: 50) { edges { node { databaseId soldOut soldOutModes variations { mode soldOut } } } } } }`;

/** The business page's soldOut flags of one plan, as a logged-in visitor (not served from the public cache). */
async function soldOutFlags(plan: { id: number }) {
  const { token } = await member();
  const data = await gqlData(PUBLIC_PLANS, {}, token);
  const node = data.business.plans.edges.map((e: any) => e.node).find((n: any) => n.databaseId === plan.id);
  // soldOutModes (what the business page reads) says what each variation's soldOut says.
  expect(node.soldOutModes).toEqual(node.variations.filter((v: any) => v.soldOut).map((v: any) => v.mode));
  return { plan: node.soldOut, ...Object.fromEntries(node.variations.map((v: any) => [v.mode, v.soldOut])) };
}

async function restCall(method: "POST", url: string, token: string, payload: unknown) {
  const res = await t.app.inject({ method, url, headers: { authorization: `Bearer ${token}`, "x-tenant": "farm", "content-type": "application/json" }, payload: payload as object });
  return { status: res.statusCode, body: res.json() };
}

describe("who holds a place", () => {
  it("active, past-due, paused (skipped) and gift memberships count; canceled and unpaid checkouts do not", async () => {
    const plan = await boxPlan({ capacity: 4 });
    const [active, , paused, gift] = await holders(plan, ["ACTIVE", "PAST_DUE", "ACTIVE", "ACTIVE", "CANCELED", "INCOMPLETE"]);
    await t.db.prisma.skip.create({ data: { subscriptionId: paused.id, yearMonth: "2026-04" } });
    await t.db.prisma.subscription.update({ where: { id: gift.id }, data: { isGift: true } });

    const taken = await placesTaken(t.db.prisma, farm.id, [plan.id]);
    expect(taken.byPlan.get(plan.id)).toBe(4);
    expect(taken.byVariation.get(`${plan.id}:PICKUP`)).toBe(4);
    expect(await soldOutFlags(plan)).toEqual({ plan: true, PICKUP: true, SHIPPING: true });

    // The owner cancels one: its place is free again.
    const owner = await f.user();
    await f.attach(farm, owner, "OWNER");
    const cancel = await gqlData(
      `mutation($input: CancelSubscriptionInput!) { cancelSubscription(input: $input) { __typename } }`,
      { input: { subscriptionId: gid("Membership", active.id) } },
      await f.session(owner),
    );
    expect(cancel.cancelSubscription.__typename).toBe("CancelSubscriptionSuccess");
    expect(await soldOutFlags(plan)).toEqual({ plan: false, PICKUP: false, SHIPPING: false });
  });

  it("a plan without capacity is never sold out and costs no count", async () => {
    const plan = await boxPlan();
    await holders(plan, ["ACTIVE", "ACTIVE"]);
    expect(await soldOutFlags(plan)).toEqual({ plan: false, PICKUP: false, SHIPPING: false });
  });

  it("capacity 0 closes the plan (or the mode) at once", async () => {
    const closed = await boxPlan({ shipping: 0 });
    expect(await soldOutFlags(closed)).toEqual({ plan: false, PICKUP: false, SHIPPING: true });
  });
});

describe("checkout", () => {
  it("a full plan is refused before paying: GraphQL RuleViolationError, REST 409 sold_out", async () => {
    const plan = await boxPlan({ capacity: 1 });
    await holders(plan, ["ACTIVE"]);
    const { token } = await member();
    expect(await start(token, plan.ref)).toEqual({ __typename: "RuleViolationError", message: SOLD_OUT, reason: "sold_out" });
    const rest = await restCall("POST", "/api/create-payment-intent", token, { selection: { businessSlug: "farm", chosenItemId: plan.ref, mode: "pickup", email: "pat@example.com" } });
    expect(rest).toEqual({ status: 409, body: { error: SOLD_OUT, reason: "sold_out" } });
    expect(await t.db.prisma.payment.count({ where: { subscription: { planId: plan.id } } })).toBe(0);
  });

  it("a mode's capacity applies to that mode only; the plan's covers all modes", async () => {
    const plan = await boxPlan({ capacity: 3, shipping: 1 });
    await holders(plan, ["ACTIVE"], "SHIPPING");
    expect(await soldOutFlags(plan)).toEqual({ plan: false, PICKUP: false, SHIPPING: true });
    const { token } = await member();
    expect((await start(token, plan.ref, "SHIPPING")).reason).toBe("sold_out");
    const paid = await pay(token, await start(token, plan.ref, "PICKUP"));
    expect(paid.__typename).toBe("CompleteCheckoutSuccess");
    await holders(plan, ["ACTIVE"], "PICKUP"); // 3 of 3 now: every mode is sold out with the plan
    expect(await soldOutFlags(plan)).toEqual({ plan: true, PICKUP: true, SHIPPING: true });
  });

  it("a place taken while another member was paying: that payment is refunded with the sold-out answer", async () => {
    const plan = await boxPlan({ pickup: 1 });
    const first = await member();
    const second = await member();
    const a = await start(first.token, plan.ref);
    const b = await start(second.token, plan.ref); // both quoted while the place was free
    expect((await pay(first.token, a)).__typename).toBe("CompleteCheckoutSuccess");
    expect(await pay(second.token, b)).toEqual({ __typename: "RuleViolationError", reason: "sold_out", message: `${SOLD_OUT} Your payment of $30.00 was refunded.` });
    const refunded = await t.db.prisma.payment.findUniqueOrThrow({ where: { providerPaymentId: b.data.paymentIntentId } });
    expect(refunded).toMatchObject({ refundReason: "sold_out", refundedCents: 3000, orderId: null });
    expect(await t.db.prisma.subscription.count({ where: { planId: plan.id, status: "ACTIVE" } })).toBe(1);
    await expectMoneyBalanced(t.db.prisma, second.user.id, farm.id);
    // Completing again gives the same answer and refunds nothing more.
    expect((await pay(second.token, b)).reason).toBe("sold_out");
  });
});

describe("restart and change", () => {
  const RESTART = `mutation($id: ID!) { restartSubscription(input: { subscriptionId: $id }) { __typename ... on Error { message reason } } }`;
  const CHANGE = `mutation($input: ChangeSubscriptionInput!) { changeSubscription(input: $input) { __typename ... on Error { message reason } } }`;
  const change = (token: string, sub: { id: number }, plan: { id: number }, mode = "PICKUP") =>
    gqlData(CHANGE, { input: { subscriptionId: gid("Membership", sub.id), planId: gid("Plan", plan.id), mode, addonIds: [] } }, token).then((d) => d.changeSubscription);

  it("a restart into a full plan is refused before any charge; freed by a cancel, it restarts", async () => {
    const plan = await boxPlan({ capacity: 1 });
    const [holder] = await holders(plan, ["ACTIVE"]);
    const m = await member();
    await seedSavedCard(t.db.prisma, m.user);
    const sub = await f.subscription({ user: m.user, business: farm, plan, status: "CANCELED", paidThroughPeriod: "2026-01", canceledAt: "2026-02-10T15:00:00Z" });
    expect((await gqlData(RESTART, { id: gid("Membership", sub.id) }, m.token)).restartSubscription).toEqual({ __typename: "RuleViolationError", message: SOLD_OUT, reason: "sold_out" });
    const rest = await restCall("POST", `/api/my/subscriptions/${sub.id}/restart`, m.token, {});
    expect(rest).toEqual({ status: 409, body: { error: SOLD_OUT, reason: "sold_out" } });
    expect(await t.db.prisma.payment.count({ where: { subscriptionId: sub.id } })).toBe(0);

    await t.db.prisma.subscription.update({ where: { id: holder.id }, data: { status: "CANCELED" } });
    expect((await gqlData(RESTART, { id: gid("Membership", sub.id) }, m.token)).restartSubscription.__typename).toBe("RestartSubscriptionSuccess");
  });

  it("a reactivation without charge (canceled mid-period) is refused too when full", async () => {
    const plan = await boxPlan({ pickup: 1 });
    await holders(plan, ["ACTIVE"]);
    const m = await member();
    const sub = await f.subscription({ user: m.user, business: farm, plan, status: "CANCELED", paidThroughPeriod: "2026-03", canceledAt: "2026-03-02T15:00:00Z" });
    expect((await gqlData(RESTART, { id: gid("Membership", sub.id) }, m.token)).restartSubscription.reason).toBe("sold_out");
    expect((await t.db.prisma.subscription.findUniqueOrThrow({ where: { id: sub.id } })).status).toBe("CANCELED");
  });

  it("a change into a full plan or mode is refused; within the same plan and mode it takes no new place", async () => {
    const full = await boxPlan({ capacity: 1 });
    await holders(full, ["ACTIVE"]);
    const mine = await boxPlan({ capacity: 1, shipping: 0 });
    const m = await member();
    const sub = await f.subscription({ user: m.user, business: farm, plan: mine, status: "ACTIVE" });
    expect(await change(m.token, sub, full)).toEqual({ __typename: "RuleViolationError", message: SOLD_OUT, reason: "sold_out" });
    // Same plan, other mode: the plan's place is already mine, but shipping has none.
    expect((await change(m.token, sub, mine, "SHIPPING")).reason).toBe("sold_out");
    const quote = await gqlData(
      `query($input: ChangeSubscriptionInput!) { changeQuote(input: $input) { __typename ... on Error { reason } } }`,
      { input: { subscriptionId: gid("Membership", sub.id), planId: gid("Plan", full.id), mode: "PICKUP", addonIds: [] } },
      m.token,
    );
    expect(quote.changeQuote).toEqual({ __typename: "RuleViolationError", reason: "sold_out" });
    const rest = await restCall("POST", "/api/my/subscriptions/farm/change", m.token, { new_selection: { chosenItemId: full.ref, mode: "pickup" } });
    expect(rest).toMatchObject({ status: 409, body: { error: SOLD_OUT, reason: "sold_out" } });
    expect(await t.db.prisma.subscriptionChange.count({ where: { subscriptionId: sub.id } })).toBe(0);
  });

  it("a member's soldOutForChange says what a change may take: their own full plan is open to them in a mode without a limit of its own", async () => {
    const mine = await boxPlan({ capacity: 1, shipping: 0 });
    const open = await boxPlan({ capacity: 1 });
    const m = await member();
    const sub = await f.subscription({ user: m.user, business: farm, plan: mine, status: "ACTIVE" });
    const flags = async () => {
      const { node } = await gqlData(`query($id: ID!) { node(id: $id) { ... on Membership { soldOutForChange { planRef soldOut soldOutModes } } } }`, { id: gid("Membership", sub.id) }, m.token);
      return Object.fromEntries(node.soldOutForChange.map((p: { planRef: string }) => [p.planRef, p]));
    };
    // A visitor sees `mine` full; its member does not, but its shipping (capacity 0) is closed to them too.
    expect(await soldOutFlags(mine)).toMatchObject({ plan: true });
    expect((await flags())[mine.ref]).toEqual({ planRef: mine.ref, soldOut: false, soldOutModes: ["SHIPPING"] });
    expect((await flags())[open.ref]).toEqual({ planRef: open.ref, soldOut: false, soldOutModes: [] });
    expect((await change(m.token, sub, mine, "SHIPPING")).reason).toBe("sold_out");
    // Another member takes `open`'s only place: closed to this member as to everyone.
    await holders(open, ["ACTIVE"]);
    expect((await flags())[open.ref]).toEqual({ planRef: open.ref, soldOut: true, soldOutModes: ["PICKUP", "SHIPPING"] });
    expect((await change(m.token, sub, open)).reason).toBe("sold_out");
  });

  it("a scheduled change holds its place in the new plan from when it is scheduled", async () => {
    const target = await boxPlan({ capacity: 1 });
    const from = await boxPlan();
    const m = await member();
    const sub = await f.subscription({ user: m.user, business: farm, plan: from, status: "ACTIVE" });
    expect((await change(m.token, sub, target)).__typename).toBe("ChangeSubscriptionSuccess");
    expect(await soldOutFlags(target)).toMatchObject({ plan: true });
    const other = await member();
    expect((await start(other.token, target.ref)).reason).toBe("sold_out");
    // Going back to the current selection withdraws the change and frees the place.
    expect((await change(m.token, sub, from)).__typename).toBe("ChangeSubscriptionSuccess");
    expect(await soldOutFlags(target)).toMatchObject({ plan: false });
  });
});

describe("the editor's capacity fields", () => {
  const SAVE = `mutation($input: SaveBusinessPageInput!) { saveBusinessPage(input: $input) { __typename ... on ValidationError { message issues { path message } } } }`;
  const READ = `query($slug: String!) { business(slug: $slug) { plans(first: 5, includeUnlisted: true) { edges { node { ref capacity variations { mode capacity } } } } } }`;
  const content = { brand: { name: "Shop" }, fulfillment: { pickup: true, shipping: true, delivery: false } };
  let shop: { id: number; slug: string };
  let ownerToken: string;

  beforeAll(async () => {
    shop = await f.business({ slug: "shop", page: { pickupEnabled: true } });
    const owner = await f.user();
    await f.attach(shop, owner, "OWNER");
    ownerToken = await f.session(owner);
  });

  const save = (plans: unknown[]) => t.gqlOk(SAVE, { input: { businessId: shop.id, content, plans } }, { token: ownerToken }).then((d) => d.saveBusinessPage);
  const read = (token: string | null) => t.gql(READ, { slug: "shop" }, { token });

  it("owners set and read a plan's and each mode's capacity; left out keeps it, null removes it", async () => {
    expect((await save([{ name: "Veg", pickupCents: 2000, shippingCents: 2500, capacity: 40, pickupCapacity: 25 }])).__typename).toBe("SaveBusinessPageSuccess");
    const node = (await read(ownerToken)).data.business.plans.edges[0].node;
    expect(node).toMatchObject({ capacity: 40, variations: [{ mode: "PICKUP", capacity: 25 }, { mode: "SHIPPING", capacity: null }] });

    await save([{ ref: node.ref, name: "Veg", pickupCents: 2000, shippingCents: 2500 }]);
    expect((await read(ownerToken)).data.business.plans.edges[0].node).toMatchObject({ capacity: 40, variations: [{ capacity: 25 }, { capacity: null }] });
    await save([{ ref: node.ref, name: "Veg", pickupCents: 2000, shippingCents: 2500, capacity: null, pickupCapacity: null, shippingCapacity: 0 }]);
    expect((await read(ownerToken)).data.business.plans.edges[0].node).toMatchObject({ capacity: null, variations: [{ capacity: null }, { capacity: 0 }] });
  });

  it("bad values are refused with a clear message and nothing is lost", async () => {
    await save([{ name: "Fruit", pickupCents: 2000, capacity: 10 }]);
    const ref = (await read(ownerToken)).data.business.plans.edges[0].node.ref;
    const message = "Maximum members must be a whole number from 0 to 100,000 (leave it empty for no limit).";
    for (const bad of [{ capacity: -1 }, { capacity: 100_001 }, { pickupCapacity: 2.5 }]) {
      const refused = await t.gql(SAVE, { input: { businessId: shop.id, content, plans: [{ ref, name: "Fruit renamed", pickupCents: 2000, ...bad }] } }, { token: ownerToken });
      // 2.5 is not an Int: GraphQL refuses it before the service; the others are the service's issues.
      if (refused.errors) {
        expect(refused.errors[0].message).toMatch(/Int/);
      } else {
        const field = Object.keys(bad)[0];
        expect(refused.data.saveBusinessPage).toEqual({ __typename: "ValidationError", message: expect.any(String), issues: [{ path: `plans.0.${field}`, message }] });
      }
    }
    expect((await read(ownerToken)).data.business.plans.edges[0].node).toMatchObject({ ref, capacity: 10 });
    expect(await t.db.prisma.plan.findFirstOrThrow({ where: { ref } })).toMatchObject({ name: "Fruit", capacity: 10 });
  });

  it("visitors and members never read counts or capacities", async () => {
    const anonymous = await t.gql(`{ business(slug: "shop") { plans(first: 5) { edges { node { capacity } } } } }`, {}, { tenant: "shop" });
    expect(anonymous.errors?.[0].message).toMatch(/log in/i);
    const { token } = await member();
    const asMember = await t.gql(`{ business(slug: "shop") { plans(first: 5) { edges { node { variations { capacity } } } } } }`, {}, { token });
    expect(asMember.errors?.[0].message).toMatch(/permission/i);
  });
});
