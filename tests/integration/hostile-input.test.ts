/**
 * Hostile input: NUL and other control characters, JSON nested deeper than 32 levels and arrays
 * over 1,000 entries are refused at the edge with our clear-error shapes (REST 400 `{ error, reason:
 * "invalid_input", issues }`, GraphQL HTTP 400 `{ errors: [{ message, extensions: { reason, issues } }] }`)
 * before any service runs, so nothing is written; single-line fields refuse tabs and line breaks through
 * their zod rule while multi-line text keeps them.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../api/auth/passwords.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories } from "../support/factories.ts";

const NUL = "\u0000";
const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4e80000000049454e44ae426082", "hex");

let t: TestApp;
let uploadsDir: string;
let adminToken: string;
let ownerToken: string;
let memberToken: string;
let farmId: number;
let memberId: number;

beforeAll(async () => {
  uploadsDir = fs.mkdtempSync(path.join(os.tmpdir(), "hostile-uploads-"));
  t = await createTestApp({ config: { uploadsDir } });
  const f = factories(t);
  const farm = await f.business({ slug: "farm", name: "Farm", page: { pickupEnabled: true, pickupPoints: ["1 Barn Rd"] } });
  farmId = farm.id;
  const plan = await t.db.prisma.plan.create({
    data: { businessId: farm.id, ref: "item_veg", name: "Veg Box", variations: { create: [{ mode: "PICKUP", amountCents: 2400 }] } },
  });
  await t.db.prisma.addon.create({ data: { businessId: farm.id, ref: "addon_eggs", name: "Eggs", amountCents: 500 } });
  await f.coupon({ code: "WELCOME10" });
  const admin = await f.user({ username: "root", isAdmin: true });
  const owner = await f.user({ username: "olivia" });
  await f.attach(farm, owner, "OWNER");
  const member = await t.db.prisma.user.create({ data: { username: "mara", passwordHash: await hashPassword("member1234"), name: "Mara", email: "mara@example.com" } });
  memberId = member.id;
  await f.subscription({ user: member, business: farm, plan, planAmountCents: 2400, email: "mara@example.com" });
  adminToken = await f.session(admin);
  ownerToken = await f.session(owner);
  memberToken = await f.session(member, "farm");
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(uploadsDir, { recursive: true, force: true });
});

// ── Helpers ──────────────────────────────────────────────────────────────────────────────────────────

/** Every row of every table (and the uploads folder): a refused request must leave all of it as it was. */
async function snapshot(): Promise<string> {
  const db = t.db.prisma;
  const tables = await db.$queryRawUnsafe<{ name: string }[]>(
    `SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations' ORDER BY 1`,
  );
  const rows: Record<string, unknown> = {};
  for (const { name } of tables) rows[name] = await db.$queryRawUnsafe(`SELECT to_jsonb(x)::text AS row FROM "${name}" x ORDER BY 1`);
  return JSON.stringify({ rows, uploads: fs.readdirSync(uploadsDir).sort() });
}

/** Runs a request and fails unless every table and the uploads folder are unchanged afterwards. */
async function nothingWritten<T>(request: () => Promise<T>): Promise<T> {
  const before = await snapshot();
  const result = await request();
  expect(await snapshot()).toBe(before);
  return result;
}

interface Req {
  method: "GET" | "POST" | "DELETE";
  url: string;
  token?: string;
  tenant?: string;
  payload?: unknown;
  headers?: Record<string, string>;
}

async function call(r: Req) {
  const headers: Record<string, string> = { ...r.headers };
  if (r.token) headers.authorization = `Bearer ${r.token}`;
  if (r.tenant) headers["x-tenant"] = r.tenant;
  if (r.payload !== undefined && !headers["content-type"]) headers["content-type"] = "application/json";
  const payload = r.payload === undefined ? undefined : typeof r.payload === "string" || Buffer.isBuffer(r.payload) ? r.payload : JSON.stringify(r.payload);
  const res = await t.app.inject({ method: r.method, url: r.url, headers, payload });
  let body: any = res.body;
  try {
    body = res.json();
  } catch {
    /* not JSON */
  }
  return { status: res.statusCode, body };
}

/** A REST refusal in rest-compat's shape, naming the offending input. */
function expectRestRefusal(res: { status: number; body: any }, pathName: string | RegExp, message: RegExp) {
  expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(400);
  expect(res.body).toMatchObject({ reason: "invalid_input" });
  expect(res.body.error).toMatch(message);
  const path = typeof pathName === "string" ? pathName : expect.stringMatching(pathName);
  expect(res.body.issues).toEqual(expect.arrayContaining([{ path, message: expect.stringMatching(message) }]));
}

/** A GraphQL refusal: HTTP 400, one readable error with the same reason and issues as REST. */
function expectGraphQLRefusal(res: { status: number; body: any }, pathName: string | RegExp | null, message: RegExp) {
  expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(400);
  expect(res.body.data ?? null).toBeNull();
  expect(res.body.errors).toHaveLength(1);
  const [error] = res.body.errors;
  expect(error.message).toMatch(message);
  expect(error.extensions).toMatchObject({ code: "BAD_USER_INPUT", reason: "invalid_input" });
  if (pathName !== null) {
    const path = typeof pathName === "string" ? pathName : expect.stringMatching(pathName);
    expect(error.extensions.issues).toEqual(expect.arrayContaining([{ path, message: expect.stringMatching(message) }]));
  }
}

const CONTROL = /control character/i;
const TOO_DEEP = /nested.*32/i;
const TOO_LONG = /1,000/;

const gqlPost = (body: unknown, o: { token?: string; tenant?: string } = {}) => call({ method: "POST", url: "/graphql", payload: body, ...o });
const gqlGet = (query: string, variables?: unknown, o: { token?: string } = {}) =>
  call({
    method: "GET",
    url: `/graphql?query=${encodeURIComponent(query)}${variables === undefined ? "" : `&variables=${encodeURIComponent(JSON.stringify(variables))}`}`,
    headers: { accept: "application/json" },
    ...o,
  });

function multipart(parts: { name: string; filename?: string; value: Buffer | string }[]) {
  const boundary = "----hostile-input-boundary";
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ""}`;
    const type = p.filename !== undefined ? "\r\nContent-Type: image/png" : "";
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`), Buffer.from(p.value), Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

/** `levels` levels of JSON arrays around 0, as text (a value this deep would overflow JSON.stringify). */
const nestedJson = (levels: number) => `${"[".repeat(levels)}0${"]".repeat(levels)}`;

// ── NUL bytes through every REST route family ───────────────────────────────────────────────────────

describe("REST: a NUL byte anywhere is a clear 400, nothing written", () => {
  const cases: [string, () => Req, string][] = [
    ["login username", () => ({ method: "POST", url: "/api/auth/login", payload: { username: `mara${NUL}`, password: "member1234" } }), "username"],
    ["login password", () => ({ method: "POST", url: "/api/auth/login", payload: { username: "mara", password: `member1234${NUL}` } }), "password"],
    ["register name", () => ({ method: "POST", url: "/api/auth/register", tenant: "farm", payload: { username: "newbie", password: "long-enough-1", name: `New${NUL}bie` } }), "name"],
    ["register username", () => ({ method: "POST", url: "/api/auth/register", tenant: "farm", payload: { username: `new${NUL}bie`, password: "long-enough-1" } }), "username"],
    ["check-username route param", () => ({ method: "GET", url: "/api/auth/check-username/ma%00ra", tenant: "farm" }), "username"],
    ["profile name", () => ({ method: "POST", url: "/api/my/profile", token: memberToken, payload: { profile: { name: `Mara${NUL}` } } }), "profile.name"],
    ["profile address", () => ({ method: "POST", url: "/api/my/profile", token: memberToken, payload: { profile: { address: { street: `1 Main St${NUL}` } } } }), "profile.address.street"],
    ["change password", () => ({ method: "POST", url: "/api/my/change-password", token: memberToken, payload: { currentPassword: "member1234", newPassword: `new${NUL}password` } }), "newPassword"],
    [
      "checkout coupon code",
      () => ({
        method: "POST",
        url: "/api/create-payment-intent",
        token: memberToken,
        tenant: "farm",
        payload: { selection: { businessSlug: "farm", chosenItemId: "item_veg", mode: "pickup", couponCode: `WELCOME10${NUL}` }, customer_info: { email: "mara@example.com" } },
      }),
      "selection.couponCode",
    ],
    ["checkout address", () => ({ method: "POST", url: "/api/create-payment-intent", token: memberToken, tenant: "farm", payload: { selection: { businessSlug: "farm", chosenItemId: "item_veg", mode: "pickup", address: { city: `Akron${NUL}` } } } }), "selection.address.city"],
    ["business name", () => ({ method: "POST", url: "/api/admin/businesses", token: adminToken, payload: { name: `Bad${NUL}Biz` } }), "name"],
    ["business slug", () => ({ method: "POST", url: "/api/admin/businesses", token: adminToken, payload: { name: "Good Biz", slug: `good${NUL}` } }), "slug"],
    ["page brand name", () => ({ method: "POST", url: `/api/admin/businesses/${farmId}/page`, token: ownerToken, payload: { content: { brand: { name: `Farm${NUL}` } } } }), "content.brand.name"],
    [
      "catalogue plan name",
      () => ({ method: "POST", url: `/api/admin/businesses/${farmId}/page`, token: ownerToken, payload: { content: { itemsSnapshot: [{ name: `Veg${NUL}`, variations: [{ name: "pickup", amount: 100 }] }] } } }),
      "content.itemsSnapshot.0.name",
    ],
    ["home page FAQ answer", () => ({ method: "POST", url: "/api/admin/page", token: adminToken, payload: { content: { faqs: [{ q: "Why?", a: `Because${NUL}` }] } } }), "content.faqs.0.a"],
    ["next box content", () => ({ method: "POST", url: `/api/admin/businesses/${farmId}/next-box`, token: ownerToken, payload: { content: `<p>Kale${NUL}</p>` } }), "content"],
    ["coupon code", () => ({ method: "POST", url: "/api/admin/coupons", token: adminToken, payload: { code: `SPRING${NUL}`, type: "percent", value: 5 } }), "code"],
    ["admin user", () => ({ method: "POST", url: "/api/admin/users", token: adminToken, payload: { username: `ne${NUL}w`, password: "long-enough-1" } }), "username"],
    ["business user role", () => ({ method: "POST", url: `/api/admin/businesses/${farmId}/users`, token: adminToken, payload: { user_id: memberId, role: `viewer${NUL}` } }), "role"],
    ["user search query string", () => ({ method: "GET", url: "/api/admin/users/search?q=ma%00", token: adminToken }), "q"],
    ["business user search", () => ({ method: "GET", url: `/api/admin/businesses/${farmId}/user-search?q=%00`, token: ownerToken }), "q"],
    ["memberships search", () => ({ method: "GET", url: "/api/admin/memberships?q=mara%00", token: adminToken }), "q"],
    ["memberships business filter", () => ({ method: "GET", url: "/api/admin/memberships?business=fa%00rm", token: adminToken }), "business"],
    ["public page slug", () => ({ method: "GET", url: "/api/businesses/fa%00rm/page" }), "slug"],
    ["an object key", () => ({ method: "POST", url: "/api/auth/login", payload: { username: "mara", password: "member1234", [`x${NUL}`]: 1 } }), ""],
  ];

  it.each(cases)("%s", async (_name, request, pathName) => {
    const res = await nothingWritten(() => call(request()));
    expectRestRefusal(res, pathName, CONTROL);
  });

  it("refuses other control characters (DEL, C1, escape) and lone surrogates, keeps tabs, newlines and any other text", async () => {
    for (const bad of ["\u0007", "\u001b[31m", "\u007f", "\u0085", "\u009b", "\ud800", "x\udc00y"]) {
      const res = await nothingWritten(() => call({ method: "POST", url: "/api/my/profile", token: memberToken, payload: { profile: { name: `Mara ${bad}` } } }));
      expectRestRefusal(res, "profile.name", CONTROL);
    }
    const ok = await call({ method: "POST", url: "/api/my/profile", token: memberToken, payload: { profile: { name: "Mára 🥕 李 \u200d‏" } } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect((await t.db.prisma.user.findUniqueOrThrow({ where: { id: memberId } })).name).toBe("Mára 🥕 李 \u200d‏");
  });

  it("refuses a NUL in an upload's filename or in any multipart field, with no file and no row", async () => {
    const badName = multipart([{ name: "file", filename: `logo${NUL}.png`, value: PNG }]);
    const res = await nothingWritten(() => call({ method: "POST", url: "/api/admin/upload", token: adminToken, payload: badName.payload, headers: badName.headers }));
    expectRestRefusal(res, "file.filename", CONTROL);

    const badField = multipart([
      { name: "note", value: `hello${NUL}` },
      { name: "file", filename: "logo.png", value: PNG },
    ]);
    const res2 = await nothingWritten(() => call({ method: "POST", url: "/api/admin/upload", token: adminToken, payload: badField.payload, headers: badField.headers }));
    expectRestRefusal(res2, "note", CONTROL);

    // The same upload with a clean name is stored.
    const good = multipart([{ name: "file", filename: "logo.png", value: PNG }]);
    const ok = await call({ method: "POST", url: "/api/admin/upload", token: adminToken, payload: good.payload, headers: good.headers });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await t.db.prisma.upload.count({ where: { originalName: "logo.png" } })).toBe(1);
  });
});

// ── NUL bytes through GraphQL ────────────────────────────────────────────────────────────────────────

describe("GraphQL: a NUL byte in a variable or an inline literal is HTTP 400, nothing written", () => {
  const withVariables: [string, () => { query: string; variables: Record<string, unknown> }, () => { token?: string; tenant?: string }, string][] = [
    ["login", () => ({ query: "mutation($input: LoginInput!) { login(input: $input) { __typename } }", variables: { input: { username: `mara${NUL}`, password: "member1234" } } }), () => ({}), "variables.input.username"],
    ["register", () => ({ query: "mutation($input: RegisterInput!) { register(input: $input) { __typename } }", variables: { input: { username: "newbie", password: "long-enough-1", name: `N${NUL}` } } }), () => ({ tenant: "farm" }), "variables.input.name"],
    ["updateProfile name", () => ({ query: "mutation($input: UpdateProfileInput!) { updateProfile(input: $input) { __typename } }", variables: { input: { name: `Mara${NUL}` } } }), () => ({ token: memberToken }), "variables.input.name"],
    ["updateProfile address", () => ({ query: "mutation($input: UpdateProfileInput!) { updateProfile(input: $input) { __typename } }", variables: { input: { address: { city: `Akron${NUL}` } } } }), () => ({ token: memberToken }), "variables.input.address.city"],
    ["changePassword", () => ({ query: "mutation($input: ChangePasswordInput!) { changePassword(input: $input) { __typename } }", variables: { input: { currentPassword: "member1234", newPassword: `x${NUL}xxxxxxxx` } } }), () => ({ token: memberToken }), "variables.input.newPassword"],
    ["createCoupon", () => ({ query: "mutation($input: CreateCouponInput!) { createCoupon(input: $input) { __typename } }", variables: { input: { code: `SPRING${NUL}`, type: "PERCENT", value: 5 } } }), () => ({ token: adminToken }), "variables.input.code"],
    ["createBusiness", () => ({ query: "mutation($input: CreateBusinessInput!) { createBusiness(input: $input) { __typename } }", variables: { input: { name: `Bad${NUL}Biz` } } }), () => ({ token: adminToken }), "variables.input.name"],
    ["createUser", () => ({ query: "mutation($input: CreateUserInput!) { createUser(input: $input) { __typename } }", variables: { input: { username: `ne${NUL}w`, password: "long-enough-1" } } }), () => ({ token: adminToken }), "variables.input.username"],
    [
      "saveBusinessPage brand",
      () => ({ query: "mutation($input: SaveBusinessPageInput!) { saveBusinessPage(input: $input) { __typename } }", variables: { input: { businessId: farmId, content: { brand: { name: `Farm${NUL}` } } } } }),
      () => ({ token: ownerToken }),
      "variables.input.content.brand.name",
    ],
    [
      "saveBusinessPage plan",
      () => ({ query: "mutation($input: SaveBusinessPageInput!) { saveBusinessPage(input: $input) { __typename } }", variables: { input: { businessId: farmId, content: {}, plans: [{ name: `Veg${NUL}`, pickupCents: 100 }] } } }),
      () => ({ token: ownerToken }),
      "variables.input.plans.0.name",
    ],
    [
      "saveBusinessPage JSON document",
      () => ({
        query: "mutation($input: SaveBusinessPageInput!) { saveBusinessPage(input: $input) { __typename } }",
        variables: { input: { businessId: farmId, content: { descriptionDoc: { blocks: [{ type: "paragraph", data: { text: `Hi${NUL}` } }] } } } },
      }),
      () => ({ token: ownerToken }),
      "variables.input.content.descriptionDoc.blocks.0.data.text",
    ],
    [
      "startCheckout",
      () => ({
        query: "mutation($input: StartCheckoutInput!) { startCheckout(input: $input) { __typename } }",
        variables: { input: { email: "mara@example.com", idempotencyKey: "hostile-key-1", selection: { businessSlug: "farm", planRef: "item_veg", mode: "PICKUP", couponCode: `WELCOME10${NUL}` } } },
      }),
      () => ({ token: memberToken, tenant: "farm" }),
      "variables.input.selection.couponCode",
    ],
    ["users search", () => ({ query: "query($s: String) { users(search: $s) { edges { node { id } } } }", variables: { s: `ma${NUL}` } }), () => ({ token: adminToken }), "variables.s"],
    ["memberships search", () => ({ query: "query($s: String) { memberships(search: $s) { edges { node { id } } } }", variables: { s: `ma${NUL}` } }), () => ({ token: adminToken }), "variables.s"],
    ["userSearch", () => ({ query: "query($q: String!) { userSearch(query: $q) { id } }", variables: { q: `${NUL}` } }), () => ({ token: adminToken }), "variables.q"],
    ["business slug", () => ({ query: "query($slug: String!) { business(slug: $slug) { id } }", variables: { slug: `fa${NUL}rm` } }), () => ({}), "variables.slug"],
    ["usernameAvailable", () => ({ query: "query($u: String!) { usernameAvailable(username: $u) }", variables: { u: `ma${NUL}ra` } }), () => ({}), "variables.u"],
    [
      "checkoutQuote",
      () => ({ query: "query($s: CheckoutSelectionInput!) { checkoutQuote(selection: $s) { __typename } }", variables: { s: { businessSlug: "farm", planRef: "item_veg", mode: "PICKUP", couponCode: `W${NUL}` } } }),
      () => ({ token: memberToken }),
      "variables.s.couponCode",
    ],
  ];

  it.each(withVariables)("variables: %s", async (_name, body, opts, pathName) => {
    const res = await nothingWritten(() => gqlPost(body(), opts()));
    expectGraphQLRefusal(res, pathName, CONTROL);
  });

  const inline: [string, () => string, () => { token?: string; tenant?: string }, string][] = [
    ["createCoupon", () => 'mutation { createCoupon(input: { code: "SPRING\\u0000", type: PERCENT, value: 5 }) { __typename } }', () => ({ token: adminToken }), "createCoupon.input.code"],
    ["updateProfile", () => 'mutation { updateProfile(input: { address: { street: "1 Main\\u0000" } }) { __typename } }', () => ({ token: memberToken }), "updateProfile.input.address.street"],
    ["login", () => 'mutation { login(input: { username: "mara\\u0000", password: "member1234" }) { __typename } }', () => ({}), "login.input.username"],
    ["saveBusinessPage plan in a list", () => `mutation { saveBusinessPage(input: { businessId: ${farmId}, content: {}, plans: [{ name: "Veg\\u0000", pickupCents: 100 }] }) { __typename } }`, () => ({ token: ownerToken }), "saveBusinessPage.input.plans.0.name"],
    ["users search", () => '{ users(search: "ma\\u0000") { edges { node { id } } } }', () => ({ token: adminToken }), "users.search"],
    ["business slug", () => '{ business(slug: "fa\\u0000rm") { id } }', () => ({}), "business.slug"],
    ["block string with DEL", () => '{ business(slug: """fa\u007frm""") { id } }', () => ({}), "query"],
  ];

  it.each(inline)("inline literal: %s", async (_name, query, opts, pathName) => {
    const res = await nothingWritten(() => gqlPost({ query: query() }, opts()));
    expectGraphQLRefusal(res, pathName, CONTROL);
  });

  it("GET /graphql: a NUL in the variables or the query string", async () => {
    const q = "query($slug: String!) { business(slug: $slug) { id } }";
    expectGraphQLRefusal(await nothingWritten(() => gqlGet(q, { slug: `fa${NUL}rm` })), "variables.slug", CONTROL);
    expectGraphQLRefusal(await nothingWritten(() => gqlGet('{ business(slug: "fa\\u0000rm") { id } }')), "business.slug", CONTROL);
    expectGraphQLRefusal(await nothingWritten(() => call({ method: "GET", url: "/graphql?query=%7B%20viewer%20%7B%20id%20%7D%20%7D&operationName=%00" })), "operationName", CONTROL);
  });

  it("a clean request still works (the refusals are not a blanket 400)", async () => {
    const res = await gqlPost({ query: "query($slug: String!) { business(slug: $slug) { slug } }", variables: { slug: "farm" } });
    expect(res.status).toBe(200);
    expect(res.body.data.business.slug).toBe("farm");
  });
});

// ── Nesting deeper than 32 levels ────────────────────────────────────────────────────────────────────

describe("JSON nested deeper than 32 levels is refused promptly, before anything walks it", () => {
  it("REST: a 10,000-level body is a 400 in well under a second, nothing written", async () => {
    const payloads = [
      `{"username":"mara","password":"member1234","x":${nestedJson(10_000)}}`,
      nestedJson(10_000),
      `{"profile":{"name":"Mara","address":${"{\"a\":".repeat(10_000)}1${"}".repeat(10_000)}}}`,
    ];
    const paths = [/^x(\.0){31}$/, /^0(\.0){31}$/, /^profile\.address(\.a){30}$/];
    for (const [i, payload] of payloads.entries()) {
      const started = performance.now();
      const res = await nothingWritten(() => call({ method: "POST", url: i === 2 ? "/api/my/profile" : "/api/auth/login", token: i === 2 ? memberToken : undefined, payload }));
      const ms = performance.now() - started;
      console.log(`REST 10,000-level body #${i}: ${res.status} in ${ms.toFixed(0)} ms (with two table snapshots)`);
      expectRestRefusal(res, paths[i], TOO_DEEP);
    }
    const page = await nothingWritten(() =>
      call({ method: "POST", url: `/api/admin/businesses/${farmId}/page`, token: ownerToken, payload: `{"content":{"brand":{"name":"Farm"},"extra":${nestedJson(10_000)}}}` }),
    );
    expectRestRefusal(page, /^content\.extra(\.0)+$/, TOO_DEEP);
  });

  it("REST: 33 levels are refused, 32 are not", async () => {
    // The body object is level 1, so 31 arrays under "x" make 32 levels in all.
    const at = (levels: number) => `{"username":"mara","password":"member1234","x":${nestedJson(levels - 1)}}`;
    expectRestRefusal(await nothingWritten(() => call({ method: "POST", url: "/api/auth/login", payload: at(33) })), /^x(\.0){31}$/, TOO_DEEP);
    const ok = await call({ method: "POST", url: "/api/auth/login", payload: at(32) });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it("GraphQL: each variable may hold 32 levels, not 33", async () => {
    const body = (levels: number) => `{"query":"{ viewer { id } }","variables":{"x":${nestedJson(levels)}}}`;
    expectGraphQLRefusal(await nothingWritten(() => gqlPost(body(33))), /^variables\.x/, TOO_DEEP);
    const ok = await gqlPost(body(32));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toEqual({ data: { viewer: null } });
  });

  it("GraphQL: 10,000 levels in the variables (POST and GET) or in an inline literal are HTTP 400", async () => {
    const started = performance.now();
    const post = await nothingWritten(() =>
      gqlPost(
        `{"query":"mutation($input: SaveBusinessPageInput!) { saveBusinessPage(input: $input) { __typename } }","variables":{"input":{"businessId":${farmId},"content":{"descriptionDoc":${nestedJson(10_000)}}}}}`,
        { token: ownerToken },
      ),
    );
    console.log(`GraphQL 10,000-level variables: ${post.status} in ${(performance.now() - started).toFixed(0)} ms (with two table snapshots)`);
    expectGraphQLRefusal(post, /^variables\.input\.content\.descriptionDoc(\.0){30}$/, TOO_DEEP);

    const unused = await nothingWritten(() => gqlPost(`{"query":"{ viewer { id } }","variables":{"x":${nestedJson(10_000)}}}`));
    expectGraphQLRefusal(unused, /^variables\.x(\.0){32}$/, TOO_DEEP);

    const get = await nothingWritten(() => call({ method: "GET", url: `/graphql?query=${encodeURIComponent("{ viewer { id } }")}&variables=${encodeURIComponent(`{"x":${nestedJson(10_000)}}`)}` }));
    expectGraphQLRefusal(get, /^variables\.x(\.0){32}$/, TOO_DEEP);

    const literal = await nothingWritten(() =>
      gqlPost({ query: `mutation { saveBusinessPage(input: { businessId: ${farmId}, content: { descriptionDoc: ${nestedJson(10_000)} } }) { __typename } }` }, { token: ownerToken }),
    );
    // Refused from the document's text, before graphql-js (a recursive parser) reads it.
    expectGraphQLRefusal(literal, "query", TOO_DEEP);
    // Only clean texts are remembered (each is scanned once per process): the same text sent again is refused again.
    const again = await nothingWritten(() =>
      gqlPost({ query: `mutation { saveBusinessPage(input: { businessId: ${farmId}, content: { descriptionDoc: ${nestedJson(10_000)} } }) { __typename } }` }, { token: ownerToken }),
    );
    expectGraphQLRefusal(again, "query", TOO_DEEP);

    // 40 levels inline: refused from the parsed document, with the literal's path.
    const literal40 = await nothingWritten(() =>
      gqlPost({ query: `mutation { saveBusinessPage(input: { businessId: ${farmId}, content: { descriptionDoc: ${nestedJson(40)} } }) { __typename } }` }, { token: ownerToken }),
    );
    expectGraphQLRefusal(literal40, /^saveBusinessPage\.input\.content\.descriptionDoc(\.0){30}$/, TOO_DEEP);
  });
});

// ── Arrays over 1,000 entries ────────────────────────────────────────────────────────────────────────

describe("arrays over 1,000 entries are refused anywhere in the input", () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => `id_${i}`);

  it("REST body: 1,001 entries → 400 (a login with the right password opens no session); 1,000 pass", async () => {
    const res = await nothingWritten(() => call({ method: "POST", url: "/api/auth/login", payload: { username: "mara", password: "member1234", extra: many(1001) } }));
    expectRestRefusal(res, "extra", TOO_LONG);
    const page = await nothingWritten(() => call({ method: "POST", url: `/api/admin/businesses/${farmId}/page`, token: ownerToken, payload: { content: { itemIds: many(1001) } } }));
    expectRestRefusal(page, "content.itemIds", TOO_LONG);
    const ok = await call({ method: "POST", url: "/api/auth/login", payload: { username: "mara", password: "member1234", extra: many(1000) } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it("REST query string: a parameter repeated 1,001 times → 400", async () => {
    const res = await nothingWritten(() => call({ method: "GET", url: `/api/admin/users/search?${"q=a&".repeat(1001)}`, token: adminToken }));
    expectRestRefusal(res, "q", TOO_LONG);
  });

  it("GraphQL variables and inline lists: 1,001 entries → HTTP 400", async () => {
    const unused = await nothingWritten(() => gqlPost({ query: "{ viewer { id } }", variables: { junk: many(1001) } }));
    expectGraphQLRefusal(unused, "variables.junk", TOO_LONG);
    const selection = await nothingWritten(() =>
      gqlPost(
        { query: "query($s: CheckoutSelectionInput!) { checkoutQuote(selection: $s) { __typename } }", variables: { s: { businessSlug: "farm", planRef: "item_veg", mode: "PICKUP", addonRefs: many(1001) } } },
        { token: memberToken },
      ),
    );
    expectGraphQLRefusal(selection, "variables.s.addonRefs", TOO_LONG);
    const literal = await nothingWritten(() =>
      gqlPost(
        { query: `{ checkoutQuote(selection: { businessSlug: "farm", planRef: "item_veg", mode: PICKUP, addonRefs: [${many(1001).map((s) => `"${s}"`).join(" ")}] }) { __typename } }` },
        { token: memberToken },
      ),
    );
    expectGraphQLRefusal(literal, "checkoutQuote.selection.addonRefs", TOO_LONG);
  });
});

// ── Tabs and line breaks: single-line fields refuse them, multi-line text keeps them ────────────────

describe("single-line fields refuse tabs and line breaks (their zod rule); multi-line text keeps them", () => {
  const SINGLE_LINE = /single line/i;
  const UPDATE_PROFILE = "mutation($input: UpdateProfileInput!) { updateProfile(input: $input) { __typename ... on Error { message } ... on ValidationError { issues { path message } } } }";
  const CREATE_COUPON = "mutation($input: CreateCouponInput!) { createCoupon(input: $input) { __typename ... on Error { message } ... on ValidationError { issues { path message } } } }";
  const CREATE_BUSINESS = "mutation($input: CreateBusinessInput!) { createBusiness(input: $input) { __typename ... on Error { message } ... on ValidationError { issues { path message } } } }";
  const SAVE_PAGE = "mutation($input: SaveBusinessPageInput!) { saveBusinessPage(input: $input) { __typename ... on Error { message } ... on ValidationError { issues { path message } } } }";
  const LOGIN = "mutation($input: LoginInput!) { login(input: $input) { __typename ... on Error { message } ... on ValidationError { issues { path message } } } }";

  const typedRefusal = (result: any, pathName: string) => {
    expect(result.__typename, JSON.stringify(result)).toBe("ValidationError");
    expect(result.message).toMatch(SINGLE_LINE);
    expect(result.issues).toEqual(expect.arrayContaining([{ path: pathName, message: expect.stringMatching(SINGLE_LINE) }]));
  };

  it("GraphQL: the field's typed ValidationError, nothing written", async () => {
    const cases: [string, Record<string, unknown>, string, string][] = [
      [UPDATE_PROFILE, { input: { name: "Mara\tLee" } }, memberToken, "name"],
      [UPDATE_PROFILE, { input: { address: { street: "1 Main St\nApt 2" } } }, memberToken, "address.street"],
      [UPDATE_PROFILE, { input: { phone: "555\r\n1234" } }, memberToken, "phone"],
      [CREATE_COUPON, { input: { code: "SPRING\t10", type: "PERCENT", value: 5 } }, adminToken, "code"],
      [CREATE_BUSINESS, { input: { name: "Farm\tCo" } }, adminToken, "name"],
      [CREATE_BUSINESS, { input: { name: "Farm Co", slug: "farm\nco" } }, adminToken, "slug"],
      [SAVE_PAGE, { input: { businessId: farmId, content: { brand: { name: "Farm\nFresh" } } } }, ownerToken, "content.brand.name"],
      [SAVE_PAGE, { input: { businessId: farmId, content: { faqs: [{ q: "Why\nnot?", a: "Because" }] } } }, ownerToken, "content.faqs.0.q"],
      [SAVE_PAGE, { input: { businessId: farmId, content: {}, plans: [{ ref: "item_veg", name: "Veg\tBox", pickupCents: 2400 }] } }, ownerToken, "plans.0.name"],
    ];
    for (const [query, variables, token, pathName] of cases) {
      const res = await nothingWritten(() => gqlPost({ query, variables }, { token }));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      typedRefusal(Object.values(res.body.data)[0], pathName);
    }
    // A tab after a username is refused rather than trimmed away.
    const login = await nothingWritten(() => gqlPost({ query: LOGIN, variables: { input: { username: "mara\t", password: "member1234" } } }));
    typedRefusal(login.body.data.login, "username");
  });

  it("REST: 400 invalid_input naming the field, nothing written", async () => {
    const profile = await nothingWritten(() => call({ method: "POST", url: "/api/my/profile", token: memberToken, payload: { profile: { address: { city: "Akron\tOH" } } } }));
    expect(profile.status).toBe(400);
    expect(profile.body).toMatchObject({ reason: "invalid_input", error: expect.stringMatching(SINGLE_LINE) });
    expect(profile.body.issues[0].path).toMatch(/address\.city$/);
    const coupon = await nothingWritten(() => call({ method: "POST", url: "/api/admin/coupons", token: adminToken, payload: { code: "TAB\tCODE", type: "percent", value: 5 } }));
    expectRestRefusal(coupon, "code", SINGLE_LINE);
    const business = await nothingWritten(() => call({ method: "POST", url: "/api/admin/businesses", token: adminToken, payload: { name: "New\nBiz" } }));
    expectRestRefusal(business, "name", SINGLE_LINE);
  });

  it("multi-line text keeps its newlines and tabs: plan description, FAQ answer, Next Box", async () => {
    const res = await gqlPost(
      {
        query: SAVE_PAGE,
        variables: {
          input: {
            businessId: farmId,
            content: { brand: { name: "Farm" }, faqs: [{ q: "When?", a: "<p>Tuesdays\nand\tFridays</p>" }], fulfillment: { pickup: true } },
            plans: [{ ref: "item_veg", name: "Veg Box", description: "Line one\nLine two\twith a tab", pickupCents: 2400 }],
          },
        },
      },
      { token: ownerToken },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.saveBusinessPage.__typename, JSON.stringify(res.body)).toBe("SaveBusinessPageSuccess");
    const plan = await t.db.prisma.plan.findFirstOrThrow({ where: { businessId: farmId, ref: "item_veg" } });
    expect(plan.description).toBe("Line one\nLine two\twith a tab");
    const page = await t.db.prisma.page.findUniqueOrThrow({ where: { businessId: farmId } });
    expect(JSON.stringify(page.faqs)).toContain("Tuesdays\\nand");

    const box = await call({ method: "POST", url: `/api/admin/businesses/${farmId}/next-box`, token: ownerToken, payload: { content: "<p>Kale\nand chard</p>" } });
    expect(box.status, JSON.stringify(box.body)).toBe(200);
    expect(box.body.content).toContain("Kale\nand chard");
  });
});

describe("production", () => {
  it("answers the same refusals (not masked as unexpected errors)", async () => {
    const prod = await createTestApp({ config: { env: "production" } });
    try {
      const post = (payload: string) => prod.app.inject({ method: "POST", url: "/graphql", headers: { "content-type": "application/json" }, payload });
      const nul = await post(JSON.stringify({ query: "query($slug: String!) { business(slug: $slug) { id } }", variables: { slug: `fa${NUL}rm` } }));
      expectGraphQLRefusal({ status: nul.statusCode, body: nul.json() }, "variables.slug", CONTROL);
      const inline = await post(JSON.stringify({ query: '{ business(slug: "fa\\u0000rm") { id } }' }));
      expectGraphQLRefusal({ status: inline.statusCode, body: inline.json() }, "business.slug", CONTROL);
      const deep = await post(`{"query":"{ viewer { id } }","variables":{"x":${nestedJson(10_000)}}}`);
      expectGraphQLRefusal({ status: deep.statusCode, body: deep.json() }, /^variables\.x/, TOO_DEEP);
      const rest = await prod.app.inject({ method: "POST", url: "/api/auth/login", headers: { "content-type": "application/json" }, payload: JSON.stringify({ username: `a${NUL}`, password: "x" }) });
      expectRestRefusal({ status: rest.statusCode, body: rest.json() }, "username", CONTROL);
    } finally {
      await prod.close();
    }
  });
});
