/**
 * The cancel flow's rules (api/subscriptions/cancellation.ts): PHONE refuses it on the server; which offers a
 * membership is answered with (the page's list, the windows, a cheaper plan, the discount's terms); an offer taken
 * runs the existing action and closes the request; and the refusals of each step. Both databases.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Prisma } from "../../api/generated/prisma/client.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";

// 2026-03-05 10:00 in New York: inside the default 1–14 skip and change windows.
const NOW = "2026-03-05T15:00:00Z";

let t: TestApp;
let f: Factories;
beforeAll(async () => {
  t = await createTestApp({ now: NOW });
  f = factories(t);
});
afterAll(() => t.close());
beforeEach(() => t.clock.set(NOW));

const REQUEST = `mutation($input: RequestCancellationInput!) { requestCancellation(input: $input) {
  __typename ... on RequestCancellationSuccess { data { requestId offers { offer } } } ... on ValidationError { issues { path message } } ... on Error { message reason } } }`;
const ACCEPT = `mutation($input: AcceptRetentionOfferInput!) { acceptRetentionOffer(input: $input) {
  __typename ... on AcceptRetentionOfferSuccess { data { offer membership { pausedThrough skips { yearMonth } cancelAfterPeriod } } }
  ... on ValidationError { issues { path message } } ... on Error { message reason } } }`;
const CONFIRM = `mutation($input: ConfirmCancellationInput!) { confirmCancellation(input: $input) { __typename ... on Error { message reason } } }`;
const WITHDRAW = `mutation($input: WithdrawCancellationInput!) { withdrawCancellation(input: $input) { __typename ... on Error { message reason } } }`;

async function member(page: Partial<Prisma.PageCreateWithoutBusinessInput> = {}, o: { cheaper?: boolean; providerSubscriptionId?: string } = {}) {
  const business = await f.business({ name: "Hill Farm", page: { cancellationPolicy: "SELF_SERVICE", retentionOffers: ["SKIP", "PAUSE", "SWITCH_PLAN", "DISCOUNT"], ...page } });
  const plan = await f.plan(business, { name: "Veg Box", prices: { PICKUP: 2000, SHIPPING: 2600 } });
  // Cheaper for pickup only (a shipping member has no cheaper plan), and one that is not listed.
  if (o.cheaper !== false) await f.plan(business, { name: "Small Box", prices: { PICKUP: 1500 } });
  await f.plan(business, { name: "Hidden Box", prices: { PICKUP: 900 }, listed: false });
  const user = await f.user();
  const token = await f.session(user, business.slug);
  const sub = await f.subscription({ user, business, plan, planAmountCents: 2000, providerSubscriptionId: o.providerSubscriptionId });
  const gql = (query: string, input: Record<string, unknown>, as = token) => t.gqlOk(query, { input }, { token: as }).then((d) => Object.values(d)[0] as any);
  const request = (input: Record<string, unknown> = {}) => gql(REQUEST, { subscriptionId: String(sub.id), reason: "TOO_MUCH", ...input });
  const offersNow = async () => ((await request()).data.offers as { offer: string }[]).map((x) => x.offer);
  return { business, plan, user, token, sub, gql, request, offersNow };
}

describe("PHONE (the default policy)", () => {
  it("refuses requesting, taking an offer and confirming on the server (cancel_by_phone); keeping the membership stays allowed", async () => {
    const { business, sub, gql, request } = await member({ cancellationPolicy: "PHONE", supportPhone: "(555) 123-4567" });
    const refused = { __typename: "RuleViolationError", reason: "cancel_by_phone", message: "Hill Farm takes cancellations by phone at (555) 123-4567." };
    expect(await request()).toEqual(refused);
    // A request made while the business was SELF_SERVICE cannot be carried on once it takes cancellations by phone.
    const row = await t.db.prisma.cancellationRequest.create({
      data: { subscriptionId: sub.id, userId: sub.userId, businessId: business.id, reason: "OTHER", offersShown: ["SKIP"], createdAt: new Date(NOW) },
    });
    expect(await gql(ACCEPT, { requestId: String(row.id), offer: "SKIP" })).toEqual(refused);
    expect(await gql(CONFIRM, { requestId: String(row.id) })).toEqual(refused);
    expect(await t.db.prisma.cancellationRequest.count({ where: { subscriptionId: sub.id } })).toBe(1);
    expect(await t.db.prisma.subscription.findUniqueOrThrow({ where: { id: sub.id } })).toMatchObject({ cancelAfterPeriod: null });
    await t.db.prisma.subscription.update({ where: { id: sub.id }, data: { cancelAfterPeriod: "2026-03" } });
    expect((await gql(WITHDRAW, { subscriptionId: String(sub.id) })).__typename).toBe("WithdrawCancellationSuccess");

    const bare = await member({ cancellationPolicy: "PHONE" });
    expect(await bare.request()).toMatchObject({ reason: "cancel_by_phone", message: "Hill Farm takes cancellations by phone." });
  });

  it("a membership Stripe invoices is canceled by its business, whatever the policy", async () => {
    const { request } = await member({}, { providerSubscriptionId: "sub_imported_1" });
    expect(await request()).toMatchObject({ __typename: "RuleViolationError", reason: "cancel_by_phone" });
  });
});

describe("the offers a request answers with", () => {
  it("only those the page lists and the membership can take now", async () => {
    expect(await (await member()).offersNow()).toEqual(["SKIP", "PAUSE", "SWITCH_PLAN", "DISCOUNT"]);
    expect(await (await member({ retentionOffers: [] })).offersNow()).toEqual([]);
    expect(await (await member({ retentionOffers: ["DISCOUNT", "SKIP"] })).offersNow()).toEqual(["SKIP", "DISCOUNT"]);
    expect(await (await member({ pauseMaxMonths: 0 })).offersNow()).toEqual(["SKIP", "SWITCH_PLAN", "DISCOUNT"]);
    expect(await (await member({}, { cheaper: false })).offersNow()).toEqual(["SKIP", "PAUSE", "DISCOUNT"]);
    // The next box's month already skipped: neither a skip nor a pause would be taken.
    const skipped = await member();
    await t.db.prisma.skip.create({ data: { subscriptionId: skipped.sub.id, yearMonth: "2026-04" } });
    expect(await skipped.offersNow()).toEqual(["SWITCH_PLAN", "DISCOUNT"]);
    // A shipping member: the smaller box costs less for pickup only.
    const shipping = await member();
    await t.db.prisma.subscription.update({ where: { id: shipping.sub.id }, data: { mode: "SHIPPING", planAmountCents: 2600 } });
    expect(await shipping.offersNow()).toEqual(["SKIP", "PAUSE", "DISCOUNT"]);
    // Skip window closed (the 20th) and change window closed: the discount alone.
    const late = await member({ skipWindowEnd: 14, changeWindowEnd: 14 });
    t.clock.set("2026-03-20T15:00:00Z");
    expect(await late.offersNow()).toEqual(["DISCOUNT"]);
  });
});

describe("taking an offer", () => {
  it("SKIP and PAUSE run the existing actions; SWITCH_PLAN records the choice; each closes its request (RETAINED)", async () => {
    const { sub, gql, request } = await member();
    const skip = await request();
    expect(await gql(ACCEPT, { requestId: skip.data.requestId, offer: "SKIP" })).toEqual({
      __typename: "AcceptRetentionOfferSuccess",
      data: { offer: "SKIP", membership: { pausedThrough: "2026-04", skips: [{ yearMonth: "2026-04" }], cancelAfterPeriod: null } },
    });
    expect(await gql(CONFIRM, { requestId: skip.data.requestId })).toMatchObject({ reason: "request_closed" });
    expect(await gql(ACCEPT, { requestId: skip.data.requestId, offer: "SKIP" })).toMatchObject({ reason: "request_closed" });

    const other = await member();
    const pause = await other.request();
    expect(await other.gql(ACCEPT, { requestId: pause.data.requestId, offer: "PAUSE" })).toMatchObject({ __typename: "ValidationError", issues: [{ path: "months" }] });
    expect(await other.gql(ACCEPT, { requestId: pause.data.requestId, offer: "PAUSE", months: 4 })).toMatchObject({ reason: "pause_too_long" });
    expect((await other.gql(ACCEPT, { requestId: pause.data.requestId, offer: "PAUSE", months: 2 })).data.membership).toMatchObject({ pausedThrough: "2026-05" });

    const third = await member();
    const change = await third.request({ reason: "TOO_EXPENSIVE" });
    expect((await third.gql(ACCEPT, { requestId: change.data.requestId, offer: "SWITCH_PLAN" })).data).toMatchObject({ offer: "SWITCH_PLAN", membership: { skips: [] } });

    const rows = await t.db.prisma.cancellationRequest.findMany({ where: { subscriptionId: { in: [sub.id, other.sub.id, third.sub.id] } }, orderBy: { id: "asc" } });
    expect(rows.map((r) => [r.offerAccepted, r.outcome])).toEqual([["SKIP", "RETAINED"], ["PAUSE", "RETAINED"], ["SWITCH_PLAN", "RETAINED"]]);
  });

  it("refuses an offer the request did not make, another member's request, and a closed one", async () => {
    const { gql, request } = await member({ retentionOffers: ["SKIP"] });
    const r = await request();
    expect(await gql(ACCEPT, { requestId: r.data.requestId, offer: "DISCOUNT" })).toMatchObject({ __typename: "RuleViolationError", reason: "offer_not_available" });
    const stranger = await member();
    expect(await gql(ACCEPT, { requestId: r.data.requestId, offer: "SKIP" }, stranger.token)).toMatchObject({ __typename: "ForbiddenError" });
    expect(await gql(CONFIRM, { requestId: "999999" })).toMatchObject({ __typename: "NotFoundError" });
    expect((await gql(CONFIRM, { requestId: r.data.requestId })).__typename).toBe("ConfirmCancellationSuccess");
    expect(await gql(CONFIRM, { requestId: r.data.requestId })).toMatchObject({ reason: "cancel_scheduled" });
  });
});

describe("sent several times at once (double taps, two tabs)", () => {
  it("a confirm schedules one cancel with one event; a discount is taken once", async () => {
    const { sub, gql, request } = await member();
    const r = await request();
    const answers = await Promise.all(Array.from({ length: 3 }, () => gql(CONFIRM, { requestId: r.data.requestId })));
    expect(answers.map((a) => a.__typename).sort()).toEqual(["ConfirmCancellationSuccess", "RuleViolationError", "RuleViolationError"]);
    expect(await t.db.prisma.event.count({ where: { type: "membership.cancel_scheduled.v1", payload: { path: ["membershipId"], equals: sub.id } } })).toBe(1);

    const other = await member();
    const [a, b] = [await other.request(), await other.request()];
    const taken = await Promise.all([a, b].map((x) => other.gql(ACCEPT, { requestId: x.data.requestId, offer: "DISCOUNT" })));
    expect(taken.filter((x) => x.__typename === "AcceptRetentionOfferSuccess")).toHaveLength(1);
    expect(await t.db.prisma.couponRedemption.count({ where: { subscriptionId: other.sub.id } })).toBe(1);
    const rows = await t.db.prisma.cancellationRequest.findMany({ where: { subscriptionId: other.sub.id } });
    expect(rows.filter((x) => x.outcome === "RETAINED")).toHaveLength(1);
  });
});

describe("a request", () => {
  it("takes a reason from the list and a note of at most 500 characters; only an active membership", async () => {
    const { sub, request } = await member();
    expect((await request({ note: "x".repeat(501) })).issues).toEqual([{ path: "note", message: "Please keep your note to 500 characters" }]);
    expect((await request({ note: `  ${"é".repeat(500)}  ` })).__typename).toBe("RequestCancellationSuccess");
    const stored = await t.db.prisma.cancellationRequest.findFirstOrThrow({ where: { subscriptionId: sub.id } });
    expect(stored.note).toHaveLength(500);
    await t.db.prisma.subscription.update({ where: { id: sub.id }, data: { status: "CANCELED" } });
    expect(await request()).toMatchObject({ __typename: "RuleViolationError", reason: "not_active" });
  });

  it("the business's 'Cancel immediately' of a membership whose cancel is scheduled: reason business, the request closed", async () => {
    const { business, sub, gql, request } = await member();
    await gql(CONFIRM, { requestId: (await request()).data.requestId });
    const owner = await f.user();
    await f.attach(business, owner, "OWNER");
    const canceled = await t.gqlOk(`mutation($input: CancelSubscriptionInput!) { cancelSubscription(input: $input) { __typename } }`, { input: { subscriptionId: String(sub.id) } }, { token: await f.session(owner) });
    expect(canceled.cancelSubscription.__typename).toBe("CancelSubscriptionSuccess");
    expect(await t.db.prisma.subscription.findUniqueOrThrow({ where: { id: sub.id } })).toMatchObject({ status: "CANCELED", cancelAfterPeriod: null });
    expect(await t.db.prisma.cancellationRequest.findMany({ where: { subscriptionId: sub.id } })).toMatchObject([{ outcome: "CANCELED" }]);
    const [event] = await t.db.prisma.event.findMany({ where: { type: "membership.canceled.v1", payload: { path: ["membershipId"], equals: sub.id } } });
    expect(event.payload).toMatchObject({ reason: "business" });
  });

  it("the retention coupon is the page's setting: the coupons screens neither list nor change it", async () => {
    const { business, gql, request, token } = await member();
    const owner = await f.user();
    await f.attach(business, owner, "OWNER");
    const ownerToken = await f.session(owner);
    await gql(ACCEPT, { requestId: (await request()).data.requestId, offer: "DISCOUNT" }, token);
    const retention = await t.db.prisma.coupon.findFirstOrThrow({ where: { businessId: business.id, kind: "RETENTION" } });
    const listed = await t.gqlOk(`query($id: Int!) { adminBusiness(id: $id) { coupons(first: 10) { edges { node { code } } } } }`, { id: business.id }, { token: ownerToken });
    expect(listed.adminBusiness.coupons.edges).toEqual([]);
    const toggled = await t.gqlOk(`mutation($id: ID!) { toggleCoupon(input: { id: $id }) { __typename ... on Error { message } } }`, { id: String(retention.id) }, { token: ownerToken });
    expect(toggled.toggleCoupon.__typename).toBe("NotFoundError");
  });
});
