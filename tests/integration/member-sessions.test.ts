/**
 * One login for every membership. A member's session is created on the tenant they logged in at; on
 * GraphQL (the web app) it acts on that member's own memberships at every business, while the REST routes of
 * spec §7 keep refusing it on another tenant (403 tenant_mismatch). Other members' data and staff rights stay
 * isolated: ownership and business roles decide them, never the session's tenant.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";
import { restClient } from "../contract/helpers.ts";

let t: TestApp;
let f: Factories;
let call: ReturnType<typeof restClient>;
let alpha: { id: number; slug: string };
let beta: { id: number; slug: string };
let gamma: { id: number; slug: string };
let planAlpha: { id: number; ref: string };
let planBeta: { id: number; ref: string };
let planBeta2: { id: number; ref: string };
let planGamma: { id: number; ref: string };
let membershipAlpha: { id: number };
let membershipBeta: { id: number };
let othersAtBeta: { id: number };
/** Pat's session, made by logging in at alpha. */
let patToken: string;
let ownerAlphaToken: string;

const gid = (type: string, id: number) => Buffer.from(`${type}:${id}`).toString("base64");

const SKIP = `mutation($input: SkipMonthInput!) { skipMonth(input: $input) {
  __typename ... on SkipMonthSuccess { data { skippedMonth membership { business { slug } } } } ... on Error { message reason } } }`;
const CHANGE = `mutation($input: ChangeSubscriptionInput!) { changeSubscription(input: $input) {
  __typename ... on ChangeSubscriptionSuccess { data { business { slug } pendingChange { plan { name } effectivePeriod } } } ... on Error { message reason } } }`;
const START = `mutation($input: StartCheckoutInput!) { startCheckout(input: $input) {
  __typename ... on StartCheckoutSuccess { data { clientSecret paymentIntentId } } ... on Error { message reason } } }`;
const CONFIRM = `mutation($secret: String!, $card: SandboxCardInput!) { confirmSandboxPayment(clientSecret: $secret, card: $card) {
  __typename ... on ConfirmSandboxPaymentSuccess { data { status } } ... on Error { message } } }`;
const COMPLETE = `mutation($id: String!) { completeCheckout(paymentIntentId: $id) {
  __typename ... on CompleteCheckoutSuccess { data { membership { status business { slug } } } } ... on Error { message reason } } }`;

beforeAll(async () => {
  t = await createTestApp({ now: "2026-03-05T15:00:00Z" });
  f = factories(t);
  call = restClient(t);
  const windows = { skipWindowStart: 1, skipWindowEnd: 28, changeWindowStart: 1, changeWindowEnd: 28 };
  alpha = await f.business({ slug: "alpha", name: "Alpha Farm", page: { pickupEnabled: true, ...windows } });
  beta = await f.business({ slug: "beta", name: "Beta Roasters", page: { pickupEnabled: true, ...windows } });
  gamma = await f.business({ slug: "gamma", name: "Gamma Bakery", page: { pickupEnabled: true, ...windows } });
  planAlpha = await f.plan(alpha, { name: "Veg Box" });
  planBeta = await f.plan(beta, { name: "Bean Box" });
  planBeta2 = await f.plan(beta, { name: "Espresso Box" });
  planGamma = await f.plan(gamma, { name: "Bread Box" });

  // Pat registers at alpha (the session is bound to alpha, as a tenant login is) and holds memberships at alpha and beta.
  const reg = await t.gqlOk(
    `mutation($i: RegisterInput!) { register(input: $i) { ... on RegisterSuccess { data { token tenant user { databaseId } } } } }`,
    { i: { username: "pat", password: "pat-password-1" } },
    { tenant: "alpha" },
  );
  expect(reg.register.data.tenant).toBe("alpha");
  patToken = reg.register.data.token;
  const pat = { id: reg.register.data.user.databaseId as number };
  membershipAlpha = await f.subscription({ user: pat, business: alpha, plan: planAlpha });
  membershipBeta = await f.subscription({ user: pat, business: beta, plan: planBeta });
  // Someone else's membership at beta.
  const quinn = await f.user({ username: "quinn" });
  othersAtBeta = await f.subscription({ user: quinn, business: beta, plan: planBeta });
  const ownerAlpha = await f.user({ username: "owner-alpha" });
  await f.attach(alpha, ownerAlpha, "OWNER");
  ownerAlphaToken = await f.session(ownerAlpha, "alpha");
});
afterAll(() => t.close());

describe("GraphQL: a member's session made at alpha manages every membership the member holds", () => {
  it("lists the memberships of every business, whatever tenant the request names", async () => {
    for (const tenant of ["alpha", "beta", "gamma", null]) {
      const r = await t.gqlOk(`{ viewer { username subscriptions(onePerBusiness: true) { business { slug } } } }`, {}, { token: patToken, tenant });
      expect(r.viewer.subscriptions.map((s: { business: { slug: string } }) => s.business.slug).sort()).toEqual(["alpha", "beta"]);
    }
  });

  it("skips and changes the box at beta", async () => {
    const skip = await t.gqlOk(SKIP, { input: { subscriptionId: gid("Membership", membershipBeta.id) } }, { token: patToken, tenant: "beta" });
    expect(skip.skipMonth).toMatchObject({ __typename: "SkipMonthSuccess", data: { membership: { business: { slug: "beta" } } } });
    const input = { subscriptionId: gid("Membership", membershipBeta.id), planId: gid("Plan", planBeta2.id), mode: "PICKUP", addonIds: [] };
    const change = await t.gqlOk(CHANGE, { input }, { token: patToken, tenant: "beta" });
    expect(change.changeSubscription).toMatchObject({ __typename: "ChangeSubscriptionSuccess", data: { business: { slug: "beta" }, pendingChange: { plan: { name: "Espresso Box" } } } });
  });

  it("checks out at gamma, paying and activating the membership there", async () => {
    const start = await t.gqlOk(
      START,
      { input: { selection: { businessSlug: "gamma", planRef: planGamma.ref, mode: "PICKUP", addonRefs: [] }, email: "pat@example.com", idempotencyKey: "pat-gamma-checkout" } },
      { token: patToken, tenant: "gamma" },
    );
    expect(start.startCheckout.__typename).toBe("StartCheckoutSuccess");
    const confirmed = await t.gqlOk(CONFIRM, { secret: start.startCheckout.data.clientSecret, card: { number: "4242424242424242", expMonth: 12, expYear: 2031, cvc: "123" } });
    expect(confirmed.confirmSandboxPayment.data.status).toBe("succeeded");
    const done = await t.gqlOk(COMPLETE, { id: start.startCheckout.data.paymentIntentId }, { token: patToken, tenant: "gamma" });
    expect(done.completeCheckout).toMatchObject({ __typename: "CompleteCheckoutSuccess", data: { membership: { status: "ACTIVE", business: { slug: "gamma" } } } });
  });

  it("still refuses another member's membership, and gives a member no staff rights anywhere", async () => {
    const skip = await t.gqlOk(SKIP, { input: { subscriptionId: gid("Membership", othersAtBeta.id) } }, { token: patToken, tenant: "beta" });
    expect(skip.skipMonth).toMatchObject({ __typename: "ForbiddenError", reason: "not_owner" });
    const node = await t.gqlOk(`query($id: ID!) { node(id: $id) { id } }`, { id: gid("Membership", othersAtBeta.id) }, { token: patToken, tenant: "beta" });
    expect(node.node).toBeNull();
    const staff = await t.gql(`{ business(slug: "beta") { memberships(first: 5) { edges { node { id } } } } }`, {}, { token: patToken, tenant: "beta" });
    expect(staff.errors?.[0]?.message).toMatch(/permission/i);
  });

  it("keeps staff to their own business: alpha's owner reads no beta memberships", async () => {
    const staff = await t.gql(`{ business(slug: "beta") { memberships(first: 5) { edges { node { id } } } } }`, {}, { token: ownerAlphaToken, tenant: "beta" });
    expect(staff.errors?.[0]?.message).toMatch(/permission/i);
    const node = await t.gqlOk(`query($id: ID!) { node(id: $id) { id } }`, { id: gid("Membership", membershipBeta.id) }, { token: ownerAlphaToken, tenant: "beta" });
    expect(node.node).toBeNull();
  });
});

describe("REST (spec §7) is unchanged: the same session is bound to alpha", () => {
  it("answers 403 tenant_mismatch on beta, for lists and for actions", async () => {
    const list = await call("GET", "/api/my/subscriptions", { token: patToken, tenant: "beta" });
    expect(list.status).toBe(403);
    expect(list.body.reason).toBe("tenant_mismatch");
    const skip = await call("POST", `/api/my/subscriptions/${membershipBeta.id}/skip`, { token: patToken, tenant: "beta" });
    expect(skip.status).toBe(403);
    expect(skip.body.reason).toBe("tenant_mismatch");
    // Naming alpha in the header does not help: the membership belongs to beta.
    expect((await call("POST", `/api/my/subscriptions/${membershipBeta.id}/skip`, { token: patToken, tenant: "alpha" })).status).toBe(403);
    const change = await call("POST", "/api/my/subscriptions/beta/change", { token: patToken, tenant: "beta", payload: { new_selection: { chosenItemId: planBeta.ref, mode: "pickup" }, amount: 30 } });
    expect(change.status).toBe(403);
  });

  it("serves alpha as before", async () => {
    const list = await call("GET", "/api/my/subscriptions", { token: patToken, tenant: "alpha" });
    expect(list.status).toBe(200);
    expect(list.body.subscriptions.map((s: { business_slug: string }) => s.business_slug)).toEqual(["alpha"]);
    const skip = await call("POST", `/api/my/subscriptions/${membershipAlpha.id}/skip`, { token: patToken, tenant: "alpha" });
    expect(skip.status).toBe(200);
  });
});
