import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor, ServiceContext } from "../../api/context.ts";
import { list, membershipOrder, type MembershipFilter, type MembershipSort } from "../../api/subscriptions/memberships-list.ts";
import { pauseViewOf } from "../../api/subscriptions/skips.ts";
import { timingSelect } from "../../api/subscriptions/timing.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories } from "../support/factories.ts";

/**
 * The memberships list's Paused and Ending filters (GraphQL and the web list; REST's `status` keeps the spec's
 * values): in the keyset statement, they list exactly the memberships whose rows say "Paused until …" (ACTIVE, the
 * next box's month skipped: pauseViewOf, Membership.pausedThrough) and "Ends after …" (ACTIVE or PAST_DUE with
 * cancel_after_period), whatever the business's calendar and the instant, and page in every sort.
 */

let t: TestApp;
let admin: Actor;
let token = "";
let tokyoId = 0;
const CLOCK = "2026-03-05T15:00:00Z";

const ctxOf = (actor: Actor): ServiceContext =>
  ({ db: t.db.prisma, clock: t.clock, config: t.config, log: console, actor, tenant: null, ip: "127.0.0.1", roleCache: new Map() });

/** The list's ids, in its order. */
async function listIds(filter: MembershipFilter): Promise<number[]> {
  return (await list(ctxOf(admin), filter, { take: 1000, select: { id: true } })).rows.map((r) => r.id);
}

beforeAll(async () => {
  t = await createTestApp({ now: CLOCK });
  const f = factories(t);
  const root = await f.user({ username: "root", isAdmin: true });
  token = await f.session(root);
  admin = { kind: "user", user: { id: root.id, publicId: root.publicId, username: "root", isAdmin: true }, session: { id: 1, tenantSlug: null } };
  // Three calendars: New York with a cutoff on the 10th and boxes on the 15th, Tokyo with boxes on the 5th and no
  // cutoff (the box-ready day is the cutoff), Honolulu without a page (the defaults: the 1st). The next box's month,
  // the month a skip now pauses, differs between them at the same instant, and with the month paid through.
  const businesses = [
    await f.business({ slug: "pause-ny", timeZone: "America/New_York", page: { cutoffDay: 10, boxReadyDay: 15 } }),
    await f.business({ slug: "pause-tokyo", timeZone: "Asia/Tokyo", page: { boxReadyDay: 5, cutoffDay: 0 } }),
    await f.business({ slug: "pause-hnl", timeZone: "Pacific/Honolulu" }),
  ];
  tokyoId = businesses[1].id;
  const skipSets = [[], ["2026-03"], ["2026-04"], ["2026-04", "2026-05"], ["2026-05"], ["2026-03", "2026-04"]];
  const statuses = ["ACTIVE", "ACTIVE", "PAST_DUE", "CANCELED", "INCOMPLETE", "ACTIVE"] as const;
  for (const [b, business] of businesses.entries()) {
    const plan = await f.plan(business);
    for (let i = 0; i < 24; i++) {
      const user = await f.user({ username: `pauser-${b}-${i}`, name: i % 3 === 0 ? undefined : `Pauser ${(i * 7) % 24}` });
      const sub = await f.subscription({
        user,
        business,
        plan,
        status: statuses[i % statuses.length],
        paidThroughPeriod: [null, "2026-02", "2026-03", "2026-04"][(i >> 2) % 4],
        // Starts that tie in pairs (ties by id).
        startedAt: `2026-02-${String(1 + (i >> 1)).padStart(2, "0")}T1${b}:00:00Z`,
      });
      await t.db.prisma.subscription.update({
        where: { id: sub.id },
        data: {
          cancelAfterPeriod: i % 5 === 1 || i % 7 === 2 ? ["2026-03", "2026-04"][i % 2] : null,
          skips: { create: skipSets[(i + b) % skipSets.length].map((yearMonth) => ({ yearMonth })) },
        },
      });
    }
  }
});
afterAll(() => t?.close());

/** Paused and Ending in JS, newest first: pauseViewOf (Membership.pausedThrough) on ACTIVE rows; a scheduled cancel on current ones. */
async function reference(status: "PAUSED" | "ENDING", where: { businessId?: number; username?: string } = {}): Promise<number[]> {
  const rows = await t.db.prisma.subscription.findMany({
    where: { businessId: where.businessId, user: where.username ? { username: { contains: where.username } } : undefined },
    orderBy: membershipOrder,
    select: { id: true, status: true, paidThroughPeriod: true, cancelAfterPeriod: true, skips: { select: { yearMonth: true } }, business: { select: { timeZone: true, page: { select: timingSelect } } } },
  });
  const ctx = ctxOf(admin);
  return rows
    .filter((r) => (status === "PAUSED" ? r.status === "ACTIVE" && pauseViewOf(ctx, r) !== null : (r.status === "ACTIVE" || r.status === "PAST_DUE") && r.cancelAfterPeriod !== null))
    .map((r) => r.id);
}

describe("the Paused and Ending filters", () => {
  afterAll(() => t.clock.set(CLOCK));

  // Instants either side of the calendars' edges: New York's cutoff (the 10th), Tokyo already in April, Honolulu still in March.
  const instants = [CLOCK, "2026-03-10T15:00:00Z", "2026-03-11T05:00:00Z", "2026-03-31T20:00:00Z", "2026-04-01T09:30:00Z", "2026-04-05T16:00:00Z", "2026-04-11T03:59:00Z"];

  it.each(instants)("at %s: exactly the paused (ACTIVE, next box's month skipped) and the ending memberships, as pauseViewOf says", async (at) => {
    t.clock.set(at);
    for (const status of ["PAUSED", "ENDING"] as const) {
      const expected = await reference(status);
      expect(expected.length, status).toBeGreaterThan(4);
      expect(await listIds({ status })).toEqual(expected);
      // With the other filters: one business's, and a search.
      expect(await listIds({ status, businessId: tokyoId })).toEqual(await reference(status, { businessId: tokyoId }));
      expect(await listIds({ status, search: "-1" })).toEqual(await reference(status, { username: "-1" }));
    }
  });

  const Q = `query($status: MembershipStatusFilter, $sort: MembershipSort, $first: Int, $after: String, $last: Int, $before: String) {
    memberships(status: $status, sort: $sort, first: $first, after: $after, last: $last, before: $before) {
      edges { cursor node { databaseId status pausedThrough resumeDate cancelAfterPeriod } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`;
  const page = async (v: Record<string, unknown>) => (await t.gqlOk(Q, v, { token })).memberships;

  it.each(["STARTED_DESC", "STARTED_ASC", "NAME_ASC", "NEXT_CHARGE_ASC", "NEXT_CHARGE_DESC"] as MembershipSort[])(
    "%s: pages of 3 walk every paused and ending row once, forward and back, each with its pause or its end",
    async (sort) => {
      t.clock.set("2026-03-31T20:00:00Z");
      for (const status of ["PAUSED", "ENDING"] as const) {
        const whole = (await page({ status, sort, first: 200 })).edges.map((e: any) => e.node);
        expect(whole.map((n: any) => n.databaseId).sort()).toEqual((await reference(status)).sort());
        const forward: number[] = [];
        let after: string | null = null;
        for (let guard = 0; guard < 50; guard++) {
          const p: any = await page({ status, sort, first: 3, after });
          forward.push(...p.edges.map((e: any) => e.node.databaseId));
          if (!p.pageInfo.hasNextPage) break;
          after = p.pageInfo.endCursor;
        }
        expect(forward).toEqual(whole.map((n: any) => n.databaseId));
        const backward: number[] = [];
        let before: string | null = null;
        for (let guard = 0; guard < 50; guard++) {
          const p: any = await page({ status, sort, last: 3, before });
          backward.unshift(...p.edges.map((e: any) => e.node.databaseId));
          if (!p.pageInfo.hasPreviousPage) break;
          before = p.pageInfo.startCursor;
        }
        expect(backward).toEqual(forward);
        // What the rows say: "Paused until {resumeDate}" and "Ends after the {cancelAfterPeriod} box".
        for (const n of whole) {
          if (status === "PAUSED") expect(n).toMatchObject({ status: "ACTIVE", pausedThrough: expect.stringMatching(/^2026-0[45]$/), resumeDate: expect.stringMatching(/^2026-0[56]-\d\d$/) });
          else expect(n).toMatchObject({ status: expect.stringMatching(/^(ACTIVE|PAST_DUE)$/), cancelAfterPeriod: expect.stringMatching(/^2026-0[34]$/) });
        }
      }
    },
  );

  it("REST's status keeps the spec's values: paused and ending are refused there (400)", async () => {
    for (const url of ["/api/admin/memberships?status=paused", "/api/admin/memberships?status=ending", "/api/admin/memberships.csv?status=paused", "/api/my/memberships?status=ending"]) {
      const res = await t.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${token}` } });
      expect(res.statusCode, url).toBe(400);
    }
  });
});
