import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sandboxFor } from "../../api/billing/service.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";

// 2026-03-05 10:00 in New York: inside the default 1–14 windows, past the default cutoff (1st).
const NOW = "2026-03-05T15:00:00Z";

let t: TestApp;
let f: Factories;
let statements = 0;

// Fixture: two businesses, a member of each, staff of acme, an admin.
let acme: { id: number; slug: string };
let other: { id: number; slug: string };
let planA: { id: number };
let planB: { id: number };
let planOther: { id: number };
let addon1: { id: number };
let addon2: { id: number };
let alice: { id: number };
let bob: { id: number };
let carol: { id: number };
let aliceToken: string;
let bobToken: string;
let carolToken: string;
let ownerToken: string;
let viewerToken: string;
let otherOwnerToken: string;
let adminToken: string;
let partnerToken: string;

beforeAll(async () => {
  t = await createTestApp({ now: NOW, logQueries: true });
  t.db.onStatement(() => void statements++);
  f = factories(t);
  acme = await f.business({ slug: "acme", name: "Acme Farms", page: { shippingEnabled: true, addonLimit: 1, billingDay: 3 } });
  other = await f.business({ slug: "other", name: "Other Bakery" });
  planA = await f.plan(acme, { name: "Veggie Box", prices: { PICKUP: 3000, SHIPPING: 3500 } });
  planB = await f.plan(acme, { name: "Fruit Box", prices: { PICKUP: 2500 } });
  planOther = await f.plan(other, { name: "Bread Box" });
  addon1 = await f.addon(acme, { name: "Eggs", amountCents: 600 });
  addon2 = await f.addon(acme, { name: "Honey", amountCents: 900 });
  alice = await f.user({ username: "alice", name: "Alice Liddell", email: "alice@example.com" });
  bob = await f.user({ username: "bob" });
  carol = await f.user({ username: "carol", email: "carol@bakery.test" });
  const owner = await f.user({ username: "owner" });
  const viewer = await f.user({ username: "viewer" });
  const otherOwner = await f.user({ username: "otherowner" });
  const admin = await f.user({ username: "admin", isAdmin: true });
  await f.attach(acme, owner, "OWNER");
  await f.attach(acme, viewer, "VIEWER");
  await f.attach(other, otherOwner, "OWNER");
  aliceToken = await f.session(alice, "acme");
  bobToken = await f.session(bob, "acme");
  carolToken = await f.session(carol, "other");
  ownerToken = await f.session(owner);
  viewerToken = await f.session(viewer);
  otherOwnerToken = await f.session(otherOwner);
  adminToken = await f.session(admin);
  partnerToken = await f.partnerToken(acme, owner);
});
afterAll(() => t.close());
beforeEach(() => t.clock.set(NOW));

const MEMBERSHIP_FIELDS = `databaseId status planName mode username userPublicId nextBoxDate canceledAt
  business { slug } addons { name amountCents }
  skips { yearMonth } skipWindow { open startDay endDay opensOn closesOn } changeWindow { open closesOn }
  pendingChange { plan { name } mode addons { name } effectivePeriod }`;

const SKIP = `mutation($input: SkipMonthInput!) { skipMonth(input: $input) {
  __typename ... on SkipMonthSuccess { data { skippedMonth resumeDate membership { nextBoxDate skips { yearMonth } } } }
  ... on Error { message code reason } } }`;
const CHANGE = `mutation($input: ChangeSubscriptionInput!) { changeSubscription(input: $input) {
  __typename ... on ChangeSubscriptionSuccess { data { ${MEMBERSHIP_FIELDS} } }
  ... on Error { message code reason } } }`;
const CANCEL = `mutation($input: CancelSubscriptionInput!) { cancelSubscription(input: $input) {
  __typename ... on CancelSubscriptionSuccess { data { status canceledAt pendingChange { effectivePeriod } } }
  ... on Error { message code reason } } }`;
const RESTART = `mutation($input: RestartSubscriptionInput!) { restartSubscription(input: $input) {
  __typename ... on RestartSubscriptionSuccess { data { outcome orderId clientSecret membership { status canceledAt } } }
  ... on Error { message code reason } } }`;

async function activeSub(user: { id: number } = alice, o: Partial<Parameters<Factories["subscription"]>[0]> = {}) {
  return f.subscription({ user, business: acme, plan: planA, planAmountCents: 3000, ...o });
}

describe("membership type", () => {
  it("shows the member their membership with dates computed in the business's time zone", async () => {
    const sub = await activeSub(alice, { addons: [{ id: addon1.id, amountCents: 600 }] });
    const r = await t.gqlOk(`query($id: ID!) { node(id: $id) { ... on Membership { ${MEMBERSHIP_FIELDS} totalCents } } }`, { id: globalId("Membership", sub.id) }, { token: aliceToken });
    expect(r.node).toMatchObject({
      status: "ACTIVE",
      planName: "Veggie Box",
      mode: "PICKUP",
      username: "alice",
      nextBoxDate: "2026-04-01",
      business: { slug: "acme" },
      addons: [{ name: "Eggs", amountCents: 600 }],
      totalCents: 3600,
      skipWindow: { open: true, startDay: 1, endDay: 14, opensOn: "2026-03-01", closesOn: "2026-03-14" },
      changeWindow: { open: true, closesOn: "2026-03-14" },
      pendingChange: null,
    });
    await f.db.subscription.delete({ where: { id: sub.id } });
  });

  it("is hidden from another member, readable by staff, an admin and the business's partner token", async () => {
    const sub = await activeSub();
    const q = `query($id: ID!) { node(id: $id) { ... on Membership { databaseId } } }`;
    const id = globalId("Membership", sub.id);
    for (const token of [ownerToken, viewerToken, adminToken, partnerToken]) {
      expect((await t.gqlOk(q, { id }, { token })).node).toEqual({ databaseId: sub.id });
    }
    // Exactly like a missing membership: null, no error (tests/integration/node-access.test.ts covers every type).
    for (const token of [bobToken, otherOwnerToken, null]) {
      expect(await t.gql(q, { id }, { token })).toEqual({ data: { node: null } });
    }
    await f.db.subscription.delete({ where: { id: sub.id } });
  });
});

describe("skipMonth", () => {
  it("skips the next box's month and returns the resume date; a second skip is a conflict", async () => {
    const sub = await activeSub();
    const r = await t.gqlOk(SKIP, { input: { subscriptionId: String(sub.id) } }, { token: aliceToken, tenant: "acme" });
    expect(r.skipMonth.__typename).toBe("SkipMonthSuccess");
    // Next box April 1st is skipped; payments resume on the billing day (3rd) of May.
    expect(r.skipMonth.data).toMatchObject({ skippedMonth: "2026-04", resumeDate: "2026-05-03", membership: { nextBoxDate: "2026-05-01", skips: [{ yearMonth: "2026-04" }] } });
    const again = await t.gqlOk(SKIP, { input: { subscriptionId: globalId("Membership", sub.id) } }, { token: aliceToken });
    expect(again.skipMonth).toMatchObject({ __typename: "ConflictError", message: "This month is already skipped" });
    const skips = await t.gqlOk(`{ viewer { skips { yearMonth businessSlug } } }`, {}, { token: aliceToken });
    expect(skips.viewer.skips).toEqual([{ yearMonth: "2026-04", businessSlug: "acme" }]);
    await f.db.subscription.delete({ where: { id: sub.id } });
  });

  it("a skip sent many times at once (double taps, two tabs): one skip, one event, every other answer the conflict", async () => {
    const sub = await activeSub();
    const input = { subscriptionId: String(sub.id) };
    const answers = await Promise.all(Array.from({ length: 8 }, () => t.gql(SKIP, { input }, { token: aliceToken, tenant: "acme" })));
    const kinds = answers.map((a) => (a.errors?.length ? `error: ${a.errors[0].message}` : (a.data as { skipMonth: { __typename: string } }).skipMonth.__typename));
    expect(kinds.sort()).toEqual(["SkipMonthSuccess", ...Array<string>(7).fill("ConflictError")].sort());
    expect(await f.db.skip.count({ where: { subscriptionId: sub.id } })).toBe(1);
    expect(await f.db.event.count({ where: { type: "membership.skipped.v1", payload: { path: ["membershipId"], equals: sub.id } } })).toBe(1);
    await f.db.subscription.delete({ where: { id: sub.id } });
  });

  it("a skip racing the withdrawal or a new pick of a scheduled change: every answer is a result or a refusal, never an error", async () => {
    const sub = await activeSub();
    const id = String(sub.id);
    const change = { subscriptionId: id, planId: globalId("Plan", planB.id), mode: "PICKUP", addonIds: [] };
    const revert = { ...change, planId: String(planA.id) };
    const outcomes: string[] = [];
    for (let round = 0; round < 12; round++) {
      await f.db.skip.deleteMany({ where: { subscriptionId: sub.id } });
      await t.gqlOk(CHANGE, { input: change }, { token: aliceToken });
      const answers = await Promise.all([
        t.gql(SKIP, { input: { subscriptionId: id } }, { token: aliceToken }),
        t.gql(CHANGE, { input: round % 2 ? revert : { ...change, mode: "SHIPPING" } }, { token: aliceToken }),
      ]);
      for (const a of answers) outcomes.push(a.errors?.length ? `error: ${a.errors[0].message}` : Object.values(a.data as Record<string, { __typename: string }>)[0].__typename);
    }
    expect(outcomes.filter((o) => o.startsWith("error"))).toEqual([]);
    await f.db.subscription.delete({ where: { id: sub.id } });
  });

  it("is refused outside the skip window, naming the window", async () => {
    const sub = await activeSub();
    t.clock.set("2026-03-15T15:00:00Z");
    const r = await t.gqlOk(SKIP, { input: { subscriptionId: String(sub.id) } }, { token: aliceToken });
    expect(r.skipMonth).toMatchObject({ __typename: "RuleViolationError", reason: "outside_skip_window" });
    expect(r.skipMonth.message).toBe("You can skip a month only from the 1st to the 14th of each month. The next window opens on April 1st.");
    // 14th late evening in New York is still the 14th there (already the 15th in UTC)
    t.clock.set("2026-03-15T03:00:00Z");
    const inside = await t.gqlOk(SKIP, { input: { subscriptionId: String(sub.id) } }, { token: aliceToken });
    expect(inside.skipMonth.__typename).toBe("SkipMonthSuccess");
    await f.db.subscription.delete({ where: { id: sub.id } });
  });

  it("is refused to another member, anonymous, and on a canceled subscription; the member's session of another tenant may", async () => {
    const sub = await activeSub();
    const input = { subscriptionId: String(sub.id) };
    expect((await t.gqlOk(SKIP, { input }, { token: bobToken })).skipMonth).toMatchObject({ __typename: "ForbiddenError", reason: "not_owner" });
    // One login for every membership: Alice's session made on "other" acts on her acme membership through GraphQL.
    const alicesAtOther = await f.session(alice, "other");
    expect((await t.gqlOk(SKIP, { input }, { token: alicesAtOther, tenant: "other" })).skipMonth.__typename).toBe("SkipMonthSuccess");
    expect((await t.gqlOk(SKIP, { input }, { token: aliceToken, tenant: "other" })).skipMonth).toMatchObject({ __typename: "ConflictError", reason: "already_skipped" });
    expect((await t.gqlOk(SKIP, { input }, { token: carolToken })).skipMonth).toMatchObject({ __typename: "ForbiddenError", reason: "not_owner" });
    expect((await t.gqlOk(SKIP, { input }, {})).skipMonth.__typename).toBe("UnauthenticatedError");
    expect((await t.gqlOk(SKIP, { input }, { token: partnerToken })).skipMonth.__typename).toBe("ForbiddenError");
    await f.db.subscription.update({ where: { id: sub.id }, data: { status: "CANCELED", canceledAt: new Date() } });
    expect((await t.gqlOk(SKIP, { input }, { token: aliceToken })).skipMonth).toMatchObject({ __typename: "RuleViolationError", reason: "not_active" });
    expect((await t.gqlOk(SKIP, { input: { subscriptionId: "999999" } }, { token: aliceToken })).skipMonth.__typename).toBe("NotFoundError");
    expect((await t.gqlOk(SKIP, { input: { subscriptionId: "nonsense" } }, { token: aliceToken })).skipMonth.__typename).toBe("ValidationError");
    await f.db.subscription.delete({ where: { id: sub.id } });
  });
});

describe("changeSubscription", () => {
  it("schedules a change from the next billing period without charging, and withdraws it when reverted", async () => {
    const sub = await activeSub();
    const input = { subscriptionId: String(sub.id), planId: globalId("Plan", planB.id), mode: "PICKUP", addonIds: [String(addon2.id)] };
    const r = await t.gqlOk(CHANGE, { input }, { token: aliceToken });
    expect(r.changeSubscription.__typename).toBe("ChangeSubscriptionSuccess");
    expect(r.changeSubscription.data).toMatchObject({
      planName: "Veggie Box",
      pendingChange: { plan: { name: "Fruit Box" }, mode: "PICKUP", addons: [{ name: "Honey" }], effectivePeriod: "2026-04" },
    });
    expect(await f.db.payment.count()).toBe(0);
    // Changing again replaces the pending change.
    const again = await t.gqlOk(CHANGE, { input: { ...input, planId: String(planA.id), mode: "SHIPPING", addonIds: [] } }, { token: aliceToken });
    expect(again.changeSubscription.data.pendingChange).toMatchObject({ plan: { name: "Veggie Box" }, mode: "SHIPPING", addons: [] });
    // Choosing the current selection withdraws the pending change; then it is "no change".
    const revert = { ...input, planId: String(planA.id), addonIds: [] };
    expect((await t.gqlOk(CHANGE, { input: revert }, { token: aliceToken })).changeSubscription.data.pendingChange).toBeNull();
    expect((await t.gqlOk(CHANGE, { input: revert }, { token: aliceToken })).changeSubscription).toMatchObject({ __typename: "RuleViolationError", reason: "no_change" });
    await f.db.subscription.delete({ where: { id: sub.id } });
  });

  it("validates plan, mode and add-ons against the business's catalogue and page", async () => {
    const sub = await activeSub();
    const base = { subscriptionId: String(sub.id), planId: String(planB.id), mode: "PICKUP", addonIds: [] as string[] };
    const archived = await f.plan(acme, { archived: true });
    const unlisted = await f.plan(acme, { listed: false });
    const otherAddon = await f.addon(other);
    const cases: [Record<string, unknown>, string][] = [
      [{ planId: String(planOther.id) }, "This package is not available"],
      [{ planId: String(archived.id) }, "This package is not available"],
      [{ planId: String(unlisted.id) }, "This package is not available"],
      [{ mode: "SHIPPING" }, "This fulfillment mode is not available for this package"], // plan B has no shipping price
      [{ planId: String(planA.id), mode: "DELIVERY" }, "This fulfillment mode is not available for this package"], // delivery disabled
      [{ addonIds: [String(otherAddon.id)] }, "An add-on is not available"],
      [{ addonIds: [String(addon1.id), String(addon2.id)] }, "You can choose at most 1 add-on"],
    ];
    for (const [patch, message] of cases) {
      const r = await t.gqlOk(CHANGE, { input: { ...base, ...patch } }, { token: aliceToken });
      expect(r.changeSubscription, JSON.stringify(patch)).toMatchObject({ __typename: "ValidationError", message });
    }
    await f.db.subscription.delete({ where: { id: sub.id } });
  });

  it("is refused outside the change window and to anyone but the member", async () => {
    const sub = await activeSub();
    const input = { subscriptionId: String(sub.id), planId: String(planB.id), mode: "PICKUP", addonIds: [] };
    expect((await t.gqlOk(CHANGE, { input }, { token: bobToken })).changeSubscription.__typename).toBe("ForbiddenError");
    expect((await t.gqlOk(CHANGE, { input }, { token: carolToken })).changeSubscription).toMatchObject({ __typename: "ForbiddenError", reason: "not_owner" });
    t.clock.set("2026-12-20T15:00:00Z");
    const r = await t.gqlOk(CHANGE, { input }, { token: await f.session(alice, "acme") });
    expect(r.changeSubscription).toMatchObject({ __typename: "RuleViolationError", reason: "outside_change_window" });
    expect(r.changeSubscription.message).toContain("The next window opens on January 1st.");
    await f.db.subscription.delete({ where: { id: sub.id } });
  });
});

describe("cancelSubscription", () => {
  it("owner of the business cancels at once and drops the pending change; a second cancel conflicts", async () => {
    const sub = await activeSub();
    await f.db.subscriptionChange.create({ data: { subscriptionId: sub.id, planId: planB.id, mode: "PICKUP", addonIds: [], effectivePeriod: "2026-04" } });
    const r = await t.gqlOk(CANCEL, { input: { subscriptionId: globalId("Membership", sub.id), mode: "NOW" } }, { token: ownerToken });
    expect(r.cancelSubscription.data).toEqual({ status: "CANCELED", canceledAt: "2026-03-05T15:00:00.000Z", pendingChange: null });
    const again = await t.gqlOk(CANCEL, { input: { subscriptionId: String(sub.id) } }, { token: adminToken });
    expect(again.cancelSubscription).toMatchObject({ __typename: "ConflictError", message: "This subscription is already canceled" });
    await f.db.subscription.delete({ where: { id: sub.id } });
  });

  it("is refused to a viewer, the member, another business's owner, a partner token and anonymous; admin anywhere", async () => {
    const sub = await activeSub();
    const input = { subscriptionId: String(sub.id) };
    for (const token of [viewerToken, aliceToken, otherOwnerToken, partnerToken]) {
      expect((await t.gqlOk(CANCEL, { input }, { token })).cancelSubscription.__typename).toBe("ForbiddenError");
    }
    expect((await t.gqlOk(CANCEL, { input }, {})).cancelSubscription.__typename).toBe("UnauthenticatedError");
    const carols = await f.subscription({ user: carol, business: other, plan: planOther });
    expect((await t.gqlOk(CANCEL, { input: { subscriptionId: String(carols.id) } }, { token: ownerToken })).cancelSubscription.__typename).toBe("ForbiddenError");
    expect((await t.gqlOk(CANCEL, { input: { subscriptionId: String(carols.id) } }, { token: adminToken })).cancelSubscription.data.status).toBe("CANCELED");
    expect((await f.db.subscription.findUniqueOrThrow({ where: { id: sub.id } })).status).toBe("ACTIVE");
    await f.db.subscription.deleteMany({ where: { id: { in: [sub.id, carols.id] } } });
  });
});

describe("restartSubscription", () => {
  it("reactivates without charging when the current period is already paid", async () => {
    const sub = await activeSub(alice, { status: "CANCELED", canceledAt: "2026-03-04T12:00:00Z", paidThroughPeriod: "2026-03" });
    const r = await t.gqlOk(RESTART, { input: { subscriptionId: String(sub.id) } }, { token: aliceToken });
    expect(r.restartSubscription.data).toMatchObject({ outcome: "REACTIVATED", orderId: null, membership: { status: "ACTIVE", canceledAt: null } });
    expect(await f.db.payment.count({ where: { subscriptionId: sub.id } })).toBe(0);
    const again = await t.gqlOk(RESTART, { input: { subscriptionId: String(sub.id) } }, { token: aliceToken });
    expect(again.restartSubscription).toMatchObject({ __typename: "ConflictError", reason: "not_canceled" });
    await f.db.subscription.delete({ where: { id: sub.id } });
  });

  it("charges the current period with the saved card: active again with the period's order", async () => {
    const sub = await activeSub(alice, { status: "CANCELED", canceledAt: "2026-02-10T12:00:00Z", paidThroughPeriod: "2026-02" });
    await saveCard(sub, "4242424242424242");
    const r = await t.gqlOk(RESTART, { input: { subscriptionId: String(sub.id) } }, { token: aliceToken });
    expect(r.restartSubscription.data).toMatchObject({ outcome: "PAID", clientSecret: null, membership: { status: "ACTIVE", canceledAt: null } });
    const order = await f.db.order.findUniqueOrThrow({ where: { id: r.restartSubscription.data.orderId } });
    expect(order).toMatchObject({ kind: "RESTART", period: "2026-03", totalCents: 3000 });
    expect(await f.db.payment.count({ where: { subscriptionId: sub.id, status: "SUCCEEDED" } })).toBe(1);
    await f.db.subscription.delete({ where: { id: sub.id } });
  });

  it("reports a declined card and stays canceled; a retry is a new attempt", async () => {
    const sub = await activeSub(alice, { status: "CANCELED", canceledAt: "2026-02-10T12:00:00Z", paidThroughPeriod: "2026-02" });
    await saveCard(sub, "4000000000000341"); // attaches, then declines
    const input = { subscriptionId: String(sub.id) };
    const r = await t.gqlOk(RESTART, { input }, { token: aliceToken });
    expect(r.restartSubscription).toMatchObject({ __typename: "RuleViolationError", reason: "payment_failed" });
    expect((await f.db.subscription.findUniqueOrThrow({ where: { id: sub.id } })).status).toBe("CANCELED");
    await t.gqlOk(RESTART, { input }, { token: aliceToken });
    expect(await f.db.payment.count({ where: { subscriptionId: sub.id, status: "FAILED" } })).toBe(2);
    expect(await f.db.order.count({ where: { subscriptionId: sub.id } })).toBe(0);
    await f.db.subscription.delete({ where: { id: sub.id } });
  });

  it("is refused while the member has another open membership at the business, before any charge", async () => {
    const canceled = await activeSub(alice, { status: "CANCELED", canceledAt: "2026-02-10T12:00:00Z", paidThroughPeriod: "2026-02" });
    const open = await activeSub(alice, { plan: planB });
    const r = await t.gqlOk(RESTART, { input: { subscriptionId: String(canceled.id) } }, { token: aliceToken });
    expect(r.restartSubscription).toMatchObject({ __typename: "ConflictError", reason: "already_member" });
    expect(await f.db.payment.count({ where: { subscriptionId: canceled.id } })).toBe(0);
    await f.db.subscription.deleteMany({ where: { id: { in: [canceled.id, open.id] } } });
  });

  it("asks for card confirmation without a saved card, and is refused to others", async () => {
    const sub = await activeSub(alice, { status: "CANCELED", canceledAt: "2026-02-10T12:00:00Z", paidThroughPeriod: "2026-02" });
    const input = { subscriptionId: String(sub.id) };
    expect((await t.gqlOk(RESTART, { input }, { token: bobToken })).restartSubscription.__typename).toBe("ForbiddenError");
    expect((await t.gqlOk(RESTART, { input }, { token: adminToken })).restartSubscription.__typename).toBe("ForbiddenError");
    expect((await t.gqlOk(RESTART, { input }, {})).restartSubscription.__typename).toBe("UnauthenticatedError");
    const r = await t.gqlOk(RESTART, { input }, { token: aliceToken });
    expect(r.restartSubscription.data).toMatchObject({ outcome: "REQUIRES_ACTION", membership: { status: "CANCELED" } });
    expect(r.restartSubscription.data.clientSecret).toMatch(/secret/);
    await f.db.subscription.delete({ where: { id: sub.id } });
  });
});

describe("lists", () => {
  let ids: Record<string, number>;
  beforeAll(async () => {
    const a1 = await f.subscription({ user: alice, business: acme, plan: planA, status: "CANCELED", startedAt: "2025-06-01T12:00:00Z", canceledAt: "2025-12-01T12:00:00Z", providerSubscriptionId: "sub_old" });
    // One open membership per member and business: alice's older ones are canceled.
    const a2 = await f.subscription({ user: alice, business: acme, plan: planB, status: "CANCELED", startedAt: "2026-01-01T12:00:00Z", canceledAt: "2026-02-01T12:00:00Z" });
    const a3 = await f.subscription({ user: alice, business: acme, plan: planA, startedAt: "2026-02-01T12:00:00Z" });
    const b1 = await f.subscription({ user: bob, business: acme, plan: planA, status: "PAST_DUE", startedAt: "2026-02-15T12:00:00Z" });
    const c1 = await f.subscription({ user: carol, business: other, plan: planOther, startedAt: "2026-02-20T12:00:00Z" });
    const inc = await f.subscription({ user: bob, business: other, plan: planOther, status: "INCOMPLETE", startedAt: "2026-03-01T12:00:00Z" });
    ids = { a1: a1.id, a2: a2.id, a3: a3.id, b1: b1.id, c1: c1.id, inc: inc.id };
    await f.order({ subscription: a2, period: "2026-01", totalCents: 2500, createdAt: "2026-01-01T12:00:00Z" });
    await f.order({ subscription: a2, period: "2026-02", totalCents: 2500, createdAt: "2026-02-01T12:00:00Z", selection: { chosenItemName: "Fruit Box", chosenVariationName: "Pickup", chosenAddons: [{ id: "addon_1", name: "Eggs", amountCents: 600 }] } });
  });

  const ROOT = `query($search: String, $status: MembershipStatusFilter, $businessId: Int) {
    memberships(search: $search, status: $status, businessId: $businessId) { edges { node { databaseId } } } }`;
  const rootIds = async (vars: Record<string, unknown>, token: string | null) =>
    (await t.gqlOk(ROOT, vars, { token })).memberships.edges.map((e: { node: { databaseId: number } }) => e.node.databaseId);

  it("User.subscriptions in the portal order: provider id first, then active, then latest start", async () => {
    const r = await t.gqlOk(`{ viewer { subscriptions { databaseId } first: subscriptions(onePerBusiness: true, businessSlug: "ACME") { databaseId } } }`, {}, { token: aliceToken });
    expect(r.viewer.subscriptions.map((s: { databaseId: number }) => s.databaseId)).toEqual([ids.a1, ids.a3, ids.a2]);
    expect(r.viewer.first.map((s: { databaseId: number }) => s.databaseId)).toEqual([ids.a1]);
  });

  it("User.orders newest first with the typed selection", async () => {
    const r = await t.gqlOk(`{ viewer { orders { edges { node { period planName variationName addons { name amountCents } business { slug } totalCents } } } } }`, {}, { token: aliceToken });
    const nodes = r.viewer.orders.edges.map((e: { node: unknown }) => e.node);
    expect(nodes).toEqual([
      { period: "2026-02", planName: "Fruit Box", variationName: "Pickup", addons: [{ name: "Eggs", amountCents: 600 }], business: { slug: "acme" }, totalCents: 2500 },
      { period: "2026-01", planName: "Plan", variationName: "Pickup", addons: [], business: { slug: "acme" }, totalCents: 2500 },
    ]);
  });

  it("root memberships: admin sees all, filtered by search, status and business", async () => {
    expect(await rootIds({}, adminToken)).toEqual([ids.c1, ids.b1, ids.a3, ids.a2, ids.a1]);
    expect(await rootIds({ status: "ACTIVE" }, adminToken)).toEqual([ids.c1, ids.b1, ids.a3]);
    expect(await rootIds({ status: "CANCELED" }, adminToken)).toEqual([ids.a2, ids.a1]);
    expect(await rootIds({ businessId: other.id }, adminToken)).toEqual([ids.c1]);
    expect(await rootIds({ search: "ALI" }, adminToken)).toEqual([ids.a3, ids.a2, ids.a1]); // username
    expect(await rootIds({ search: "liddell" }, adminToken)).toEqual([ids.a3, ids.a2, ids.a1]); // name
    expect(await rootIds({ search: "bakery.test" }, adminToken)).toEqual([ids.c1]); // email
    expect(await rootIds({ search: "other bak" }, adminToken)).toEqual([ids.c1]); // business name
    expect(await rootIds({ search: "acme", status: "ACTIVE" }, adminToken)).toEqual([ids.b1, ids.a3]); // business slug
  });

  it("root memberships: staff and partner tokens see only their businesses; members see nothing; anonymous is refused", async () => {
    expect(await rootIds({}, ownerToken)).toEqual([ids.b1, ids.a3, ids.a2, ids.a1]);
    expect(await rootIds({}, viewerToken)).toEqual([ids.b1, ids.a3, ids.a2, ids.a1]);
    expect(await rootIds({}, partnerToken)).toEqual([ids.b1, ids.a3, ids.a2, ids.a1]);
    expect(await rootIds({ businessId: other.id }, ownerToken)).toEqual([]);
    expect(await rootIds({}, otherOwnerToken)).toEqual([ids.c1]);
    expect(await rootIds({}, aliceToken)).toEqual([]);
    const anon = await t.gql(ROOT, {}, {});
    expect(anon.errors?.[0]?.message).toBe("Please log in to continue.");
  });

  it("loads memberships with their relations and dates in a number of statements independent of the rows", async () => {
    const Q = `query($n: Int) { memberships(first: $n) { edges { node { ${MEMBERSHIP_FIELDS} plan { name } email memberName
      orders(first: 5) { edges { node { period } } } } } } }`;
    const run = async (n: number) => {
      const before = statements;
      const r = await t.gqlOk(Q, { n }, { token: adminToken });
      return { rows: r.memberships.edges.length, statements: statements - before };
    };
    const one = await run(1);
    const all = await run(20);
    expect(one.rows).toBe(1);
    expect(all.rows).toBe(5);
    // Prisma loads each relation with one batched statement, whatever the number of rows (no N+1).
    expect(all.statements).toBe(one.statements);
  });

  it("Business.memberships and Business.orders for readers of that business only", async () => {
    const Q = `query($slug: String!) { business(slug: $slug) {
      memberships(status: ACTIVE, search: "bob") { edges { node { databaseId username status } } }
      orders { edges { node { period } } } } }`;
    const r = await t.gqlOk(Q, { slug: "acme" }, { token: partnerToken });
    expect(r.business.memberships.edges.map((e: { node: unknown }) => e.node)).toEqual([{ databaseId: ids.b1, username: "bob", status: "PAST_DUE" }]);
    expect(r.business.orders.edges.map((e: { node: { period: string } }) => e.node.period)).toEqual(["2026-02", "2026-01"]);
    const refused = await t.gql(Q, { slug: "acme" }, { token: otherOwnerToken });
    expect(refused.errors?.[0]?.message).toBe("You do not have permission to do this.");
    const partnerOther = await t.gql(Q, { slug: "other" }, { token: partnerToken });
    expect(partnerOther.errors?.length).toBeGreaterThan(0);
  });
});

/** Saves a sandbox test card as the subscription's payment method, as the card-update flow does. */
async function saveCard(sub: { id: number; userId: number }, number: string) {
  const s = sandboxFor({ db: t.db.prisma, clock: t.clock, config: t.config });
  const user = await f.db.user.findUniqueOrThrow({ where: { id: sub.userId } });
  const customerId = await s.ensureCustomer({ userId: user.id, existingId: user.paymentCustomerId });
  await f.db.user.update({ where: { id: user.id }, data: { paymentCustomerId: customerId } });
  const seti = await s.createSetupIntent({ customerId, idempotencyKey: `seti-${sub.id}` });
  const saved = await s.confirmSetupIntent(seti.clientSecret, { number, expMonth: 12, expYear: 2030, cvc: "123" });
  await f.db.subscription.update({ where: { id: sub.id }, data: { providerPaymentMethodId: saved.paymentMethodId } });
}

function globalId(type: string, id: number): string {
  return Buffer.from(`${type}:${id}`).toString("base64");
}
