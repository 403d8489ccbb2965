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
    // Registration time is the app's clock (demos and tests run on a chosen day), not the database's.
    const row = await t.db.prisma.user.findUniqueOrThrow({ where: { username: "alice" } });
    expect(row.createdAt.toISOString()).toBe(t.clock.now().toISOString());
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

  it("does not count successful logins against an address, but stops an address that fails 50 times", async () => {
    await t.gqlOk(REGISTER, { input: { username: "office-member", password: "correct-horse" } });
    // An office (or a test suite) behind one address: more successful logins than the failure budget.
    const fromOffice = async (username: string, password: string) => {
      const res = await t.app.inject({
        method: "POST",
        url: "/graphql",
        remoteAddress: "203.0.113.7",
        headers: { "content-type": "application/json" },
        payload: { query: LOGIN, variables: { input: { username, password } } },
      });
      return res.json().data.login;
    };
    for (let i = 0; i < 55; i++) expect((await fromOffice("office-member", "correct-horse")).__typename).toBe("LoginSuccess");
    // Credential stuffing from that address: a different username each time, so the per-user limit never trips.
    for (let i = 0; i < 50; i++) expect((await fromOffice(`guess-${i}`, "wrong-password")).__typename).toBe("UnauthenticatedError");
    const limited = await fromOffice("office-member", "correct-horse");
    expect(limited.__typename).toBe("RateLimitedError");
    // Another address is not affected.
    expect((await t.gqlOk(LOGIN, { input: { username: "office-member", password: "correct-horse" } })).login.__typename).toBe("LoginSuccess");
  });

  it("logout revokes the token", async () => {
    const r = await t.gqlOk(REGISTER, { input: { username: "bob", password: "bobs-password" } });
    const token = r.register.data.token;
    await t.gqlOk(`mutation { logout }`, {}, { token });
    expect((await t.gqlOk(`{ viewer { username } }`, {}, { token })).viewer).toBeNull();
  });
});

async function registerUser(username: string, password = "long-enough-pw", tenant?: string) {
  const r = await t.gqlOk(REGISTER, { input: { username, password } }, { tenant });
  return r.register.data.token as string;
}

async function makeAdmin(username: string) {
  const token = await registerUser(username);
  await t.db.prisma.user.update({ where: { username }, data: { isAdmin: true } });
  return token;
}

describe("sessions", () => {
  it("expire after the configured lifetime", async () => {
    const token = await registerUser("expiring");
    t.clock.advance(t.config.sessionTtlMs - 60_000);
    expect((await t.gqlOk(`{ viewer { username } }`, {}, { token })).viewer).toEqual({ username: "expiring" });
    t.clock.advance(120_000);
    expect((await t.gqlOk(`{ viewer { username } }`, {}, { token })).viewer).toBeNull();
  });

  it("password change checks the current password and then revokes every session", async () => {
    const token = await registerUser("changer", "first-password");
    const other = (await t.gqlOk(LOGIN, { input: { username: "changer", password: "first-password" } })).login.data.token;
    const CHANGE = `mutation($input: ChangePasswordInput!) { changePassword(input: $input) { __typename ... on Error { message } } }`;
    const wrong = await t.gqlOk(CHANGE, { input: { currentPassword: "nope", newPassword: "second-password" } }, { token });
    expect(wrong.changePassword).toEqual({ __typename: "ValidationError", message: "Current password is incorrect" });
    const short = await t.gqlOk(CHANGE, { input: { currentPassword: "first-password", newPassword: "short" } }, { token });
    expect(short.changePassword.__typename).toBe("ValidationError");
    expect((await t.gqlOk(`{ viewer { username } }`, {}, { token })).viewer).not.toBeNull();

    const ok = await t.gqlOk(CHANGE, { input: { currentPassword: "first-password", newPassword: "second-password" } }, { token });
    expect(ok.changePassword.__typename).toBe("ChangePasswordSuccess");
    for (const tk of [token, other]) expect((await t.gqlOk(`{ viewer { username } }`, {}, { token: tk })).viewer).toBeNull();
    const relog = await t.gqlOk(LOGIN, { input: { username: "changer", password: "second-password" } });
    expect(relog.login.__typename).toBe("LoginSuccess");
  });

  it("refuses anonymous password changes", async () => {
    const r = await t.gqlOk(`mutation { changePassword(input: { currentPassword: "a", newPassword: "bbbbbbbbbb" }) { __typename ... on Error { message } } }`);
    expect(r.changePassword).toEqual({ __typename: "UnauthenticatedError", message: "Please log in to continue." });
  });
});

describe("profile", () => {
  const UPDATE = `mutation($input: UpdateProfileInput!) { updateProfile(input: $input) {
    __typename ... on UpdateProfileSuccess { data { email name phone address { fullName street city state zip country apt phone } } }
    ... on ValidationError { message issues { path message } } } }`;

  it("updates the member's own profile and merges the address", async () => {
    const token = await registerUser("profiled");
    const first = await t.gqlOk(UPDATE, { input: { email: "Me@Example.com", name: "Pat Doe", address: { street: "1 Main St", city: "Columbus", state: "OH" } } }, { token });
    expect(first.updateProfile.data).toMatchObject({ email: "me@example.com", name: "Pat Doe", address: { street: "1 Main St", city: "Columbus", state: "OH", zip: "" } });
    const second = await t.gqlOk(UPDATE, { input: { address: { zip: "43004" } } }, { token });
    expect(second.updateProfile.data.address).toMatchObject({ street: "1 Main St", zip: "43004" });
    expect(second.updateProfile.data.name).toBe("Pat Doe");
  });

  it("rejects an invalid email and keeps the stored one", async () => {
    const token = await registerUser("profiled2");
    await t.gqlOk(UPDATE, { input: { email: "ok@example.com" } }, { token });
    const bad = await t.gqlOk(UPDATE, { input: { email: "not-an-email" } }, { token });
    expect(bad.updateProfile).toMatchObject({ __typename: "ValidationError", issues: [{ path: "email" }] });
    expect((await t.gqlOk(`{ viewer { email } }`, {}, { token })).viewer.email).toBe("ok@example.com");
  });
});

describe("user administration", () => {
  const CREATE = `mutation($input: CreateUserInput!) { createUser(input: $input) {
    __typename ... on CreateUserSuccess { data { username isAdmin } } ... on Error { message } } }`;

  it("lets administrators create users (is_admin defaults to false) and list them", async () => {
    const admin = await makeAdmin("root-admin");
    const created = await t.gqlOk(CREATE, { input: { username: "New.Staff", password: "staff-password" } }, { token: admin });
    expect(created.createUser).toEqual({ __typename: "CreateUserSuccess", data: { username: "new.staff", isAdmin: false } });
    const row = await t.db.prisma.user.findUniqueOrThrow({ where: { username: "new.staff" } });
    expect(row.createdAt.toISOString()).toBe(t.clock.now().toISOString());
    const dup = await t.gqlOk(CREATE, { input: { username: "new.staff", password: "staff-password" } }, { token: admin });
    expect(dup.createUser.__typename).toBe("ConflictError");
    const list = await t.gqlOk(`{ users(first: 100) { edges { node { username isAdmin } } } }`, {}, { token: admin });
    expect(list.users.edges.map((e: any) => e.node.username)).toEqual(expect.arrayContaining(["root-admin", "new.staff"]));
    const search = await t.gqlOk(`{ userSearch(query: "STAFF") { id username } }`, {}, { token: admin });
    expect(search.userSearch).toEqual([{ id: expect.any(String), username: "new.staff" }]);
  });

  it("refuses user administration to members and anonymous visitors", async () => {
    const member = await registerUser("plain-member");
    const created = await t.gqlOk(CREATE, { input: { username: "sneaky", password: "sneaky-password" } }, { token: member });
    expect(created.createUser.__typename).toBe("ForbiddenError");
    const list = await t.gql(`{ users(first: 5) { edges { node { username } } } }`, {}, { token: member });
    expect(list.errors?.[0]?.message).toBe("You do not have permission to do this.");
    const anon = await t.gql(`{ userSearch(query: "a") { username } }`);
    expect(anon.errors?.[0]?.message).toBe("Please log in to continue.");
    expect(await t.db.prisma.user.count({ where: { username: "sneaky" } })).toBe(0);
  });
});
