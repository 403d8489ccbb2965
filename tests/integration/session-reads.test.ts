import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropSessionReads, resolveActor } from "../../api/auth/sessions.ts";
import { defaultCardOf } from "../../api/billing/cards.ts";
import type { ServiceContext } from "../../api/context.ts";
import * as users from "../../api/users/service.ts";
import { portalViewerQuery } from "../bench/queries.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";

/**
 * The login session's statement reads the signed-in user's row and default card with the session, so
 * the portal's profile, email preferences and card cost no statement of their own; a mutation reads them again
 * after its writes.
 */

let t: TestApp;
let f: Factories;
let statements = 0;
let member: { id: number };
let token: string;

const PROFILE = `{ viewer { username email name phone address { street city zip } mailPreferences { reminders prechargeNotice digest } paymentMethod { brand last4 expMonth expYear } } }`;

async function counted<T>(fn: () => Promise<T>) {
  statements = 0;
  const result = await fn();
  return { result, statements };
}

async function card(userId: number, o: { provider?: string; last4: string; createdAt: string }) {
  return f.db.paymentMethod.create({
    data: { userId, provider: o.provider ?? "sandbox", providerPaymentMethodId: `pm_${o.last4}_${o.createdAt}`, brand: "visa", last4: o.last4, expMonth: 4, expYear: 2031, createdAt: new Date(o.createdAt) },
  });
}

beforeAll(async () => {
  t = await createTestApp({ logQueries: true, now: "2026-03-05T15:00:00Z" });
  f = factories(t);
  t.db.onStatement(() => statements++);
  member = await f.user({ username: "session-reader", name: "Sam Reader", email: "sam@example.com" });
  await f.db.user.update({ where: { id: member.id }, data: { phone: "555-0100", address: { street: "1 Elm St", city: "Springfield", zip: "12345" }, mailReminders: false } });
  await card(member.id, { last4: "1111", createdAt: "2026-01-01T00:00:00Z" });
  await card(member.id, { last4: "4242", createdAt: "2026-02-01T00:00:00Z" });
  // Another provider's card is not the one renewals charge here (sandbox).
  await card(member.id, { provider: "stripe", last4: "9999", createdAt: "2026-03-01T00:00:00Z" });
  token = await f.session(member);
}, 120_000);

afterAll(() => t?.close());

describe("reads that come with the login session", () => {
  it("answers the viewer's profile, preferences and newest default card from the session's statement alone", async () => {
    const { result, statements: n } = await counted(() => t.gqlOk(PROFILE, {}, { token }));
    expect(result.viewer).toEqual({
      username: "session-reader",
      email: "sam@example.com",
      name: "Sam Reader",
      phone: "555-0100",
      address: { street: "1 Elm St", city: "Springfield", zip: "12345" },
      mailPreferences: { reminders: false, prechargeNotice: true, digest: true },
      paymentMethod: { brand: "visa", last4: "4242", expMonth: 4, expYear: 2031 },
    });
    expect(n).toBe(1);
  });

  it("loads the member portal in three statements: the session, the memberships, the orders", async () => {
    const { result, statements: n } = await counted(() => t.gqlOk(portalViewerQuery(), { businessSlug: null }, { token }));
    expect(result.viewer.username).toBe("session-reader");
    expect(result.viewer.paymentMethod.last4).toBe("4242");
    expect(n).toBe(3);
  });

  it("shows what changed since the last request: each request reads the session anew", async () => {
    await t.gqlOk(`mutation { updateMailPreferences(input: { reminders: true, digest: false }) { __typename } }`, {}, { token });
    await t.gqlOk(`mutation($input: UpdateProfileInput!) { updateProfile(input: $input) { __typename } }`, { input: { name: "Sam Renamed" } }, { token });
    const { viewer } = await t.gqlOk(PROFILE, {}, { token });
    expect(viewer.name).toBe("Sam Renamed");
    expect(viewer.mailPreferences).toEqual({ reminders: true, prechargeNotice: true, digest: false });
  });

  it("another user's card (an administrator reading a member) is read, not taken from the administrator's session", async () => {
    const admin = await f.user({ isAdmin: true, username: "session-admin" });
    await card(admin.id, { last4: "0005", createdAt: "2026-02-15T00:00:00Z" });
    const adminToken = await f.session(admin);
    const { node } = await t.gqlOk(`query($id: ID!) { node(id: $id) { ... on User { username paymentMethod { last4 } } } }`, { id: await userGlobalId(member.id, token) }, { token: adminToken });
    expect(node).toEqual({ username: "session-reader", paymentMethod: { last4: "4242" } });
  });

  it("after a write, the viewer and the card are read again (dropSessionReads, as before a GraphQL mutation)", async () => {
    const { actor } = await resolveActor(t.db.prisma, t.clock, `Bearer ${token}`, "sandbox");
    const ctx = { db: t.db.prisma, clock: t.clock, config: t.config, log: pino({ level: "silent" }), actor, tenant: null, ip: "127.0.0.1", roleCache: new Map() } satisfies ServiceContext;
    await f.db.user.update({ where: { id: member.id }, data: { name: "Written Meanwhile" } });
    const newest = await card(member.id, { last4: "3220", createdAt: "2026-03-02T00:00:00Z" });
    // What the session read stands for the rest of a read-only request…
    expect((await users.viewer(ctx, { select: { id: true, name: true } }))?.name).toBe("Sam Renamed");
    expect((await defaultCardOf(ctx, member.id))?.last4).toBe("4242");
    // …and is read again once the request has written.
    dropSessionReads(ctx);
    const { result, statements: n } = await counted(() => users.viewer(ctx, { select: { id: true, name: true } }));
    expect(result?.name).toBe("Written Meanwhile");
    expect(n).toBe(1);
    expect((await defaultCardOf(ctx, member.id))?.id).toBe(newest.id);
  });

  it("a GraphQL mutation reads the card again after its write instead of answering with the session's", async () => {
    const texts: string[] = [];
    const listen = (e: { query: string }) => texts.push(e.query);
    t.db.onStatement(listen);
    const res = await t.gqlOk(
      `mutation($input: UpdateProfileInput!) { updateProfile(input: $input) { ... on UpdateProfileSuccess { data { name paymentMethod { last4 } } } } }`,
      { input: { name: "Sam Final" } },
      { token },
    );
    expect(res.updateProfile.data).toEqual({ name: "Sam Final", paymentMethod: { last4: "3220" } });
    // The session's statement, then the card's own read after the write.
    expect(texts.filter((q) => q.includes("payment_methods"))).toHaveLength(2);
  });
});

async function userGlobalId(_userId: number, memberToken: string): Promise<string> {
  const { viewer } = await t.gqlOk(`{ viewer { id } }`, {}, { token: memberToken });
  return viewer.id;
}
