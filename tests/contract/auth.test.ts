import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../api/auth/passwords.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { restClient } from "./helpers.ts";

let t: TestApp;
let call: ReturnType<typeof restClient>;
beforeAll(async () => {
  t = await createTestApp();
  call = restClient(t);
  await t.db.prisma.business.create({ data: { collectsOnPlatform: true, slug: "farm", name: "Farm" } });
  await t.db.prisma.user.create({ data: { username: "pat", passwordHash: await hashPassword("pat-password"), email: "pat@example.com" } });
});
afterAll(() => t.close());

describe("auth", () => {
  it("POST /api/auth/login: token, user and the tenant the session is bound to", async () => {
    const res = await call("POST", "/api/auth/login", { tenant: "farm", payload: { username: "pat", password: "pat-password" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tenant: "farm", user: { username: "pat", is_admin: false, email: "pat@example.com", name: null } });
    expect(res.body.token).toBeTypeOf("string");
    const session = await t.db.prisma.session.findFirstOrThrow({ where: { user: { username: "pat" } }, orderBy: { id: "desc" } });
    expect(session.tenantSlug).toBe("farm");
  });

  it("POST /api/auth/login: wrong password 401 with error and reason; missing fields 400", async () => {
    const res = await call("POST", "/api/auth/login", { payload: { username: "pat", password: "nope-nope" } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: "Invalid username or password", reason: "invalid_credentials" });
    const empty = await call("POST", "/api/auth/login", { payload: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBeTypeOf("string");
  });

  it("POST /api/auth/login: throttled with 429 after repeated failures", async () => {
    let last = 0;
    for (let i = 0; i < 12 && last !== 429; i++) {
      last = (await call("POST", "/api/auth/login", { payload: { username: "victim", password: "wrong-password" } })).status;
    }
    expect(last).toBe(429);
  });

  it("POST /api/auth/register: a member bound to the X-Tenant business", async () => {
    const res = await call("POST", "/api/auth/register", { tenant: "farm", headers: { "x-forwarded-for": "10.0.0.9" }, payload: { username: "newbie", password: "newbie-password" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tenant: "farm", user: { username: "newbie", is_admin: false } });
    const taken = await call("POST", "/api/auth/register", { tenant: "farm", payload: { username: "newbie", password: "another-password" } });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ error: "Username is already taken. Please choose a different one.", reason: "username_taken" });
  });

  it("POST /api/auth/register: invalid input 400, nothing created", async () => {
    const before = await t.db.prisma.user.count();
    const res = await call("POST", "/api/auth/register", { tenant: "farm", payload: { username: "ab", password: "x" } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Username must be at least 3 characters long");
    expect(await t.db.prisma.user.count()).toBe(before);
  });

  it("GET /api/auth/check-username/{username}", async () => {
    expect((await call("GET", "/api/auth/check-username/pat", { tenant: "farm" })).body).toEqual({ available: false });
    expect((await call("GET", "/api/auth/check-username/freshname", { tenant: "farm" })).body).toEqual({ available: true });
    const short = await call("GET", "/api/auth/check-username/ab");
    expect(short.status).toBe(400);
    expect(short.body.error).toBe("Username must be at least 3 characters long");
  });
});
