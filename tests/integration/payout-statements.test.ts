/**
 * Payouts, part 2: the owner's monthly statement (api/payouts/statements.ts). A month is the business's calendar
 * month by the date a charge or refund happened (a charge at 23:30 on the last day is that month's, whatever month
 * it paid for); its totals are the sums of its ledger rows (refunds negative, their fees reducing the fees); its
 * entries page by (occurred_at, id) in GraphQL and stream a thousand at a time into the CSV
 * (GET /api/admin/businesses/{id}/statements/{month}.csv), every cell through the formula guard, for owners and
 * administrators only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";
import { PAY, seedSavedCard } from "../support/payments.ts";
import { runRenewals } from "../../api/billing/renewals/clock.ts";
import { refundUnmatched } from "../../api/billing/checkout/settlement.ts";
import { providerFor } from "../../api/billing/service.ts";
import { writeLedger, type LedgerRow } from "../../api/payouts/ledger.ts";

let t: TestApp;
let f: Factories;
let seq = 0;
let ledgerStatements: string[] = [];
const tokens: Record<string, string> = {};
let farm: { id: number; slug: string };
let bakery: { id: number };

const HEADER = "date,member,membership_id,period,kind,provider_id,gross,platform_fee,processing_fee,net";
const billing = () => ({ db: t.db.prisma, clock: t.clock, config: t.config, log: t.app.log });

const STATEMENT = `query($slug: String!, $month: String!, $first: Int, $after: String, $last: Int, $before: String) {
  business(slug: $slug) {
    statement(month: $month) {
      month timeZone grossCents refundsCents platformFeeCents processingFeeCents netCents entryCount
      entries(first: $first, after: $after, last: $last, before: $before) {
        edges { cursor node { databaseId date memberName membershipId period kind providerId grossCents platformFeeCents processingFeeCents netCents } }
        pageInfo { hasNextPage hasPreviousPage endCursor startCursor }
      }
    }
  }
}`;

const statement = async (slug: string, month: string, page: Record<string, unknown> = {}, token = tokens.owner) =>
  (await t.gqlOk(STATEMENT, { slug, month, ...page }, { token })).business.statement;

async function download(business: number, month: string, token?: string) {
  const res = await t.app.inject({ method: "GET", url: `/api/admin/businesses/${business}/statements/${month}.csv`, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.statusCode, headers: res.headers, body: res.body, lines: res.body.split("\r\n").slice(0, -1) };
}

async function checkout(slug: string, plan: { ref: string }, buyer: { id: number; username: string }) {
  const opts = { token: await f.session(buyer, slug), tenant: slug };
  const selection = { businessSlug: slug, planRef: plan.ref, mode: "PICKUP", addonRefs: [] };
  const started = (await t.gqlOk(PAY.START, { input: { selection, email: `${buyer.username}@example.com`, idempotencyKey: `statement-${++seq}-key` } }, opts)).startCheckout;
  expect(started.__typename).toBe("StartCheckoutSuccess");
  await t.gqlOk(PAY.CONFIRM, { s: started.data.clientSecret }, opts);
  expect((await t.gqlOk(PAY.COMPLETE, { id: started.data.paymentIntentId }, opts)).completeCheckout.__typename).toBe("CompleteCheckoutSuccess");
  return { intentId: started.data.paymentIntentId as string, membershipId: started.data.membership.databaseId as number };
}

const gid = (type: string, id: number) => Buffer.from(`${type}:${id}`).toString("base64");
const sum = (rows: { grossCents: number; platformFeeCents: number; processingFeeCents: number; netCents: number }[], k: "grossCents" | "platformFeeCents" | "processingFeeCents" | "netCents") =>
  rows.reduce((s, r) => s + r[k], 0);

beforeAll(async () => {
  // Sessions opened "now" stay valid while the flows below move the clock back to March and through April.
  t = await createTestApp({ now: "2026-04-20T15:00:00Z", logQueries: true });
  f = factories(t);
  t.db.onStatement((s) => {
    if (/ledger_entries/.test(s.query) && /^\s*SELECT/i.test(s.query)) ledgerStatements.push(s.query);
  });
  farm = await f.business({ slug: "farm", name: "Farm", page: { billingDay: 1, pickupEnabled: true } });
  bakery = await f.business({ slug: "bakery" });
  const users = { admin: await f.user({ isAdmin: true }), owner: await f.user(), editor: await f.user(), viewer: await f.user(), bakerOwner: await f.user(), member: await f.user() };
  await f.attach(farm, users.owner, "OWNER");
  await f.attach(farm, users.editor, "EDITOR");
  await f.attach(farm, users.viewer, "VIEWER");
  await f.attach(bakery, users.bakerOwner, "OWNER");
  for (const [k, u] of Object.entries(users)) tokens[k] = await f.session(u);
});
afterAll(() => t?.close());

describe("a month of charges, a refund and a renewal", () => {
  const ids: Record<string, { intentId: string; membershipId: number }> = {};

  beforeAll(async () => {
    const plan = await f.plan(farm, { prices: { PICKUP: 2900 } });
    // Tuesday March 31st, 23:30 in New York: April 1st in UTC, March's in the business's books.
    t.clock.set("2026-04-01T03:30:00Z");
    ids.amy = await checkout("farm", plan, await f.user({ username: "amy", name: "Amy Adams" }));
    // April 1st, midnight in New York: April's first.
    t.clock.set("2026-04-01T04:00:00Z");
    ids.bo = await checkout("farm", plan, await f.user({ username: "bo" }));
    // April 2nd: Amy's March charge refunded in full (its period stays March; the refund is April's).
    t.clock.set("2026-04-02T15:00:00Z");
    const intent = await providerFor(billing()).retrievePaymentIntent(ids.amy.intentId);
    const payment = await t.db.prisma.payment.findUniqueOrThrow({ where: { providerPaymentId: ids.amy.intentId } });
    await refundUnmatched(billing(), payment, intent, "duplicate");
    // Refunded: her membership ends, so the renewal run below charges Cy alone.
    await t.db.prisma.subscription.update({ where: { id: ids.amy.membershipId }, data: { status: "CANCELED", canceledAt: new Date("2026-04-02T15:00:00Z") } });
    // April 3rd: Cy's renewal for April.
    t.clock.set("2026-04-03T15:00:00Z");
    const cy = await f.user({ username: "cy", name: "Cy Young" });
    const pm = await seedSavedCard(t.db.prisma, cy);
    const sub = await f.subscription({ user: cy, business: farm, plan, planAmountCents: 4550, totalCents: 4550, paidThroughPeriod: "2026-03" });
    await t.db.prisma.subscription.update({ where: { id: sub.id }, data: { billingDay: 3, providerPaymentMethodId: pm } });
    expect(await runRenewals(billing(), { businessId: farm.id })).toMatchObject({ charged: 1 });
    ids.cy = { intentId: (await t.db.prisma.payment.findFirstOrThrow({ where: { subscriptionId: sub.id } })).providerPaymentId, membershipId: sub.id };
    t.clock.set("2026-04-20T15:00:00Z");
  });

  it("puts a charge at 23:30 on the month's last day (New York) in that month", async () => {
    const march = await statement("farm", "2026-03");
    const [charge] = await t.db.prisma.ledgerEntry.findMany({ where: { providerId: ids.amy.intentId } });
    expect(march).toMatchObject({ month: "2026-03", timeZone: "America/New_York", grossCents: 2900, refundsCents: 0, entryCount: 1 });
    expect(march.entries.edges.map((e: { node: unknown }) => e.node)).toEqual([
      {
        databaseId: charge.id,
        date: "2026-03-31",
        memberName: "Amy Adams",
        membershipId: gid("Membership", ids.amy.membershipId),
        period: "2026-03",
        kind: "CHARGE",
        providerId: ids.amy.intentId,
        grossCents: 2900,
        platformFeeCents: charge.platformFeeCents,
        processingFeeCents: charge.processingFeeCents,
        netCents: charge.netCents,
      },
    ]);
    expect([march.platformFeeCents, march.processingFeeCents, march.netCents]).toEqual([charge.platformFeeCents, charge.processingFeeCents, charge.netCents]);
  });

  it("April: the midnight charge, March's refund (by its date, not its period) and the renewal; totals are the rows' sums", async () => {
    const april = await statement("farm", "2026-04");
    const rows = await t.db.prisma.ledgerEntry.findMany({ where: { businessId: farm.id, occurredAt: { gte: new Date("2026-04-01T04:00:00Z"), lt: new Date("2026-05-01T04:00:00Z") } }, orderBy: [{ occurredAt: "asc" }, { id: "asc" }] });
    expect(rows.map((r) => r.kind)).toEqual(["CHARGE", "REFUND", "CHARGE"]);
    const nodes = april.entries.edges.map((e: { node: { databaseId: number } }) => e.node);
    expect(nodes.map((n: { databaseId: number }) => n.databaseId)).toEqual(rows.map((r) => r.id));
    expect(nodes.map((n: Record<string, unknown>) => [n.date, n.memberName, n.period, n.kind, n.grossCents])).toEqual([
      ["2026-04-01", "bo", "2026-04", "CHARGE", 2900],
      ["2026-04-02", "Amy Adams", "2026-03", "REFUND", -2900],
      ["2026-04-03", "Cy Young", "2026-04", "CHARGE", 4550],
    ]);
    const refund = rows[1];
    expect(refund.platformFeeCents).toBeLessThan(0);
    expect(april).toMatchObject({
      grossCents: 2900 + 4550,
      refundsCents: -2900,
      platformFeeCents: sum(rows, "platformFeeCents"),
      processingFeeCents: sum(rows, "processingFeeCents"),
      netCents: sum(rows, "netCents"),
      entryCount: 3,
    });
    // Balanced as every row is: what was charged less refunds = both fees + net.
    expect(april.grossCents + april.refundsCents).toBe(april.platformFeeCents + april.processingFeeCents + april.netCents);
    expect(await statement("farm", "2026-05")).toMatchObject({ grossCents: 0, refundsCents: 0, netCents: 0, entryCount: 0, entries: { edges: [] } });
  });

  it("pages forwards and backwards by cursor", async () => {
    const first = await statement("farm", "2026-04", { first: 2 });
    expect(first.entries.edges.map((e: { node: { kind: string } }) => e.node.kind)).toEqual(["CHARGE", "REFUND"]);
    expect(first.entries.pageInfo.hasNextPage).toBe(true);
    const rest = await statement("farm", "2026-04", { first: 2, after: first.entries.pageInfo.endCursor });
    expect(rest.entries.edges.map((e: { node: { memberName: string } }) => e.node.memberName)).toEqual(["Cy Young"]);
    expect(rest.entries.pageInfo.hasNextPage).toBe(false);
    const last = await statement("farm", "2026-04", { last: 2 });
    expect(last.entries.edges.map((e: { node: { memberName: string } }) => e.node.memberName)).toEqual(["Amy Adams", "Cy Young"]);
    const before = await statement("farm", "2026-04", { last: 5, before: last.entries.pageInfo.startCursor });
    expect(before.entries.edges.map((e: { node: { memberName: string } }) => e.node.memberName)).toEqual(["bo"]);
  });

  it("the CSV: a line per entry in dollars (refunds negative, not guarded), then the totals", async () => {
    const res = await download(farm.id, "2026-04", tokens.owner);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toBe('attachment; filename="statement-farm-2026-04.csv"');
    const rows = await t.db.prisma.ledgerEntry.findMany({ where: { businessId: farm.id, occurredAt: { gte: new Date("2026-04-01T04:00:00Z") } }, orderBy: [{ occurredAt: "asc" }, { id: "asc" }] });
    const dollars = (c: number) => (c / 100).toFixed(2);
    const amounts = (r: { grossCents: number; platformFeeCents: number; processingFeeCents: number; netCents: number }) =>
      [r.grossCents, r.platformFeeCents, r.processingFeeCents, r.netCents].map(dollars).join(",");
    expect(res.lines).toEqual([
      HEADER,
      `2026-04-01,bo,${ids.bo.membershipId},2026-04,Charge,${ids.bo.intentId},${amounts(rows[0])}`,
      `2026-04-02,Amy Adams,${ids.amy.membershipId},2026-03,Refund,${rows[1].providerId},${amounts(rows[1])}`,
      `2026-04-03,Cy Young,${ids.cy.membershipId},2026-04,Charge,${ids.cy.intentId},${amounts(rows[2])}`,
      `Total,,,,,,${amounts({ grossCents: sum(rows, "grossCents"), platformFeeCents: sum(rows, "platformFeeCents"), processingFeeCents: sum(rows, "processingFeeCents"), netCents: sum(rows, "netCents") })}`,
    ]);
    expect(res.lines[2]).toContain(",-29.00,-");
    expect((await download(farm.id, "2026-05", tokens.admin)).lines).toEqual([HEADER, "Total,,,,,,0.00,0.00,0.00,0.00"]);
  });
});

describe("a month of 10,000 entries", () => {
  const ENTRIES = 10_000;
  let bulk: { id: number; slug: string };
  let written: LedgerRow[] = [];
  /** May's provider ids in the statement's order, as the database orders them. */
  let expectedOrder: string[] = [];
  /** May 2026 in Los Angeles: 07:00 UTC on May 1st to 07:00 UTC on June 1st. */
  const may = { gte: new Date("2026-05-01T07:00:00Z"), lt: new Date("2026-06-01T07:00:00Z") };

  beforeAll(async () => {
    bulk = await f.business({ slug: "bulk", timeZone: "America/Los_Angeles" });
    const hacker = await f.user({ username: "mallory", name: "=HYPERLINK(\"http://evil\",\"x\")" });
    const payment = await t.db.prisma.payment.create({
      data: { userId: hacker.id, businessId: bulk.id, provider: "sandbox", providerPaymentId: "pi_bulk_mallory", amountCents: 1000, status: "SUCCEEDED" },
    });
    // Three entries share each time, 13 minutes apart: the month's 44,640 minutes hold all of them.
    const start = may.gte.getTime();
    const row = (i: number, at: number, o: Partial<LedgerRow> = {}): LedgerRow => {
      const refund = i % 10 === 9;
      const gross = refund ? -(500 + (i % 7)) : 1000 + (i % 13);
      const platform = refund ? -25 : 50;
      const processing = refund ? -15 : 59;
      return { businessId: bulk.id, paymentId: null, kind: refund ? "REFUND" : "CHARGE", providerId: `bulk_${i}`, period: "2026-05", occurredAt: new Date(at), grossCents: gross, platformFeeCents: platform, processingFeeCents: processing, netCents: gross - platform - processing, ...o };
    };
    written = Array.from({ length: ENTRIES }, (_, i) => row(i, start + Math.floor(i / 3) * 13 * 60_000, i === 0 ? { paymentId: payment.id } : {}));
    expect(written.at(-1)!.occurredAt < may.lt).toBe(true);
    // Outside May in Los Angeles: April 30th 23:59:59.999 and June 1st 00:00.
    const outside = [row(ENTRIES + 1, start - 1), row(ENTRIES + 2, may.lt.getTime())];
    // One multi-row insert, in shuffled order: the statement's order is the time's, then the id's.
    await writeLedger(t.db.prisma, [...written.slice(ENTRIES / 2), ...outside, ...written.slice(0, ENTRIES / 2)]);
    expectedOrder = (await t.db.prisma.ledgerEntry.findMany({ where: { businessId: bulk.id, occurredAt: may }, orderBy: [{ occurredAt: "asc" }, { id: "asc" }], select: { providerId: true } })).map((r) => r.providerId);
    expect(expectedOrder).toHaveLength(ENTRIES);
  });

  it("the CSV reads them in keyset pages of 1,000 (one statement each): the header, every row once, then the ledger's totals", async () => {
    ledgerStatements = [];
    const res = await download(bulk.id, "2026-05", tokens.admin);
    expect(res.status).toBe(200);
    expect(res.headers["content-disposition"]).toBe('attachment; filename="statement-bulk-2026-05.csv"');
    expect(res.lines[0]).toBe(HEADER);
    expect(res.lines).toHaveLength(1 + ENTRIES + 1);
    // Ten full pages, then the empty one that says the month has no more.
    expect(ledgerStatements).toHaveLength(Math.floor(ENTRIES / 1000) + 1);
    expect(ledgerStatements.every((q) => /LIMIT/i.test(q) && /ORDER BY/i.test(q))).toBe(true);
    // Every entry once, in the statement's order (time, then id: the insert's order within a shared time).
    expect(res.lines.slice(1, -1).map((l) => l.split(",").at(-5))).toEqual(expectedOrder);
    const dollars = (c: number) => (c / 100).toFixed(2);
    const { _sum: ledger } = await t.db.prisma.ledgerEntry.aggregate({ where: { businessId: bulk.id, occurredAt: may }, _sum: { grossCents: true, platformFeeCents: true, processingFeeCents: true, netCents: true } });
    const columns = ["grossCents", "platformFeeCents", "processingFeeCents", "netCents"] as const;
    expect(columns.map((k) => ledger[k])).toEqual(columns.map((k) => sum(written, k)));
    expect(res.lines.at(-1)).toBe(["Total", "", "", "", "", "", ...columns.map((k) => dollars(ledger[k]!))].join(","));
    const dates = res.lines.slice(1, -1).map((l) => l.split(",")[0]);
    expect(dates[0]).toBe("2026-05-01");
    expect(dates.at(-1)).toBe("2026-05-31");
    expect(dates.every((d) => d.startsWith("2026-05-"))).toBe(true);
    expect([...dates].sort()).toEqual(dates);
  });

  it("guards formulas in every cell; a negative amount stays a number; a row without a payment has no member", async () => {
    const res = await download(bulk.id, "2026-05", tokens.admin);
    expect(res.lines[1]).toMatch(/^2026-05-01,"'=HYPERLINK\(""http:\/\/evil"",""x""\)",,2026-05,Charge,bulk_0,10\.00,0\.50,0\.59,8\.91$/);
    const refund = res.lines.find((l) => l.includes(",bulk_9,"));
    expect(refund).toBe("2026-05-01,,,2026-05,Refund,bulk_9,-5.02,-0.25,-0.15,-4.62");
  });

  it("GraphQL agrees: totals over every row, and cursors walk all 10,000 in order", async () => {
    const first = await statement("bulk", "2026-05", { first: 100 }, tokens.admin);
    expect(first).toMatchObject({
      timeZone: "America/Los_Angeles",
      grossCents: sum(written.filter((r) => r.kind === "CHARGE"), "grossCents"),
      refundsCents: sum(written.filter((r) => r.kind === "REFUND"), "grossCents"),
      platformFeeCents: sum(written, "platformFeeCents"),
      processingFeeCents: sum(written, "processingFeeCents"),
      netCents: sum(written, "netCents"),
      entryCount: ENTRIES,
    });
    const seen: string[] = [];
    let page = first;
    for (;;) {
      seen.push(...page.entries.edges.map((e: { node: { providerId: string } }) => e.node.providerId));
      if (!page.entries.pageInfo.hasNextPage) break;
      page = await statement("bulk", "2026-05", { first: 100, after: page.entries.pageInfo.endCursor }, tokens.admin);
    }
    expect(seen).toEqual(expectedOrder);
    // Without `first`: a page of the service's default size.
    expect((await statement("bulk", "2026-05", {}, tokens.admin)).entries.edges).toHaveLength(50);
  });
});

describe("who may read a statement", () => {
  it("CSV: 401 without a login, 403 for other roles and other businesses, 404 for no business, 400 for a month that is not one", async () => {
    expect((await download(farm.id, "2026-04")).status).toBe(401);
    for (const who of ["member", "viewer", "editor", "bakerOwner"]) expect((await download(farm.id, "2026-04", tokens[who])).status, who).toBe(403);
    expect((await download(bakery.id, "2026-04", tokens.bakerOwner)).status).toBe(200);
    expect((await download(999999, "2026-04", tokens.admin)).status).toBe(404);
    for (const month of ["2026-4", "2026-13", "2026-00", "april"]) {
      const res = await download(farm.id, month, tokens.owner);
      expect(res.status, month).toBe(400);
      expect(JSON.parse(res.body).error, month).toBe("Month must be YYYY-MM.");
    }
  });

  it("GraphQL: null with a refusal for other roles; a ValidationError for a bad month; a forged cursor is refused", async () => {
    for (const who of ["viewer", "editor", "bakerOwner", "member"]) {
      const res = await t.gql(STATEMENT, { slug: "farm", month: "2026-04" }, { token: tokens[who] });
      expect(res.data?.business?.statement ?? null, who).toBeNull();
      expect(res.errors?.[0]?.message, who).toMatch(/permission/i);
    }
    const bad = await t.gql(STATEMENT, { slug: "farm", month: "2026-13" }, { token: tokens.owner });
    expect(bad.data.business.statement).toBeNull();
    expect(bad.errors?.[0]).toMatchObject({ message: "Month must be YYYY-MM." });
    const forged = await t.gql(STATEMENT, { slug: "farm", month: "2026-04", first: 1, after: Buffer.from('StatementEntry:[1e30,1]').toString("base64url") }, { token: tokens.owner });
    expect(forged.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
  });

  it("Business.currentPeriod: this month in the business's time zone", async () => {
    t.clock.set("2026-06-01T05:00:00Z");
    const res = await t.gqlOk(`{ ny: business(slug: "farm") { currentPeriod } la: business(slug: "bulk") { currentPeriod } }`);
    expect(res).toEqual({ ny: { currentPeriod: "2026-06" }, la: { currentPeriod: "2026-05" } });
  });
});
