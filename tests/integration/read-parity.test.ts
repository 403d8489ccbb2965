import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories } from "../support/factories.ts";
import { restClient } from "../contract/helpers.ts";

/**
 * Issue 15: REST and GraphQL read through the same service functions, so the same case gives the same rows
 * (and the same refusals) through both. Also the cutoff / box-ready day rule: 0 means "not set" in both.
 */
let t: TestApp;
let f: ReturnType<typeof factories>;
let call: ReturnType<typeof restClient>;
const tokens: Record<"admin" | "owner" | "member", string> = { admin: "", owner: "", member: "" };
let farm: { id: number; slug: string };

beforeAll(async () => {
  t = await createTestApp();
  f = factories(t);
  call = restClient(t);
  const admin = await f.user({ username: "parity-admin", isAdmin: true });
  const owner = await f.user({ username: "parity-owner" });
  const member = await f.user({ username: "parity-member" });
  for (const name of ["olive", "oliver", "bob", "olivia", "zed"]) await f.user({ username: name });
  farm = await f.business({ slug: "parity-farm", page: {} });
  await f.attach(farm, owner, "OWNER");
  tokens.admin = await f.session(admin);
  tokens.owner = await f.session(owner);
  tokens.member = await f.session(member);
});
afterAll(() => t.close());

const USERS = `query($search: String) { users(first: 100, search: $search) { edges { node { databaseId username } } } }`;
const SEARCH = `query($q: String!, $b: Int) { userSearch(query: $q, businessId: $b) { id username } }`;

/** The users of a GraphQL users page, as [id, username]. */
async function gqlUsers(token: string | null, search?: string) {
  const res = await t.gql(USERS, { search }, { token });
  return res.errors ? { refused: res.errors[0]!.message } : res.data.users.edges.map((e: any) => [e.node.databaseId, e.node.username]);
}

/** A REST refusal or the rows, in the same shape as gqlUsers. */
async function restRows(url: string, token: string | null, pick: (body: any) => { id: number; username: string }[]) {
  const res = await call("GET", url, { token });
  if (res.status === 401 || res.status === 403) return { refused: res.body.error ?? res.body.message, status: res.status };
  expect(res.status).toBe(200);
  return pick(res.body).map((u) => [Number(u.id), u.username]);
}

describe("users list: REST and GraphQL agree", () => {
  it("lists the same users in the same order, newest first", async () => {
    const rest = await restRows("/api/admin/users", tokens.admin, (b) => b);
    const gql = await gqlUsers(tokens.admin);
    expect(rest).toEqual(gql);
    const ids = (rest as [number, string][]).map(([id]) => id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(ids.length).toBe(await t.db.prisma.user.count());
  });

  it("the search gives the same users through REST and GraphQL", async () => {
    for (const q of ["oli", "OLI", "", "nobody"]) {
      const rest = await restRows(`/api/admin/users/search?q=${encodeURIComponent(q)}`, tokens.admin, (b) => b.results);
      const gql = await t.gqlOk(SEARCH, { q }, { token: tokens.admin });
      expect(rest).toEqual(gql.userSearch.map((u: any) => [Number(u.id), u.username]));
    }
    const olives = await restRows("/api/admin/users/search?q=oli", tokens.admin, (b) => b.results);
    expect((olives as [number, string][]).map(([, name]) => name)).toEqual(["olive", "oliver", "olivia"]);
    // The users list filtered by the same term holds the same users, newest first.
    expect((await gqlUsers(tokens.admin, "oli")).map(([, name]: [number, string]) => name)).toEqual(["olivia", "oliver", "olive"]);
    // An owner searching to attach users to their business.
    const rest = await restRows(`/api/admin/businesses/${farm.id}/user-search?q=oli`, tokens.owner, (b) => b.results);
    const gql = await t.gqlOk(SEARCH, { q: "oli", b: farm.id }, { token: tokens.owner });
    expect(rest).toEqual(gql.userSearch.map((u: any) => [Number(u.id), u.username]));
    expect(rest).toEqual(olives);
  });

  it("refuses non-admins the same way: 401/403 in REST, UnauthenticatedError/ForbiddenError in GraphQL", async () => {
    const anonRest = await call("GET", "/api/admin/users");
    const anonGql = await t.gql(USERS, {});
    expect(anonRest.status).toBe(401);
    expect(anonGql.data?.users ?? null).toBeNull();
    expect(anonGql.errors?.[0]?.message).toBe("Please log in to continue.");

    for (const who of ["owner", "member"] as const) {
      const rest = await call("GET", "/api/admin/users", { token: tokens[who] });
      const gql = await t.gql(USERS, {}, { token: tokens[who] });
      expect(rest.status).toBe(403);
      expect(gql.data?.users ?? null).toBeNull();
      expect(gql.errors?.[0]?.message).toBe("You do not have permission to do this.");
      expect((await call("GET", "/api/admin/users/search?q=oli", { token: tokens[who] })).status).toBe(403);
      expect((await t.gql(SEARCH, { q: "oli" }, { token: tokens[who] })).errors?.[0]?.message).toBe("You do not have permission to do this.");
    }
    // A member is not an owner of the farm: refused the attach search in both.
    expect((await call("GET", `/api/admin/businesses/${farm.id}/user-search?q=oli`, { token: tokens.member })).status).toBe(403);
    expect((await t.gql(SEARCH, { q: "oli", b: farm.id }, { token: tokens.member })).errors?.[0]?.message).toBe("You do not have permission to do this.");
  });
});

describe("cutoff and box-ready day 0 means not set (spec §5), through REST and GraphQL", () => {
  const SAVE = `mutation($input: SaveBusinessPageInput!) { saveBusinessPage(input: $input) {
    __typename ... on SaveBusinessPageSuccess { data { page { subscriptionCutoffDay boxReadyDay } } } ... on Error { message } } }`;
  const READ = `query($slug: String!) { business(slug: $slug) { page { subscriptionCutoffDay boxReadyDay } } }`;

  async function readBoth() {
    const rest = (await call("GET", `/api/admin/businesses/${farm.id}/page`, { token: tokens.owner })).body.content;
    const gql = (await t.gqlOk(READ, { slug: farm.slug }, { token: tokens.owner })).business.page;
    return { rest: { subscriptionCutoffDay: rest.subscriptionCutoffDay, boxReadyDay: rest.boxReadyDay }, gql };
  }
  const setDays = () => t.db.prisma.page.update({ where: { businessId: farm.id }, data: { cutoffDay: 20, boxReadyDay: 10 } });
  const notSet = { subscriptionCutoffDay: null, boxReadyDay: null };

  it("a REST save with 0 reads back as not set in both", async () => {
    await setDays();
    expect(await readBoth()).toEqual({ rest: { subscriptionCutoffDay: 20, boxReadyDay: 10 }, gql: { subscriptionCutoffDay: 20, boxReadyDay: 10 } });
    const saved = await call("POST", `/api/admin/businesses/${farm.id}/page`, {
      token: tokens.owner,
      payload: { content: { brand: { name: "Parity Farm" }, subscriptionCutoffDay: 0, boxReadyDay: 0 } },
    });
    expect(saved.status).toBe(200);
    expect(await readBoth()).toEqual({ rest: notSet, gql: notSet });
  });

  it("a GraphQL save with 0 reads back as not set in both", async () => {
    await setDays();
    const saved = await t.gqlOk(
      SAVE,
      { input: { businessId: farm.id, content: { brand: { name: "Parity Farm" }, subscriptionCutoffDay: 0, boxReadyDay: 0 } } },
      { token: tokens.owner },
    );
    expect(saved.saveBusinessPage).toEqual({ __typename: "SaveBusinessPageSuccess", data: { page: notSet } });
    expect(await readBoth()).toEqual({ rest: notSet, gql: notSet });
  });

  it("a negative day is refused with the same message through both", async () => {
    const rest = await call("POST", `/api/admin/businesses/${farm.id}/page`, { token: tokens.owner, payload: { content: { subscriptionCutoffDay: -1 } } });
    const gql = await t.gqlOk(SAVE, { input: { businessId: farm.id, content: { subscriptionCutoffDay: -1 } } }, { token: tokens.owner });
    expect(rest.status).toBe(400);
    expect(gql.saveBusinessPage.__typename).toBe("ValidationError");
    expect(JSON.stringify(rest.body)).toContain("Subscription cutoff day must be at least 1");
    expect(gql.saveBusinessPage.message).toContain("Subscription cutoff day must be at least 1");
  });
});
