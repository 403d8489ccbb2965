import { expect, type APIRequestContext } from "@playwright/test";
import { apiLogin, gql } from "./admin-support.ts";

/**
 * Businesses, users and memberships a spec makes for itself through the GraphQL API (as the admin), so the
 * seeded demo businesses other specs read stay exactly as seeded.
 */

/** A short suffix that keeps names and slugs unique across runs on one database. */
export const runSuffix = () => `${Date.now() % 1_000_000}${Math.floor(Math.random() * 10)}`;

let adminSession: Promise<string> | null = null;

/**
 * The admin's bearer for setup calls, one login per worker: the server allows 50 logins per address in 15
 * minutes, and the whole suite logs in from one address.
 */
export function adminToken(request: APIRequestContext): Promise<string> {
  adminSession ??= apiLogin(request, "admin", "admin1234").then((s) => s.token);
  return adminSession;
}

async function ok<T = any>(request: APIRequestContext, token: string, field: string, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const body = await gql(request, token, query, variables);
  const result = body.data?.[field];
  expect(result?.__typename, `${field}: ${JSON.stringify(body)}`).toMatch(/Success$/);
  return result.data as T;
}

export interface OwnBusiness {
  id: number;
  slug: string;
  name: string;
  planRef: string;
}

/**
 * Connects a business's payouts in the sandbox as its owner would (the onboarding page submitted): a new business
 * takes no members until then.
 */
export async function connectPayouts(request: APIRequestContext, token: string, businessId: number): Promise<void> {
  const link = await ok<{ url: string }>(
    request,
    token,
    "startPayoutOnboarding",
    `mutation($input: StartPayoutOnboardingInput!) { startPayoutOnboarding(input: $input) { __typename ... on StartPayoutOnboardingSuccess { data { url } } ... on Error { message } } }`,
    { input: { businessId } },
  );
  await ok(
    request,
    token,
    "completeSandboxOnboarding",
    `mutation($link: String!) { completeSandboxOnboarding(link: $link) { __typename ... on CompleteSandboxOnboardingSuccess { data } ... on Error { message } } }`,
    { link: new URL(link.url).pathname.split("/").at(-1) },
  );
}

/**
 * A business with one pickup plan (no tax, default windows), named and slugged with the run suffix, its payouts
 * connected in the sandbox unless `connect` is false (then it takes no members).
 */
export async function createOwnBusiness(
  request: APIRequestContext,
  token: string,
  opts: { name: string; slug: string; planName: string; pickupCents: number; connect?: boolean; morePlans?: { name: string; pickupCents: number }[] },
): Promise<OwnBusiness> {
  const created = await ok<{ databaseId: number; slug: string }>(
    request,
    token,
    "createBusiness",
    `mutation($input: CreateBusinessInput!) { createBusiness(input: $input) { __typename ... on CreateBusinessSuccess { data { databaseId slug } } ... on Error { message } } }`,
    { input: { name: opts.name, slug: opts.slug } },
  );
  await ok(
    request,
    token,
    "saveBusinessPage",
    `mutation($input: SaveBusinessPageInput!) { saveBusinessPage(input: $input) { __typename ... on SaveBusinessPageSuccess { data { __typename } } ... on Error { message } } }`,
    {
      input: {
        businessId: created.databaseId,
        content: { brand: { name: opts.name }, fulfillment: { pickup: true, pickupAddress: "1 Orchard Road" } },
        plans: [{ name: opts.planName, pickupCents: opts.pickupCents }, ...(opts.morePlans ?? [])],
      },
    },
  );
  if (opts.connect !== false) await connectPayouts(request, token, created.databaseId);
  const page = await gql(request, token, `query($slug: String!) { business(slug: $slug) { plans(first: 1) { edges { node { ref } } } } }`, { slug: created.slug });
  return { id: created.databaseId, slug: created.slug, name: opts.name, planRef: page.data.business.plans.edges[0].node.ref };
}

/** A user made by the admin; attached to a business with a role when given. */
export async function createUser(request: APIRequestContext, token: string, username: string, password: string, attach?: { businessId: number; role: "OWNER" | "EDITOR" | "VIEWER" }) {
  const user = await ok<{ databaseId: number }>(
    request,
    token,
    "createUser",
    `mutation($input: CreateUserInput!) { createUser(input: $input) { __typename ... on CreateUserSuccess { data { databaseId } } ... on Error { message } } }`,
    { input: { username, password, isAdmin: false } },
  );
  if (attach) {
    await ok(
      request,
      token,
      "attachBusinessUser",
      `mutation($input: AttachBusinessUserInput!) { attachBusinessUser(input: $input) { __typename ... on AttachBusinessUserSuccess { data { role } } ... on Error { message } } }`,
      { input: { businessId: attach.businessId, userId: user.databaseId, role: attach.role } },
    );
  }
  return user;
}

/**
 * A member account made by the admin, logged in without a tenant so it may check out on several businesses
 * (registration is throttled per address, and the suite's visitors share one).
 */
export async function memberSession(request: APIRequestContext, adminToken: string, username: string, password: string): Promise<string> {
  await createUser(request, adminToken, username, password);
  return (await apiLogin(request, username, password)).token;
}

/** Pays the first month of the business's plan (with a coupon code when given) with the sandbox's test card, as the checkout does. */
export async function checkout(request: APIRequestContext, memberToken: string, business: OwnBusiness, email: string, couponCode?: string) {
  const started = await ok<{ clientSecret: string; paymentIntentId: string }>(
    request,
    memberToken,
    "startCheckout",
    `mutation($input: StartCheckoutInput!) { startCheckout(input: $input) { __typename ... on StartCheckoutSuccess { data { clientSecret paymentIntentId } } ... on Error { message } } }`,
    { input: { selection: { businessSlug: business.slug, planRef: business.planRef, mode: "PICKUP", couponCode }, email, idempotencyKey: `e2e-${business.slug}-${email}` } },
  );
  await ok(
    request,
    memberToken,
    "confirmSandboxPayment",
    `mutation($secret: String!, $card: SandboxCardInput!) { confirmSandboxPayment(clientSecret: $secret, card: $card) { __typename ... on ConfirmSandboxPaymentSuccess { data { status } } ... on Error { message } } }`,
    { secret: started.clientSecret, card: { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" } },
  );
  return ok<{ chargedCents: number }>(
    request,
    memberToken,
    "completeCheckout",
    `mutation($id: String!) { completeCheckout(paymentIntentId: $id) { __typename ... on CompleteCheckoutSuccess { data { chargedCents } } ... on Error { message } } }`,
    { id: started.paymentIntentId },
  );
}

/** A new member of the business with its first month paid. */
export async function subscribeMember(request: APIRequestContext, adminToken: string, business: OwnBusiness, username: string, password: string) {
  const token = await memberSession(request, adminToken, username, password);
  await checkout(request, token, business, `${username}@example.com`);
}
