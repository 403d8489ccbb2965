import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";

/**
 * With the public response cache on, anonymous mutations still run every time: an identical anonymous
 * request (a login retried with the same wrong password, a registration) must reach the service, never a
 * cached answer of an earlier one.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ config: { publicCacheTtlMs: 60_000 } });
});
afterAll(() => t.close());

const LOGIN = `mutation($input: LoginInput!) { login(input: $input) { __typename ... on Error { message } } }`;

describe("public response cache and anonymous mutations", () => {
  it("counts every identical failed login, so the sixth is throttled", async () => {
    await t.gqlOk(`mutation { register(input: { username: "cache-member", password: "right-password" }) { __typename } }`);
    const wrong = { input: { username: "cache-member", password: "wrong-password" } };
    for (let i = 0; i < 5; i++) expect((await t.gqlOk(LOGIN, wrong)).login.__typename).toBe("UnauthenticatedError");
    expect((await t.gqlOk(LOGIN, wrong)).login.__typename).toBe("RateLimitedError");
    const attempts = await t.db.prisma.rateLimiterFlexible.findFirstOrThrow({ where: { key: "login_user_ip:cache-member|127.0.0.1" } });
    expect(attempts.points).toBe(5);
  });

  it("answers an identical registration twice from the service (the second is a conflict)", async () => {
    const register = `mutation { register(input: { username: "twice-member", password: "right-password" }) { __typename } }`;
    expect((await t.gqlOk(register)).register.__typename).toBe("RegisterSuccess");
    expect((await t.gqlOk(register)).register.__typename).toBe("ConflictError");
  });
});
