/**
 * The packing snapshot of month M: the preview's boxes copied, once, into packing_snapshots and packing_boxes
 * (a trigger refuses any update of a box). Boxes are the memberships paid for M, and those whose charge for M
 * failed (past due for M) marked hold = "payment_failed". What changes M afterwards is read as differences
 * (differences.ts), never written into the snapshot.
 */
import type { PrismaClient } from "../db.ts";
import type { Clock } from "../shared/clock.ts";
import type { Log } from "../shared/log.ts";
import { SYSTEM_ACTOR, writeEvents, type EventActor } from "../events/outbox.ts";
import { globalId } from "../shared/global-id.ts";
import type { YearMonth } from "../shared/calendar.ts";
import { currentAndPreviousPeriod, cycleOf, type FreezeTrigger } from "./cycle.ts";
import { periodRoutings } from "../payouts/accounts.ts";
import { previewOf } from "./preview.ts";

export interface FreezeResult {
  snapshotId: number;
  /** false: the month was already frozen (by an earlier run or another process); nothing was written. */
  created: boolean;
  boxes: number;
}

/**
 * Freezes month `period` of a business: one transaction, idempotent (one snapshot per business and period; a
 * second freeze, or two processes at once, write nothing more).
 */
export async function freeze(
  ctx: { db: PrismaClient; clock: Clock },
  businessId: number,
  period: YearMonth,
  opts: { trigger: FreezeTrigger | "operator"; actor?: EventActor },
): Promise<FreezeResult> {
  const existing = await ctx.db.packingSnapshot.findUnique({ where: { businessId_period: { businessId, period } }, select: { id: true, _count: { select: { boxes: true } } } });
  if (existing) return { snapshotId: existing.id, created: false, boxes: existing._count.boxes };
  const preview = await previewOf(ctx.db, businessId, period);
  // Paid for M, or past due for M (hold): a membership still waiting for its first charge of M is no box yet.
  const boxes = preview.members.flatMap((m) => (m.box && (m.outlook === "PAID" || m.outlook === "RETRY") ? [m.box] : []));
  const now = ctx.clock.now();
  return ctx.db.$transaction(async (tx) => {
    const [inserted] = await tx.$queryRaw<{ id: number }[]>`
      INSERT INTO packing_snapshots (business_id, period, frozen_at, trigger, created_at)
      VALUES (${businessId}, ${period}, ${now}::timestamp, ${opts.trigger}, ${now}::timestamp)
      ON CONFLICT (business_id, period) DO NOTHING
      RETURNING id`;
    if (!inserted) {
      // Another process froze it meanwhile (its commit is what the conflict waited for).
      const other = await tx.packingSnapshot.findUniqueOrThrow({ where: { businessId_period: { businessId, period } }, select: { id: true, _count: { select: { boxes: true } } } });
      return { snapshotId: other.id, created: false, boxes: other._count.boxes };
    }
    if (boxes.length) {
      // One statement however many boxes: the rows travel as one JSON array.
      await tx.$executeRaw`
        INSERT INTO packing_boxes (snapshot_id, subscription_id, order_id, user_id, member_name, email, phone, plan_id, plan_name, mode,
                                   fulfillment_point, addons, address, is_gift, gift_recipient, gift_message, total_cents, hold)
        SELECT ${inserted.id}, b."membershipId", b."orderId", b."userId", b."memberName", b.email, b.phone, b."planId", b."planName",
               b.mode::"FulfillmentMode", b."fulfillmentPoint", b.addons, NULLIF(b.address, 'null'::jsonb), b."isGift", b."giftRecipient",
               b."giftMessage", b."totalCents", b.hold
          FROM jsonb_to_recordset(${JSON.stringify(boxes)}::jsonb) AS b("membershipId" int, "orderId" int, "userId" int, "memberName" text,
               email text, phone text, "planId" int, "planName" text, mode text, "fulfillmentPoint" text, addons jsonb, address jsonb,
               "isGift" boolean, "giftRecipient" text, "giftMessage" text, "totalCents" int, hold text)`;
    }
    const held = boxes.filter((b) => b.hold).length;
    await writeEvents(tx, { at: now, actor: opts.actor ?? SYSTEM_ACTOR }, [
      {
        type: "fulfilment.snapshot_frozen.v1",
        businessId,
        objectId: globalId("Business", businessId),
        payload: { snapshotId: inserted.id, businessId, period, trigger: opts.trigger, boxes: boxes.length - held, held },
      },
    ]);
    return { snapshotId: inserted.id, created: true, boxes: boxes.length };
  });
}

export interface FreezeReport {
  frozen: number;
  /** Months already frozen, or frozen by another process meanwhile. */
  already: number;
  /** Businesses without a cutoff day whose renewal run for the month has not completed yet. */
  waiting: number;
  errors: number;
}

/**
 * The freeze job's pass: every business whose freeze time for the current or the previous month (its time zone)
 * has passed and that has no snapshot of it yet gets one. Safe with several processes (freeze is idempotent).
 * Statements: two to list the candidates, then per month frozen the preview's and the snapshot's own.
 */
export async function freezeDue(ctx: { db: PrismaClient; clock: Clock; log: Log }, opts: { signal?: AbortSignal } = {}): Promise<FreezeReport> {
  const report: FreezeReport = { frozen: 0, already: 0, waiting: 0, errors: 0 };
  const now = ctx.clock.now();
  const businesses = await ctx.db.business.findMany({
    select: { id: true, timeZone: true, page: { select: { billingDay: true, cutoffDay: true, boxReadyDay: true } } },
    orderBy: { id: "asc" },
  });
  const candidates = businesses.flatMap((b) =>
    currentAndPreviousPeriod(b, now).flatMap((period) => {
      const cycle = cycleOf(b, period);
      return now >= cycle.freezeAt ? [{ businessId: b.id, period, trigger: cycle.trigger, billingDay: cycle.billingDate.day }] : [];
    }),
  );
  if (!candidates.length) return report;
  const frozen = await ctx.db.packingSnapshot.findMany({
    where: { businessId: { in: [...new Set(candidates.map((c) => c.businessId))] }, period: { in: [...new Set(candidates.map((c) => c.period))] } },
    select: { businessId: true, period: true },
  });
  const done = new Set(frozen.map((s) => `${s.businessId}:${s.period}`));
  const open = candidates.filter((c) => !done.has(`${c.businessId}:${c.period}`));
  // Without a cutoff day, M is frozen once its renewal run has completed: no membership is still due for M.
  // A business whose account cannot take the month's charges (restricted) has its renewals blocked, not due: the
  // freeze does not wait for them.
  const blocked = new Set<string>();
  const runPeriods = [...new Set(open.filter((c) => c.trigger === "renewal_run").map((c) => c.period))];
  for (const period of runPeriods) {
    const ids = open.filter((c) => c.trigger === "renewal_run" && c.period === period).map((c) => c.businessId);
    for (const [id, routing] of await periodRoutings(ctx.db, ids, period)) if (routing.route.kind === "NOT_READY") blocked.add(`${id}:${period}`);
  }
  const byRun = open.filter((c) => c.trigger === "renewal_run" && !blocked.has(`${c.businessId}:${c.period}`));
  const stillDue = new Set<string>();
  if (byRun.length) {
    const rows = await ctx.db.$queryRaw<{ business_id: number; period: string }[]>`
      SELECT DISTINCT c.business_id, c.period
        FROM unnest(${byRun.map((c) => c.businessId)}::int[], ${byRun.map((c) => c.period)}::text[], ${byRun.map((c) => c.billingDay)}::int[]) AS c(business_id, period, billing_day)
        JOIN subscriptions s ON s.business_id = c.business_id
       WHERE s.status = 'ACTIVE'
         AND (s.paid_through_period IS NULL OR s.paid_through_period < c.period)
         AND s.billing_day <= c.billing_day
         AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.subscription_id = s.id AND o.period = c.period)
         AND NOT EXISTS (SELECT 1 FROM skips k WHERE k.subscription_id = s.id AND k.year_month = c.period)
         AND (s.cancel_after_period IS NULL OR s.cancel_after_period >= c.period)`;
    for (const r of rows) stillDue.add(`${r.business_id}:${r.period}`);
  }
  for (const c of open) {
    if (opts.signal?.aborted) break;
    if (stillDue.has(`${c.businessId}:${c.period}`)) {
      report.waiting++;
      continue;
    }
    try {
      const result = await freeze(ctx, c.businessId, c.period, { trigger: c.trigger });
      if (result.created) report.frozen++;
      else report.already++;
    } catch (err) {
      report.errors++;
      ctx.log.error({ err, businessId: c.businessId, period: c.period }, "packing snapshot not frozen: the next pass tries again");
    }
  }
  return report;
}
