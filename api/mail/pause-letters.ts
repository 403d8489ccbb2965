/**
 * A member's pause and its end (api/subscriptions/skips.ts): the pause confirmed with the date the boxes come again,
 * and skips taken back ("Your April 2026 box is back on"). Part of `letters` (./templates.ts, which lists them in
 * TEMPLATES); neither can be turned off: both say what will and will not be charged.
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

/** "April 2026", "April and May 2026", "April, May and June 2026", "December 2026 and January 2027". */
function monthsLabel(months: string[]): string {
  const labels = months.map((m) => parseYearMonth(m));
  const sameYear = labels.every((l) => l.year === labels[0].year);
  const names = labels.map((l, i) => (sameYear && i < labels.length - 1 ? monthName(l.month) : periodLabel(`${l.year}-${String(l.month).padStart(2, "0")}`)));
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

const FOOTER = "You get this message about your account with";

/** A change scheduled for later: the month it now takes effect (a pause moves it past the paused months, a skip taken back brings it forward). */
const changeLine = (changeFrom: string | null) => (changeFrom ? [`Your scheduled change to your box takes effect from ${periodLabel(changeFrom)}.`] : []);

export const pauseLetters = {
  paused(a: { brand: string; fromMonth: string; throughMonth: string; resumeDate: string; changeFrom: string | null; links: { subscriptions: string } }): Letter {
    const months = a.fromMonth === a.throughMonth ? periodLabel(a.fromMonth) : `${periodLabel(a.fromMonth)} through ${periodLabel(a.throughMonth)}`;
    return {
      subject: `Your ${a.brand} membership is paused until ${dateLabel(a.resumeDate)}`,
      preview: `No box and no charge for ${months}.`,
      heading: `Paused until ${dateLabel(a.resumeDate)}`,
      paragraphs: [
        `Your membership is paused: you will not get a box or a charge for ${months}.`,
        `Your boxes come again on ${dateLabel(a.resumeDate)}, charged as usual.`,
        ...changeLine(a.changeFrom),
        "Changed your mind? You can resume earlier from your portal while the skip window is open.",
      ],
      actions: [{ label: "Open your portal", href: a.links.subscriptions }],
      footer: FOOTER,
    };
  },
  unskipped(a: { brand: string; months: string[]; changeFrom: string | null; links: { subscriptions: string } }): Letter {
    const months = monthsLabel(a.months);
    const boxes = a.months.length === 1 ? "box is" : "boxes are";
    return {
      subject: `Your ${months} ${boxes} back on`,
      preview: `You will get your ${months} ${a.months.length === 1 ? "box" : "boxes"} from ${a.brand}.`,
      heading: `Your ${months} ${boxes} back on`,
      paragraphs: [`Your ${months} ${boxes} back on: you will get ${a.months.length === 1 ? "it" : "them"} and be charged as usual.`, ...changeLine(a.changeFrom)],
      actions: [{ label: "Open your portal", href: a.links.subscriptions }],
      footer: FOOTER,
    };
  },
};
