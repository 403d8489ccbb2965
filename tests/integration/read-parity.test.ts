import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories } from "../support/factories.ts";
import { restClient } from "../contract/helpers.ts";

/**
 * REST and GraphQL read through the same service functions, so the same case gives the same rows
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
  return res.errors ? { refused: res.errors[0].message } : res.data.users.edges.map((e: any) => [e.node.databaseId, e.node.username]);
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

describe("memberships lists: REST and GraphQL agree", () => {
  const NODE = `databaseId providerSubscriptionId userPublicId username status startedAt canceledAt business { slug name }`;
  const LIST = `query($search: String, $status: MembershipStatusFilter, $businessId: Int) {
    memberships(first: 200, search: $search, status: $status, businessId: $businessId) { edges { node { ${NODE} } } } }`;
  const OF_BUSINESS = `query($slug: String!, $search: String, $status: MembershipStatusFilter) {
    business(slug: $slug) { memberships(first: 200, search: $search, status: $status) { edges { node { ${NODE} } } } } }`;
  const viewer = { token: "" };
  let other: { id: number; slug: string };

  beforeAll(async () => {
    other = await f.business({ slug: "parity-other", name: "Ada's Orchard", page: {} });
    const viewerUser = await f.user({ username: "parity-viewer" });
    await f.attach(other, viewerUser, "VIEWER");
    viewer.token = await f.session(viewerUser);
    const plans = new Map([[farm.id, await f.plan(farm)], [other.id, await f.plan(other)]]);
    const statuses = ["ACTIVE", "PAST_DUE", "CANCELED", "INCOMPLETE", "ACTIVE"] as const;
    for (let i = 0; i < 15; i++) {
      const business = i % 3 === 0 ? other : farm;
      const user = await f.user({ username: `parity-m${i}`, name: i % 4 === 0 ? "Ada Lovelace" : undefined, email: `m${i}@example.com` });
      await f.subscription({
        user,
        business,
        plan: plans.get(business.id)!,
        status: statuses[i % 5],
        // Pairs share a start instant: the tie is ordered by id.
        startedAt: `2026-02-${String(1 + Math.floor(i / 2)).padStart(2, "0")}T10:00:00Z`,
        canceledAt: statuses[i % 5] === "CANCELED" ? "2026-03-01T00:00:00Z" : undefined,
        providerSubscriptionId: i % 2 ? `sub_parity_${i}` : undefined,
      });
    }
  });

  /** A REST membership row in the fields GraphQL has (GraphQL has no user_id). */
  const restRow = (r: any) => [r.subscription_id, r.provider_subscription_id, r.public_id, r.username, r.status, r.started_at, r.canceled_at, r.business_slug, r.business_name];
  const gqlRow = (n: any) => [n.databaseId, n.providerSubscriptionId, n.userPublicId, n.username, n.status.toLowerCase(), n.startedAt, n.canceledAt, n.business.slug, n.business.name];

  async function rest(url: string, token: string | null) {
    const res = await call("GET", url, { token });
    if (res.status === 401 || res.status === 403) return { refused: res.status };
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.items.map(restRow);
  }
  async function gql(query: string, variables: Record<string, unknown>, token: string | null) {
    const res = await t.gql(query, variables, { token });
    if (res.errors) return { refused: res.errors[0].message };
    const list = res.data.memberships ?? res.data.business.memberships;
    return list.edges.map((e: any) => gqlRow(e.node));
  }
  const qs = (o: Record<string, string | undefined>) => new URLSearchParams(Object.entries(o).filter((e): e is [string, string] => e[1] != null)).toString();

  it("the same rows in the same order, newest first, for every status and search", async () => {
    let rows = 0;
    for (const status of [undefined, "ACTIVE", "PAST_DUE", "CANCELED"] as const) {
      for (const search of [undefined, "ada", "ADA", "parity-m1", "orchard", "nobody"]) {
        const viaRest = await rest(`/api/admin/memberships?${qs({ q: search, status: status?.toLowerCase() })}`, tokens.admin);
        expect(viaRest).toEqual(await gql(LIST, { search, status }, tokens.admin));
        rows += viaRest.length;
      }
    }
    expect(rows).toBeGreaterThan(40);
    const all = await rest("/api/admin/memberships", tokens.admin);
    expect(all.length).toBe(12); // 15 memberships, 3 never paid (INCOMPLETE)
    const starts = all.map((r: any[]) => r[5]);
    expect(starts).toEqual([...starts].sort().reverse());
  });

  it("one business: the admin filter (id or slug), the business's own list and Business.memberships agree", async () => {
    let rows = 0;
    for (const status of [undefined, "ACTIVE", "CANCELED"] as const) {
      for (const search of [undefined, "ada"]) {
        const byFilter = await gql(LIST, { search, status, businessId: farm.id }, tokens.admin);
        rows += byFilter.length;
        const q = { q: search, status: status?.toLowerCase() };
        expect(await rest(`/api/admin/memberships?${qs({ ...q, business: String(farm.id) })}`, tokens.admin)).toEqual(byFilter);
        expect(await rest(`/api/admin/memberships?${qs({ ...q, business: farm.slug })}`, tokens.admin)).toEqual(byFilter);
        expect(await rest(`/api/admin/businesses/${farm.id}/memberships?${qs(q)}`, tokens.owner)).toEqual(byFilter);
        expect(await gql(OF_BUSINESS, { slug: farm.slug, search, status }, tokens.owner)).toEqual(byFilter);
      }
    }
    expect(rows).toBeGreaterThan(10);
  });

  it("staff see their businesses' memberships: /my/memberships, /admin/memberships and GraphQL agree", async () => {
    for (const [token, business] of [[tokens.owner, farm], [viewer.token, other]] as const) {
      const viaGql = await gql(LIST, {}, token);
      expect(viaGql.length).toBeGreaterThan(0);
      expect(new Set(viaGql.map((r: any[]) => r[7]))).toEqual(new Set([business.slug]));
      expect(await rest("/api/my/memberships", token)).toEqual(viaGql);
      expect(await rest("/api/admin/memberships", token)).toEqual(viaGql);
      expect(await rest("/api/my/memberships?q=ada&status=active", token)).toEqual(await gql(LIST, { search: "ada", status: "ACTIVE" }, token));
    }
    // A member with no role reads none.
    expect(await rest("/api/my/memberships", tokens.member)).toEqual([]);
    expect(await gql(LIST, {}, tokens.member)).toEqual([]);
  });

  it("a viewer of another business: that business's list is refused, the filter on it lists none", async () => {
    expect(await rest(`/api/admin/businesses/${farm.id}/memberships`, viewer.token)).toEqual({ refused: 403 });
    expect(await gql(OF_BUSINESS, { slug: farm.slug }, viewer.token)).toEqual({ refused: "You do not have permission to do this." });
    expect(await rest(`/api/admin/memberships?business=${farm.id}`, viewer.token)).toEqual([]);
    expect(await gql(LIST, { businessId: farm.id }, viewer.token)).toEqual([]);
  });

  it("anonymous: refused by every list, 401 in REST and UnauthenticatedError in GraphQL", async () => {
    for (const url of ["/api/admin/memberships", `/api/admin/businesses/${farm.id}/memberships`, "/api/my/memberships"]) {
      expect(await rest(url, null)).toEqual({ refused: 401 });
    }
    expect(await gql(LIST, {}, null)).toEqual({ refused: "Please log in to continue." });
    expect(await gql(OF_BUSINESS, { slug: farm.slug }, null)).toEqual({ refused: "Please log in to continue." });
  });
});

describe("business, page, catalogue, next box and coupon reads: REST and GraphQL agree; page saves refuse alike", () => {
  let market: { id: number; slug: string };
  let plain: { id: number; slug: string };
  const names = (rows: { id: number | string; name?: string; username?: string }[]) => rows.map((r) => [Number(r.id), r.name ?? r.username]);

  beforeAll(async () => {
    const owner = await t.db.prisma.user.findUniqueOrThrow({ where: { username: "parity-owner" } });
    const editor = await f.user({ username: "parity-editor" });
    const member = await t.db.prisma.user.findUniqueOrThrow({ where: { username: "parity-member" } });
    market = await f.business({ slug: "parity-market", name: "Alder Market", page: { descriptionHtml: "<p>Fresh <b>bread</b></p>", logoUrl: "/uploads/m.png" } });
    plain = await f.business({ slug: "parity-plain", name: "Alder Market" }); // same name: ordered by id after the name
    await f.attach(market, owner, "OWNER");
    await f.attach(market, editor, "EDITOR");
    const bread = await f.plan(market, { name: "Bread", prices: { PICKUP: 1200, DELIVERY: 1500 } });
    await f.plan(market, { name: "Secret", listed: false });
    await f.plan(market, { name: "Old", archived: true });
    await f.addon(market, { name: "Jam" });
    await f.addon(market, { name: "Butter", listed: false });
    await f.subscription({ user: member, business: market, plan: bread });
    await t.db.prisma.nextBox.upsert({ where: { businessId: market.id }, create: { businessId: market.id, contentHtml: "<p>Rye</p>" }, update: { contentHtml: "<p>Rye</p>" } });
    for (const code of ["FIRST", "SECOND", "THIRD"]) await f.coupon({ code });
  });

  const COUPONS = `{ coupons(first: 100) { edges { node { databaseId code type value active } } } }`;
  it("coupons: the same coupons, newest first; refused to non-admins alike", async () => {
    const rest = await call("GET", "/api/admin/coupons", { token: tokens.admin });
    const gql = (await t.gqlOk(COUPONS, {}, { token: tokens.admin })).coupons.edges.map((e: any) => e.node);
    expect(rest.body).toEqual(gql.map((c: any) => ({ id: c.databaseId, code: c.code, type: c.type.toLowerCase(), value: c.value, active: c.active })));
    expect(rest.body.map((c: any) => c.code).slice(0, 3)).toEqual(["THIRD", "SECOND", "FIRST"]);
    for (const who of ["owner", "member"] as const) {
      expect((await call("GET", "/api/admin/coupons", { token: tokens[who] })).status).toBe(403);
      expect((await t.gql(COUPONS, {}, { token: tokens[who] })).errors?.[0]?.message).toBe("You do not have permission to do this.");
    }
    expect((await call("GET", "/api/admin/coupons")).status).toBe(401);
  });

  it("business cards: the same businesses, by name, with logo, plain description and member count", async () => {
    const rest = (await call("GET", "/api/businesses")).body.businesses;
    const gql = (await t.gqlOk(`{ businesses(first: 100) { edges { node { databaseId slug name logoUrl description memberCount } } } }`)).businesses.edges;
    expect(rest).toEqual(gql.map(({ node: b }: any) => ({ id: b.databaseId, slug: b.slug, name: b.name, logoUrl: b.logoUrl, description: b.description, memberCount: b.memberCount })));
    expect(rest.find((b: any) => b.slug === market.slug)).toMatchObject({ logoUrl: "/uploads/m.png", description: "Fresh bread", memberCount: 1 });
  });

  const MINE = `{ myBusinesses(first: 100) { edges { node { databaseId name slug userCount } } } }`;
  it("the businesses a user may open: the same, by name then id; the admin list is the administrator's", async () => {
    for (const who of ["owner", "member", "admin"] as const) {
      const rest = (await call("GET", "/api/my/businesses", { token: tokens[who] })).body;
      const gql = (await t.gqlOk(MINE, {}, { token: tokens[who] })).myBusinesses.edges.map((e: any) => e.node);
      expect(rest).toEqual(gql.map((b: any) => ({ id: b.databaseId, name: b.name, slug: b.slug })));
      if (who === "admin") {
        expect(rest.map((b: any) => b.id).filter((id: number) => id === market.id || id === plain.id)).toEqual([market.id, plain.id].sort((a, b) => a - b));
        const admin = (await call("GET", "/api/admin/businesses", { token: tokens.admin })).body;
        expect(admin).toEqual(gql.map((b: any) => ({ id: b.databaseId, name: b.name, slug: b.slug, user_count: b.userCount })));
      }
    }
    expect((await call("GET", "/api/my/businesses", { token: tokens.owner })).body.map((b: any) => b.slug)).toEqual(["parity-market", "parity-farm"]);
    expect((await call("GET", "/api/admin/businesses", { token: tokens.owner })).status).toBe(403);
    expect((await call("GET", "/api/my/businesses")).status).toBe(401);
    expect((await t.gql(MINE, {})).errors?.[0]?.message).toBe("Please log in to continue.");
  });

  const USERS_OF = `query($id: Int!) { adminBusiness(id: $id) { users(first: 100) { edges { node { role user { id username } } } } } }`;
  it("the users of a business: the same, in attachment order; owners and administrators only", async () => {
    for (const who of ["owner", "admin"] as const) {
      const rest = (await call("GET", `/api/admin/businesses/${market.id}/users`, { token: tokens[who] })).body;
      const gql = (await t.gqlOk(USERS_OF, { id: market.id }, { token: tokens[who] })).adminBusiness.users.edges.map((e: any) => e.node);
      expect(rest).toEqual(gql.map((l: any) => ({ id: Number(l.user.id), username: l.user.username, role: l.role.toLowerCase() })));
      expect(names(rest)).toEqual([[expect.any(Number), "parity-owner"], [expect.any(Number), "parity-editor"]]);
    }
    const editor = await f.session(await t.db.prisma.user.findUniqueOrThrow({ where: { username: "parity-editor" } }));
    expect((await call("GET", `/api/admin/businesses/${market.id}/users`, { token: editor })).status).toBe(403);
    const refused = await t.gql(USERS_OF, { id: market.id }, { token: editor });
    expect([refused.data?.adminBusiness?.users, refused.errors?.[0]?.message]).toEqual([null, "You do not have permission to do this."]);
    expect((await call("GET", `/api/admin/businesses/999999/users`, { token: tokens.admin })).status).toBe(404);
  });

  const CATALOGUE = `query($slug: String!, $all: Boolean) { business(slug: $slug) {
    plans(first: 100, includeUnlisted: $all) { edges { node { ref name } } } addons(first: 100, includeUnlisted: $all) { edges { node { ref name } } }
    nextBox { contentHtml } } }`;
  const refsOf = (conn: any) => conn.edges.map((e: any) => e.node.ref);
  it("the catalogue: the listed rows for the public, every non-archived one for editors, in editor order; the next box", async () => {
    const pub = (await call("GET", `/api/businesses/${market.slug}/page`)).body.content;
    const gqlPub = (await t.gqlOk(CATALOGUE, { slug: market.slug, all: false })).business;
    expect(pub.itemsSnapshot.map((i: any) => i.id)).toEqual(refsOf(gqlPub.plans));
    expect(pub.addonsSnapshot.map((a: any) => a.id)).toEqual(refsOf(gqlPub.addons));
    expect(pub.itemsSnapshot.map((i: any) => i.name)).toEqual(["Bread"]);
    const square = (await call("GET", "/api/square/items", { headers: { "x-tenant": market.slug } })).body.items;
    expect(square.map((i: any) => i.id)).toEqual(refsOf(gqlPub.plans));

    const editor = (await call("GET", `/api/admin/businesses/${market.id}/page`, { token: tokens.owner })).body.content;
    const gqlEditor = (await t.gqlOk(CATALOGUE, { slug: market.slug, all: true }, { token: tokens.owner })).business;
    expect(editor.itemsSnapshot.map((i: any) => i.id)).toEqual(refsOf(gqlEditor.plans));
    expect(editor.addonsSnapshot.map((a: any) => a.id)).toEqual(refsOf(gqlEditor.addons));
    expect(editor.itemsSnapshot.map((i: any) => i.name)).toEqual(["Bread", "Secret"]);
    expect(editor.itemIds).toEqual(pub.itemIds);
    // The unlisted rows are the editors': refused to a member in both.
    expect((await call("GET", `/api/admin/businesses/${market.id}/page`, { token: tokens.member })).status).toBe(403);
    expect((await t.gql(CATALOGUE, { slug: market.slug, all: true }, { token: tokens.member })).errors?.[0]?.message).toBe("You do not have permission to do this.");

    const box = (await call("GET", `/api/businesses/${market.slug}/next-box`)).body.content;
    expect(box).toBe(gqlPub.nextBox.contentHtml);
    expect((await call("GET", `/api/admin/businesses/${market.id}/next-box`, { token: tokens.owner })).body.content).toBe(box);
    expect((await call("GET", `/api/admin/businesses/${market.id}/next-box`, { token: tokens.member })).status).toBe(403);
  });

  const SAVE = `mutation($input: SaveBusinessPageInput!) { saveBusinessPage(input: $input) { __typename ... on Error { message } } }`;
  it("a page save with a value out of range is refused with the same message through both, nothing saved", async () => {
    const cases: [Record<string, unknown>, Record<string, unknown>, string][] = [
      [{ billingDay: 40 }, { billingDay: 40 }, "Billing day cannot exceed 28 (to account for February)"],
      [{ tax: { enabled: true, rate: 200 } }, { tax: { enabled: true, ratePercent: 200 } }, "Tax rate must be between 0 and 100"],
      [{ tax: { rate: 5.755 } }, { tax: { ratePercent: 5.755 } }, "Tax rate may have at most 2 decimals"],
      [{ subscriptionCutoffDay: 32 }, { subscriptionCutoffDay: 32 }, "Subscription cutoff day cannot exceed 31"],
      [{ skipWindow: { startDay: 9, endDay: 3 } }, { skipWindow: { startDay: 9, endDay: 3 } }, "Skip window start day must not be after its end day"],
      [{ theme: { primary: "red" } }, { theme: { primary: "red" } }, "Colours must be #rgb, #rrggbb, #rrggbbaa or transparent"],
    ];
    const before = await t.db.prisma.page.findUniqueOrThrow({ where: { businessId: market.id } });
    for (const [restContent, gqlContent, message] of cases) {
      const rest = await call("POST", `/api/admin/businesses/${market.id}/page`, { token: tokens.owner, payload: { content: restContent } });
      const gql = await t.gqlOk(SAVE, { input: { businessId: market.id, content: gqlContent } }, { token: tokens.owner });
      expect([rest.status, rest.body.error]).toEqual([400, message]);
      expect(gql.saveBusinessPage).toEqual({ __typename: "ValidationError", message });
    }
    // Catalogue rows: a negative price, an add-on without one.
    const restItem = await call("POST", `/api/admin/businesses/${market.id}/page`, {
      token: tokens.owner,
      payload: { content: { itemsSnapshot: [{ name: "Bread", variations: [{ name: "Pickup", amount: -5 }] }] } },
    });
    const gqlItem = await t.gqlOk(SAVE, { input: { businessId: market.id, content: {}, plans: [{ name: "Bread", pickupCents: -5 }] } }, { token: tokens.owner });
    expect([restItem.status, restItem.body.error]).toEqual([400, gqlItem.saveBusinessPage.message]);
    const restAddon = await call("POST", `/api/admin/businesses/${market.id}/page`, { token: tokens.owner, payload: { content: { addonsSnapshot: [{ name: "Jam" }] } } });
    const gqlAddon = await t.gqlOk(SAVE, { input: { businessId: market.id, content: {}, addons: [{ name: "Jam" }] } }, { token: tokens.owner });
    expect([restAddon.status, restAddon.body.error]).toEqual([400, gqlAddon.saveBusinessPage.message]);
    expect(await t.db.prisma.page.findUniqueOrThrow({ where: { businessId: market.id } })).toEqual(before);
  });
});

describe("member portal: the member's memberships, orders and skips through REST and GraphQL", () => {
  const PORTAL = `query($slug: String) { viewer {
    subscriptions(businessSlug: $slug) { databaseId status business { slug } pendingChange { effectivePeriod plan { name } addons { name } } skips { yearMonth } }
    orders(first: 100) { edges { node { databaseId business { slug } } } }
    skips { yearMonth businessSlug } } }`;
  let token = "";
  let slugs: [string, string];

  beforeAll(async () => {
    const member = await f.user({ username: "portal-parity" });
    const other = await f.user({ username: "portal-parity-other" });
    const [a, b] = [await f.business({ slug: "portal-parity-a", page: {} }), await f.business({ slug: "portal-parity-b", page: {} })];
    slugs = [a.slug, b.slug];
    const [planA, planB] = [await f.plan(a), await f.plan(b)];
    const addonB = await f.addon(b, { name: "Eggs" });
    const old = await f.subscription({ user: member, business: a, plan: planA, status: "CANCELED", startedAt: "2025-06-01T12:00:00Z", canceledAt: "2025-12-01T12:00:00Z" });
    const atA = await f.subscription({ user: member, business: a, plan: planA, startedAt: "2026-01-02T12:00:00Z" });
    const atB = await f.subscription({ user: member, business: b, plan: planB, addons: [{ id: addonB.id, amountCents: 500 }], providerSubscriptionId: "sub_parity" });
    const theirs = await f.subscription({ user: other, business: a, plan: planA });
    await t.db.prisma.subscriptionChange.create({ data: { subscriptionId: atB.id, planId: planB.id, mode: "PICKUP", addonIds: [addonB.id], effectivePeriod: "2026-04" } });
    await t.db.prisma.skip.createMany({ data: [{ subscriptionId: atB.id, yearMonth: "2026-05" }, { subscriptionId: atA.id, yearMonth: "2026-04" }, { subscriptionId: atB.id, yearMonth: "2026-04" }] });
    // Orders across both businesses, two with the same instant (the id decides), one of another member.
    for (const [sub, period, at] of [[old, "2025-06", "2025-06-01T12:00:00Z"], [atA, "2026-01", "2026-01-02T12:00:00Z"], [atB, "2026-01", "2026-01-02T12:00:00Z"], [atB, "2026-02", "2026-02-10T12:00:00Z"], [theirs, "2026-02", "2026-02-11T12:00:00Z"]] as const) {
      await f.order({ subscription: sub, period, totalCents: 3000, createdAt: at });
    }
    token = await f.session(member);
  });

  async function both(tenant: string | null) {
    const [subs, orders, skips] = await Promise.all(["/api/my/subscriptions", "/api/my/orders", "/api/my/skips"].map((url) => call("GET", url, { token, tenant })));
    for (const r of [subs, orders, skips]) expect(r.status).toBe(200);
    const gql = (await t.gqlOk(PORTAL, { slug: tenant }, { token })).viewer;
    const gqlOrders = gql.orders.edges.map((e: any) => e.node).filter((o: any) => !tenant || o.business.slug === tenant);
    const gqlSkips = gql.skips.filter((s: any) => !tenant || s.businessSlug === tenant);
    return {
      rest: {
        subscriptions: subs.body.subscriptions.map((s: any) => [s.id, s.status, s.business_slug, s.pending_change?.effective_period ?? null, s.skips]),
        orders: orders.body.orders.map((o: any) => [o.id, o.business_slug]),
        skips: skips.body.items.map((s: any) => [s.business_slug, s.year_month]),
      },
      gql: {
        subscriptions: gql.subscriptions.map((s: any) => [s.databaseId, s.status.toLowerCase(), s.business.slug, s.pendingChange?.effectivePeriod ?? null, s.skips.map((k: any) => k.yearMonth)]),
        orders: gqlOrders.map((o: any) => [o.databaseId, o.business.slug]),
        skips: gqlSkips.map((s: any) => [s.businessSlug, s.yearMonth]),
      },
    };
  }

  it("the same memberships (portal order), orders (newest first) and skips through both", async () => {
    const { rest, gql } = await both(null);
    expect(rest).toEqual(gql);
    // Portal order (spec §4): the one with a provider subscription id, then active, then the canceled one.
    expect(rest.subscriptions.map((s: any[]) => [s[1], s[2]])).toEqual([["active", slugs[1]], ["active", slugs[0]], ["canceled", slugs[0]]]);
    expect(rest.subscriptions[0].slice(3)).toEqual(["2026-04", ["2026-04", "2026-05"]]);
    expect(rest.orders).toHaveLength(4); // not the other member's
    const ids = rest.orders.map((o: any[]) => o[0] as number);
    expect(ids[1]).toBeGreaterThan(ids[2]); // same instant: the later id first
    expect(rest.skips).toEqual([[slugs[0], "2026-04"], [slugs[1], "2026-04"], [slugs[1], "2026-05"]]);
    // The scheduled change's plan and add-ons, loaded with the membership.
    const viewer = (await t.gqlOk(PORTAL, {}, { token })).viewer;
    expect(viewer.subscriptions[0].pendingChange).toEqual({ effectivePeriod: "2026-04", plan: { name: expect.any(String) }, addons: [{ name: "Eggs" }] });
  });

  it("REST with X-Tenant shows that business only, as GraphQL's businessSlug does", async () => {
    for (const slug of slugs) {
      const { rest, gql } = await both(slug);
      expect(rest).toEqual(gql);
      expect(rest.subscriptions.every((s: any[]) => s[2] === slug)).toBe(true);
      expect(rest.orders.length).toBeGreaterThan(0);
    }
  });

  it("refuses the signed-out: 401 in REST, no viewer in GraphQL", async () => {
    for (const url of ["/api/my/subscriptions", "/api/my/orders", "/api/my/skips"]) expect((await call("GET", url)).status).toBe(401);
    expect((await t.gqlOk(PORTAL, {})).viewer).toBeNull();
  });
});
