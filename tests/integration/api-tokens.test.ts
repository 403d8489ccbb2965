/**
 * Listing a business's partner API tokens (the admin "API Tokens" screen): owners of that business and
 * administrators only, through `Business.apiTokens`, `node(id)` and `viewerCanManageApiTokens`; the secret is
 * never readable after creation.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";
import { hashToken, newToken, PARTNER_TOKEN_PREFIX } from "../../api/auth/tokens.ts";

let t: TestApp;
let f: Factories;
const tokens: Record<string, string> = {};
let alpha: { id: number; slug: string };
let beta: { id: number; slug: string };

const LIST = `query($id: Int!) { adminBusiness(id: $id) { viewerCanManageApiTokens
  apiTokens(first: 10) { edges { node { id name prefix createdAt lastUsedAt revokedAt createdBy { username } } } pageInfo { hasNextPage endCursor } } } }`;
const LIST_BY_SLUG = `query($slug: String!) { business(slug: $slug) { viewerCanManageApiTokens apiTokens(first: 10) { edges { node { name } } } } }`;
const CREATE = `mutation($input: CreateApiTokenInput!) { createApiToken(input: $input) {
  __typename ... on CreateApiTokenSuccess { data { token apiToken { id name prefix } } } ... on Error { message } } }`;
const REVOKE = `mutation($id: ID!) { revokeApiToken(input: { id: $id }) { __typename ... on RevokeApiTokenSuccess { data { id revokedAt } } ... on Error { message } } }`;

beforeAll(async () => {
  t = await createTestApp({ now: "2026-03-05T15:00:00Z" });
  f = factories(t);
  alpha = await f.business({ slug: "alpha", name: "Alpha", page: {} });
  beta = await f.business({ slug: "beta", name: "Beta", page: {} });
  const admin = await f.user({ username: "root", isAdmin: true });
  tokens.admin = await f.session(admin);
  for (const [name, business, role] of [
    ["ownerA", alpha, "OWNER"],
    ["editorA", alpha, "EDITOR"],
    ["viewerA", alpha, "VIEWER"],
    ["ownerB", beta, "OWNER"],
  ] as const) {
    const user = await f.user({ username: name });
    await f.attach(business, user, role);
    tokens[name] = await f.session(user);
  }
  const member = await f.user({ username: "memberA" });
  tokens.memberA = await f.session(member, "alpha");
});
afterAll(() => t.close());

describe("API token list", () => {
  it("owners list their business's tokens newest first, with who made them, last use and revoked state", async () => {
    const made = [];
    for (const name of ["Accounting", "Newsletter", "Warehouse"]) {
      const r = await t.gqlOk(CREATE, { input: { businessId: alpha.id, name } }, { token: tokens.ownerA });
      expect(r.createApiToken.__typename).toBe("CreateApiTokenSuccess");
      made.push(r.createApiToken.data);
    }
    // One is used (a partner request), one is revoked.
    await t.gqlOk(`{ business(slug: "alpha") { name } }`, {}, { token: made[0].token });
    t.clock.set("2026-03-06T09:30:00Z");
    expect((await t.gqlOk(REVOKE, { id: made[1].apiToken.id }, { token: tokens.ownerA })).revokeApiToken.__typename).toBe("RevokeApiTokenSuccess");

    const list = await t.gqlOk(LIST, { id: alpha.id }, { token: tokens.ownerA });
    expect(list.adminBusiness.viewerCanManageApiTokens).toBe(true);
    const nodes = list.adminBusiness.apiTokens.edges.map((e: { node: any }) => e.node);
    expect(nodes.map((n: any) => n.name)).toEqual(["Warehouse", "Newsletter", "Accounting"]);
    expect(nodes[2]).toMatchObject({ prefix: made[0].token.slice(0, 8), createdBy: { username: "ownerA" }, revokedAt: null, createdAt: "2026-03-05T15:00:00.000Z", lastUsedAt: "2026-03-05T15:00:00.000Z" });
    expect(nodes[1]).toMatchObject({ lastUsedAt: null, revokedAt: "2026-03-06T09:30:00.000Z" });
    expect(nodes[0]).toMatchObject({ lastUsedAt: null, revokedAt: null });
    // The list never carries the secret, only its first characters.
    expect(JSON.stringify(list)).not.toContain(made[0].token);

    // Pages: first 2, then the rest after the cursor.
    const page1 = await t.gqlOk(`query($id: Int!) { adminBusiness(id: $id) { apiTokens(first: 2) { edges { node { name } } pageInfo { hasNextPage endCursor } } } }`, { id: alpha.id }, { token: tokens.ownerA });
    expect(page1.adminBusiness.apiTokens.pageInfo.hasNextPage).toBe(true);
    const page2 = await t.gqlOk(`query($id: Int!, $after: String) { adminBusiness(id: $id) { apiTokens(first: 2, after: $after) { edges { node { name } } pageInfo { hasNextPage } } } }`, { id: alpha.id, after: page1.adminBusiness.apiTokens.pageInfo.endCursor }, { token: tokens.ownerA });
    expect(page2.adminBusiness.apiTokens.edges.map((e: any) => e.node.name)).toEqual(["Accounting"]);
    expect(page2.adminBusiness.apiTokens.pageInfo.hasNextPage).toBe(false);
  });

  it("administrators list any business's tokens", async () => {
    const list = await t.gqlOk(LIST, { id: alpha.id }, { token: tokens.admin });
    expect(list.adminBusiness.viewerCanManageApiTokens).toBe(true);
    expect(list.adminBusiness.apiTokens.edges).toHaveLength(3);
  });

  it("editors and viewers of the business see its dashboard but not its tokens", async () => {
    for (const who of ["editorA", "viewerA"]) {
      const res = await t.gql(LIST, { id: alpha.id }, { token: tokens[who] });
      expect(res.data?.adminBusiness, who).toEqual({ viewerCanManageApiTokens: false, apiTokens: null });
      expect(res.errors?.[0].message, who).toBe("You do not have permission to do this.");
    }
  });

  it("another business's owner, a member, a partner token and an anonymous caller cannot list them", async () => {
    const partner = (await t.gqlOk(CREATE, { input: { businessId: alpha.id, name: "Reader" } }, { token: tokens.ownerA })).createApiToken.data.token;
    for (const [who, token] of [["ownerB", tokens.ownerB], ["memberA", tokens.memberA], ["partner", partner], ["anonymous", null]] as const) {
      const res = await t.gql(LIST_BY_SLUG, { slug: "alpha" }, { token, tenant: who === "memberA" ? "alpha" : null });
      expect(res.data?.business, who).toEqual({ viewerCanManageApiTokens: false, apiTokens: null });
      // The dashboard query itself is refused too (viewDashboard).
      const dash = await t.gql(LIST, { id: alpha.id }, { token });
      expect(dash.data?.adminBusiness ?? null, who).toBeNull();
    }
    // Beta's owner sees Beta's (empty) list, never Alpha's rows.
    const own = await t.gqlOk(LIST, { id: beta.id }, { token: tokens.ownerB });
    expect(own.adminBusiness).toEqual({ viewerCanManageApiTokens: true, apiTokens: { edges: [], pageInfo: { hasNextPage: false, endCursor: null } } });
  });

  it("a token is not readable through node(id) outside its business's owners and administrators", async () => {
    const list = await t.gqlOk(LIST, { id: alpha.id }, { token: tokens.ownerA });
    const id = list.adminBusiness.apiTokens.edges[0].node.id;
    const NODE = `query($id: ID!) { node(id: $id) { ... on ApiToken { name prefix } } }`;
    expect((await t.gqlOk(NODE, { id }, { token: tokens.ownerA })).node.name).toBe("Reader");
    expect((await t.gqlOk(NODE, { id }, { token: tokens.admin })).node.name).toBe("Reader");
    for (const who of ["ownerB", "editorA", "viewerA"]) {
      const res = await t.gql(NODE, { id }, { token: tokens[who] });
      expect(res.data?.node ?? null, who).toBeNull();
    }
  });
});

/**
 * A token reads only what its scopes (chosen at creation) allow: memberships:read, orders:read,
 * fulfilment:read (packing lists and their CSV, with members' addresses, phones and gift messages). Outside them
 * GraphQL and the CSV routes refuse it with a message naming the scope.
 */
describe("API token scopes", () => {
  const CREATE_SCOPED = `mutation($input: CreateApiTokenInput!) { createApiToken(input: $input) {
    __typename ... on CreateApiTokenSuccess { data { token apiToken { scopes } } } ... on ValidationError { message issues { path message } } ... on Error { message } } }`;
  const MEMBERSHIPS = `{ business(slug: "alpha") { memberships(first: 5) { edges { node { planName } } } } }`;
  const ORDERS = `{ business(slug: "alpha") { orders(first: 5) { edges { node { totalCents } } } } }`;
  const FULFILMENT = `{ business(slug: "alpha") { fulfilment(month: "2026-03") { state boxes(first: 5) { edges { node { memberName phone } } } } } }`;
  const csv = (token: string) =>
    t.app.inject({ method: "GET", url: `/api/admin/businesses/${alpha.id}/fulfilment/2026-03/packing.csv`, headers: { authorization: `Bearer ${token}` } });
  const create = async (scopes: string[] | undefined) =>
    (await t.gqlOk(CREATE_SCOPED, { input: { businessId: alpha.id, name: "Scoped", ...(scopes === undefined ? {} : { scopes }) } }, { token: tokens.ownerA })).createApiToken;

  beforeAll(async () => {
    const plan = await f.plan(alpha, { name: "Veg Box" });
    const user = await f.user({ username: "boxMember", name: "Box Member" });
    const sub = await f.subscription({ user, business: alpha, plan, paidThroughPeriod: "2026-03" });
    await f.order({ subscription: sub, period: "2026-03", totalCents: 3000 });
  });

  it("creation requires at least one known scope", async () => {
    for (const scopes of [[], ["memberships:write"], ["orders:read", "everything"]]) {
      const r = await create(scopes);
      expect(r.__typename, JSON.stringify(scopes)).toBe("ValidationError");
      expect(r.issues.map((i: { path: string }) => i.path), JSON.stringify(scopes)).toContain("scopes");
    }
    // The new token's scopes are stored and listed; omitted: memberships:read and orders:read.
    expect((await create(["fulfilment:read", "memberships:read"])).data.apiToken.scopes).toEqual(["memberships:read", "fulfilment:read"]);
    expect((await create(undefined)).data.apiToken.scopes).toEqual(["memberships:read", "orders:read"]);
  });

  it("a token with memberships:read only is refused orders and fulfilment, naming the scope", async () => {
    const token = (await create(["memberships:read"])).data.token;
    expect((await t.gqlOk(MEMBERSHIPS, {}, { token })).business.memberships.edges).toHaveLength(1);
    const orders = await t.gql(ORDERS, {}, { token });
    expect(orders.errors?.[0]).toMatchObject({ message: "This API token lacks the orders:read scope.", path: ["business", expect.any(String)] });
    const fulfilment = await t.gql(FULFILMENT, {}, { token });
    expect(fulfilment.errors?.[0]).toMatchObject({ message: "This API token lacks the fulfilment:read scope.", path: ["business", expect.any(String)] });
    const res = await csv(token);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe("This API token lacks the fulfilment:read scope.");
    // A membership's orders too (the Order rows' read rule).
    const nested = await t.gql(`{ business(slug: "alpha") { memberships(first: 5) { edges { node { orders(first: 5) { edges { node { totalCents } } } } } } } }`, {}, { token });
    expect(nested.errors?.[0]?.message).toBe("This API token lacks the orders:read scope.");
  });

  it("members' addresses and gift messages on memberships and orders take fulfilment:read", async () => {
    const ADDRESS = `{ business(slug: "alpha") { memberships(first: 5) { edges { node { planName deliveryAddress { city } } } } } }`;
    const GIFT = `{ business(slug: "alpha") { memberships(first: 5) { edges { node { giftMessage } } } } }`;
    const ORDER_ADDRESS = `{ business(slug: "alpha") { orders(first: 5) { edges { node { totalCents address { city } } } } } }`;
    const legacy = (await create(["memberships:read", "orders:read"])).data.token;
    for (const q of [ADDRESS, GIFT, ORDER_ADDRESS]) {
      expect((await t.gql(q, {}, { token: legacy })).errors?.[0]?.message, q).toBe("This API token lacks the fulfilment:read scope.");
    }
    const all = (await create(["memberships:read", "orders:read", "fulfilment:read"])).data.token;
    for (const q of [ADDRESS, GIFT, ORDER_ADDRESS]) expect((await t.gql(q, {}, { token: all })).errors, q).toBeUndefined();
    // Staff read them as before.
    expect((await t.gql(GIFT, {}, { token: tokens.viewerA })).errors).toBeUndefined();
  });

  it("a token with orders:read only is refused memberships, naming the scope", async () => {
    const token = (await create(["orders:read"])).data.token;
    expect((await t.gqlOk(ORDERS, {}, { token })).business.orders.edges).toHaveLength(1);
    const memberships = await t.gql(MEMBERSHIPS, {}, { token });
    expect(memberships.errors?.[0].message).toBe("This API token lacks the memberships:read scope.");
  });

  it("a token with fulfilment:read reads the packing list and its CSV", async () => {
    const token = (await create(["fulfilment:read"])).data.token;
    const r = await t.gqlOk(FULFILMENT, {}, { token });
    expect(r.business.fulfilment.boxes.edges.map((e: { node: { memberName: string } }) => e.node.memberName)).toEqual(["Box Member"]);
    const res = await csv(token);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain("Box Member");
  });

  it("a token created before scopes (backfilled memberships:read and orders:read) cannot read fulfilment", async () => {
    const owner = await t.db.prisma.user.findFirstOrThrow({ where: { username: "ownerA" } });
    const token = newToken(PARTNER_TOKEN_PREFIX);
    await t.db.prisma.apiToken.create({
      data: { name: "Legacy", tokenHash: hashToken(token), prefix: token.slice(0, 8), businessId: alpha.id, createdById: owner.id, scopes: ["memberships:read", "orders:read"] },
    });
    expect((await t.gqlOk(MEMBERSHIPS, {}, { token })).business.memberships.edges).toHaveLength(1);
    expect((await t.gqlOk(ORDERS, {}, { token })).business.orders.edges).toHaveLength(1);
    expect((await t.gql(FULFILMENT, {}, { token })).errors?.[0].message).toBe("This API token lacks the fulfilment:read scope.");
    expect((await csv(token)).statusCode).toBe(403);
  });
});
