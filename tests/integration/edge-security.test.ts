/**
 * The server's edge: one CORS policy for /graphql and /api (the main host and its
 * tenant subdomains, scheme checked; any other Origin gets no Access-Control-* header at all, preflight
 * included), GraphQL introspection in production only for partner API tokens and administrators, and no
 * internal error text (Prisma messages and codes, SQL, source paths) in any production answer, each masked
 * error logged with its request id.
 */
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig, type Config } from "../../api/config.ts";
import { corsPolicy } from "../../server/cors.ts";
import { openDatabase, type Database } from "../../api/db.ts";
import { buildApp, type App } from "../../server/app.ts";
import { FixedClock } from "../../api/shared/clock.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { createTestDatabase } from "../support/database.ts";
import { factories } from "../support/factories.ts";

const NOW = "2026-03-05T15:00:00Z";

/** Every Access-Control-* header of an answer. */
const accessControl = (headers: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase().startsWith("access-control-")));

/** One simple request and one preflight on each of /graphql and /api, from `origin`. */
async function corsAnswers(app: App, origin: string) {
  const simpleGraphQL = await app.inject({
    method: "POST",
    url: "/graphql",
    headers: { origin, "content-type": "application/json" },
    payload: { query: "{ __typename }" },
  });
  const simpleRest = await app.inject({ method: "GET", url: "/api/auth/check-username/someone", headers: { origin, "x-tenant": "alpha" } });
  const preflight = (url: string) =>
    app.inject({
      method: "OPTIONS",
      url,
      headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type, authorization, x-tenant" },
    });
  return {
    simpleGraphQL,
    simpleRest,
    preflightGraphQL: await preflight("/graphql"),
    preflightRest: await preflight("/api/auth/login"),
  };
}

async function expectAllowed(app: App, origin: string) {
  const answers = await corsAnswers(app, origin);
  expect(answers.simpleGraphQL.statusCode).toBe(200);
  expect(answers.simpleRest.statusCode).toBe(200);
  for (const [name, res] of Object.entries(answers)) {
    expect(res.headers["access-control-allow-origin"], `${name} from ${origin}`).toBe(origin);
    expect(res.headers["access-control-allow-credentials"], `${name} from ${origin}`).toBe("true");
    expect(String(res.headers.vary), `${name} from ${origin}`).toMatch(/origin/i);
  }
  for (const res of [answers.preflightGraphQL, answers.preflightRest]) {
    expect(res.statusCode).toBe(204);
    expect(String(res.headers["access-control-allow-methods"])).toMatch(/POST/);
    expect(String(res.headers["access-control-allow-headers"])).toMatch(/authorization/);
  }
}

async function expectRefused(app: App, origin: string) {
  const answers = await corsAnswers(app, origin);
  // The request itself is served (a browser just keeps the answer from the page's script): no header says yes.
  expect(answers.simpleGraphQL.statusCode).toBe(200);
  expect(answers.simpleRest.statusCode).toBe(200);
  for (const [name, res] of Object.entries(answers)) {
    expect(accessControl(res.headers), `${name} from ${origin}`).toEqual({});
  }
  expect(answers.preflightGraphQL.statusCode).not.toBe(204);
  expect(answers.preflightRest.statusCode).not.toBe(204);
}

/** Look-alikes of localhost:3000 and other origins that are neither the main host nor a tenant of it. */
const LOOK_ALIKES = [
  "null",
  "http://evil-localhost:3000",
  "http://localhost:3000.evil.com",
  "http://xlocalhost:3000",
  "http://a.b.localhost:3000",
  "http://www.localhost:3000",
  "http://-bad-.localhost:3000",
  "http://localhost:3001",
  "http://acme.localhost:3001",
  "http://localhost",
  "http://evil.com",
  "http://localhost:3000@evil.com",
  "http://localhost:3000/",
  "ftp://localhost:3000",
  "file://",
  "chrome-extension://abcdefghijklmnop",
];

describe("CORS policy", () => {
  it("allows the main host and single-label tenant subdomains with the environment's schemes only", () => {
    const dev = corsPolicy({ publicHost: "localhost:3000", production: false });
    for (const origin of ["http://localhost:3000", "https://localhost:3000", "http://acme.localhost:3000", "https://green-acres.localhost:3000", "HTTP://LOCALHOST:3000"]) {
      expect(dev.allows(origin), origin).toBe(true);
    }
    for (const origin of [undefined, "", ...LOOK_ALIKES]) expect(dev.allows(origin), String(origin)).toBe(false);

    const prod = corsPolicy({ publicHost: "shop.example", production: true });
    expect(prod.allows("https://shop.example")).toBe(true);
    expect(prod.allows("https://acme.shop.example")).toBe(true);
    for (const origin of [
      "http://shop.example",
      "http://acme.shop.example",
      "https://shop.example:8443",
      "https://evilshop.example",
      "https://shop.example.evil.com",
      "https://a.b.shop.example",
      "https://www.shop.example",
      "null",
    ]) {
      expect(prod.allows(origin), origin).toBe(false);
    }
  });
});

describe("production edge", () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    // The public cache on, so the cached answer path is covered too.
    t = await createTestApp({ now: NOW, config: { env: "production", publicCacheTtlMs: 60_000 } });
    const f = factories(t);
    const alpha = await f.business({ slug: "alpha", name: "Alpha", page: {} });
    const admin = await f.user({ username: "root", isAdmin: true });
    tokens.admin = await f.session(admin);
    const owner = await f.user({ username: "owner" });
    await f.attach(alpha, owner, "OWNER");
    tokens.owner = await f.session(owner);
    tokens.member = await f.session(await f.user({ username: "member" }), "alpha");
    tokens.partner = await f.partnerToken(alpha, owner);
  });
  afterAll(() => t.close());

  it("gives the main host and a tenant subdomain (https) the CORS headers with credentials, on /graphql and /api, simple and preflight", async () => {
    await expectAllowed(t.app, "https://localhost:3000");
    await expectAllowed(t.app, "https://alpha.localhost:3000");
    // A tenant that does not exist yet is still a tenant-shaped origin of ours.
    await expectAllowed(t.app, "https://some-farm.localhost:3000");
  });

  it("gives no Access-Control-* header at all to null, look-alikes, other hosts and plain http", async () => {
    for (const origin of [...LOOK_ALIKES, "http://localhost:3000", "http://alpha.localhost:3000", "https://evil-localhost:3000", "https://localhost:3000.evil.com"]) {
      await expectRefused(t.app, origin);
    }
  });

  it("adds no Access-Control-* header without an Origin, and none on a cached public answer for a refused origin", async () => {
    const noOrigin = await t.app.inject({ method: "POST", url: "/graphql", headers: { "content-type": "application/json" }, payload: { query: "{ __typename }" } });
    expect(accessControl(noOrigin.headers)).toEqual({});

    const page = { query: `{ business(slug: "alpha") { name } }` };
    for (let i = 0; i < 2; i++) {
      const refused = await t.app.inject({ method: "POST", url: "/graphql", headers: { origin: "https://evil.com", "content-type": "application/json" }, payload: page });
      expect(refused.json().data.business.name).toBe("Alpha");
      expect(accessControl(refused.headers)).toEqual({});
      const allowed = await t.app.inject({ method: "POST", url: "/graphql", headers: { origin: "https://alpha.localhost:3000", "content-type": "application/json" }, payload: page });
      expect(allowed.headers["access-control-allow-origin"]).toBe("https://alpha.localhost:3000");
    }
  });

  const INTROSPECTION = `{ __schema { queryType { name } } }`;
  const TYPE = `{ __type(name: "Business") { name fields { name } } }`;

  it("refuses introspection to anonymous clients, members and business staff with a readable GraphQL error", async () => {
    for (const who of [null, "member", "owner"] as const) {
      for (const query of [INTROSPECTION, TYPE, `query { business(slug: "alpha") { name } __schema { types { name } } }`]) {
        const res = await t.gql(query, {}, { token: who ? tokens[who] : null });
        expect(res.data?.__schema ?? res.data?.__type, `${who}: ${query}`).toBeUndefined();
        expect(res.errors?.[0]?.message, `${who}: ${query}`).toMatch(/Introspection is available to partner API tokens and administrators only/);
        expect(res.errors?.[0]?.extensions?.code).toBe("INTROSPECTION_DISABLED");
      }
    }
    // Over GET and with the GraphQL response media type: HTTP 400, same message.
    const get = await t.app.inject({ method: "GET", url: `/graphql?query=${encodeURIComponent(INTROSPECTION)}`, headers: { accept: "application/graphql-response+json" } });
    expect(get.statusCode).toBe(400);
    expect(get.json().errors[0].message).toMatch(/Introspection is available/);
    // __typename is not introspection of the schema.
    expect((await t.gqlOk(`{ __typename }`)).__typename).toBe("Query");
  });

  it("answers introspection to an administrator and a partner token (and still refuses anonymous afterwards)", async () => {
    for (const who of ["admin", "partner"] as const) {
      expect((await t.gqlOk(INTROSPECTION, {}, { token: tokens[who] })).__schema.queryType.name).toBe("Query");
      expect((await t.gqlOk(TYPE, {}, { token: tokens[who] })).__type.name).toBe("Business");
    }
    // Same documents right after an allowed validation: the validation cache must not carry it over.
    expect((await t.gql(INTROSPECTION)).errors?.[0]?.extensions?.code).toBe("INTROSPECTION_DISABLED");
    expect((await t.gql(TYPE, {}, { token: tokens.member })).errors?.[0]?.extensions?.code).toBe("INTROSPECTION_DISABLED");
  });

  it("keeps a domain error's own message in production (it is written for users), not 'Unexpected error.'", async () => {
    const res = await t.gql(`{ adminBusiness(id: 1) { name } }`);
    expect(res.errors?.[0]).toMatchObject({ message: "Please log in to continue.", extensions: { code: "UNAUTHENTICATED", reason: "unauthenticated" } });
  });
});

describe("outside production", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ now: NOW, config: { env: "development" } });
  });
  afterAll(() => t.close());

  it("applies the same CORS policy (http allowed for the local host)", async () => {
    await expectAllowed(t.app, "http://localhost:3000");
    await expectAllowed(t.app, "http://acme.localhost:3000");
    for (const origin of LOOK_ALIKES) await expectRefused(t.app, origin);
  });

  it("keeps introspection open (GraphiQL, the Relay compiler)", async () => {
    expect((await t.gqlOk(`{ __schema { queryType { name } } }`)).__schema.queryType.name).toBe("Query");
  });
});

/** Prisma, driver and SQL text that must never reach a client in production. */
const INTERNAL_TEXT = /prisma|P\d{4}\b|invocation|pglite|ECONNREFUSED|can't reach|does not exist|\bselect\b|\bfrom "|\.ts:\d|sessions\.ts|database server|findUnique|queryRaw/i;

/** A production server on a database that is gone, with its log lines kept. */
async function brokenServer(db: Database, env: Config["env"] = "production") {
  const lines: Record<string, any>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split("\n")) if (line.trim()) lines.push(JSON.parse(line));
      done();
    },
  });
  const app = await buildApp({ config: testConfig({ env }), db, clock: new FixedClock(NOW), logger: pino({ level: "debug" }, sink) });
  await app.ready();
  return { app, lines };
}

/** The requests each broken-database case sends: GraphQL and REST, anonymous and with a token. */
function brokenRequests(token: string) {
  const auth = { authorization: `Bearer ${token}` };
  return [
    { name: "GraphQL anonymous query", method: "POST", url: "/graphql", headers: {}, payload: { query: `{ business(slug: "alpha") { name } }` } },
    { name: "GraphQL anonymous mutation", method: "POST", url: "/graphql", headers: {}, payload: { query: `mutation { login(input: { username: "member", password: "member1234" }) { __typename } }` } },
    { name: "GraphQL with a session", method: "POST", url: "/graphql", headers: auth, payload: { query: `{ viewer { username } }` } },
    { name: "REST public page", method: "GET", url: "/api/businesses/alpha/page", headers: {} },
    { name: "REST login", method: "POST", url: "/api/auth/login", headers: { "x-tenant": "alpha" }, payload: { username: "member", password: "member1234" } },
    { name: "REST with a session", method: "GET", url: "/api/my/subscriptions", headers: { ...auth, "x-tenant": "alpha" } },
  ] as const;
}

async function expectMaskedAndLogged(server: { app: App; lines: Record<string, any>[] }, token: string) {
  for (const r of brokenRequests(token)) {
    server.lines.length = 0;
    const res = await server.app.inject({ method: r.method, url: r.url, headers: r.headers, payload: "payload" in r ? r.payload : undefined });
    expect(res.body, r.name).not.toMatch(INTERNAL_TEXT);
    expect(JSON.stringify(res.headers), r.name).not.toMatch(INTERNAL_TEXT);
    const body = res.json();
    if (r.url === "/graphql") {
      expect(body.errors?.[0]?.message, r.name).toBe("Unexpected error.");
    } else {
      expect(res.statusCode, r.name).toBe(500);
      expect(body, r.name).toEqual({ error: "Internal server error" });
    }
    // The detail is in the log, on a line carrying the request id of this request.
    const incoming = server.lines.find((l) => l.msg === "incoming request");
    expect(incoming?.reqId, r.name).toBeTruthy();
    const errors = server.lines.filter((l) => l.level >= 50);
    expect(errors.length, `${r.name}: ${JSON.stringify(server.lines)}`).toBeGreaterThan(0);
    for (const line of errors) {
      expect(line.reqId, r.name).toBe(incoming!.reqId);
      expect(line.err?.message ?? line.err?.type, r.name).toBeTruthy();
    }
  }
  // Liveness does not depend on the database; readiness names the problem in a few words, never its text.
  const health = await server.app.inject({ method: "GET", url: "/healthz" });
  expect(health.statusCode).toBe(200);
  expect(health.json()).toEqual({ ok: true });
  const ready = await server.app.inject({ method: "GET", url: "/readyz" });
  expect(ready.statusCode).toBe(503);
  expect(ready.json()).toEqual({ ready: false, reason: "database unreachable" });
}

describe("production answers with the database gone", () => {
  it("carry no Prisma or SQL text when the database was closed and dropped under the server, and each is logged with its request id", async () => {
    const db = await createTestDatabase();
    const server = await brokenServer(db);
    const f = factories({ db, clock: new FixedClock(NOW), config: testConfig() } as unknown as TestApp);
    await f.business({ slug: "alpha", name: "Alpha", page: {} });
    const token = await f.session(await f.user({ username: "member" }), "alpha");
    await db.drop();
    try {
      await expectMaskedAndLogged(server, token);
    } finally {
      await server.app.close();
    }
  });

  it("carry no Prisma code (P1001) or text when the database server cannot be reached", async () => {
    const db = await openDatabase({ url: "postgresql://postgres@127.0.0.1:1/unreachable", poolSize: 1 });
    const server = await brokenServer(db);
    try {
      await expectMaskedAndLogged(server, "mps_0000000000000000000000000000000000000000000");
      // The log keeps what the answer left out.
      server.lines.length = 0;
      await server.app.inject({ method: "POST", url: "/graphql", headers: { authorization: "Bearer mps_x" }, payload: { query: "{ viewer { username } }" } });
      // Prisma's words (P1001, "Can't reach database server") or the driver's (the session statement runs on it).
      expect(JSON.stringify(server.lines)).toMatch(/P1001|reach database|ECONNREFUSED 127\.0\.0\.1:1/);
    } finally {
      await server.app.close();
      await db.close().catch(() => {});
    }
  });

  it("outside production still show the detail (development)", async () => {
    const db = await openDatabase({ url: "postgresql://postgres@127.0.0.1:1/unreachable", poolSize: 1 });
    const server = await brokenServer(db, "development");
    try {
      const res = await server.app.inject({ method: "POST", url: "/graphql", headers: { authorization: "Bearer mps_x" }, payload: { query: "{ viewer { username } }" } });
      expect(res.statusCode).toBe(500);
      expect(res.body).toMatch(/reach database|ECONNREFUSED 127\.0\.0\.1:1/);
    } finally {
      await server.app.close();
      await db.close().catch(() => {});
    }
  });
});
