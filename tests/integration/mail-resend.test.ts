/**
 * The Sent mail page's resend and account mail (api/mail/service.ts resendMessage, planner.ts
 * accountMessage): concurrent resends of one message never collide on the dedupe key (one at a time, the others
 * told a resend is in progress), resends are limited (3 of a message a day, 50 of a business's messages an hour,
 * counted in the database on the injectable clock), and a member's account mail (password changed, card updated)
 * is stored with no business, so only administrators read or resend it. Both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFile } from "node:fs/promises";
import { writeEvents, SYSTEM_ACTOR } from "../../api/events/outbox.ts";
import { dispatchEvents } from "../../api/mail/dispatch.ts";
import { globalId } from "../../api/shared/global-id.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";

let t: TestApp;
let f: Factories;
let shop: { id: number; slug: string };
let ownerToken: string;
let adminToken: string;
let member: { id: number };
let seq = 0;

const RESEND = `mutation($id: ID!) {
  resendMailMessage(id: $id) {
    __typename
    ... on ResendMailMessageSuccess { data { databaseId resent } }
    ... on Error { code message reason }
  }
}`;

interface ResendAnswer {
  data?: { resendMailMessage?: { __typename: string; data?: { databaseId: number; resent: boolean }; code?: string; message?: string; reason?: string | null } };
  errors?: { message: string }[];
}

const resend = (id: number, token: string): Promise<ResendAnswer> => t.gql(RESEND, { id: globalId("MailMessage", id) }, { token });

/** A held message of the business, as the dispatcher stores one (no SMTP in this file: nothing is sent). */
async function message(businessId: number | null = shop.id, template = "canceled") {
  const n = ++seq;
  return t.db.prisma.mailMessage.create({
    data: {
      businessId,
      dedupeKey: `test:${n}`,
      template,
      recipientUserId: member.id,
      toAddress: "member@example.com",
      fromName: "Shop",
      subject: `Message ${n}`,
      html: "<p>Hello</p>",
      text: "Hello",
      messageId: `<test-${n}@example.com>`,
      status: "HELD",
      createdAt: t.clock.now(),
    },
  });
}

const copiesOf = (id: number) => t.db.prisma.mailMessage.count({ where: { resendOfId: id } });

beforeAll(async () => {
  t = await createTestApp({ now: "2026-03-05T15:00:00Z" });
  f = factories(t);
  shop = await f.business({ slug: "shop", name: "Shop" });
  const owner = await f.user({ username: "shopowner", email: "owner@example.com" });
  await f.attach(shop, owner, "OWNER");
  ownerToken = await f.session(owner);
  adminToken = await f.session(await f.user({ username: "root", isAdmin: true }));
  member = await f.user({ username: "member", email: "member@example.com" });
});

afterAll(() => t?.close());

describe("resend: one at a time", () => {
  it("six concurrent resends of one message: never an unexpected error, one resend at a time", async () => {
    const original = await message();
    const answers = await Promise.all(Array.from({ length: 6 }, () => resend(original.id, ownerToken)));
    // Two resends used to compute the same resend:<id>:<n> key and answer "Unexpected error.".
    for (const a of answers) expect(a.errors ?? []).toEqual([]);
    const results = answers.map((a) => a.data!.resendMailMessage!);
    const successes = results.filter((r) => r.__typename === "ResendMailMessageSuccess");
    const refusals = results.filter((r) => r.__typename !== "ResendMailMessageSuccess");
    expect(successes.length).toBeGreaterThanOrEqual(1);
    // Concurrent ones are told a resend is in progress; any that came after one had committed are counted by the
    // daily limit (the embedded database runs the transactions one after another: 3 resends, 3 refused).
    for (const r of refusals) {
      expect([
        { code: "CONFLICT", reason: "resend_in_progress", message: "A resend of this message is already in progress." },
        { code: "RULE_VIOLATION", reason: "resend_limit", message: expect.stringContaining("the limit is 3 a day") },
      ]).toContainEqual({ code: r.code, reason: r.reason, message: r.message });
    }
    expect(successes.length).toBeLessThanOrEqual(3);
    expect(await copiesOf(original.id)).toBe(successes.length);
    if (process.env.TEST_DATABASE_URL) {
      // On PostgreSQL the six overlap: the refusals are (at least mostly) the in-progress answer.
      expect(refusals.filter((r) => r.reason === "resend_in_progress").length).toBeGreaterThanOrEqual(1);
    }
    const keys = await t.db.prisma.mailMessage.findMany({ where: { resendOfId: original.id }, select: { dedupeKey: true } });
    expect(new Set(keys.map((k) => k.dedupeKey)).size).toBe(successes.length);
  });
});

describe("resend limits", () => {
  it("at most 3 resends of a message a day; the next day allowed again", async () => {
    const original = await message();
    for (let i = 0; i < 3; i++) expect((await resend(original.id, ownerToken)).data?.resendMailMessage?.__typename).toBe("ResendMailMessageSuccess");
    const before = await t.db.prisma.mailMessage.count();
    const fourth = (await resend(original.id, ownerToken)).data?.resendMailMessage;
    expect(fourth).toMatchObject({
      __typename: "RuleViolationError",
      code: "RULE_VIOLATION",
      reason: "resend_limit",
      message: "This message was already resent 3 times in the last 24 hours; the limit is 3 a day.",
    });
    expect(await t.db.prisma.mailMessage.count()).toBe(before);
    // An administrator is held to it too.
    expect((await resend(original.id, adminToken)).data?.resendMailMessage?.reason).toBe("resend_limit");

    t.clock.advance(24 * 3_600_000 + 60_000);
    expect((await resend(original.id, ownerToken)).data?.resendMailMessage?.__typename).toBe("ResendMailMessageSuccess");
    expect(await copiesOf(original.id)).toBe(4);
  });

  it("at most 50 resends of a business's messages an hour; the next hour allowed again", async () => {
    t.clock.advance(2 * 24 * 3_600_000);
    const originals = await Promise.all(Array.from({ length: 18 }, () => message()));
    let sent = 0;
    for (const o of originals) {
      for (let i = 0; i < 3 && sent < 50; i++, sent++) {
        const r = (await resend(o.id, ownerToken)).data?.resendMailMessage;
        expect(r?.__typename).toBe("ResendMailMessageSuccess");
      }
    }
    const fresh = originals[17];
    expect(await copiesOf(fresh.id)).toBe(0);
    const before = await t.db.prisma.mailMessage.count();
    expect((await resend(fresh.id, ownerToken)).data?.resendMailMessage).toMatchObject({
      __typename: "RuleViolationError",
      reason: "resend_limit",
      message: "This business's messages were already resent 50 times in the last hour; the limit is 50 an hour.",
    });
    expect(await t.db.prisma.mailMessage.count()).toBe(before);
    // Another business is not held by it.
    const other = await f.business({ slug: "other" });
    expect((await resend((await message(other.id)).id, adminToken)).data?.resendMailMessage?.__typename).toBe("ResendMailMessageSuccess");

    t.clock.advance(3_600_000 + 60_000);
    expect((await resend(fresh.id, ownerToken)).data?.resendMailMessage?.__typename).toBe("ResendMailMessageSuccess");
  });
});

describe("account mail belongs to no business", () => {
  it("a password change and a card update are stored with no business: owners never see or resend them, administrators do", async () => {
    const plan = await f.plan(shop);
    await t.db.prisma.subscription.create({ data: { userId: member.id, businessId: shop.id, planId: plan.id, mode: "PICKUP", planAmountCents: 1000, totalCents: 1000, status: "ACTIVE" } });
    for (const [i, last4] of ["4242", "1881"].entries()) {
      await t.db.prisma.paymentMethod.create({
        data: { userId: member.id, provider: "sandbox", providerPaymentMethodId: `pm_test_${last4}`, brand: "visa", last4, expMonth: 12, expYear: 2030, isDefault: i === 1 },
      });
    }
    await t.db.prisma.$transaction((tx) =>
      writeEvents(tx, { at: t.clock.now(), actor: SYSTEM_ACTOR }, [
        { type: "user.password_changed.v1", businessId: null, objectId: globalId("User", member.id), payload: { userId: member.id } },
        { type: "card.updated.v1", businessId: null, objectId: globalId("User", member.id), payload: { userId: member.id, brand: "visa", last4: "1881", expMonth: 12, expYear: 2030 } },
      ]),
    );
    await dispatchEvents({ db: t.db.prisma, clock: t.clock, config: t.config });
    const account = await t.db.prisma.mailMessage.findMany({ where: { template: { in: ["password_changed", "card_updated"] } }, orderBy: { id: "asc" } });
    expect(account.map((m) => ({ template: m.template, businessId: m.businessId }))).toEqual([
      { template: "password_changed", businessId: null },
      { template: "card_updated", businessId: null },
    ]);
    // Still drawn as the brand the member knows.
    expect(account.every((m) => m.fromName === "Shop")).toBe(true);
    expect(account[1].text).toContain("1881");

    const LIST = `query($b: Int) { mailMessages(first: 200, businessId: $b) { edges { node { databaseId template } } } }`;
    type List = { mailMessages: { edges: { node: { databaseId: number; template: string } }[] } };
    const templates = (l: List) => l.mailMessages.edges.map((e) => e.node.template);
    const ids = account.map((m) => m.id);
    const ownerAll = await t.gqlOk<List>(LIST, {}, { token: ownerToken });
    const ownerShop = await t.gqlOk<List>(LIST, { b: shop.id }, { token: ownerToken });
    for (const l of [ownerAll, ownerShop]) {
      expect(templates(l)).not.toContain("password_changed");
      expect(templates(l)).not.toContain("card_updated");
    }
    for (const id of ids) {
      expect((await resend(id, ownerToken)).data?.resendMailMessage).toMatchObject({ __typename: "NotFoundError", code: "NOT_FOUND" });
      expect(await t.gql(`query($id: ID!) { node(id: $id) { id } }`, { id: globalId("MailMessage", id) }, { token: ownerToken })).not.toMatchObject({ data: { node: { id: expect.any(String) } } });
    }
    expect(await t.db.prisma.mailMessage.count({ where: { resendOfId: { in: ids } } })).toBe(0);

    const adminAll = await t.gqlOk<List>(LIST, {}, { token: adminToken });
    expect(adminAll.mailMessages.edges.map((e) => e.node.databaseId)).toEqual(expect.arrayContaining(ids));
    const again = (await resend(ids[0], adminToken)).data?.resendMailMessage;
    expect(again?.__typename).toBe("ResendMailMessageSuccess");
    expect(await t.db.prisma.mailMessage.findUniqueOrThrow({ where: { id: again!.data!.databaseId } })).toMatchObject({ businessId: null, template: "password_changed" });
  });

  it("the data migration moves the account mail stored before under a business", async () => {
    const stale = [await message(shop.id, "password_changed"), await message(shop.id, "card_updated")];
    const kept = await message(shop.id, "canceled");
    const sql = await readFile(new URL("../../prisma/migrations/20261127070000_account_mail_private/migration.sql", import.meta.url), "utf8");
    await t.db.prisma.$executeRawUnsafe(sql.replace(/^--.*$/gm, "").trim().replace(/;$/, ""));
    for (const m of stale) expect((await t.db.prisma.mailMessage.findUniqueOrThrow({ where: { id: m.id } })).businessId).toBeNull();
    expect((await t.db.prisma.mailMessage.findUniqueOrThrow({ where: { id: kept.id } })).businessId).toBe(shop.id);
  });
});
