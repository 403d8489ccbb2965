/**
 * Pause and unskip (api/subscriptions/skips.ts) on the injectable clock: a pause is consecutive skips, so the renewal
 * run, the fulfilment preview and the pre-charge notice honour it with no rule of their own; it resumes on the billing
 * day at the full amount. Refusals (window, longest pause, freeze, paid), resume early, and a scheduled change that
 * keeps its rule (the first charged month on or after the one it was scheduled for). Both databases.
 */
import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Prisma } from "../../api/generated/prisma/client.ts";
import { runRenewals } from "../../api/billing/renewals/clock.ts";
import { planReminders } from "../../api/mail/reminders.ts";
import { previewOf } from "../../api/packing/preview.ts";
import { globalId } from "../../api/shared/global-id.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";
import { seedSavedCard } from "../support/payments.ts";

// 2026-03-05 10:00 in New York: inside the default 1–14 skip window, past the default cutoff (the 1st).
const NOW = "2026-03-05T15:00:00Z";

let t: TestApp;
let f: Factories;
const log = pino({ level: "silent" });
const billing = () => ({ db: t.db.prisma, clock: t.clock, config: t.config, log });

beforeAll(async () => {
  t = await createTestApp({ now: NOW });
  f = factories(t);
});
afterAll(() => t.close());
beforeEach(() => t.clock.set(NOW));

const AFTER = `membership { status pausedThrough resumeDate nextBoxDate skips { yearMonth } pendingChange { effectivePeriod } }`;
const PAUSE = `mutation($input: PauseMembershipInput!) { pauseMembership(input: $input) {
  __typename ... on PauseMembershipSuccess { data { fromMonth throughMonth resumeDate ${AFTER} } } ... on Error { message reason } } }`;
const RESUME = `mutation($input: ResumeMembershipInput!) { resumeMembership(input: $input) {
  __typename ... on ResumeMembershipSuccess { data { months ${AFTER} } } ... on Error { message reason } } }`;
const UNSKIP = `mutation($input: UnskipMonthInput!) { unskipMonth(input: $input) {
  __typename ... on UnskipMonthSuccess { data { months ${AFTER} } } ... on Error { message reason } } }`;
const CHANGE = `mutation($input: ChangeSubscriptionInput!) { changeSubscription(input: $input) {
  __typename ... on ChangeSubscriptionSuccess { data { pendingChange { effectivePeriod } } } ... on Error { message reason } } }`;

/** A member of a business billing on the 3rd (tax 5.75 %) with a saved card, paid through `paidThroughPeriod`: $21.15 a month. */
async function member(page: Partial<Prisma.PageCreateWithoutBusinessInput> = {}, paidThroughPeriod = "2026-03") {
  const business = await f.business({ page: { billingDay: 3, taxEnabled: true, taxRateBps: 575, ...page } });
  const plan = await f.plan(business, { name: "Veg Box", prices: { PICKUP: 2000 } });
  const bigger = await f.plan(business, { name: "Family Box", prices: { PICKUP: 3000 } });
  const user = await f.user({ email: `member-${business.id}@example.com` });
  const token = await f.session(user, business.slug);
  const card = await seedSavedCard(t.db.prisma, user);
  const sub = await f.subscription({ user, business, plan, planAmountCents: 2000, totalCents: 2115, paidThroughPeriod });
  await t.db.prisma.subscription.update({ where: { id: sub.id }, data: { billingDay: 3, taxCents: 115, taxRateBps: 575, providerPaymentMethodId: card } });
  const as = (query: string, input: Record<string, unknown>) => t.gqlOk(query, { input: { subscriptionId: String(sub.id), ...input } }, { token }).then((d) => Object.values(d)[0] as any);
  return { business, plan, bigger, user, token, sub, as };
}

const renew = (businessId: number) => runRenewals(billing(), { businessId });
const skipsOf = async (id: number) => (await t.db.prisma.skip.findMany({ where: { subscriptionId: id }, orderBy: { yearMonth: "asc" } })).map((s) => s.yearMonth);
const eventsOf = (type: string, id: number) => t.db.prisma.event.findMany({ where: { type, objectId: globalId("Membership", id) }, orderBy: { sequence: "asc" } });
async function outlookOf(businessId: number, period: string, membershipId: number) {
  const preview = await previewOf(t.db.prisma, businessId, period);
  const m = preview.members.find((x) => x.membershipId === membershipId);
  return { outlook: m?.outlook, amountCents: m?.amountCents, boxed: preview.boxes.some((b) => b.membershipId === membershipId) };
}

describe("pauseMembership", () => {
  it("a 3-month pause across two renewals: no charge, no box, no pre-charge notice; it resumes on the billing day at the full amount", async () => {
    const { business, user, token, sub, as } = await member();
    const r = await as(PAUSE, { months: 3 });
    expect(r).toEqual({
      __typename: "PauseMembershipSuccess",
      data: {
        fromMonth: "2026-04",
        throughMonth: "2026-06",
        resumeDate: "2026-07-01",
        membership: { status: "ACTIVE", pausedThrough: "2026-06", resumeDate: "2026-07-01", nextBoxDate: "2026-07-01", skips: ["2026-04", "2026-05", "2026-06"].map((yearMonth) => ({ yearMonth })), pendingChange: null },
      },
    });
    // The portal's read (the fast read path) says the same.
    const portal = await t.gqlOk(`{ viewer { subscriptions { databaseId pausedThrough resumeDate nextBoxDate skipTarget { month skipped } } } }`, {}, { token });
    expect(portal.viewer.subscriptions).toEqual([{ databaseId: sub.id, pausedThrough: "2026-06", resumeDate: "2026-07-01", nextBoxDate: "2026-07-01", skipTarget: { month: "2026-04", skipped: true } }]);
    const [paused] = await eventsOf("membership.paused.v1", sub.id);
    expect(paused.payload).toEqual({ membershipId: sub.id, userId: user.id, fromMonth: "2026-04", throughMonth: "2026-06", resumeDate: "2026-07-01" });

    const notices = () => t.db.prisma.mailMessage.findMany({ where: { recipientUserId: user.id, template: "precharge_notice" } });
    for (const [noticeDay, billingDay, period] of [["2026-03-31", "2026-04-03", "2026-04"], ["2026-04-30", "2026-05-03", "2026-05"], ["2026-05-31", "2026-06-03", "2026-06"]]) {
      t.clock.set(`${noticeDay}T15:00:00Z`);
      await planReminders(billing());
      t.clock.set(`${billingDay}T14:00:00Z`);
      expect(await renew(business.id), period).toMatchObject({ charged: 0, skipped: 1 });
      expect(await outlookOf(business.id, period, sub.id), period).toEqual({ outlook: "SKIPPED", amountCents: 0, boxed: false });
    }
    expect(await notices()).toEqual([]);
    expect(await t.db.prisma.order.count({ where: { subscriptionId: sub.id } })).toBe(0);

    // The charge that ends the pause is announced three days before it, at the full amount, and previewed.
    t.clock.set("2026-06-30T15:00:00Z");
    await planReminders(billing());
    expect((await notices()).map((n) => n.subject)).toEqual(["Upcoming charge: $21.15 on July 3, 2026"]);
    expect(await outlookOf(business.id, "2026-07", sub.id)).toEqual({ outlook: "WILL_CHARGE", amountCents: 2115, boxed: true });
    t.clock.set("2026-07-03T01:00:00Z"); // still July 2nd in New York
    expect(await renew(business.id)).toMatchObject({ charged: 0 });
    t.clock.set("2026-07-03T14:00:00Z");
    expect(await renew(business.id)).toMatchObject({ charged: 1, skipped: 0 });
    const orders = await t.db.prisma.order.findMany({ where: { subscriptionId: sub.id } });
    expect(orders.map((o) => [o.period, o.totalCents])).toEqual([["2026-07", 2115]]);
    expect(await t.db.prisma.subscription.findUniqueOrThrow({ where: { id: sub.id } })).toMatchObject({ status: "ACTIVE", paidThroughPeriod: "2026-07" });
  });

  it("is refused outside the skip window, beyond the page's longest pause, and at a business that offers none", async () => {
    const { business, sub, as } = await member();
    t.clock.set("2026-03-15T15:00:00Z");
    expect(await as(PAUSE, { months: 2 })).toEqual({
      __typename: "RuleViolationError",
      reason: "outside_skip_window",
      message: "You can pause your membership only from the 1st to the 14th of each month. The next window opens on April 1st.",
    });
    t.clock.set(NOW);
    expect(await as(PAUSE, { months: 4 })).toEqual({ __typename: "RuleViolationError", reason: "pause_too_long", message: "You can pause for at most 3 months." });
    expect((await as(PAUSE, { months: 0 })).__typename).toBe("ValidationError");
    expect((await as(PAUSE, { months: 13 })).__typename).toBe("ValidationError");
    await t.db.prisma.page.update({ where: { businessId: business.id }, data: { pauseMaxMonths: 0 } });
    expect(await as(PAUSE, { months: 1 })).toMatchObject({ __typename: "RuleViolationError", reason: "pause_not_offered" });
    await t.db.prisma.page.update({ where: { businessId: business.id }, data: { pauseMaxMonths: 6 } });
    expect((await as(PAUSE, { months: 6 })).data.throughMonth).toBe("2026-09");
    expect(await skipsOf(sub.id)).toEqual(["2026-04", "2026-05", "2026-06", "2026-07", "2026-08", "2026-09"]);
    expect(await eventsOf("membership.paused.v1", sub.id)).toHaveLength(1);
  });

  it("a pause sent several times at once (double taps, two tabs): one pause, one event, every other answer the conflict", async () => {
    const { sub, as } = await member();
    const answers = await Promise.all(Array.from({ length: 4 }, () => as(PAUSE, { months: 2 })));
    expect(answers.map((a) => a.__typename).sort()).toEqual(["ConflictError", "ConflictError", "ConflictError", "PauseMembershipSuccess"]);
    expect(await skipsOf(sub.id)).toEqual(["2026-04", "2026-05"]);
    expect(await eventsOf("membership.paused.v1", sub.id)).toHaveLength(1);
  });

  it("refuses a first month already skipped; a later month already skipped joins the pause", async () => {
    const { sub, as } = await member();
    await t.db.prisma.skip.createMany({ data: ["2026-05", "2026-07"].map((yearMonth) => ({ subscriptionId: sub.id, yearMonth })) });
    const r = await as(PAUSE, { months: 3 });
    // April to June written (May already was), and July's skip runs on from it: boxes again in August.
    expect(r.data).toMatchObject({ fromMonth: "2026-04", throughMonth: "2026-07", resumeDate: "2026-08-01", membership: { pausedThrough: "2026-07", nextBoxDate: "2026-08-01" } });
    expect(await skipsOf(sub.id)).toEqual(["2026-04", "2026-05", "2026-06", "2026-07"]);
    expect(await as(PAUSE, { months: 1 })).toMatchObject({ __typename: "ConflictError", reason: "already_skipped" });
    expect(await eventsOf("membership.paused.v1", sub.id)).toHaveLength(1);
  });
});

describe("unskipMonth and resumeMembership", () => {
  // Cutoff on the 10th, billing on the 3rd: on March 5th the next box is March's, still unfrozen (frozen at the end of the 10th).
  const cutoff = { cutoffDay: 10 };

  it("an unskip inside the window is charged by the next renewal pass and is in the preview", async () => {
    const { business, user, sub, as } = await member(cutoff, "2026-02");
    await t.db.prisma.skip.create({ data: { subscriptionId: sub.id, yearMonth: "2026-03" } });
    t.clock.set("2026-03-03T14:00:00Z");
    expect(await renew(business.id)).toMatchObject({ charged: 0, skipped: 1 });
    expect(await outlookOf(business.id, "2026-03", sub.id)).toMatchObject({ outlook: "SKIPPED", boxed: false });

    t.clock.set(NOW);
    const r = await as(UNSKIP, { month: "2026-03" });
    expect(r).toMatchObject({ __typename: "UnskipMonthSuccess", data: { months: ["2026-03"], membership: { pausedThrough: null, resumeDate: null, skips: [] } } });
    expect((await eventsOf("membership.unskipped.v1", sub.id)).map((e) => e.payload)).toEqual([{ membershipId: sub.id, userId: user.id, months: ["2026-03"] }]);
    expect(await outlookOf(business.id, "2026-03", sub.id)).toEqual({ outlook: "WILL_CHARGE", amountCents: 2115, boxed: true });
    expect(await renew(business.id)).toMatchObject({ charged: 1 });
    expect((await t.db.prisma.order.findMany({ where: { subscriptionId: sub.id } })).map((o) => [o.period, o.totalCents])).toEqual([["2026-03", 2115]]);
    expect(await outlookOf(business.id, "2026-03", sub.id)).toEqual({ outlook: "PAID", amountCents: 2115, boxed: true });
    expect(await as(UNSKIP, { month: "2026-03" })).toMatchObject({ __typename: "RuleViolationError", reason: "not_skipped", message: "March 2026 is not skipped." });
  });

  it("is refused after the month's freeze (its time, or a snapshot taken), for a paid month, and outside the window", async () => {
    const { business, sub, as } = await member(cutoff, "2026-02");
    await t.db.prisma.skip.createMany({ data: ["2026-03", "2026-04", "2026-05"].map((yearMonth) => ({ subscriptionId: sub.id, yearMonth })) });
    // An operator froze April early.
    await t.db.prisma.packingSnapshot.create({ data: { businessId: business.id, period: "2026-04", frozenAt: new Date(NOW), trigger: "operator" } });
    expect(await as(UNSKIP, { month: "2026-04" })).toEqual({ __typename: "RuleViolationError", reason: "month_frozen", message: "Your April 2026 box is already being packed, so its skip stays." });
    t.clock.set("2026-03-11T05:00:00Z"); // March 11th, 01:00 in New York: March froze at the end of the 10th
    expect(await as(UNSKIP, { month: "2026-03" })).toMatchObject({ __typename: "RuleViolationError", reason: "month_frozen" });
    t.clock.set("2026-03-15T15:00:00Z");
    expect(await as(UNSKIP, { month: "2026-05" })).toMatchObject({ __typename: "RuleViolationError", reason: "outside_skip_window" });
    expect(await skipsOf(sub.id)).toEqual(["2026-03", "2026-04", "2026-05"]);
    // A month paid for (paid through it, or its order) keeps its skip.
    t.clock.set(NOW);
    await t.db.prisma.subscription.update({ where: { id: sub.id }, data: { paidThroughPeriod: "2026-05" } });
    expect(await as(UNSKIP, { month: "2026-05" })).toMatchObject({ __typename: "RuleViolationError", reason: "month_paid" });
    expect(await eventsOf("membership.unskipped.v1", sub.id)).toEqual([]);
  });

  it("resume early takes back the rest of the pause; a month already frozen stays skipped", async () => {
    const { user, sub, as } = await member();
    expect(await as(RESUME, {})).toMatchObject({ __typename: "RuleViolationError", reason: "not_paused" });
    await as(PAUSE, { months: 3 });
    t.clock.set("2026-03-10T15:00:00Z");
    const r = await as(RESUME, {});
    expect(r).toEqual({
      __typename: "ResumeMembershipSuccess",
      data: { months: ["2026-04", "2026-05", "2026-06"], membership: { status: "ACTIVE", pausedThrough: null, resumeDate: null, nextBoxDate: "2026-04-01", skips: [], pendingChange: null } },
    });
    expect((await eventsOf("membership.unskipped.v1", sub.id)).map((e) => e.payload)).toEqual([{ membershipId: sub.id, userId: user.id, months: ["2026-04", "2026-05", "2026-06"] }]);

    // Box ready on the 20th, no cutoff: on March 5th March's box is still to come but its month froze on its billing day.
    const late = await member({ boxReadyDay: 20 }, "2026-02");
    expect((await late.as(PAUSE, { months: 3 })).data).toMatchObject({ fromMonth: "2026-03", throughMonth: "2026-05", resumeDate: "2026-06-20" });
    expect((await late.as(RESUME, {})).data).toMatchObject({ months: ["2026-04", "2026-05"], membership: { skips: [{ yearMonth: "2026-03" }] } });
  });
});

describe("a scheduled change keeps its rule: the first charged month on or after the one it was scheduled for", () => {
  it("a pause moves it past the paused months (applied by the renewal that ends the pause); resuming brings it back", async () => {
    const { business, bigger, sub, as } = await member();
    const change = { planId: String(bigger.id), mode: "PICKUP", addonIds: [] };
    expect((await as(CHANGE, change)).data.pendingChange.effectivePeriod).toBe("2026-04");
    expect((await as(PAUSE, { months: 2 })).data.membership.pendingChange).toEqual({ effectivePeriod: "2026-06" });
    expect((await as(RESUME, {})).data.membership.pendingChange).toEqual({ effectivePeriod: "2026-04" });
    // Paused again: April and May are skipped, the change applies with June's charge.
    await as(PAUSE, { months: 2 });
    for (const day of ["2026-04-03", "2026-05-03"]) {
      t.clock.set(`${day}T14:00:00Z`);
      expect(await renew(business.id)).toMatchObject({ charged: 0, changesApplied: 0 });
    }
    t.clock.set("2026-06-03T14:00:00Z");
    expect(await renew(business.id)).toMatchObject({ charged: 1, changesApplied: 1 });
    const [order] = await t.db.prisma.order.findMany({ where: { subscriptionId: sub.id } });
    // 3000 + 5.75 % = 3172.5 → 3173
    expect(order).toMatchObject({ period: "2026-06", totalCents: 3173 });
    expect(await t.db.prisma.subscription.findUniqueOrThrow({ where: { id: sub.id } })).toMatchObject({ planId: bigger.id, totalCents: 3173 });
  });
});
