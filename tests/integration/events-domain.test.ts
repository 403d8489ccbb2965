/**
 * Each action that changes something someone should hear about writes its event (api/events/vocabulary.ts),
 * through the same GraphQL mutations and billing run the product uses. Runs on both databases.
 */
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runRenewals } from "../../api/billing/renewals/clock.ts";
import { recordPayment, sandboxFor } from "../../api/billing/service.ts";
import { refundUnmatched } from "../../api/billing/checkout/settlement.ts";
import { readEvents, type StoredEvent } from "../../api/events/outbox.ts";
import { globalId } from "../../api/shared/global-id.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";
import { PAY } from "../support/payments.ts";

let t: TestApp;
let f: Factories;
let farm: { id: number; slug: string };
let veg: { id: number; ref: string };
let family: { id: number };
let memberId: number;
let ownerId: number;
let membershipId: number;
const log = pino({ level: "silent" });

const Q = {
  skip: `mutation($id: ID!) { skipMonth(input: { subscriptionId: $id }) { __typename ... on Error { message } } }`,
  change: `mutation($input: ChangeSubscriptionInput!) { changeSubscription(input: $input) { __typename ... on Error { message } } }`,
  cancel: `mutation($id: ID!) { cancelSubscription(input: { subscriptionId: $id, mode: NOW }) { __typename ... on Error { message } } }`,
  restart: `mutation($id: ID!) { restartSubscription(input: { subscriptionId: $id }) { __typename ... on RestartSubscriptionSuccess { data { outcome orderId } } ... on Error { message } } }`,
};

/** The events written since `after` (a sequence), in order. */
const since = (after: number) => readEvents(t.db.prisma, { after, limit: 1000 });
const lastSequence = async () => (await readEvents(t.db.prisma, { after: 0, limit: 1000 })).at(-1)?.sequence ?? 0;
/** Runs `action` and returns the events it wrote. */
async function eventsOf(action: () => Promise<unknown>): Promise<StoredEvent[]> {
  const mark = await lastSequence();
  await action();
  return since(mark);
}
const member = () => f.session({ id: memberId }, "farm");
const owner = () => f.session({ id: ownerId });
const user = (id: number) => ({ type: "user", id });

beforeAll(async () => {
  t = await createTestApp({ now: "2026-03-05T15:00:00Z" });
  f = factories(t);
  farm = await f.business({ slug: "farm", page: { billingDay: 28, cutoffDay: 20, pickupEnabled: true, shippingEnabled: true } });
  veg = await f.plan(farm, { name: "Veg Box", prices: { PICKUP: 2400, SHIPPING: 2900 } });
  family = await f.plan(farm, { name: "Family Box", prices: { PICKUP: 3400 } });
  memberId = (await f.user({ username: "eve", email: "eve@example.com" })).id;
  ownerId = (await f.user({ username: "farmer" })).id;
  await f.attach(farm, { id: ownerId }, "OWNER");
});
afterAll(() => t.close());

describe("membership events", () => {
  it("a checkout writes the order, the membership started, and the card it saved", async () => {
    t.clock.set("2026-03-05T15:00:00Z");
    const token = await member();
    const events = await eventsOf(async () => {
      const started = await t.gqlOk(PAY.START, { input: { selection: { businessSlug: "farm", planRef: veg.ref, mode: "PICKUP" }, email: "eve@example.com", idempotencyKey: "events-1", expectedTotalCents: 2400 } }, { token, tenant: "farm" });
      const data = started.startCheckout.data;
      membershipId = data.membership.databaseId;
      await t.gqlOk(PAY.CONFIRM, { s: data.clientSecret });
      expect((await t.gqlOk(PAY.COMPLETE, { id: data.paymentIntentId }, { token })).completeCheckout.__typename).toBe("CompleteCheckoutSuccess");
    });
    const order = await t.db.prisma.order.findFirstOrThrow({ where: { subscriptionId: membershipId } });
    expect(events.map((e) => e.type)).toEqual(["order.created.v1", "membership.started.v1", "card.updated.v1"]);
    expect(events[0]).toMatchObject({
      businessId: farm.id,
      actor: user(memberId),
      objectId: globalId("Order", order.id),
      payload: { orderId: order.id, membershipId, userId: memberId, period: "2026-03", kind: "INITIAL", totalCents: 2400 },
      createdAt: new Date("2026-03-05T15:00:00Z"),
    });
    expect(events[1]).toMatchObject({
      businessId: farm.id,
      objectId: globalId("Membership", membershipId),
      payload: { membershipId, orderId: order.id, period: "2026-03", planId: veg.id, mode: "PICKUP", totalCents: 2400 },
    });
    expect(events[2]).toMatchObject({ businessId: null, objectId: globalId("User", memberId), payload: { userId: memberId, brand: "visa", last4: "4242" } });
    // Both of one transaction are read together, in the order written.
    expect(events[1].sequence).toBe(events[0].sequence + 1);
  });

  it("skip, change and withdrawing the change each write theirs; a refused action writes none", async () => {
    t.clock.set("2026-03-06T15:00:00Z");
    const token = await member();
    const id = String(membershipId);
    const skipped = await eventsOf(() => t.gqlOk(Q.skip, { id }, { token, tenant: "farm" }));
    expect(skipped).toEqual([expect.objectContaining({ type: "membership.skipped.v1", actor: user(memberId), objectId: globalId("Membership", membershipId) })]);
    expect(skipped[0].payload).toMatchObject({ membershipId, month: "2026-04", resumeDate: "2026-05-28" });
    // The same month again is refused: nothing announced.
    expect(await eventsOf(() => t.gqlOk(Q.skip, { id }, { token, tenant: "farm" }))).toEqual([]);

    const input = { subscriptionId: id, planId: String(family.id), mode: "PICKUP", addonIds: [] };
    const changed = await eventsOf(() => t.gqlOk(Q.change, { input }, { token, tenant: "farm" }));
    expect(changed.map((e) => e.type)).toEqual(["membership.changed.v1"]);
    expect(changed[0].payload).toMatchObject({ membershipId, planId: family.id, mode: "PICKUP", addonIds: [] });
    const withdrawn = await eventsOf(() => t.gqlOk(Q.change, { input: { ...input, planId: String(veg.id) } }, { token, tenant: "farm" }));
    expect(withdrawn.map((e) => [e.type, e.payload.membershipId])).toEqual([["membership.change_withdrawn.v1", membershipId]]);
  });

  it("the business cancels; the member restarts, free within a paid month, charged in a new one", async () => {
    t.clock.set("2026-03-07T15:00:00Z");
    const id = String(membershipId);
    const canceled = await eventsOf(async () => expect((await t.gqlOk(Q.cancel, { id }, { token: await owner() })).cancelSubscription.__typename).toBe("CancelSubscriptionSuccess"));
    expect(canceled).toEqual([
      expect.objectContaining({ type: "membership.canceled.v1", businessId: farm.id, actor: user(ownerId), payload: { membershipId, userId: memberId, reason: "business" } }),
    ]);
    const ownerToken = await owner();
    expect(await eventsOf(() => t.gqlOk(Q.cancel, { id }, { token: ownerToken }))).toEqual([]);

    const memberToken = await member();
    const reactivated = await eventsOf(async () => {
      const r = await t.gqlOk(Q.restart, { id }, { token: memberToken, tenant: "farm" });
      expect(r.restartSubscription.data.outcome).toBe("REACTIVATED");
    });
    expect(reactivated).toEqual([
      expect.objectContaining({ type: "membership.restarted.v1", actor: user(memberId), payload: { membershipId, userId: memberId, orderId: null, period: "2026-03", chargedCents: 0 } }),
    ]);

    await t.gqlOk(Q.cancel, { id }, { token: await owner() });
    t.clock.set("2026-05-02T15:00:00Z");
    const restarted = await eventsOf(async () => {
      const r = await t.gqlOk(Q.restart, { id }, { token: await member(), tenant: "farm" });
      expect(r.restartSubscription.data.outcome).toBe("PAID");
    });
    const order = await t.db.prisma.order.findFirstOrThrow({ where: { subscriptionId: membershipId, kind: "RESTART" } });
    expect(restarted.map((e) => e.type)).toEqual(["order.created.v1", "membership.restarted.v1"]);
    expect(restarted[0].payload).toMatchObject({ orderId: order.id, kind: "RESTART", period: "2026-05" });
    expect(restarted[1].payload).toMatchObject({ membershipId, orderId: order.id, period: "2026-05", chargedCents: order.totalCents });
  });
});

describe("declined payments", () => {
  it("a card declined at checkout writes payment.failed once, however often the payment is recorded", async () => {
    t.clock.set("2026-03-05T15:00:00Z");
    const declined = await f.user({ username: "declined" });
    const token = await f.session(declined, "farm");
    const DECLINE = `mutation($s: String!) { confirmSandboxPayment(clientSecret: $s, card: { number: "4000000000000002", expMonth: 12, expYear: 2031, cvc: "123" }) { __typename } }`;
    let subscriptionId = 0;
    const events = await eventsOf(async () => {
      const started = await t.gqlOk(PAY.START, { input: { selection: { businessSlug: "farm", planRef: veg.ref, mode: "PICKUP" }, email: "d@example.com", idempotencyKey: "events-declined", expectedTotalCents: 2400 } }, { token, tenant: "farm" });
      const data = started.startCheckout.data;
      subscriptionId = data.membership.databaseId;
      await t.gqlOk(DECLINE, { s: data.clientSecret });
      for (let i = 0; i < 2; i++) expect((await t.gqlOk(PAY.COMPLETE, { id: data.paymentIntentId }, { token })).completeCheckout.__typename).not.toBe("CompleteCheckoutSuccess");
    });
    const payment = await t.db.prisma.payment.findFirstOrThrow({ where: { userId: declined.id } });
    expect(payment.status).toBe("FAILED");
    expect(events).toEqual([
      expect.objectContaining({
        type: "payment.failed.v1",
        businessId: farm.id,
        actor: user(declined.id),
        objectId: globalId("Membership", subscriptionId),
        payload: { paymentId: payment.id, membershipId: subscriptionId, userId: declined.id, amountCents: 2400, period: "2026-03", code: "card_declined" },
      }),
    ]);
  });
});

describe("refunds", () => {
  it("a payment given back because it matched nothing writes payment.refunded once, whichever path refunds it", async () => {
    t.clock.set("2026-03-05T15:00:00Z");
    const ctx = { db: t.db.prisma, clock: t.clock, config: t.config, log };
    const u = await f.user();
    const s = sandboxFor(ctx);
    const customerId = await s.ensureCustomer({ userId: u.id });
    const seti = await s.createSetupIntent({ customerId, idempotencyKey: `events-refund-${u.id}` });
    const card = await s.confirmSetupIntent(seti.clientSecret, { number: "4242424242424242", expMonth: 12, expYear: 2031, cvc: "123" });
    const intent = await s.chargeSavedCard({ customerId, paymentMethodId: card.paymentMethodId!, amountCents: 2400, currency: "usd", idempotencyKey: `events-refund-charge-${u.id}`, metadata: {} });
    const sub = await f.subscription({ user: u, business: farm, plan: veg, planAmountCents: 2400 });
    const payment = await recordPayment(t.db.prisma, intent, { userId: u.id, businessId: farm.id, subscriptionId: sub.id, provider: "sandbox", at: t.clock.now() });
    const events = await eventsOf(async () => {
      await refundUnmatched(ctx, payment, intent, "duplicate");
      await refundUnmatched(ctx, payment, intent, "duplicate");
    });
    expect(events).toEqual([
      expect.objectContaining({
        type: "payment.refunded.v1",
        businessId: farm.id,
        actor: { type: "system", id: null },
        objectId: globalId("Membership", sub.id),
        payload: { paymentId: payment.id, membershipId: sub.id, userId: u.id, amountCents: 2400, reason: "duplicate" },
      }),
    ]);
  });
});

describe("billing run events", () => {
  async function memberWithCard(business: { id: number }, plan: { id: number }, cardNumber: string) {
    const u = await f.user();
    const s = sandboxFor({ db: t.db.prisma, clock: t.clock, config: t.config });
    const customerId = await s.ensureCustomer({ userId: u.id });
    await t.db.prisma.user.update({ where: { id: u.id }, data: { paymentCustomerId: customerId } });
    const seti = await s.createSetupIntent({ customerId, idempotencyKey: `events-setup-${u.id}` });
    const card = await s.confirmSetupIntent(seti.clientSecret, { number: cardNumber, expMonth: 12, expYear: 2031, cvc: "123" });
    const sub = await f.subscription({ user: u, business, plan, planAmountCents: 2000, totalCents: 2000, paidThroughPeriod: "2026-03" });
    await t.db.prisma.subscription.update({ where: { id: sub.id }, data: { billingDay: 3, providerPaymentMethodId: card.paymentMethodId } });
    return sub;
  }

  it("renewed, payment failed and past due, then canceled after the last attempt: all by the system", async () => {
    const dairy = await f.business({ slug: "dairy", page: { billingDay: 3 } });
    const plan = await f.plan(dairy, { prices: { PICKUP: 2000 } });
    const good = await memberWithCard(dairy, plan, "4242424242424242");
    const bad = await memberWithCard(dairy, plan, "4000000000000341");
    const bigger = await f.plan(dairy, { prices: { PICKUP: 2600 } });
    await t.db.prisma.subscriptionChange.create({ data: { subscriptionId: good.id, planId: bigger.id, mode: "PICKUP", addonIds: [], effectivePeriod: "2026-04" } });
    const run = (at: string) => {
      t.clock.set(at);
      return eventsOf(() => runRenewals({ db: t.db.prisma, clock: t.clock, config: t.config, log }, { businessId: dairy.id }));
    };

    const first = await run("2026-04-03T14:00:00Z");
    const order = await t.db.prisma.order.findFirstOrThrow({ where: { subscriptionId: good.id, period: "2026-04" } });
    const failedPayment = await t.db.prisma.payment.findFirstOrThrow({ where: { subscriptionId: bad.id, status: "FAILED" } });
    expect(first.every((e) => e.actor.type === "system" && e.businessId === dairy.id)).toBe(true);
    expect(first.map((e) => [e.type, e.objectId])).toEqual([
      ["membership.change_applied.v1", globalId("Membership", good.id)],
      ["order.created.v1", globalId("Order", order.id)],
      ["membership.renewed.v1", globalId("Membership", good.id)],
      ["payment.failed.v1", globalId("Membership", bad.id)],
      ["membership.past_due.v1", globalId("Membership", bad.id)],
    ]);
    expect(first[0].payload).toEqual({ membershipId: good.id, userId: good.userId, planId: bigger.id, mode: "PICKUP", addonIds: [], period: "2026-04", totalCents: 2600 });
    expect(first[2].payload).toEqual({ membershipId: good.id, userId: good.userId, orderId: order.id, period: "2026-04", totalCents: 2600 });
    expect(first[3].payload).toEqual({ paymentId: failedPayment.id, membershipId: bad.id, userId: bad.userId, amountCents: 2000, period: "2026-04", code: "card_declined" });
    expect(first[4].payload).toEqual({ membershipId: bad.id, userId: bad.userId, period: "2026-04", attempt: 1 });

    // A run with nothing due writes nothing.
    expect(await run("2026-04-03T20:00:00Z")).toEqual([]);
    await run("2026-04-04T14:00:00Z");
    await run("2026-04-06T14:00:00Z");
    const last = await run("2026-04-10T14:00:00Z");
    expect(last.map((e) => e.type)).toEqual(["payment.failed.v1", "membership.canceled.v1"]);
    expect(last[1].payload).toEqual({ membershipId: bad.id, userId: bad.userId, reason: "payment_failed" });
  });
});

describe("account and content events", () => {
  it("a password change is a platform-wide event of the user", async () => {
    t.clock.set("2026-03-05T15:00:00Z");
    const reg = await t.gqlOk(`mutation($input: RegisterInput!) { register(input: $input) { ... on RegisterSuccess { data { token user { databaseId } } } } }`, {
      input: { username: "pwchanger", password: "first-password" },
    });
    const { token, user: u } = reg.register.data;
    const registered = (await since(0)).filter((e) => e.type === "user.registered.v1" && e.payload.userId === u.databaseId);
    expect(registered).toEqual([
      expect.objectContaining({ businessId: null, actor: user(u.databaseId), objectId: globalId("User", u.databaseId), payload: { userId: u.databaseId, username: "pwchanger", tenant: null } }),
    ]);
    const CHANGE = `mutation($input: ChangePasswordInput!) { changePassword(input: $input) { __typename } }`;
    expect(await eventsOf(() => t.gqlOk(CHANGE, { input: { currentPassword: "wrong-password", newPassword: "second-password" } }, { token }))).toEqual([]);
    const changed = await eventsOf(() => t.gqlOk(CHANGE, { input: { currentPassword: "first-password", newPassword: "second-password" } }, { token }));
    expect(changed).toEqual([
      expect.objectContaining({ type: "user.password_changed.v1", businessId: null, actor: user(u.databaseId), objectId: globalId("User", u.databaseId), payload: { userId: u.databaseId } }),
    ]);
  });

  it("saving the Next Box note publishes it; a refused save announces nothing", async () => {
    const SAVE = `mutation($input: SaveNextBoxInput!) { saveNextBox(input: $input) { __typename ... on Error { message } } }`;
    const refused = await eventsOf(async () => expect((await t.gqlOk(SAVE, { input: { businessId: farm.id } }, { token: await owner() })).saveNextBox.__typename).not.toBe("SaveNextBoxSuccess"));
    expect(refused).toEqual([]);
    const doc = { blocks: [{ type: "paragraph", data: { text: "Strawberries and new potatoes." } }] };
    const saved = await eventsOf(async () => expect((await t.gqlOk(SAVE, { input: { businessId: farm.id, contentDoc: doc } }, { token: await owner() })).saveNextBox.__typename).toBe("SaveNextBoxSuccess"));
    const box = await t.db.prisma.nextBox.findUniqueOrThrow({ where: { businessId: farm.id } });
    expect(saved).toEqual([
      expect.objectContaining({ type: "next_box.published.v1", businessId: farm.id, actor: user(ownerId), objectId: globalId("Business", farm.id), payload: { businessId: farm.id, slug: "farm", nextBoxId: box.id } }),
    ]);
  });

  it("saving a business page publishes it", async () => {
    const SAVE = `mutation($input: SaveBusinessPageInput!) { saveBusinessPage(input: $input) { __typename ... on Error { message } } }`;
    const content = { brand: { name: "Farm" }, fulfillment: { pickup: true, shipping: true, delivery: false } };
    const saved = await eventsOf(async () => expect((await t.gqlOk(SAVE, { input: { businessId: farm.id, content } }, { token: await owner() })).saveBusinessPage.__typename).toBe("SaveBusinessPageSuccess"));
    expect(saved).toEqual([
      expect.objectContaining({ type: "page.published.v1", businessId: farm.id, actor: user(ownerId), objectId: globalId("Business", farm.id), payload: { businessId: farm.id, slug: "farm" } }),
    ]);
  });
});
