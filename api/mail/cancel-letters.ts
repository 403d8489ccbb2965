/**
 * A member's own cancel (api/subscriptions/cancellation.ts): the cancel confirmed with its last box and the day it
 * ends, and the membership ended on that day (the `canceled` template, worded for reason "member"). Part of `letters`
 * (./templates.ts, which lists them in TEMPLATES); neither can be turned off: both say what will and will not be charged.
 */
import { monthName, parseYearMonth } from "../shared/calendar.ts";
import type { Letter } from "./layout.ts";

/** "2026-12" → "December 2026". */
function periodLabel(period: string): string {
  const { year, month } = parseYearMonth(period);
  return `${monthName(month)} ${year}`;
}

/** "2026-12-04" → "December 4, 2026". */
function dateLabel(iso: string): string {
  const [year, month, day] = iso.split("-").map(Number);
  return `${monthName(month)} ${day}, ${year}`;
}

const FOOTER = "You get this message about your account with";

export const cancelLetters = {
  cancel_scheduled(a: { brand: string; afterPeriod: string; endsOn: string; links: { subscriptions: string } }): Letter {
    const last = periodLabel(a.afterPeriod);
    return {
      subject: `Your ${a.brand} membership ends after your ${last} box`,
      preview: `Your ${last} box is your last. Changed your mind? Keep your membership before ${dateLabel(a.endsOn)}.`,
      heading: `Your membership ends after your ${last} box`,
      paragraphs: [
        `As you asked, your membership ends on ${dateLabel(a.endsOn)}. Your ${last} box is your last, and you will not be charged again.`,
        `Changed your mind? Choose "Keep my membership" in your portal before ${dateLabel(a.endsOn)} and it goes on as before.`,
      ],
      actions: [{ label: "Keep my membership", href: a.links.subscriptions }],
      footer: FOOTER,
    };
  },
  /** The `canceled` template for reason "member": the end the member asked for, on the day it came. */
  canceled_by_member(a: { brand: string; lastPeriod: string | null; links: { subscriptions: string } }): Letter {
    return {
      subject: `Your ${a.brand} membership has ended`,
      preview: "As you asked, your membership has ended.",
      heading: "Your membership has ended",
      paragraphs: [
        a.lastPeriod
          ? `As you asked, your membership ended after your ${periodLabel(a.lastPeriod)} box. You will not be charged again.`
          : "As you asked, your membership has ended. You will not be charged again.",
        "Thank you for being a member. You can restart it from your portal at any time.",
      ],
      actions: [{ label: "Open your portal", href: a.links.subscriptions }],
      footer: FOOTER,
    };
  },
};
