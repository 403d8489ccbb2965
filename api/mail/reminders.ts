/**
 * The scheduled messages (the hourly mail-reminders job), each keyed by its occasion so any number of runs in a
 * day plans it once, all counted in the business's time zone on the injectable clock:
 * - the window-closing reminder, 3 days before the skip/change window's end day (on its first day when the window
 *   is shorter), to active members whose next box is not skipped (nor after the month their own cancel ends with);
 *   off when the business or the member turned it off;
 * - the pre-charge notice, 3 days before the billing day of the next charge (none when the member's own cancel ends
 *   the membership before it): the box charged (a scheduled change taking effect then is named and priced as the
 *   renewal will price it), its amount and date, and while a window is open its last day and a link opening that
 *   dialog on the membership (brand.ts membershipDialogLinks);
 * - the owners' daily digest of yesterday: new members, cancellations and failed payments, from the event outbox,
 *   to owners and editors who have not turned it off; nothing is sent for a day without any.
 */
import type { Prisma } from "../generated/prisma/client.ts";
import type { StoreContext } from "./store.ts";
import type { DispatchContext } from "./dispatch.ts";
import { changeTakesEffect, priceScheduledChanges, renewalAmountCents, type PricedChange } from "../billing/renewals/pricing.ts";
import { addDays, dayNumber, dayOfMonth, daysBetween, isoDate, localDate, parseYearMonth, yearMonthOf, type LocalDate } from "../shared/calendar.ts";
import { endedBefore, firstChargedPeriod, nextBillingPeriod, skipTargetMonth, windowState } from "../rules/dates.ts";
import { timingOf } from "../subscriptions/timing.ts";
import { adminUrl, businessMailSelect, businessSender, membershipDialogLinks, type MailBusiness } from "./brand.ts";
import { boxLabel, type PlannedMessage } from "./planner.ts";
import { memberAddress } from "../rules/member.ts";
import { storeMessages } from "./store.ts";
import { letters } from "./templates.ts";

type Tx = Prisma.TransactionClient;

/** Days before a window's end (and before a charge) that the reminder (and the notice) go out. */
const REMINDER_DAYS_BEFORE = 3;

const memberSelect = {
  id: true,
  userId: true,
  billingDay: true,
  mode: true,
  email: true,
  totalCents: true,
  couponId: true,
  plan: { select: { name: true } },
  paidThroughPeriod: true,
  firstPeriod: true,
  cancelAfterPeriod: true,
  user: { select: { email: true, mailReminders: true, mailPrechargeNotice: true } },
  skips: { select: { yearMonth: true } },
  pendingChange: { select: { planId: true, mode: true, fulfillmentPoint: true, addonIds: true, effectivePeriod: true } },
} as const satisfies Prisma.SubscriptionSelect;

type Member = Prisma.SubscriptionGetPayload<{ select: typeof memberSelect }>;

export interface ReminderReport {
  businesses: number;
  windowReminders: number;
  prechargeNotices: number;
  digests: number;
}

/** The business's windows that close on `closesOn`, if today is their reminder day (and they are open). */
function windowsToRemind(today: LocalDate, b: MailBusiness): { closesOn: LocalDate; which: ("skip" | "change")[] } | null {
  const timing = timingOf(b.page);
  const due: { which: "skip" | "change"; closesOn: LocalDate }[] = [];
  for (const which of ["skip", "change"] as const) {
    const state = windowState(today, which === "skip" ? timing.skipWindow : timing.changeWindow);
    if (!state.open) continue;
    const left = daysBetween(today, state.closesOn);
    const remindOn = daysBetween(state.opensOn, state.closesOn) < REMINDER_DAYS_BEFORE ? state.opensOn : addDays(state.closesOn, -REMINDER_DAYS_BEFORE);
    if (left >= 0 && daysBetween(remindOn, today) === 0) due.push({ which, closesOn: state.closesOn });
  }
  if (due.length === 0) return null;
  // Both close the same day: one message names both; otherwise the first to close.
  const first = due.reduce((a, b) => (dayNumber(b.closesOn) < dayNumber(a.closesOn) ? b : a));
  return { closesOn: first.closesOn, which: due.filter((d) => dayNumber(d.closesOn) === dayNumber(first.closesOn)).map((d) => d.which) };
}

/**
 * The scheduled change a renewal applies, priced as the renewal run prices it; null when the change lost its price
 * since (the renewal then keeps the current selection).
 */
async function pricedChange(tx: Tx, b: MailBusiness, m: Member & { pendingChange: NonNullable<Member["pendingChange"]> }): Promise<PricedChange | null> {
  const tax = await tx.page.findUnique({ where: { businessId: b.id }, select: { taxEnabled: true, taxRateBps: true } });
  const priced = await priceScheduledChanges(tx, [{ id: m.id, businessId: b.id, couponId: m.couponId, pendingChange: m.pendingChange }], new Map([[b.id, tax]]));
  return priced.get(m.id) ?? null;
}

async function planBusiness(tx: Tx, ctx: StoreContext, b: MailBusiness, report: ReminderReport): Promise<PlannedMessage[]> {
  const today = localDate(ctx.now, b.timeZone);
  const sender = businessSender(ctx.config, b);
  const timing = timingOf(b.page);
  const planned: PlannedMessage[] = [];
  const windows = b.page?.mailWindowReminder !== false ? windowsToRemind(today, b) : null;
  const precharge = b.page?.mailPrechargeNotice !== false;
  if (windows || precharge) {
    const members: Member[] = await tx.subscription.findMany({ where: { businessId: b.id, status: "ACTIVE" }, select: memberSelect, orderBy: { id: "asc" } });
    // The last day of each window open today (the notice names it and links its dialog).
    const closing = (w: "skip" | "change") => {
      const state = windowState(today, w === "skip" ? timing.skipWindow : timing.changeWindow);
      return state.open ? isoDate(state.closesOn) : null;
    };
    const openWindows = { skip: closing("skip"), change: closing("change") };
    for (const m of members) {
      // A next-month sign-up hears nothing before its first month (the welcome told it when that comes).
      if (m.firstPeriod && yearMonthOf(today) < m.firstPeriod) continue;
      const skipped = new Set(m.skips.map((s) => s.yearMonth));
      const dialogs = membershipDialogLinks(sender.links, m.id);
      const base = { sender, recipientUserId: m.userId, toAddress: memberAddress(m), eventSequence: null, orderId: null };
      const skipTarget = skipTargetMonth({ today, paidThroughPeriod: m.paidThroughPeriod, cutoffDay: timing.cutoffDay, boxReadyDay: timing.boxReadyDay });
      // A member's own cancel: nothing is announced for a month after its last one (no box, no charge).
      const ended = (month: string) => endedBefore(month, m.cancelAfterPeriod);
      if (windows && m.user.mailReminders) {
        const month = skipTarget;
        if (!skipped.has(month) && !ended(month)) {
          report.windowReminders++;
          planned.push({
            ...base,
            template: "window_reminder",
            dedupeKey: `reminder:window:${m.id}:${isoDate(windows.closesOn)}`,
            letter: letters.window_reminder({ brand: sender.brand.name, closesOn: isoDate(windows.closesOn), which: windows.which, month, dialogs }),
          });
        }
      }
      if (precharge && m.user.mailPrechargeNotice) {
        // The next month charged: past the skipped ones (a pause), so the charge that ends a pause is announced too.
        const period = firstChargedPeriod(nextBillingPeriod(today, m.paidThroughPeriod), skipped);
        const chargeOn = dayOfMonth(parseYearMonth(period), m.billingDay);
        if (daysBetween(today, chargeOn) === REMINDER_DAYS_BEFORE && !ended(period)) {
          const change = m.pendingChange && changeTakesEffect(m.pendingChange, period) ? await pricedChange(tx, b, { ...m, pendingChange: m.pendingChange }) : null;
          report.prechargeNotices++;
          planned.push({
            ...base,
            template: "precharge_notice",
            dedupeKey: `reminder:precharge:${m.id}:${period}`,
            letter: letters.precharge_notice({
              brand: sender.brand.name,
              box: change ? boxLabel(change.planName, change.mode) : boxLabel(m.plan.name, m.mode),
              amountCents: renewalAmountCents(m, change),
              chargeDate: isoDate(chargeOn),
              period,
              // A skip now pauses the month of the next box, which may already be a later one than the month charged
              // (its box is being packed): then the notice offers no skip of it.
              windows: { ...openWindows, skip: skipTarget === period ? openWindows.skip : null },
              dialogs,
            }),
          });
        }
      }
    }
  }
  planned.push(...(await planDigest(tx, ctx, b, addDays(today, -1), report)));
  return planned;
}

const DIGEST_NAMES_MAX = 20;

/** Yesterday's digest for each owner and editor who gets it, or nothing when nothing happened. */
async function planDigest(tx: Tx, ctx: StoreContext, b: MailBusiness, day: LocalDate, report: ReminderReport): Promise<PlannedMessage[]> {
  const staff = await tx.businessUser.findMany({
    where: { businessId: b.id, role: { in: ["OWNER", "EDITOR"] }, user: { mailDigest: true, email: { not: null } } },
    select: { user: { select: { id: true, email: true } } },
  });
  if (staff.length === 0) return [];
  // Events of the local day (a day is at most 26 hours of UTC either side of its date).
  const from = new Date(dayNumber(day) - 14 * 3_600_000);
  const to = new Date(dayNumber(day) + 38 * 3_600_000);
  const events = await tx.event.findMany({
    where: { businessId: b.id, createdAt: { gte: from, lt: to }, type: { in: ["membership.started.v1", "membership.canceled.v1", "payment.failed.v1"] } },
    select: { type: true, payload: true, createdAt: true },
    orderBy: { sequence: "asc" },
  });
  const ofDay = events.filter((e) => daysBetween(localDate(e.createdAt, b.timeZone), day) === 0);
  if (ofDay.length === 0) return [];
  const userIds = [...new Set(ofDay.map((e) => (e.payload as { userId: number }).userId))];
  const users = new Map((await tx.user.findMany({ where: { id: { in: userIds } }, select: { id: true, username: true, name: true } })).map((u) => [u.id, u.name?.trim() || u.username]));
  const names = (type: string) => {
    const all = ofDay.filter((e) => e.type === type).map((e) => users.get((e.payload as { userId: number }).userId) ?? "a member");
    return all.length > DIGEST_NAMES_MAX ? [...all.slice(0, DIGEST_NAMES_MAX), `and ${all.length - DIGEST_NAMES_MAX} more`] : all;
  };
  const sender = businessSender(ctx.config, b);
  const letter = letters.owner_digest({
    brand: sender.brand.name,
    date: isoDate(day),
    started: names("membership.started.v1"),
    canceled: names("membership.canceled.v1"),
    failed: names("payment.failed.v1"),
    adminUrl: adminUrl(ctx.config, b.id),
  });
  report.digests += staff.length;
  return staff.map(({ user }) => ({
    dedupeKey: `digest:${b.id}:${user.id}:${isoDate(day)}`,
    template: "owner_digest" as const,
    sender: { ...sender, replyTo: null },
    recipientUserId: user.id,
    toAddress: user.email?.trim() ?? "",
    letter,
    eventSequence: null,
    orderId: null,
  }));
}

/** Plans today's scheduled messages of every business, one transaction per business. */
export async function planReminders(ctx: DispatchContext, signal?: AbortSignal): Promise<ReminderReport> {
  const report: ReminderReport = { businesses: 0, windowReminders: 0, prechargeNotices: 0, digests: 0 };
  const businesses = await ctx.db.business.findMany({ select: businessMailSelect, orderBy: { id: "asc" } });
  for (const b of businesses) {
    if (signal?.aborted) break;
    const store: StoreContext = { config: ctx.config, jobs: ctx.jobs, now: ctx.clock.now() };
    await ctx.db.$transaction(async (tx) => storeMessages(tx, store, await planBusiness(tx, store, b, report)), { timeout: 300_000, maxWait: 30_000 });
    report.businesses++;
  }
  return report;
}
