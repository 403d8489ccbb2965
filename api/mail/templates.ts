/**
 * Every message the product sends (README "Email"): its name on the Sent mail page, whether a member may turn it
 * off, and its words. Amounts arrive as integer cents and are formatted here, at the edge; dates arrive as ISO
 * dates or "YYYY-MM" periods in the business's calendar.
 */
import { parseYearMonth, monthName } from "../shared/calendar.ts";
import { formatCents } from "../shared/money.ts";
import type { Letter } from "./layout.ts";

export const TEMPLATES = {
  welcome: { label: "Welcome and receipt", optional: null },
  renewal_receipt: { label: "Renewal receipt", optional: null },
  restarted: { label: "Restart confirmation", optional: null },
  skipped: { label: "Skip confirmation", optional: null },
  changed: { label: "Change confirmation", optional: null },
  canceled: { label: "Cancellation", optional: null },
  payment_failed: { label: "Payment failed", optional: null },
  final_notice: { label: "Final notice", optional: null },
  canceled_nonpayment: { label: "Canceled for non-payment", optional: null },
  card_updated: { label: "Card updated", optional: null },
  password_changed: { label: "Password changed", optional: null },
  window_reminder: { label: "Window closing reminder", optional: "reminders" },
  precharge_notice: { label: "Upcoming charge notice", optional: "prechargeNotice" },
  owner_digest: { label: "Daily digest", optional: "digest" },
} as const satisfies Record<string, { label: string; optional: "reminders" | "prechargeNotice" | "digest" | null }>;

export type TemplateName = keyof typeof TEMPLATES;

export const isTemplateName = (s: string): s is TemplateName => Object.hasOwn(TEMPLATES, s);

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

/** Links into the member's portal at the business. */
export interface PortalLinks {
  /** The portal (its Subscriptions tab: skip, change, restart). */
  subscriptions: string;
  /** The Profile tab (card, password, email preferences). */
  profile: string;
}

const RECEIPT_FOOTER = "You get this receipt because you are a member of";
const ACCOUNT_FOOTER = "You get this message about your account with";
const PREFS = "Turn these reminders off in your portal's Profile.";

interface Receipt {
  brand: string;
  /** The box: plan name and fulfilment ("Family Box, pickup"). */
  box: string;
  period: string;
  totalCents: number;
  /** ISO date of the next charge. */
  nextChargeDate: string | null;
  links: PortalLinks;
}

function receiptLines(r: Receipt) {
  return [
    { label: `${r.box}, ${periodLabel(r.period)}`, amount: formatCents(r.totalCents) },
    { label: "Total charged", amount: formatCents(r.totalCents) },
  ];
}

export const letters = {
  welcome(r: Receipt): Letter {
    return {
      subject: `Welcome to ${r.brand}: your receipt`,
      preview: `Your membership is active. ${formatCents(r.totalCents)} charged for ${periodLabel(r.period)}.`,
      heading: `Welcome to ${r.brand}!`,
      paragraphs: [
        `Your membership is active. We charged ${formatCents(r.totalCents)} for your ${periodLabel(r.period)} box.`,
        ...(r.nextChargeDate ? [`Your next charge is on ${dateLabel(r.nextChargeDate)}. You can skip a month or change your box from your portal.`] : []),
      ],
      receipt: receiptLines(r),
      actions: [{ label: "Open your portal", href: r.links.subscriptions }],
      footer: `${RECEIPT_FOOTER}`,
    };
  },
  renewal_receipt(r: Receipt): Letter {
    return {
      subject: `Your ${r.brand} receipt for ${periodLabel(r.period)}`,
      preview: `${formatCents(r.totalCents)} charged for your ${periodLabel(r.period)} box.`,
      heading: `Thanks for another month`,
      paragraphs: [
        `We charged ${formatCents(r.totalCents)} for your ${periodLabel(r.period)} box.`,
        ...(r.nextChargeDate ? [`Your next charge is on ${dateLabel(r.nextChargeDate)}.`] : []),
      ],
      receipt: receiptLines(r),
      actions: [{ label: "Open your portal", href: r.links.subscriptions }],
      footer: RECEIPT_FOOTER,
    };
  },
  restarted(r: Receipt & { chargedCents: number }): Letter {
    const charged = r.chargedCents > 0;
    return {
      subject: `Your ${r.brand} membership is active again`,
      preview: charged ? `${formatCents(r.chargedCents)} charged for ${periodLabel(r.period)}.` : `Welcome back.`,
      heading: "Welcome back!",
      paragraphs: [
        charged
          ? `Your membership is active again. We charged ${formatCents(r.chargedCents)} for ${periodLabel(r.period)}.`
          : `Your membership is active again. ${periodLabel(r.period)} was already paid for, so nothing was charged.`,
        ...(r.nextChargeDate ? [`Your next charge is on ${dateLabel(r.nextChargeDate)}.`] : []),
      ],
      ...(charged ? { receipt: receiptLines({ ...r, totalCents: r.chargedCents }) } : {}),
      actions: [{ label: "Open your portal", href: r.links.subscriptions }],
      footer: RECEIPT_FOOTER,
    };
  },
  skipped(a: { brand: string; month: string; resumeDate: string; links: PortalLinks }): Letter {
    return {
      subject: `You skipped ${periodLabel(a.month)} at ${a.brand}`,
      preview: `No box and no charge in ${periodLabel(a.month)}.`,
      heading: `${periodLabel(a.month)} is skipped`,
      paragraphs: [
        `You will not get a box or a charge for ${periodLabel(a.month)}.`,
        `Your payments resume on ${dateLabel(a.resumeDate)}.`,
      ],
      actions: [{ label: "Open your portal", href: a.links.subscriptions }],
      footer: ACCOUNT_FOOTER,
    };
  },
  changed(a: { brand: string; box: string; effectivePeriod: string; totalCents: number | null; links: PortalLinks }): Letter {
    return {
      subject: `Your ${a.brand} box changes from ${periodLabel(a.effectivePeriod)}`,
      preview: `From ${periodLabel(a.effectivePeriod)}: ${a.box}.`,
      heading: "Your change is scheduled",
      paragraphs: [
        `From ${periodLabel(a.effectivePeriod)} your box will be: ${a.box}.`,
        ...(a.totalCents !== null ? [`From then on each month costs ${formatCents(a.totalCents)}.`] : []),
        "Until then your current box stays as it is.",
      ],
      actions: [{ label: "Open your portal", href: a.links.subscriptions }],
      footer: ACCOUNT_FOOTER,
    };
  },
  canceled(a: { brand: string; links: PortalLinks }): Letter {
    return {
      subject: `Your ${a.brand} membership was canceled`,
      preview: "Your membership has ended.",
      heading: "Your membership has ended",
      paragraphs: [`${a.brand} canceled your membership. You will not be charged again.`, "You can restart it from your portal at any time."],
      actions: [{ label: "Open your portal", href: a.links.subscriptions }],
      footer: ACCOUNT_FOOTER,
    };
  },
  payment_failed(a: { brand: string; amountCents: number; period: string; retryDate: string; links: PortalLinks }): Letter {
    return {
      subject: `Your ${a.brand} payment didn't go through`,
      preview: `We'll try ${formatCents(a.amountCents)} again on ${dateLabel(a.retryDate)}.`,
      heading: "Your payment didn't go through",
      paragraphs: [
        `We couldn't charge ${formatCents(a.amountCents)} for your ${periodLabel(a.period)} box.`,
        `We'll try again on ${dateLabel(a.retryDate)}. If your card has changed, update it before then.`,
      ],
      actions: [{ label: "Update your card", href: a.links.profile }],
      footer: ACCOUNT_FOOTER,
    };
  },
  final_notice(a: { brand: string; amountCents: number; period: string; retryDate: string; links: PortalLinks }): Letter {
    return {
      subject: `Final notice: update your card to keep your ${a.brand} membership`,
      preview: `Last try on ${dateLabel(a.retryDate)}; then your membership is canceled.`,
      heading: "Final notice",
      paragraphs: [
        `We still couldn't charge ${formatCents(a.amountCents)} for your ${periodLabel(a.period)} box.`,
        `We'll try one last time on ${dateLabel(a.retryDate)}. If that payment fails, your membership will be canceled.`,
      ],
      actions: [{ label: "Update your card", href: a.links.profile }],
      footer: ACCOUNT_FOOTER,
    };
  },
  canceled_nonpayment(a: { brand: string; links: PortalLinks }): Letter {
    return {
      subject: `Your ${a.brand} membership was canceled`,
      preview: "We couldn't collect your payment.",
      heading: "Your membership was canceled",
      paragraphs: [
        "We tried your card several times and couldn't collect the payment, so your membership has been canceled.",
        "You can restart it from your portal once your card is up to date.",
      ],
      actions: [{ label: "Restart your membership", href: a.links.subscriptions }],
      footer: ACCOUNT_FOOTER,
    };
  },
  card_updated(a: { brand: string; card: string; links: PortalLinks }): Letter {
    return {
      subject: "Your card was updated",
      preview: `Future charges go to ${a.card}.`,
      heading: "Your card was updated",
      paragraphs: [`Your membership charges now go to ${a.card}.`, "If you didn't make this change, change your password and contact us."],
      actions: [{ label: "Review your profile", href: a.links.profile }],
      footer: ACCOUNT_FOOTER,
    };
  },
  password_changed(a: { brand: string; username: string; links: PortalLinks }): Letter {
    return {
      subject: "Your password was changed",
      preview: `The password of ${a.username} was changed.`,
      heading: "Your password was changed",
      paragraphs: [`The password of your account ${a.username} was just changed.`, "If you didn't make this change, contact us right away."],
      actions: [{ label: "Review your profile", href: a.links.profile }],
      footer: ACCOUNT_FOOTER,
    };
  },
  window_reminder(a: { brand: string; closesOn: string; which: ("skip" | "change")[]; month: string; links: PortalLinks }): Letter {
    const what = a.which.length === 2 ? "skip or change" : a.which[0];
    return {
      subject: `Last days to ${what} your ${periodLabel(a.month)} box`,
      preview: `The window closes on ${dateLabel(a.closesOn)}.`,
      heading: `Want to ${what} your ${periodLabel(a.month)} box?`,
      paragraphs: [`You can ${what} your ${periodLabel(a.month)} box until ${dateLabel(a.closesOn)}. After that, it ships as it is.`],
      actions: [
        ...(a.which.includes("skip") ? [{ label: "Skip a month", href: a.links.subscriptions }] : []),
        ...(a.which.includes("change") ? [{ label: "Change your box", href: a.links.subscriptions }] : []),
      ],
      footer: `${PREFS} ${ACCOUNT_FOOTER}`,
    };
  },
  precharge_notice(a: { brand: string; amountCents: number; chargeDate: string; period: string; windowOpen: ("skip" | "change")[]; links: PortalLinks }): Letter {
    return {
      subject: `Upcoming charge: ${formatCents(a.amountCents)} on ${dateLabel(a.chargeDate)}`,
      preview: `Your ${periodLabel(a.period)} box will be charged on ${dateLabel(a.chargeDate)}.`,
      heading: "Your next charge",
      paragraphs: [`On ${dateLabel(a.chargeDate)} we'll charge ${formatCents(a.amountCents)} for your ${periodLabel(a.period)} box.`],
      receipt: [{ label: `${periodLabel(a.period)} box`, amount: formatCents(a.amountCents) }],
      actions: [
        ...(a.windowOpen.includes("skip") ? [{ label: "Skip a month", href: a.links.subscriptions }] : []),
        ...(a.windowOpen.includes("change") ? [{ label: "Change your box", href: a.links.subscriptions }] : []),
      ],
      footer: `${PREFS} ${ACCOUNT_FOOTER}`,
    };
  },
  owner_digest(a: { brand: string; date: string; started: string[]; canceled: string[]; failed: string[]; adminUrl: string }): Letter {
    const list = (title: string, items: string[]) => (items.length ? [`${title} (${items.length}): ${items.join(", ")}.`] : []);
    return {
      subject: `${a.brand} on ${dateLabel(a.date)}: ${a.started.length} new, ${a.canceled.length} canceled, ${a.failed.length} failed payments`,
      preview: `${a.started.length} new members, ${a.canceled.length} cancellations, ${a.failed.length} failed payments.`,
      heading: `Your day at ${a.brand}`,
      paragraphs: [
        `What happened on ${dateLabel(a.date)}:`,
        ...list("New members", a.started),
        ...list("Cancellations", a.canceled),
        ...list("Failed payments", a.failed),
      ],
      actions: [{ label: "Open the dashboard", href: a.adminUrl }],
      footer: "Turn the daily digest off on the Sent mail page of the admin area. You get it as a member of the team of",
    };
  },
};
