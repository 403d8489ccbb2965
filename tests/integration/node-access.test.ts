/**
 * Every Node type's read rule through `node(id:)` and `nodes(ids:)`, as every role. The list of Node
 * types comes from the schema, so a new Node type without a case here fails. A node the caller may not read
 * answers exactly like a missing one: `null`, no error (per entry in `nodes`); a malformed id is null too, and
 * `nodes` takes at most 100 ids, refusing more before anything runs.
 */
import { isObjectType, type GraphQLInterfaceType } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../api/graphql/schema.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";

const ACTORS = [
  "anonymous",
  "memberA",
  "memberB",
  "viewerA",
  "editorA",
  "ownerA",
  "viewerB",
  "editorB",
  "ownerB",
  "admin",
  "partnerA",
  "partnerB",
] as const;
type Actor = (typeof ACTORS)[number];

const EVERYONE: readonly Actor[] = ACTORS;
const STAFF_A: Actor[] = ["viewerA", "editorA", "ownerA", "admin"];
const STAFF_B: Actor[] = ["viewerB", "editorB", "ownerB", "admin"];
/** readMemberships: staff (viewer and up), administrators, the business's partner token. */
const READ_MEMBERS_A: Actor[] = [...STAFF_A, "partnerA"];
const READ_MEMBERS_B: Actor[] = [...STAFF_B, "partnerB"];

interface Case {
  label: string;
  type: string;
  id: string;
  readers: readonly Actor[];
}

let t: TestApp;
let f: Factories;
let statements = 0;
const tokens = {} as Record<Actor, string | null>;
const cases: Case[] = [];

const gid = (type: string, id: number | string) => Buffer.from(`${type}:${id}`).toString("base64");

/** Every object type implementing Node, read from the schema the server runs. */
function nodeTypes(): string[] {
  const node = schema.getType("Node") as GraphQLInterfaceType;
  return schema
    .getImplementations(node)
    .objects.filter(isObjectType)
    .map((o) => o.name)
    .sort();
}

/** `__typename id` and `databaseId` of whichever Node type comes back. */
const selection = () => `__typename id ${nodeTypes().map((n) => `... on ${n} { databaseId }`).join(" ")}`;

async function post(body: unknown, actor: Actor) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (tokens[actor]) headers.authorization = `Bearer ${tokens[actor]}`;
  return t.app.inject({ method: "POST", url: "/graphql", headers, payload: JSON.stringify(body) });
}

beforeAll(async () => {
  t = await createTestApp({ logQueries: true, now: "2026-03-05T15:00:00Z" });
  f = factories(t);
  t.db.onStatement(() => statements++);

  const alpha = await f.business({ slug: "alpha", name: "Alpha Farm", page: {} });
  const beta = await f.business({ slug: "beta", name: "Beta Bakery", page: {} });

  const users = {} as Record<Exclude<Actor, "anonymous" | "partnerA" | "partnerB">, { id: number }>;
  for (const name of ["memberA", "memberB", "viewerA", "editorA", "ownerA", "viewerB", "editorB", "ownerB", "admin"] as const) {
    users[name] = await f.user({ username: name.toLowerCase(), isAdmin: name === "admin", email: `${name}@example.com` });
    tokens[name] = await f.session(users[name]);
  }
  tokens.anonymous = null;
  const links = {
    viewerA: await f.attach(alpha, users.viewerA, "VIEWER"),
    editorA: await f.attach(alpha, users.editorA, "EDITOR"),
    ownerA: await f.attach(alpha, users.ownerA, "OWNER"),
    viewerB: await f.attach(beta, users.viewerB, "VIEWER"),
    editorB: await f.attach(beta, users.editorB, "EDITOR"),
    ownerB: await f.attach(beta, users.ownerB, "OWNER"),
  };
  tokens.partnerA = await f.partnerToken(alpha, users.ownerA);
  tokens.partnerB = await f.partnerToken(beta, users.ownerB);
  const apiTokens = await f.db.apiToken.findMany({ orderBy: { id: "asc" } });

  // Alpha's catalogue: public, unlisted, archived (memberA's current plan), unlisted (memberA's scheduled change).
  const listedPlan = await f.plan(alpha, { name: "Public box" });
  const unlistedPlan = await f.plan(alpha, { name: "Secret box", listed: false });
  const archivedPlan = await f.plan(alpha, { name: "Retired box", archived: true });
  const scheduledPlan = await f.plan(alpha, { name: "Staff-only box", listed: false });
  const betaUnlisted = await f.plan(beta, { name: "Beta secret", listed: false });
  const listedAddon = await f.addon(alpha, { name: "Eggs" });
  const unlistedAddon = await f.addon(alpha, { name: "Truffles", listed: false });
  const chosenAddon = await f.addon(alpha, { name: "Honey", listed: false });
  const scheduledAddon = await f.addon(alpha, { name: "Saffron", listed: false });

  const membershipA = await f.subscription({
    user: users.memberA,
    business: alpha,
    plan: archivedPlan,
    addons: [{ id: chosenAddon.id, amountCents: 500 }],
  });
  await f.db.subscriptionChange.create({
    data: { subscriptionId: membershipA.id, planId: scheduledPlan.id, mode: "PICKUP", addonIds: [scheduledAddon.id], effectivePeriod: "2026-04" },
  });
  const membershipB = await f.subscription({ user: users.memberB, business: beta, plan: betaUnlisted });
  const orderA = await f.order({ subscription: membershipA, period: "2026-03", totalCents: 3500 });
  const orderB = await f.order({ subscription: membershipB, period: "2026-03", totalCents: 3000 });
  const coupon = await f.coupon({ code: "NODE10" });

  const add = (type: string, label: string, id: number, readers: readonly Actor[]) => cases.push({ type, label, id: gid(type, id), readers });
  add("Business", "a business (public)", alpha.id, EVERYONE);
  add("Business", "another business (public)", beta.id, EVERYONE);
  add("Plan", "listed plan", listedPlan.id, EVERYONE);
  add("Plan", "unlisted plan", unlistedPlan.id, READ_MEMBERS_A);
  add("Plan", "archived plan of memberA's membership", archivedPlan.id, [...READ_MEMBERS_A, "memberA"]);
  add("Plan", "unlisted plan of memberA's scheduled change", scheduledPlan.id, [...READ_MEMBERS_A, "memberA"]);
  add("Plan", "unlisted plan of another business", betaUnlisted.id, [...READ_MEMBERS_B, "memberB"]);
  add("Addon", "listed add-on", listedAddon.id, EVERYONE);
  add("Addon", "unlisted add-on", unlistedAddon.id, READ_MEMBERS_A);
  add("Addon", "unlisted add-on of memberA's membership", chosenAddon.id, [...READ_MEMBERS_A, "memberA"]);
  add("Addon", "unlisted add-on of memberA's scheduled change", scheduledAddon.id, [...READ_MEMBERS_A, "memberA"]);
  add("Membership", "memberA's membership", membershipA.id, [...READ_MEMBERS_A, "memberA"]);
  add("Membership", "memberB's membership", membershipB.id, [...READ_MEMBERS_B, "memberB"]);
  add("Order", "memberA's order", orderA.id, [...READ_MEMBERS_A, "memberA"]);
  add("Order", "memberB's order", orderB.id, [...READ_MEMBERS_B, "memberB"]);
  add("User", "memberA", users.memberA.id, ["memberA", "admin"]);
  add("User", "ownerA", users.ownerA.id, ["ownerA", "admin"]);
  add("BusinessUser", "viewerA's role at alpha", links.viewerA.id, ["ownerA", "admin"]);
  add("BusinessUser", "ownerB's role at beta", links.ownerB.id, ["ownerB", "admin"]);
  add("ApiToken", "alpha's partner token", apiTokens.find((k) => k.businessId === alpha.id)!.id, ["ownerA", "admin"]);
  add("ApiToken", "beta's partner token", apiTokens.find((k) => k.businessId === beta.id)!.id, ["ownerB", "admin"]);
  add("Coupon", "a coupon", coupon.id, ["admin"]);
  const mailOf = (business: number | null, key: string) =>
    f.db.mailMessage.create({
      data: { businessId: business, dedupeKey: key, template: "canceled", toAddress: "m@example.com", fromName: "Alpha", subject: "s", html: "<p>h</p>", text: "t", messageId: `<${key}@example.com>`, status: "HELD", createdAt: new Date() },
    });
  add("MailMessage", "a message of alpha", (await mailOf(alpha.id, "node-alpha")).id, ["ownerA", "admin"]);
  add("MailMessage", "a platform message (no business)", (await mailOf(null, "node-platform")).id, ["admin"]);
});
afterAll(() => t?.close());

describe("node(id:) and nodes(ids:) read rules", () => {
  it("has a case for every Node type of the schema", () => {
    const covered = new Set(cases.map((c) => c.type));
    expect(nodeTypes().filter((n) => !covered.has(n))).toEqual([]);
  });

  it("a missing row answers null without an error", async () => {
    for (const type of nodeTypes()) {
      const res = await post({ query: `query($id: ID!) { node(id: $id) { ${selection()} } }`, variables: { id: gid(type, 2147483600) } }, "admin");
      expect(res.statusCode, type).toBe(200);
      expect(res.json(), type).toEqual({ data: { node: null } });
    }
  });

  for (const actor of ACTORS) {
    it(`node(id:) as ${actor}: readable rows resolve, every other row answers exactly like a missing one`, async () => {
      const outcome: Record<string, unknown> = {};
      const expected: Record<string, unknown> = {};
      for (const c of cases) {
        const res = await post({ query: `query($id: ID!) { node(id: $id) { __typename id } }`, variables: { id: c.id } }, actor);
        outcome[c.label] = { status: res.statusCode, body: res.json() };
        expected[c.label] = { status: 200, body: { data: { node: c.readers.includes(actor) ? { __typename: c.type, id: c.id } : null } } };
      }
      expect(outcome).toEqual(expected);
    });

    it(`nodes(ids:) as ${actor}: one entry per id, readable or null`, async () => {
      const res = await post({ query: `query($ids: [ID!]!) { nodes(ids: $ids) { ${selection()} } }`, variables: { ids: cases.map((c) => c.id) } }, actor);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.errors).toBeUndefined();
      const got = Object.fromEntries(cases.map((c, i) => [c.label, body.data.nodes[i] ? body.data.nodes[i].__typename : null]));
      const want = Object.fromEntries(cases.map((c) => [c.label, c.readers.includes(actor) ? c.type : null]));
      expect(got).toEqual(want);
    });
  }

  it("nodes(ids:) mixing readable, forbidden, missing and malformed ids answers each entry on its own", async () => {
    const readable = cases.find((c) => c.label === "memberA's membership")!;
    const publicPlan = cases.find((c) => c.label === "listed plan")!;
    const forbidden = cases.find((c) => c.label === "memberB's membership")!;
    const ids = [
      readable.id,
      forbidden.id,
      gid("Membership", 2147483600), // missing
      "not a global id", // malformed base64
      gid("Membership", "abc"), // non-numeric id
      gid("Membership", "1:2"), // extra part
      gid("Plan", "99999999999999999999"), // beyond the id column
      gid("Plan", -1),
      gid("Page", 1), // a type that is not a Node
      gid("NoSuchType", 1),
      "",
      publicPlan.id,
      readable.id, // the same id twice
    ];
    const res = await post({ query: `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }`, variables: { ids } }, "memberA");
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.errors).toBeUndefined();
    expect(body.data.nodes).toEqual([
      { __typename: "Membership", id: readable.id },
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      { __typename: "Plan", id: publicPlan.id },
      { __typename: "Membership", id: readable.id },
    ]);
    // node(id:) answers a malformed id the same way: null, no error.
    for (const id of ["not a global id", gid("Membership", "abc"), gid("Page", 1)]) {
      const one = await post({ query: `query($id: ID!) { node(id: $id) { id } }`, variables: { id } }, "memberA");
      expect(one.json(), id).toEqual({ data: { node: null } });
    }
  });

  it("readable nodes load their fields and relations like the lists do", async () => {
    const membership = cases.find((c) => c.label === "memberA's membership")!;
    const res = await post(
      {
        query: `query($ids: [ID!]!) { nodes(ids: $ids) { ... on Membership { planName plan { name archived } addons { addon { name } } pendingChange { plan { name } addons { name } } business { slug } } } }`,
        variables: { ids: [membership.id] },
      },
      "memberA",
    );
    expect(res.json()).toEqual({
      data: {
        nodes: [
          {
            planName: "Retired box",
            plan: { name: "Retired box", archived: true },
            addons: [{ addon: { name: "Honey" } }],
            pendingChange: { plan: { name: "Staff-only box" }, addons: [{ name: "Saffron" }] },
            business: { slug: "alpha" },
          },
        ],
      },
    });
  });
});

describe("node(id:) as the web app's refetch queries use it", () => {
  it("loads a business's staff connections through node for its owner, and keeps them refused to others", async () => {
    const business = cases.find((c) => c.label === "a business (public)")!;
    const q = `query($id: ID!) { node(id: $id) { ... on Business { slug
      plans(first: 10, includeUnlisted: true) { edges { node { name } } }
      apiTokens(first: 5) { edges { node { name } } }
      memberships(first: 5) { edges { node { planName plan { name } } } } } } }`;
    const asOwner = await post({ query: q, variables: { id: business.id } }, "ownerA");
    expect(asOwner.json()).toEqual({
      data: {
        node: {
          slug: "alpha",
          plans: { edges: ["Public box", "Secret box", "Staff-only box"].map((name) => ({ node: { name } })) },
          apiTokens: { edges: [{ node: { name: "partner" } }] },
          memberships: { edges: [{ node: { planName: "Retired box", plan: { name: "Retired box" } } }] },
        },
      },
    });
    // The business itself is public; its staff-only fields keep their own refusals.
    const asMember = (await post({ query: q, variables: { id: business.id } }, "memberA")).json();
    expect(asMember.data?.node ?? null).toBeNull();
    expect(asMember.errors?.[0]?.message).toBe("You do not have permission to do this.");
  });
});

describe("in production", () => {
  let prod: TestApp;
  beforeAll(async () => {
    prod = await createTestApp({ config: { env: "production" } });
  });
  afterAll(() => prod?.close());

  it("missing and malformed ids are null without an error, and 101 ids are refused with the same message", async () => {
    const send = (body: unknown) => prod.app.inject({ method: "POST", url: "/graphql", headers: { "content-type": "application/json" }, payload: JSON.stringify(body) });
    const one = await send({ query: `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, variables: { ids: [gid("Plan", 1), "garbage", gid("User", 1)] } });
    expect(one.json()).toEqual({ data: { nodes: [null, null, null] } });
    const many = await send({ query: `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, variables: { ids: Array.from({ length: 101 }, (_, i) => gid("Plan", i + 1)) } });
    expect(many.statusCode).toBe(400);
    expect(many.json().errors[0].message).toBe("At most 100 ids per request (this one has 101)");
  });
});

describe("nodes(ids:) size limit", () => {
  const ids = (n: number) => Array.from({ length: n }, (_, i) => gid("Plan", i + 1));

  it("takes 100 ids", async () => {
    const res = await post({ query: `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, variables: { ids: ids(100) } }, "anonymous");
    expect(res.statusCode).toBe(200);
    expect(res.json().data.nodes).toHaveLength(100);
  });

  it("refuses 101 ids with a readable error and HTTP 400, reading nothing", async () => {
    statements = 0;
    const res = await post({ query: `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, variables: { ids: ids(101) } }, "anonymous");
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.data ?? null).toBeNull();
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0].message).toBe("At most 100 ids per request (this one has 101)");
    expect(body.errors[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", reason: "invalid_input" });
    expect(statements).toBe(0);
  });

  it("refuses 40,000 ids before reading anything (timings: tests/bench/nodes-flood.ts)", async () => {
    // Baseline: the statements an anonymous request costs without touching any node.
    statements = 0;
    await post({ query: `{ __typename }` }, "anonymous");
    const baseline = statements;
    statements = 0;
    const res = await post({ query: `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, variables: { ids: ids(40_000) } }, "anonymous");
    expect(res.statusCode).toBe(400);
    // Refused by nodes' own limit, or earlier by the edge's limit on any list (1,000 entries).
    expect(res.json().errors[0].message).toMatch(/^At most 100 ids per request|^A list may have at most 1,000 entries/);
    expect(res.json().errors[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", reason: "invalid_input" });
    expect(statements).toBe(baseline);
  });
});
