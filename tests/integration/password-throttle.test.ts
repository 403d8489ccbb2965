import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { hashPassword } from "../../api/auth/passwords.ts";
import type * as Passwords from "../../api/auth/passwords.ts";
import { createTestApp, type TestApp } from "../support/app.ts";

/**
 * Throttles: every password check (login, change-password from the member and the admin forms, GraphQL
 * and REST) takes its point before the hash is evaluated, in one statement, so a concurrent burst gets no more
 * guesses than the limit and a throttled request is refused without checking its password, the right one
 * included. On PostgreSQL (TEST_DATABASE_URL) the burst's requests really run at once on several connections.
 */

// Counts the password hashes the services evaluate (a refused attempt must evaluate none).
const hashes = vi.hoisted(() => ({ verified: 0 }));
vi.mock("../../api/auth/passwords.ts", async (importOriginal) => {
  const original = await importOriginal<typeof Passwords>();
  return {
    ...original,
    verifyPassword: async (hash: string, password: string) => {
      hashes.verified++;
      return original.verifyPassword(hash, password);
    },
  };
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(() => {
  hashes.verified = 0;
});

const LOGIN = `mutation($input: LoginInput!) { login(input: $input) {
  __typename ... on LoginSuccess { data { token } } ... on Error { message } ... on RateLimitedError { retryAfterSeconds } } }`;
const CHANGE = `mutation($input: ChangePasswordInput!) { changePassword(input: $input) {
  __typename ... on Error { message } ... on RateLimitedError { retryAfterSeconds } } }`;

/** Each test speaks from its own address, so the per-address counters of one test do not reach another. */
async function gql(ip: string, query: string, variables: Record<string, unknown>, token?: string) {
  const res = await t.app.inject({
    method: "POST",
    url: "/graphql",
    remoteAddress: ip,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    payload: { query, variables },
  });
  const body = res.json();
  if (body.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(body.errors)}`);
  return body.data;
}

async function rest(ip: string, url: string, payload: unknown, token?: string) {
  const res = await t.app.inject({
    method: "POST",
    url,
    remoteAddress: ip,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    payload: payload as object,
  });
  return { status: res.statusCode, body: res.json(), retryAfter: res.headers["retry-after"] };
}

const login = async (ip: string, username: string, password: string) => (await gql(ip, LOGIN, { input: { username, password } })).login;
const changePassword = async (ip: string, token: string, currentPassword: string, newPassword: string) =>
  (await gql(ip, CHANGE, { input: { currentPassword, newPassword } }, token)).changePassword;

async function user(username: string, password: string, isAdmin = false) {
  await t.db.prisma.user.create({ data: { username, passwordHash: await hashPassword(password), isAdmin } });
}

/** A session of `username` (logged in from an address of its own, so no counter under test moves). */
async function sessionOf(username: string, password: string) {
  const r = await login("198.51.100.250", username, password);
  expect(r.__typename).toBe("LoginSuccess");
  return r.data.token as string;
}

const points = async (key: string) => (await t.db.prisma.rateLimiterFlexible.findUnique({ where: { key } }))?.points ?? 0;

const tally = (names: string[]) => names.reduce<Record<string, number>>((n, k) => ({ ...n, [k]: (n[k] ?? 0) + 1 }), {});

describe("login throttling under a concurrent burst", () => {
  it("GraphQL: 20 wrong passwords at once evaluate 5 hashes, refuse 15, and then refuse the right password until the window ends", async () => {
    const ip = "203.0.113.10";
    await user("burst-gql", "right-password-1");
    hashes.verified = 0;
    const burst = await Promise.all(Array.from({ length: 20 }, () => login(ip, "burst-gql", "wrong-password")));
    expect(tally(burst.map((r) => r.__typename))).toEqual({ UnauthenticatedError: 5, RateLimitedError: 15 });
    expect(hashes.verified).toBe(5);
    for (const r of burst.filter((r) => r.__typename === "RateLimitedError")) expect(r.retryAfterSeconds).toBeGreaterThan(0);
    expect(await points(`login_user_ip:burst-gql|${ip}`)).toBe(5);

    // The right password is refused without being checked, from GraphQL and REST alike.
    const right = await login(ip, "burst-gql", "right-password-1");
    expect(right.__typename).toBe("RateLimitedError");
    expect(right.retryAfterSeconds).toBeGreaterThan(14 * 60);
    const restRight = await rest(ip, "/api/auth/login", { username: "burst-gql", password: "right-password-1" });
    expect(restRight.status).toBe(429);
    expect(hashes.verified).toBe(5);

    // Another address is not affected; the window ends on the app's clock.
    expect((await login("203.0.113.11", "burst-gql", "right-password-1")).__typename).toBe("LoginSuccess");
    t.clock.advance(15 * 60 * 1000 + 1000);
    expect((await login(ip, "burst-gql", "right-password-1")).__typename).toBe("LoginSuccess");
  });

  it("REST: 20 wrong passwords at once answer 5 × 401 and 15 × 429 with Retry-After; the right one then gets 429", async () => {
    const ip = "203.0.113.20";
    await user("burst-rest", "right-password-2");
    hashes.verified = 0;
    const burst = await Promise.all(Array.from({ length: 20 }, () => rest(ip, "/api/auth/login", { username: "burst-rest", password: "wrong-password" })));
    expect(tally(burst.map((r) => String(r.status)))).toEqual({ 401: 5, 429: 15 });
    expect(hashes.verified).toBe(5);
    for (const r of burst.filter((r) => r.status === 429)) {
      expect(r.body).toMatchObject({ reason: "rate_limited" });
      expect(Number(r.retryAfter)).toBeGreaterThan(0);
    }
    const right = await rest(ip, "/api/auth/login", { username: "burst-rest", password: "right-password-2" });
    expect(right.status).toBe(429);
    expect(Number(right.retryAfter)).toBeGreaterThan(0);
    expect((await login(ip, "burst-rest", "right-password-2")).__typename).toBe("RateLimitedError");
    expect(hashes.verified).toBe(5);
  });

  it("GraphQL and REST mixed in one burst share the account's 5 failures", async () => {
    const ip = "203.0.113.30";
    await user("burst-mixed", "right-password-3");
    hashes.verified = 0;
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 ? login(ip, "burst-mixed", "wrong-password").then((r) => r.__typename) : rest(ip, "/api/auth/login", { username: "burst-mixed", password: "wrong-password" }).then((r) => String(r.status)),
      ),
    );
    const n = tally(burst);
    expect((n.UnauthenticatedError ?? 0) + (n["401"] ?? 0)).toBe(5);
    expect((n.RateLimitedError ?? 0) + (n["429"] ?? 0)).toBe(15);
    expect(hashes.verified).toBe(5);
  });

  it("a successful login does not use up a failure point", async () => {
    const ip = "203.0.113.40";
    await user("steady", "right-password-4");
    // Five at once fit the five points (each holds one while its hash runs), and each gives it back.
    const together = await Promise.all(Array.from({ length: 5 }, () => login(ip, "steady", "right-password-4")));
    expect(together.map((r) => r.__typename)).toEqual(Array(5).fill("LoginSuccess"));
    expect(await points(`login_user_ip:steady|${ip}`)).toBe(0);
    for (let i = 0; i < 4; i++) expect((await login(ip, "steady", "wrong-password")).__typename).toBe("UnauthenticatedError");
    // Later successes leave the four failures as they were, per account and per address.
    for (let i = 0; i < 5; i++) expect((await login(ip, "steady", "right-password-4")).__typename).toBe("LoginSuccess");
    expect(await points(`login_user_ip:steady|${ip}`)).toBe(4);
    expect(await points(`login_fail_ip:${ip}`)).toBe(4);
    expect(await points(`login_ip:${ip}`)).toBe(14);
    // So the fifth failure is still evaluated, and only then is the account throttled at this address.
    expect((await login(ip, "steady", "wrong-password")).__typename).toBe("UnauthenticatedError");
    expect((await login(ip, "steady", "right-password-4")).__typename).toBe("RateLimitedError");
  });
});

describe("change-password throttling (member and admin forms)", () => {
  it("member, GraphQL: a burst of 10 wrong current passwords evaluates 5; the right one is then refused and the password kept", async () => {
    await user("cp-member-gql", "member-password-1");
    const token = await sessionOf("cp-member-gql", "member-password-1");
    hashes.verified = 0;
    const burst = await Promise.all(Array.from({ length: 10 }, () => changePassword("203.0.113.50", token, "wrong-current", "member-password-2")));
    expect(tally(burst.map((r) => r.__typename))).toEqual({ ValidationError: 5, RateLimitedError: 5 });
    for (const r of burst.filter((r) => r.__typename === "ValidationError")) expect(r.message).toBe("Current password is incorrect");
    expect(hashes.verified).toBe(5);

    // Keyed by the user, not the address or the session: the right password is refused from anywhere.
    const right = await changePassword("203.0.113.51", token, "member-password-1", "member-password-2");
    expect(right).toMatchObject({ __typename: "RateLimitedError", message: expect.stringContaining("Too many attempts") });
    expect(right.retryAfterSeconds).toBeGreaterThan(0);
    expect(hashes.verified).toBe(5);
    expect((await login("203.0.113.52", "cp-member-gql", "member-password-1")).__typename).toBe("LoginSuccess");
  });

  it("admin, GraphQL: 5 wrong current passwords, then the right one is refused; a right one before does not count", async () => {
    await user("cp-admin-gql", "admin-password-1", true);
    const token = await sessionOf("cp-admin-gql", "admin-password-1");
    const ip = "203.0.113.60";
    for (let i = 0; i < 4; i++) expect((await changePassword(ip, token, "wrong-current", "admin-password-2")).__typename).toBe("ValidationError");
    // A right current password (refused for another reason) gives its point back.
    const same = await changePassword(ip, token, "admin-password-1", "admin-password-1");
    expect(same).toMatchObject({ __typename: "ValidationError", message: "New password must differ from the current one" });
    expect(await points(`change_password_user:${(await t.db.prisma.user.findUniqueOrThrow({ where: { username: "cp-admin-gql" } })).id}`)).toBe(4);
    expect((await changePassword(ip, token, "wrong-current", "admin-password-2")).message).toBe("Current password is incorrect");
    hashes.verified = 0;
    const right = await changePassword(ip, token, "admin-password-1", "admin-password-2");
    expect(right.__typename).toBe("RateLimitedError");
    expect(hashes.verified).toBe(0);
    // Still the old password, and the session is still open.
    expect((await gql(ip, `{ viewer { username isAdmin } }`, {}, token)).viewer).toEqual({ username: "cp-admin-gql", isAdmin: true });
    expect((await login("203.0.113.61", "cp-admin-gql", "admin-password-1")).__typename).toBe("LoginSuccess");
  });

  it("member, REST /api/my/change-password: 5 × 400, then 429 with Retry-After for the right password, across sessions", async () => {
    await user("cp-member-rest", "member-password-3");
    const a = await sessionOf("cp-member-rest", "member-password-3");
    const b = await sessionOf("cp-member-rest", "member-password-3");
    hashes.verified = 0;
    for (const token of [a, a, a, b, b]) {
      const r = await rest("203.0.113.70", "/api/my/change-password", { currentPassword: "wrong-current", newPassword: "member-password-4" }, token);
      expect(r.status).toBe(400);
      expect(r.body.error).toBe("Current password is incorrect");
    }
    const right = await rest("203.0.113.71", "/api/my/change-password", { currentPassword: "member-password-3", newPassword: "member-password-4" }, a);
    expect(right.status).toBe(429);
    expect(right.body).toMatchObject({ reason: "rate_limited" });
    expect(Number(right.retryAfter)).toBeGreaterThan(0);
    // GraphQL shares the counter.
    expect((await changePassword("203.0.113.72", b, "member-password-3", "member-password-4")).__typename).toBe("RateLimitedError");
    expect(hashes.verified).toBe(5);
    expect((await login("203.0.113.73", "cp-member-rest", "member-password-3")).__typename).toBe("LoginSuccess");
  });

  it("admin, REST: a concurrent burst evaluates 5 and answers 429 to the rest; a change succeeds once the window ends", async () => {
    await user("cp-admin-rest", "admin-password-3", true);
    const token = await sessionOf("cp-admin-rest", "admin-password-3");
    hashes.verified = 0;
    const burst = await Promise.all(
      Array.from({ length: 10 }, () => rest("203.0.113.80", "/api/my/change-password", { currentPassword: "wrong-current", newPassword: "admin-password-4" }, token)),
    );
    expect(tally(burst.map((r) => String(r.status)))).toEqual({ 400: 5, 429: 5 });
    expect(hashes.verified).toBe(5);
    expect((await rest("203.0.113.80", "/api/my/change-password", { currentPassword: "admin-password-3", newPassword: "admin-password-4" }, token)).status).toBe(429);

    t.clock.advance(15 * 60 * 1000 + 1000);
    const ok = await rest("203.0.113.80", "/api/my/change-password", { currentPassword: "admin-password-3", newPassword: "admin-password-4" }, token);
    expect(ok).toMatchObject({ status: 200, body: { ok: true } });
    expect((await login("203.0.113.81", "cp-admin-rest", "admin-password-4")).__typename).toBe("LoginSuccess");
  });
});
