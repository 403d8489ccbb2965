/**
 * The member page (api/subscriptions/member-page.ts, next-charge.ts, notes.ts; GraphQL adminMembership and the
 * Membership fields it reads) and the memberships list's sorts: what the page shows of a seeded membership against
 * its rows (the next charge against the renewal pricing, orders and payments, only this business's mail to the
 * member, notes newest first), who may read it and write notes, the note's event, and each sort paged with its
 * cursor. Runs on both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEvents } from "../../api/events/outbox.ts";
import { priceScheduledChanges, renewalAmountCents } from "../../api/billing/renewals/pricing.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";

let t: TestApp;
let f: Factories;
const tok = {} as Record<"owner" | "editor" | "viewer" | "admin" | "otherOwner" | "member" | "partner", string>;
let farm: { id: number };
let other: { id: number };
let memberId = 0;
let membershipId = 0;
let orderIds: number[] = [];

const PAGE = `query($b: Int!, $m: Int!) { adminMembership(businessId: $b, membershipId: $m) {
  databaseId status username memberName email memberPhone memberSince planName mode fulfillmentPoint totalCents isGift giftMessage couponCode couponTerms
  addons { name amountCents } deliveryAddress { street city } skips { yearMonth } pendingChange { effectivePeriod mode }
  nextCharge { date period amountCents retry }
  orders(first: 10) { edges { node { databaseId status totalCents refundedCents breakdown { totalCents lines { kind amountCents } } receiptMail { subject } } } }
  payments { databaseId status amountCents refundedCents failureMessage }
  sentMail(first: 20) { edges { node { subject business { databaseId } } } }
  notes(first: 20) { edges { node { body authorName } } }
  viewerCan { cancel addNote readMail }
} }`;
const ADD = `mutation($input: AddMembershipNoteInput!) { addMembershipNote(input: $input) { __typename ... on AddMembershipNoteSuccess { data { databaseId body authorName } } ... on Error { message } } }`;

const page = (token: string, m = membershipId, b = farm.id) => t.gql(PAGE, { b, m }, { token });
const addNote = (token: string, body: string, id: number | string = membershipId) => t.gqlOk(ADD, { input: { membershipId: String(id), body } }, { token });

async function mail(businessId: number | null, recipientUserId: number, subject: string, orderId: number | null = null, template = "skipped") {
  const n = Math.random().toString(36).slice(2);
  return f.db.mailMessage.create({
    data: { businessId, recipientUserId, orderId, subject, template, dedupeKey: `mp-${n}`, toAddress: "ada@example.com", fromName: "Farm", html: "<p>x</p>", text: "x", messageId: `<${n}@example.com>`, status: "HELD", createdAt: t.clock.now() },
  });
}

beforeAll(async () => {
  t = await createTestApp({ now: "2026-03-05T15:00:00Z" });
  f = factories(t);
  const page = { taxEnabled: true, taxRateBps: 575, pickupEnabled: true, deliveryEnabled: true, deliveryAreas: ["North side"] };
  farm = await f.business({ slug: "farm", name: "Green Farm", page });
  other = await f.business({ slug: "other", name: "Other Farm" });
  const veg = await f.plan(farm, { name: "Veg Box", prices: { PICKUP: 3000, DELIVERY: 3500 } });
  const family = await f.plan(farm, { name: "Family Box", prices: { PICKUP: 4200, DELIVERY: 4700 } });
  const eggs = await f.addon(farm, { name: "Eggs", amountCents: 600 });
  const users = {
    owner: await f.user({ username: "owner" }),
    editor: await f.user({ username: "editor" }),
    viewer: await f.user({ username: "viewer" }),
    admin: await f.user({ username: "admin", isAdmin: true }),
    otherOwner: await f.user({ username: "otherowner" }),
    member: await f.user({ username: "ada", name: "Ada Lovelace", email: "ada@example.com" }),
  };
  await f.attach(farm, users.owner, "OWNER");
  await f.attach(farm, users.editor, "EDITOR");
  await f.attach(farm, users.viewer, "VIEWER");
  await f.attach(other, users.otherOwner, "OWNER");
  for (const [name, u] of Object.entries(users)) tok[name as keyof typeof tok] = await f.session(u);
  tok.partner = await f.partnerToken(farm, users.owner, ["memberships:read", "orders:read", "fulfilment:read"]);
  memberId = users.member.id;

  const coupon = await f.coupon({ code: "WELCOME10", value: 10 });
  // An earlier membership, canceled: "member since" is its start.
  await f.subscription({ user: users.member, business: farm, plan: veg, status: "CANCELED", startedAt: "2025-06-02T15:00:00Z", canceledAt: "2025-09-01T00:00:00Z" });
  const sub = await f.subscription({ user: users.member, business: farm, plan: veg, mode: "DELIVERY", planAmountCents: 3500, addons: [{ id: eggs.id, amountCents: 600 }], startedAt: "2026-01-10T15:00:00Z", paidThroughPeriod: "2026-03" });
  membershipId = sub.id;
  await f.db.subscription.update({
    where: { id: sub.id },
    data: {
      billingDay: 3, isGift: true, giftMessage: "Happy spring!", fulfillmentPoint: "North side", couponId: coupon.id,
      address: { fullName: "Ada Lovelace", phone: "330-555-0199", street: "1 Elm St", city: "Akron", state: "OH", zip: "44301", country: "US" },
      skips: { create: [{ yearMonth: "2026-04" }] },
      // From May (April is skipped): the Family Box, delivered, with eggs: the next charge is priced as its renewal will price it.
      pendingChange: { create: { planId: family.id, mode: "DELIVERY", fulfillmentPoint: "North side", addonIds: [eggs.id], effectivePeriod: "2026-05" } },
    },
  });
  const feb = await f.order({ subscription: sub, period: "2026-02", totalCents: 4100, kind: "INITIAL", createdAt: "2026-02-03T15:00:00Z" });
  const mar = await f.order({ subscription: sub, period: "2026-03", totalCents: 4100, refundedCents: 1000, createdAt: "2026-03-03T15:00:00Z" });
  orderIds = [mar.id, feb.id];
  const pay = (o: { id: number } | null, status: "SUCCEEDED" | "FAILED", key: string, at: string) =>
    f.db.payment.create({ data: { userId: memberId, subscriptionId: sub.id, orderId: o?.id ?? null, provider: "sandbox", providerPaymentId: `pi_${key}`, idempotencyKey: key, amountCents: 4100, status, createdAt: new Date(at), ...(status === "FAILED" ? { failureMessage: "Your card was declined." } : {}) } });
  await pay(feb, "SUCCEEDED", "checkout:1", "2026-02-03T15:00:00Z");
  await pay(null, "FAILED", `renewal:${sub.id}:2026-03:1`, "2026-03-03T14:00:00Z");
  await pay(mar, "SUCCEEDED", `renewal:${sub.id}:2026-03:2`, "2026-03-04T15:00:00Z");

  const stranger = await f.user({ username: "stranger" });
  await mail(farm.id, memberId, "Welcome to Green Farm", feb.id, "welcome");
  await mail(farm.id, memberId, "You skipped April");
  await mail(null, memberId, "Your password was changed", null, "password_changed");
  await mail(other.id, memberId, "Other Farm says hello");
  await mail(farm.id, stranger.id, "Someone else's receipt");
});
afterAll(() => t.close());

describe("the member page", () => {
  it("shows the membership as its rows say: the member, the box, the next charge priced by the renewal pricing", async () => {
    const res = await page(tok.owner);
    expect(res.errors).toBeUndefined();
    const m = res.data.adminMembership;
    expect(m).toMatchObject({
      databaseId: membershipId, status: "ACTIVE", username: "ada", memberName: "Ada Lovelace", email: "ada@example.com", memberPhone: "330-555-0199",
      memberSince: "2025-06-02T15:00:00.000Z", planName: "Veg Box", mode: "DELIVERY", fulfillmentPoint: "North side", totalCents: 4100,
      isGift: true, giftMessage: "Happy spring!", couponCode: "WELCOME10", couponTerms: "10 % off", addons: [{ name: "Eggs", amountCents: 600 }],
      deliveryAddress: { street: "1 Elm St", city: "Akron" }, skips: [{ yearMonth: "2026-04" }], pendingChange: { effectivePeriod: "2026-05", mode: "DELIVERY" },
      viewerCan: { cancel: true, addNote: true, readMail: true },
    });
    // April is skipped: May's renewal, on the 3rd, applies the change; its amount is the renewal pricing's.
    const sub = await f.db.subscription.findUniqueOrThrow({ where: { id: membershipId }, include: { pendingChange: true } });
    const priced = await priceScheduledChanges(f.db, [{ id: sub.id, businessId: sub.businessId, couponId: sub.couponId, pendingChange: sub.pendingChange! }], new Map([[farm.id, { taxEnabled: true, taxRateBps: 575 }]]));
    const expected = renewalAmountCents(sub, priced.get(sub.id));
    expect(expected).not.toBe(sub.totalCents);
    expect(m.nextCharge).toEqual({ date: "2026-05-03", period: "2026-05", amountCents: expected, retry: false });
  });

  it("lists the orders with their breakdown, refunds and receipt, and the payments, newest first", async () => {
    const m = (await page(tok.owner)).data.adminMembership;
    const orders = m.orders.edges.map((e: any) => e.node);
    expect(orders.map((o: any) => o.databaseId)).toEqual(orderIds);
    expect(orders.map((o: any) => [o.status, o.refundedCents, o.breakdown.totalCents])).toEqual([["PARTLY_REFUNDED", 1000, 4100], ["PAID", 0, 4100]]);
    expect(orders.map((o: any) => o.receiptMail?.subject ?? null)).toEqual([null, "Welcome to Green Farm"]);
    expect(m.payments.map((p: any) => [p.status, p.failureMessage])).toEqual([["SUCCEEDED", null], ["FAILED", "Your card was declined."], ["SUCCEEDED", null]]);
  });

  it("shows only this business's mail to this member (no account mail, no other business's, no one else's)", async () => {
    const m = (await page(tok.owner)).data.adminMembership;
    expect(m.sentMail.edges.map((e: any) => e.node.subject)).toEqual(["You skipped April", "Welcome to Green Farm"]);
    // Editors and viewers read the page, but not the business's mail (readMail): the section is null, receipts too.
    for (const token of [tok.editor, tok.viewer]) {
      const staff = (await page(token)).data.adminMembership;
      expect(staff.sentMail).toBeNull();
      expect(staff.orders.edges.map((e: any) => e.node.receiptMail)).toEqual([null, null]);
      expect(staff.viewerCan.readMail).toBe(false);
    }
  });

  it("is read by the business's owner, editors, viewers and administrators, and refused to everyone else", async () => {
    for (const token of [tok.owner, tok.editor, tok.viewer, tok.admin]) expect((await page(token)).data?.adminMembership?.databaseId).toBe(membershipId);
    for (const token of [tok.otherOwner, tok.member, tok.partner, null]) {
      const res = await t.gql(PAGE, { b: farm.id, m: membershipId }, { token });
      expect(res.data?.adminMembership ?? null).toBeNull();
      expect(res.errors?.[0]?.message).toMatch(/permission|log in/i);
    }
    // Another business's owner naming their own business: no such membership there.
    expect((await page(tok.otherOwner, membershipId, other.id)).data.adminMembership).toBeNull();
    // Nor do the notes open through the membership's node to the member or the business's partner token.
    const gid = Buffer.from(`Membership:${membershipId}`).toString("base64");
    for (const token of [tok.member, tok.partner]) {
      const res = await t.gql(`query($id: ID!) { node(id: $id) { ... on Membership { notes(first: 5) { edges { node { body } } } } } }`, { id: gid }, { token });
      expect(res.errors?.[0]?.message).toMatch(/permission|read-only/i);
    }
  });
});

describe("notes", () => {
  const notesOf = async (token = tok.owner) => (await page(token)).data.adminMembership.notes.edges.map((e: any) => e.node);

  it("are written by owners, editors and administrators, each with its author, newest first", async () => {
    t.clock.set("2026-03-05T16:00:00Z");
    expect((await addNote(tok.owner, "  Prefers the side door.  ")).addMembershipNote).toMatchObject({ __typename: "AddMembershipNoteSuccess", data: { body: "Prefers the side door.", authorName: "owner" } });
    t.clock.set("2026-03-05T17:00:00Z");
    await addNote(tok.editor, "Asked about a larger box.");
    await addNote(tok.admin, "Called about April.");
    expect(await notesOf(tok.viewer)).toEqual([
      { body: "Called about April.", authorName: "admin" },
      { body: "Asked about a larger box.", authorName: "editor" },
      { body: "Prefers the side door.", authorName: "owner" },
    ]);
  });

  it("are refused to viewers, other businesses, members and partner tokens, and validated, writing nothing", async () => {
    const before = await f.db.membershipNote.count();
    const refusals = await Promise.all([tok.viewer, tok.otherOwner, tok.member, tok.partner].map(async (token) => (await addNote(token, "Nope")).addMembershipNote));
    expect(refusals.map((r) => r.__typename)).toEqual(["ForbiddenError", "ForbiddenError", "ForbiddenError", "ForbiddenError"]);
    const empty = (await addNote(tok.owner, " \n\t ")).addMembershipNote;
    expect(empty).toEqual({ __typename: "ValidationError", message: "Please write a note: it cannot be empty." });
    const long = (await addNote(tok.editor, "x".repeat(2001))).addMembershipNote;
    expect(long).toEqual({ __typename: "ValidationError", message: "A note can be at most 2,000 characters long." });
    expect((await addNote(tok.owner, "x".repeat(2000))).addMembershipNote.__typename).toBe("AddMembershipNoteSuccess");
    expect((await addNote(tok.owner, "Ghost", 999_999)).addMembershipNote.__typename).toBe("NotFoundError");
    expect(await f.db.membershipNote.count()).toBe(before + 1);
  });

  it("writes membership.note_added.v1 once, in the note's transaction, without its text", async () => {
    const mark = (await readEvents(f.db, { after: 0, limit: 1000 })).at(-1)?.sequence ?? 0;
    const { data } = (await addNote(tok.editor, "Secret: gate code 4321")).addMembershipNote;
    const events = await readEvents(f.db, { after: mark, limit: 100 });
    const editor = await f.db.user.findUniqueOrThrow({ where: { username: "editor" } });
    expect(events.map((e) => [e.type, e.businessId, e.actor])).toEqual([["membership.note_added.v1", farm.id, { type: "user", id: editor.id }]]);
    expect(events[0].payload).toEqual({ noteId: data.databaseId, membershipId, businessId: farm.id, authorId: editor.id });
    expect(JSON.stringify(events[0])).not.toContain("4321");
    // A refused note writes no event.
    await addNote(tok.viewer, "Nope");
    expect(await readEvents(f.db, { after: events[0].sequence, limit: 100 })).toEqual([]);
  });
});

describe("the memberships list's sorts", () => {
  const LIST = `query($b: Int, $sort: MembershipSort, $first: Int, $after: String, $last: Int, $before: String, $search: String) {
    memberships(businessId: $b, sort: $sort, first: $first, after: $after, last: $last, before: $before, search: $search) {
      edges { cursor node { databaseId username memberName startedAt nextCharge { date } } } pageInfo { hasNextPage endCursor hasPreviousPage startCursor } } }`;
  type Row = { databaseId: number; username: string; memberName: string | null; startedAt: string; nextCharge: { date: string } | null };
  type Page = { memberships: { edges: { node: Row }[]; pageInfo: { hasNextPage: boolean; endCursor: string; hasPreviousPage: boolean; startCursor: string } } };

  /** Every row of the list in `sort`, walked forward `size` rows at a time with the cursor. */
  async function walk(sort: string, size: number, vars: Record<string, unknown> = {}): Promise<Row[]> {
    const rows: Row[] = [];
    let after: string | null = null;
    for (let guard = 0; guard < 50; guard++) {
      const { memberships }: Page = await t.gqlOk(LIST, { ...vars, sort, first: size, after }, { token: tok.admin });
      rows.push(...memberships.edges.map((e) => e.node));
      if (!memberships.pageInfo.hasNextPage) return rows;
      after = memberships.pageInfo.endCursor;
    }
    throw new Error("did not end");
  }

  const NO_CHARGE = { asc: "9999-12-31", desc: "0001-01-01" };
  const expected = (rows: Row[], sort: string): number[] => {
    const dir = sort.endsWith("_ASC") ? 1 : -1;
    const key = (r: Row): string =>
      sort.startsWith("NAME") ? (r.memberName?.trim() || r.username).toLowerCase() : sort.startsWith("STARTED") ? r.startedAt : (r.nextCharge?.date ?? NO_CHARGE[dir === 1 ? "asc" : "desc"]);
    return [...rows].sort((a, b) => dir * (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.databaseId - b.databaseId)).map((r) => r.databaseId);
  };

  beforeAll(async () => {
    // Members of both businesses (the administrator's list crosses them; Tokyo's today is already the 6th), with
    // names, starts and next charges that differ: paid through other months, skipped months, canceled, past due.
    const tokyo = await f.business({ slug: "tokyo", name: "Tokyo Tea", timeZone: "Asia/Tokyo" });
    const plans = { [farm.id]: await f.plan(farm), [other.id]: await f.plan(other), [tokyo.id]: await f.plan(tokyo) };
    const names = ["zoe Quinn", "Bob Stone", null, "alice Moss", "Emile Roy", "bob stone", null, "Carl Ek", "dana Wu", "Ann Lee", "Tom Fry", "ann lee"];
    for (const [i, name] of names.entries()) {
      const business = [farm, other, tokyo][i % 3];
      const user = await f.user({ username: `m${String(12 - i).padStart(2, "0")}`, name: name ?? undefined });
      const status = i === 4 ? "CANCELED" : i === 7 ? "PAST_DUE" : "ACTIVE";
      const sub = await f.subscription({
        user, business, plan: plans[business.id], status, canceledAt: status === "CANCELED" ? "2026-02-01T00:00:00Z" : null,
        startedAt: `2025-${String((i % 6) + 1).padStart(2, "0")}-0${(i % 3) + 1}T12:00:00Z`,
        paidThroughPeriod: status === "PAST_DUE" ? "2026-02" : [null, "2026-02", "2026-03", "2026-04"][i % 4],
      });
      await f.db.subscription.update({ where: { id: sub.id }, data: { billingDay: [1, 5, 6, 28][i % 4], ...(i % 5 === 0 ? { skips: { create: [{ yearMonth: "2026-04" }, { yearMonth: "2026-05" }] } } : {}) } });
      if (status === "PAST_DUE") {
        for (const [n, at] of ["2026-03-01T10:00:00Z", "2026-03-02T10:00:00Z"].entries()) {
          await f.db.payment.create({ data: { userId: user.id, subscriptionId: sub.id, provider: "sandbox", providerPaymentId: `pi_due_${n}`, idempotencyKey: `renewal:${sub.id}:2026-03:${n + 1}`, amountCents: 3000, status: "FAILED", createdAt: new Date(at) } });
        }
      }
    }
  });

  for (const sort of ["STARTED_DESC", "STARTED_ASC", "NAME_ASC", "NAME_DESC", "NEXT_CHARGE_ASC", "NEXT_CHARGE_DESC"]) {
    it(`${sort}: pages of 4 walk every row once, in the order the rows' own values give`, async () => {
      const rows = await walk(sort, 4);
      const all = await f.db.subscription.count({ where: { status: { not: "INCOMPLETE" } } });
      expect(rows).toHaveLength(all);
      expect(new Set(rows.map((r) => r.databaseId)).size).toBe(all);
      // The order the rows' displayed values give (the next charge: each row's nextCharge.date, as the field computes it).
      expect(rows.map((r) => r.databaseId)).toEqual(expected(rows, sort));
      // One business, another page size: the same order, filtered.
      const farmRows = await walk(sort, 3, { b: farm.id });
      expect(farmRows.map((r) => r.databaseId)).toEqual(expected(farmRows, sort));
    });
  }

  it("the next charge sort puts the past-due retry and the skipped months where their dates are, and canceled ones last", async () => {
    const rows = await walk("NEXT_CHARGE_ASC", 50);
    expect(rows.at(-1)!.nextCharge).toBeNull();
    expect(rows.filter((r) => r.nextCharge === null).length).toBeGreaterThan(0);
    // The past-due member's next charge is the retry 3 days after its first declined attempt.
    const pastDue = await f.db.subscription.findFirstOrThrow({ where: { status: "PAST_DUE" } });
    expect(rows.find((r) => r.databaseId === pastDue.id)!.nextCharge!.date).toBe("2026-03-04");
  });

  it("a membership its member's cancel ends has no next charge after its last month, in the field and the sort alike", async () => {
    const before = await walk("NEXT_CHARGE_ASC", 50);
    const charged = before.filter((r) => r.nextCharge !== null);
    const [ends, staysOneMore] = await Promise.all(
      charged.slice(0, 2).map((r) => f.db.subscription.findUniqueOrThrow({ where: { id: r.databaseId }, select: { id: true, status: true, paidThroughPeriod: true } })),
    );
    const month = (r: { databaseId: number }) => before.find((b) => b.databaseId === r.databaseId)!.nextCharge!.date.slice(0, 7);
    // One ends with the month before its next charge (canceled on that day instead), the other with that month.
    const monthBefore = (ym: string) => { const [y, m] = ym.split("-").map(Number); return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, "0")}`; };
    await f.db.subscription.update({ where: { id: ends.id }, data: { cancelAfterPeriod: monthBefore(month({ databaseId: ends.id })) } });
    await f.db.subscription.update({ where: { id: staysOneMore.id }, data: { cancelAfterPeriod: month({ databaseId: staysOneMore.id }) } });
    try {
      for (const sort of ["NEXT_CHARGE_ASC", "NEXT_CHARGE_DESC"]) {
        const rows = await walk(sort, 4);
        expect(rows.find((r) => r.databaseId === ends.id)!.nextCharge).toBeNull();
        expect(rows.find((r) => r.databaseId === staysOneMore.id)!.nextCharge).toEqual(before.find((r) => r.databaseId === staysOneMore.id)!.nextCharge);
        expect(rows.map((r) => r.databaseId)).toEqual(expected(rows, sort));
      }
    } finally {
      await f.db.subscription.updateMany({ where: { id: { in: [ends.id, staysOneMore.id] } }, data: { cancelAfterPeriod: null } });
    }
  });

  it("pages backward (last/before) to the same rows", async () => {
    const forward = await walk("NAME_ASC", 50);
    const back: number[] = [];
    let before: string | null = null;
    for (let guard = 0; guard < 20; guard++) {
      const { memberships }: Page = await t.gqlOk(LIST, { sort: "NAME_ASC", last: 5, before }, { token: tok.admin });
      back.unshift(...memberships.edges.map((e) => e.node.databaseId));
      if (!memberships.pageInfo.hasPreviousPage) break;
      before = memberships.pageInfo.startCursor;
    }
    expect(back).toEqual(forward.map((r) => r.databaseId));
  });

  it("keeps its place when the cursor's membership leaves the filter", async () => {
    const vars = { sort: "NEXT_CHARGE_ASC", search: "m0" };
    const all = await walk("NEXT_CHARGE_ASC", 50, { search: "m0" });
    expect(all.length).toBeGreaterThan(6);
    const first = await t.gqlOk(LIST, { ...vars, first: 3 }, { token: tok.admin });
    const cursorId = first.memberships.edges.at(-1).node.databaseId;
    const sub = await f.db.subscription.findUniqueOrThrow({ where: { id: cursorId }, select: { userId: true } });
    const { username } = await f.db.user.update({ where: { id: sub.userId }, data: { username: "renamed" }, select: { username: true } });
    const next = await t.gqlOk(LIST, { ...vars, first: 3, after: first.memberships.pageInfo.endCursor }, { token: tok.admin });
    expect(username).toBe("renamed");
    expect(next.memberships.edges.map((e: any) => e.node.databaseId)).toEqual(all.slice(3, 6).map((r) => r.databaseId));
  });
});
