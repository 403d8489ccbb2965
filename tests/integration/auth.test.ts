import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const REGISTER = `mutation($input: RegisterInput!) { register(input: $input) {
  __typename ... on RegisterSuccess { data { token tenant user { username publicId isAdmin } } }
  ... on Error { message code reason } } }`;
const LOGIN = `mutation($input: LoginInput!) { login(input: $input) {
  __typename ... on LoginSuccess { data { token user { username } } }
  ... on Error { message code reason } ... on RateLimitedError { retryAfterSeconds } } }`;

describe("registration and login", () => {
  it("registers a member bound to the request tenant and reads the viewer with the token", async () => {
    const r = await t.gqlOk(REGISTER, { input: { username: "Alice", password: "correct-horse" } }, { tenant: "acme" });
    expect(r.register.__typename).toBe("RegisterSuccess");
    expect(r.register.data.user.username).toBe("alice");
    expect(r.register.data.tenant).toBe("acme");
    const v = await t.gqlOk(`{ viewer { username isAdmin } }`, {}, { token: r.register.data.token });
    expect(v.viewer).toEqual({ username: "alice", isAdmin: false });
  });

  it("refuses a taken username (case-insensitive) and a short one, with typed errors", async () => {
    const taken = await t.gqlOk(REGISTER, { input: { username: "ALICE", password: "another-pass" } });
    expect(taken.register).toMatchObject({ __typename: "ConflictError", message: "Username is already taken. Please choose a different one." });
    const short = await t.gqlOk(REGISTER, { input: { username: "al", password: "another-pass" } });
    expect(short.register).toMatchObject({ __typename: "ValidationError", message: "Username must be at least 3 characters long" });
    expect(await t.db.prisma.user.count()).toBe(1);
  });

  it("logs in, rejects a wrong password, and throttles repeated failures", async () => {
    const ok = await t.gqlOk(LOGIN, { input: { username: "alice", password: "correct-horse" } });
    expect(ok.login.__typename).toBe("LoginSuccess");
    for (let i = 0; i < 5; i++) {
      const bad = await t.gqlOk(LOGIN, { input: { username: "alice", password: "wrong" } });
      expect(bad.login).toMatchObject({ __typename: "UnauthenticatedError", message: "Invalid username or password" });
    }
    const limited = await t.gqlOk(LOGIN, { input: { username: "alice", password: "correct-horse" } });
    expect(limited.login.__typename).toBe("RateLimitedError");
    expect(limited.login.retryAfterSeconds).toBeGreaterThan(0);
  });

  it("logout revokes the token", async () => {
    const r = await t.gqlOk(REGISTER, { input: { username: "bob", password: "bobs-password" } });
    const token = r.register.data.token;
    await t.gqlOk(`mutation { logout }`, {}, { token });
    expect((await t.gqlOk(`{ viewer { username } }`, {}, { token })).viewer).toBeNull();
  });
});
