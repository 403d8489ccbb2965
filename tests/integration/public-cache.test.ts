import pino from "pino";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, type App } from "../../server/app.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { seedFarm, type Farm } from "../contract/helpers.ts";
import { businessPageQuery } from "../bench/queries.ts";

/**
 * Anonymous public business pages (GraphQL BusinessRoute query, REST /api/businesses/{slug}/page)
 * answer from the public page cache; every edit shows on the next read, whichever adapter made it; nothing
 * of a logged-in viewer is ever stored in or served from the shared cache.
 */

const PAGE_QUERY = businessPageQuery();
const TTL_MS = 60_000;

let statements = 0;

/** Runs `fn` and returns its result with the SQL statements it issued. */
async function counted<T>(fn: () => Promise<T>): Promise<T & { statements: number }> {
  statements = 0;
  const result = await fn();
  return Object.assign(result as object, { statements }) as T & { statements: number };
}

const graphql = (app: App, variables: object, token?: string, query = PAGE_QUERY) =>
  counted(async () => {
    const res = await app.inject({
      method: "POST",
      url: "/graphql",
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      payload: { query, variables },
    });
    expect(res.statusCode, res.body).toBe(200);
    const json = res.json();
    expect(json.errors, res.body).toBeUndefined();
    return { body: res.body, data: json.data, headers: res.headers };
  });

const restPage = (app: App, slug: string, headers: Record<string, string> = {}) =>
  counted(async () => {
    const res = await app.inject({ method: "GET", url: `/api/businesses/${slug}/page`, headers });
    return { status: res.statusCode, body: res.body, headers: res.headers };
  });

const SAVE = `mutation($input: SaveBusinessPageInput!) { saveBusinessPage(input: $input) { __typename ... on Error { message } } }`;

async function saveThroughGraphQL(app: App, token: string, businessId: number, brandName: string, planName: string) {
  const res = await app.inject({
    method: "POST",
    url: "/graphql",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    payload: { query: SAVE, variables: { input: { businessId, content: { brand: { name: brandName } }, plans: [{ name: planName, pickupCents: 2600 }] } } },
  });
  expect(res.json().data.saveBusinessPage.__typename, res.body).toBe("SaveBusinessPageSuccess");
}

async function saveThroughRest(app: App, token: string, businessId: number, brandName: string) {
  const auth = { authorization: `Bearer ${token}` };
  const current = (await app.inject({ method: "GET", url: `/api/admin/businesses/${businessId}/page`, headers: auth })).json().content;
  const res = await app.inject({
    method: "POST",
    url: `/api/admin/businesses/${businessId}/page`,
    headers: auth,
    payload: { content: { ...current, brand: { ...current.brand, name: brandName } } },
  });
  expect(res.statusCode, res.body).toBe(200);
}

const brandOfGraphQL = (r: { data: any }) => r.data.business.page.brand.name as string;
const brandOfRest = (r: { body: string }) => JSON.parse(r.body).content.brand.name as string;

describe("public page cache, one process", () => {
  let t: TestApp;
  let s: Farm;
  beforeAll(async () => {
    t = await createTestApp({ logQueries: true, config: { publicCacheTtlMs: TTL_MS } });
    t.db.onStatement(() => statements++);
    s = await seedFarm(t);
  });
  afterAll(() => t?.close());

  it("answers a repeated anonymous GraphQL page read from the cache, byte for byte as uncached", async () => {
    const first = await graphql(t.app, { slug: "farm" });
    expect(first.statements).toBeGreaterThan(0);
    expect(first.data.business.name).toBe("Farm");
    expect(first.data.viewer).toBeNull();
    const second = await graphql(t.app, { slug: "farm" });
    expect(second.statements).toBe(0);
    expect(second.body).toBe(first.body);
    expect(second.headers.etag).toBe(first.headers.etag);
    // Another slug is another entry.
    const other = await graphql(t.app, { slug: "bakery" });
    expect(other.statements).toBeGreaterThan(0);
    expect(other.data.business.name).toBe("Bakery");
  });

  it("answers cached GraphQL reads exactly as yoga does, for each Accept header the fast path serves", async () => {
    const send = (headers: Record<string, string>) =>
      t.app.inject({ method: "POST", url: "/graphql", headers: { "content-type": "application/json", ...headers }, payload: { query: PAGE_QUERY, variables: { slug: "farm" } } });
    const view = (r: Awaited<ReturnType<typeof send>>) => ({
      status: r.statusCode,
      type: r.headers["content-type"],
      etag: r.headers.etag,
      lastModified: r.headers["last-modified"],
      body: r.body,
    });
    for (const accept of [undefined, "*/*", "application/json", "application/graphql-response+json", "application/graphql-response+json, application/json"]) {
      await t.app.publicCache.changed(null);
      const headers: Record<string, string> = accept ? { accept } : {};
      const computed = await counted(() => send(headers));
      expect(computed.statements, accept).toBeGreaterThan(0);
      // Served by yoga's response cache plugin (an If-None-Match that matches nothing skips the fast path).
      const fromPlugin = await counted(() => send({ ...headers, "if-none-match": '"nothing"' }));
      const fromFastPath = await counted(() => send(headers));
      expect(fromPlugin.statements + fromFastPath.statements).toBe(0);
      expect(view(fromFastPath), accept).toEqual(view(fromPlugin));
      expect(view(fromFastPath).body).toBe(computed.body);
      expect(view(fromFastPath).type).toBe(computed.headers["content-type"]);
      expect(view(fromFastPath).etag).toMatch(/^"[\w-]+"$/);
      // The ETag revalidates.
      expect((await send({ ...headers, "if-none-match": view(fromFastPath).etag as string })).statusCode).toBe(304);
    }
    // An Accept header yoga refuses is still refused.
    expect((await send({ accept: "text/html" })).statusCode).toBe(406);
  });

  it("answers a repeated REST page read from the cache, identical to uncached, with an ETag to revalidate", async () => {
    const first = await restPage(t.app, "farm");
    expect(first.status).toBe(200);
    expect(first.statements).toBeGreaterThan(0);
    expect(first.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(first.headers["cache-control"]).toBe("public, no-cache");
    expect(first.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(JSON.parse(first.body).content.itemIds).toEqual(["item_veg"]);
    const second = await restPage(t.app, "FARM");
    expect(second.statements).toBe(0);
    expect(second.body).toBe(first.body);
    expect(second.headers.etag).toBe(first.headers.etag);

    const notModified = await restPage(t.app, "farm", { "if-none-match": `W/${first.headers.etag}, "other"` });
    expect(notModified.status).toBe(304);
    expect(notModified.body).toBe("");
    expect(notModified.headers.etag).toBe(first.headers.etag);
    expect((await restPage(t.app, "farm", { "if-none-match": '"other"' })).status).toBe(200);
    // Unknown slugs stay 404 and are not cached.
    expect((await restPage(t.app, "nowhere")).status).toBe(404);
    expect((await restPage(t.app, "nowhere")).statements).toBeGreaterThan(0);
  });

  it("shows an edit made through GraphQL on the next read of both adapters", async () => {
    await graphql(t.app, { slug: "farm" });
    const before = await restPage(t.app, "farm");
    expect((await graphql(t.app, { slug: "farm" })).statements).toBe(0);

    await saveThroughGraphQL(t.app, s.ownerToken, s.farm.id, "Farm via GraphQL", "Root box");

    const g = await graphql(t.app, { slug: "farm" });
    expect(brandOfGraphQL(g)).toBe("Farm via GraphQL");
    expect(g.data.business.plans.edges.map((e: any) => e.node.name)).toEqual(["Root box"]);
    const r = await restPage(t.app, "farm", { "if-none-match": before.headers.etag as string });
    expect(r.status).toBe(200);
    expect(brandOfRest(r)).toBe("Farm via GraphQL");
    expect(JSON.parse(r.body).content.itemsSnapshot.map((i: any) => i.name)).toEqual(["Root box"]);
    expect(r.headers.etag).not.toBe(before.headers.etag);
  });

  it("shows an edit made through REST on the next read of both adapters", async () => {
    await graphql(t.app, { slug: "farm" });
    await restPage(t.app, "farm");
    expect((await restPage(t.app, "farm")).statements).toBe(0);

    await saveThroughRest(t.app, s.ownerToken, s.farm.id, "Farm via REST");

    expect(brandOfGraphQL(await graphql(t.app, { slug: "farm" }))).toBe("Farm via REST");
    expect(brandOfRest(await restPage(t.app, "farm"))).toBe("Farm via REST");
  });

  it("shows the Next Box, the home page (businesses without a page), a new business and a deleted one at once", async () => {
    const nextBox = `query($slug: String!) { business(slug: $slug) { nextBox { contentHtml } } }`;
    // Not in the page query: a query of public fields of the business is cached the same way.
    await graphql(t.app, { slug: "farm" }, undefined, nextBox);
    expect((await graphql(t.app, { slug: "farm" }, undefined, nextBox)).statements).toBe(0);
    const saveBox = await t.app.inject({
      method: "POST",
      url: "/graphql",
      headers: { "content-type": "application/json", authorization: `Bearer ${s.ownerToken}` },
      payload: { query: `mutation { saveNextBox(input: { businessId: ${s.farm.id}, contentHtml: "<p>Leeks</p>" }) { __typename } }` },
    });
    expect(saveBox.json().data.saveNextBox.__typename).toBe("SaveNextBoxSuccess");
    expect((await graphql(t.app, { slug: "farm" }, undefined, nextBox)).data.business.nextBox.contentHtml).toBe("<p>Leeks</p>");

    // The bakery has no page: its REST page is the home page content.
    await restPage(t.app, "bakery");
    const home = await t.app.inject({ method: "POST", url: "/api/admin/page", headers: { authorization: `Bearer ${s.adminToken}` }, payload: { content: { brand: { name: "New home" } } } });
    expect(home.statusCode, home.body).toBe(200);
    expect(brandOfRest(await restPage(t.app, "bakery"))).toBe("New home");

    // A slug read before its business exists.
    expect((await graphql(t.app, { slug: "newcomer" })).data.business).toBeNull();
    const created = await t.app.inject({
      method: "POST",
      url: "/graphql",
      headers: { "content-type": "application/json", authorization: `Bearer ${s.adminToken}` },
      payload: { query: `mutation { createBusiness(input: { name: "Newcomer", slug: "newcomer" }) { __typename ... on CreateBusinessSuccess { data { databaseId } } } }` },
    });
    const newId = created.json().data.createBusiness.data.databaseId as number;
    expect((await graphql(t.app, { slug: "newcomer" })).data.business.name).toBe("Newcomer");

    await restPage(t.app, "newcomer");
    const deleted = await t.app.inject({ method: "DELETE", url: `/api/admin/businesses/${newId}`, headers: { authorization: `Bearer ${s.adminToken}` } });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await graphql(t.app, { slug: "newcomer" })).data.business).toBeNull();
    expect((await restPage(t.app, "newcomer")).status).toBe(404);
  });

  it("never stores or serves a logged-in viewer's answer through the shared cache", async () => {
    const anonymous = await graphql(t.app, { slug: "farm" });
    expect(anonymous.data.viewer).toBeNull();
    expect((await graphql(t.app, { slug: "farm" })).statements).toBe(0);

    // The member sees their own membership, computed for them (not the anonymous entry), every time.
    const member = await graphql(t.app, { slug: "farm" }, s.memberToken);
    expect(member.statements).toBeGreaterThan(0);
    expect(member.data.viewer.subscriptions).toHaveLength(1);
    expect(member.data.viewer.subscriptions[0].id).toBeTruthy();
    expect((await graphql(t.app, { slug: "farm" }, s.memberToken)).statements).toBeGreaterThan(0);

    // Nobody else gets it: not the next anonymous visitor, not another logged-in user.
    const after = await graphql(t.app, { slug: "farm" });
    expect(after.data.viewer).toBeNull();
    expect(after.body).toBe(anonymous.body);
    const owner = await graphql(t.app, { slug: "farm" }, s.ownerToken);
    expect(owner.data.viewer.id).not.toBe(member.data.viewer.id);
    expect(owner.data.viewer.subscriptions).toEqual([]);
  });

  it("caches no operation with a root field other than the public page's", async () => {
    const home = `{ homePage { brandName } }`;
    await graphql(t.app, {}, undefined, home);
    expect((await graphql(t.app, {}, undefined, home)).statements).toBeGreaterThan(0);
    const mixed = `query($slug: String!) { business(slug: $slug) { name } homePage { brandName } }`;
    await graphql(t.app, { slug: "farm" }, undefined, mixed);
    expect((await graphql(t.app, { slug: "farm" }, undefined, mixed)).statements).toBeGreaterThan(0);
  });
});

describe("public page cache off (PUBLIC_CACHE_TTL_SECONDS=0, the tests' default)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ logQueries: true });
    t.db.onStatement(() => statements++);
    await seedFarm(t);
  });
  afterAll(() => t?.close());

  it("computes every read", async () => {
    await graphql(t.app, { slug: "farm" });
    expect((await graphql(t.app, { slug: "farm" })).statements).toBeGreaterThan(0);
    const first = await restPage(t.app, "farm");
    const second = await restPage(t.app, "farm");
    expect(second.statements).toBeGreaterThan(0);
    expect(second.headers.etag).toBe(first.headers.etag);
  });
});

describe("two server processes on one database, without Redis", () => {
  let t: TestApp;
  let s: Farm;
  let other: App;
  const ttlMs = 4000;
  beforeAll(async () => {
    t = await createTestApp({ logQueries: true, config: { publicCacheTtlMs: ttlMs } });
    t.db.onStatement(() => statements++);
    s = await seedFarm(t);
    other = await buildApp({ config: t.config, db: t.db, clock: t.clock, logger: pino({ level: "silent" }) });
    await other.ready();
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  it("the other process shows an edit once its entry's lifetime (PUBLIC_CACHE_TTL_SECONDS) is over", async () => {
    const warmed = Date.now();
    await restPage(other, "farm");
    await saveThroughRest(t.app, s.ownerToken, s.farm.id, "Edited elsewhere");
    expect(brandOfRest(await restPage(t.app, "farm"))).toBe("Edited elsewhere");
    const stale = await restPage(other, "farm");
    if (Date.now() - warmed < ttlMs - 500) expect(brandOfRest(stale)).toBe("Farm");
    await new Promise((r) => setTimeout(r, Math.max(0, warmed + ttlMs + 200 - Date.now())));
    expect(brandOfRest(await restPage(other, "farm"))).toBe("Edited elsewhere");
  });
});

describe("REDIS_URL set but Redis unreachable", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ logQueries: true, config: { publicCacheTtlMs: TTL_MS, redisUrl: "redis://127.0.0.1:1" } });
    t.db.onStatement(() => statements++);
    await seedFarm(t);
  });
  afterAll(() => t?.close());

  it("serves nothing from the cache, since it would miss other processes' invalidations", async () => {
    expect(await t.app.publicCache.ready(300)).toBe(false);
    await graphql(t.app, { slug: "farm" });
    expect((await graphql(t.app, { slug: "farm" })).statements).toBeGreaterThan(0);
    await restPage(t.app, "farm");
    expect((await restPage(t.app, "farm")).statements).toBeGreaterThan(0);
  });
});

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

async function redisAnswers(url: string): Promise<boolean> {
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1000 });
  probe.on("error", () => {});
  try {
    await probe.connect();
    return (await probe.ping()) === "PONG";
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

const redisUp = await redisAnswers(REDIS_URL);
if (!redisUp) console.warn(`public-cache.test.ts: no Redis at ${REDIS_URL}: the two-process Redis tests are skipped`);

describe.runIf(redisUp)("two server processes on one database, sharing Redis", () => {
  let t: TestApp;
  let s: Farm;
  let other: App;
  beforeAll(async () => {
    // Its own channel: another test run on this Redis (another database) never interferes.
    t = await createTestApp({ logQueries: true, config: { publicCacheTtlMs: TTL_MS, redisUrl: REDIS_URL, dataDir: `/tmp/public-cache-test-${process.pid}-${Date.now()}` } });
    t.db.onStatement(() => statements++);
    s = await seedFarm(t);
    other = await buildApp({ config: t.config, db: t.db, clock: t.clock, logger: pino({ level: "silent" }) });
    await other.ready();
    expect(await t.app.publicCache.ready()).toBe(true);
    expect(await other.publicCache.ready()).toBe(true);
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  /** The first read that shows `brand` within 2 s (one pub/sub message), with the stale reads before it. */
  async function eventually(read: () => Promise<string>, brand: string): Promise<string> {
    const until = Date.now() + 2000;
    let seen = await read();
    while (seen !== brand && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 10));
      seen = await read();
    }
    return seen;
  }

  it("an edit through either process drops the other's cached pages", async () => {
    // Both processes answer from their caches.
    await graphql(other, { slug: "farm" });
    await restPage(other, "farm");
    expect((await graphql(other, { slug: "farm" })).statements).toBe(0);
    expect((await restPage(other, "farm")).statements).toBe(0);
    await graphql(t.app, { slug: "farm" });
    expect((await graphql(t.app, { slug: "farm" })).statements).toBe(0);

    await saveThroughGraphQL(t.app, s.ownerToken, s.farm.id, "Saved on A", "Box A");
    expect(await eventually(async () => brandOfGraphQL(await graphql(other, { slug: "farm" })), "Saved on A")).toBe("Saved on A");
    expect(brandOfRest(await restPage(other, "farm"))).toBe("Saved on A");

    await saveThroughRest(other, s.ownerToken, s.farm.id, "Saved on B");
    expect(await eventually(async () => brandOfGraphQL(await graphql(t.app, { slug: "farm" })), "Saved on B")).toBe("Saved on B");
    expect(brandOfRest(await restPage(t.app, "farm"))).toBe("Saved on B");
  });
});
