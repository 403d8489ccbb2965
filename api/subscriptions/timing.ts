/**
 * When things happen for a membership: a business's timing settings (billing day, cutoff, box-ready day,
 * skip and change windows; spec §3, §4), "today" in its time zone, the next box and the windows as of today.
 * The calendar rules themselves are ./rules.ts.
 */
import type { ServiceContext } from "../context.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { MEMBER_STATUSES } from "../rules/member.ts";
import { isoDate, localDate, type LocalDate } from "../shared/calendar.ts";
import { DEFAULT_BILLING_DAY, DEFAULT_WINDOW, nextBoxDate, windowState, type DayWindow, type WindowState } from "../rules/dates.ts";

/** The page settings that time a membership; select them wherever a membership's dates are computed. */
export const timingSelect = {
  billingDay: true,
  cutoffDay: true,
  boxReadyDay: true,
  skipWindowStart: true,
  skipWindowEnd: true,
  changeWindowStart: true,
  changeWindowEnd: true,
} as const satisfies Prisma.PageSelect;

export type PageTiming = Prisma.PageGetPayload<{ select: typeof timingSelect }>;

export interface Timing {
  billingDay: number;
  cutoffDay: number | null;
  boxReadyDay: number | null;
  skipWindow: DayWindow;
  changeWindow: DayWindow;
}

/** A business without a saved page uses the spec §3 defaults. */
export function timingOf(page: PageTiming | null | undefined): Timing {
  if (!page) return { billingDay: DEFAULT_BILLING_DAY, cutoffDay: null, boxReadyDay: null, skipWindow: { ...DEFAULT_WINDOW }, changeWindow: { ...DEFAULT_WINDOW } };
  return {
    billingDay: page.billingDay,
    cutoffDay: page.cutoffDay,
    boxReadyDay: page.boxReadyDay,
    skipWindow: { startDay: page.skipWindowStart, endDay: page.skipWindowEnd },
    changeWindow: { startDay: page.changeWindowStart, endDay: page.changeWindowEnd },
  };
}

export function todayIn(ctx: Pick<ServiceContext, "clock">, timeZone: string): LocalDate {
  return localDate(ctx.clock.now(), timeZone);
}

/** ACTIVE and PAST_DUE are members (spec §4 shows them as active); CANCELED and INCOMPLETE are not. */
export const isActiveStatus = (status: string) => (MEMBER_STATUSES as readonly string[]).includes(status);

/** The membership's next box (ISO date), per spec §4. */
export function nextBoxDateOf(
  ctx: Pick<ServiceContext, "clock">,
  sub: { status: string; startedAt: Date; firstPeriod: string | null; skips: { yearMonth: string }[]; business: { timeZone: string; page: PageTiming | null } },
): string {
  const timing = timingOf(sub.business.page);
  return isoDate(
    nextBoxDate({
      today: todayIn(ctx, sub.business.timeZone),
      active: isActiveStatus(sub.status),
      boxReadyDay: timing.boxReadyDay,
      cutoffDay: timing.cutoffDay,
      skippedMonths: new Set(sub.skips.map((s) => s.yearMonth)),
      startedAt: localDate(sub.startedAt, sub.business.timeZone),
      firstPeriod: sub.firstPeriod,
    }),
  );
}

export interface WindowView extends DayWindow {
  open: boolean;
  /** ISO dates. */
  opensOn: string;
  closesOn: string;
}

function windowView(window: DayWindow, state: WindowState): WindowView {
  return { ...window, open: state.open, opensOn: isoDate(state.opensOn), closesOn: isoDate(state.closesOn) };
}

export function windowOf(
  ctx: Pick<ServiceContext, "clock">,
  business: { timeZone: string; page: PageTiming | null },
  which: "skipWindow" | "changeWindow",
): WindowView {
  const window = timingOf(business.page)[which];
  return windowView(window, windowState(todayIn(ctx, business.timeZone), window));
}
