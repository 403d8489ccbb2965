/**
 * Every message the product sends (docs/jobs-events-mail.md, "Email"): its name on the Sent mail page, whether a member may turn it
 * off, and its words. Amounts arrive as integer cents and are formatted here, at the edge; dates arrive as ISO
 * dates or "YYYY-MM" periods in the business's calendar.
 */
import type { ItemisedPrice } from "../billing/breakdown.ts";
import { parseYearMonth, monthName } from "../shared/calendar.ts";
import { formatCents } from "../shared/money.ts";
import type { Letter, ReceiptRow } from "./layout.ts";
import { ownerLetters } from "./owner-letters.ts";
import { pauseLetters } from "./pause-letters.ts";
import { cancelLetters } from "./cancel-letters.ts";

export const TEMPLATES = {
  welcome: { label: "Welcome and receipt", optional: null },
  signup_welcome: { label: "Welcome (first box next month)", optional: null },
  renewal_receipt: { label: "Renewal receipt", optional: null },
  restarted: { label: "Restart confirmation", optional: null },
  skipped: { label: "Skip confirmation", optional: null },
  paused: { label: "Pause confirmation", optional: null },
  unskipped: { label: "Box back on", optional: null },
  changed: { label: "Change confirmation", optional: null },
  address_changed: { label: "Delivery address changed", optional: null },
  cancel_scheduled: { label: "Cancellation scheduled", optional: null },
  canceled: { label: "Cancellation", optional: null },
  payment_failed: { label: "Payment failed", optional: null },
  final_notice: { label: "Final notice", optional: null },
  canceled_nonpayment: { label: "Canceled for non-payment", optional: null },
  card_updated: { label: "Card updated", optional: null },
  password_changed: { label: "Password changed", optional: null },
  window_reminder: { label: "Window closing reminder", optional: "reminders" },
  precharge_notice: { label: "Upcoming charge notice", optional: "prechargeNotice" },
  owner_digest: { label: "Daily digest", optional: "digest" },
  payout_account_attention: { label: "Payouts need attention", optional: null },
  platform_fee_changed: { label: "Platform fees changed", optional: null },
  payout_sent: { label: "Payout sent", optional: null },
  payout_failed: { label: "Payout failed", optional: null },
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

/** Links that open the portal on one membership's skip or change dialog (./brand.ts membershipDialogLinks). */
export interface DialogLinks {
  skip: string;
  change: string;
}

const RECEIPT_FOOTER = "You get this receipt because you are a member of";
const ACCOUNT_FOOTER = "You get this message about your account with";
const PREFS = "Turn these reminders off in your portal's Profile.";

/** A paid order as its receipt shows it: its own stored amounts (never today's catalogue), number, date and card. */
export interface ReceiptOrder {
  /** The order's number (its database id). */
  number: number;
  /** ISO date it was paid, in the business's time zone. */
  date: string;
  /** The card that paid ("VISA ending in 4242"), or null when none is on file. */
  card: string | null;
  /** The order's breakdown (billing/breakdown.ts itemiseOrder). */
  price: ItemisedPrice;
}

/** How a member reaches the business about a message: replying (when it has a reply-to) and its support phone. */
export interface Contact {
  replyTo: boolean;
  phone: string | null;
}

interface Receipt {
  brand: string;
  period: string;
  /** The order paid; null when it cannot be read (then only the total is shown). */
  order: ReceiptOrder | null;
  /** What was charged (the order's total when there is an order). */
  totalCents: number;
  /** ISO date of the next charge. */
  nextChargeDate: string | null;
  contact: Contact;
  links: PortalLinks;
}

const row = (label: string, cents: number): ReceiptRow => ({ label, amount: formatCents(cents) });

/**
 * The order's lines as receipt rows: plan, surcharge and add-ons, their Subtotal, then the coupon (negative) and
 * the tax with its rate, and "Total charged" last (the lines sum to it: billing/breakdown.ts).
 */
function receiptRows(price: ItemisedPrice): ReceiptRow[] {
  const items = price.lines.filter((l) => l.kind === "PLAN" || l.kind === "SURCHARGE" || l.kind === "ADDON");
  const adjustments = price.lines.filter((l) => l.kind === "DISCOUNT" || l.kind === "TAX");
  return [...items.map((l) => row(l.label, l.amountCents)), row("Subtotal", price.subtotalCents), ...adjustments.map((l) => row(l.label, l.amountCents)), row("Total charged", price.totalCents)];
}

function receiptParts(r: Receipt): Pick<Letter, "details" | "receipt" | "closing"> {
  const o = r.order;
  return {
    details: o ? [`Order #${o.number}`, `Date: ${dateLabel(o.date)}`, ...(o.card ? [`Paid with ${o.card}`] : [])] : [],
    receipt: o ? receiptRows(o.price) : [row(`${periodLabel(r.period)} box`, r.totalCents), row("Total charged", r.totalCents)],
    closing: contactLines(r.brand, r.contact, "Questions about this order?"),
  };
}

/** "Questions? Reply to this email or call Green Farm at 555-0100." (nothing when neither is possible). */
function contactLines(brand: string, c: Contact, question: string): string[] {
  if (c.replyTo && c.phone) return [`${question} Reply to this email or call ${brand} at ${c.phone}.`];
  if (c.replyTo) return [`${question} Reply to this email.`];
  if (c.phone) return [`${question} Call ${brand} at ${c.phone}.`];
  return [];
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
      ...receiptParts(r),
      actions: [{ label: "Open your portal", href: r.links.subscriptions }],
      footer: RECEIPT_FOOTER,
    };
  },
  /**
   * A next-month sign-up's welcome: when the first box comes and what will be charged then, line by line;
   * no receipt (nothing was charged).
   */
  signup_welcome(a: { brand: string; firstPeriod: string; chargeDate: string; price: ItemisedPrice; links: PortalLinks }): Letter {
    return {
      subject: `Welcome to ${a.brand}: your first box is ${monthName(parseYearMonth(a.firstPeriod).month)}'s`,
      preview: `Nothing was charged today. ${formatCents(a.price.totalCents)} will be charged on ${dateLabel(a.chargeDate)}.`,
      heading: `Welcome to ${a.brand}!`,
      paragraphs: [
        `Your membership starts with your ${periodLabel(a.firstPeriod)} box. Nothing was charged today; ${formatCents(a.price.totalCents)} will be charged on ${dateLabel(a.chargeDate)}, and then on the same day each month.`,
        "You can skip a month or change your box from your portal.",
      ],
      receipt: [
        ...a.price.lines.map((l) => ({ label: l.label, amount: formatCents(l.amountCents) })),
        { label: `To be charged on ${dateLabel(a.chargeDate)}`, amount: formatCents(a.price.totalCents) },
      ],
      actions: [{ label: "Open your portal", href: a.links.subscriptions }],
      footer: ACCOUNT_FOOTER,
    };
  },
  /** A renewal's receipt; `first`: the first charge of a next-month sign-up (its INITIAL order). */
  renewal_receipt(r: Receipt & { first?: boolean }): Letter {
    return {
      subject: `Your ${r.brand} receipt for ${periodLabel(r.period)}`,
      preview: `${formatCents(r.totalCents)} charged for your ${periodLabel(r.period)} box.`,
      heading: r.first ? "Your first box is on its way" : `Thanks for another month`,
      paragraphs: [
        `We charged ${formatCents(r.totalCents)} for your ${periodLabel(r.period)} box.`,
        ...(r.nextChargeDate ? [`Your next charge is on ${dateLabel(r.nextChargeDate)}.`] : []),
      ],
      ...receiptParts(r),
      actions: [{ label: "Open your portal", href: r.links.subscriptions }],
      footer: RECEIPT_FOOTER,
    };
  },
  /** A restart: with its receipt when it was charged (an order), else none (the period was already paid). */
  restarted(r: Receipt): Letter {
    const charged = r.order !== null || r.totalCents > 0;
    return {
      subject: `Your ${r.brand} membership is active again`,
      preview: charged ? `${formatCents(r.totalCents)} charged for ${periodLabel(r.period)}.` : `Welcome back.`,
      heading: "Welcome back!",
      paragraphs: [
        charged
          ? `Your membership is active again. We charged ${formatCents(r.totalCents)} for ${periodLabel(r.period)}.`
          : `Your membership is active again. ${periodLabel(r.period)} was already paid for, so nothing was charged.`,
        ...(r.nextChargeDate ? [`Your next charge is on ${dateLabel(r.nextChargeDate)}.`] : []),
      ],
      ...(charged ? receiptParts(r) : {}),
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
      preview: `From ${periodLabel(a.effectivePeriod)}: ${a.box}${a.totalCents !== null ? `, ${formatCents(a.totalCents)} a month` : ""}.`,
      heading: "Your change is scheduled",
      paragraphs: [
        `From ${periodLabel(a.effectivePeriod)} your box will be: ${a.box}.`,
        ...(a.totalCents !== null ? [`Your new monthly price is ${formatCents(a.totalCents)}, charged from ${periodLabel(a.effectivePeriod)} on.`] : []),
        "Until then your current box stays as it is.",
      ],
      actions: [{ label: "Open your portal", href: a.links.subscriptions }],
      footer: ACCOUNT_FOOTER,
    };
  },
  address_changed(a: { brand: string; box: string; address: string[]; area: string | null; appliesFrom: string; links: PortalLinks }): Letter {
    return {
      subject: `Your ${a.brand} boxes go to a new address from ${periodLabel(a.appliesFrom)}`,
      preview: `From your ${periodLabel(a.appliesFrom)} box on: ${a.address.join(", ")}.`,
      heading: "Your delivery address changed",
      paragraphs: [
        `From your ${periodLabel(a.appliesFrom)} box on, your ${a.box} goes to:`,
        ...a.address,
        ...(a.area ? [`Delivery area: ${a.area}.`] : []),
        "A box already being packed goes to the address it was packed for. If you didn't make this change, contact us right away.",
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
  window_reminder(a: { brand: string; closesOn: string; which: ("skip" | "change")[]; month: string; dialogs: DialogLinks }): Letter {
    const what = a.which.length === 2 ? "skip or change" : a.which[0];
    return {
      subject: `Last days to ${what} your ${periodLabel(a.month)} box`,
      preview: `The window closes on ${dateLabel(a.closesOn)}.`,
      heading: `Want to ${what} your ${periodLabel(a.month)} box?`,
      paragraphs: [`You can ${what} your ${periodLabel(a.month)} box until ${dateLabel(a.closesOn)}. After that, it ships as it is.`],
      actions: [
        ...(a.which.includes("skip") ? [{ label: "Skip a month", href: a.dialogs.skip }] : []),
        ...(a.which.includes("change") ? [{ label: "Change your box", href: a.dialogs.change }] : []),
      ],
      footer: `${PREFS} ${ACCOUNT_FOOTER}`,
    };
  },
  /**
   * The notice before a charge: the box that will be charged (plan and fulfilment), the amount and date, and while
   * the skip or change window is open, its last day and a link opening that dialog on this membership.
   */
  precharge_notice(a: {
    brand: string;
    /** The box charged ("Family Box, shipping"): a change taking effect that period is named, not the current box. */
    box: string;
    amountCents: number;
    chargeDate: string;
    period: string;
    /** ISO close dates of the windows open today. */
    windows: { skip: string | null; change: string | null };
    dialogs: DialogLinks;
  }): Letter {
    const { skip, change } = a.windows;
    const lastDays =
      skip && change && skip === change
        ? [`The last day to skip a month or change your box is ${dateLabel(skip)}.`]
        : [...(skip ? [`The last day to skip a month is ${dateLabel(skip)}.`] : []), ...(change ? [`The last day to change your box is ${dateLabel(change)}.`] : [])];
    return {
      subject: `Upcoming charge: ${formatCents(a.amountCents)} on ${dateLabel(a.chargeDate)}`,
      preview: `Your ${periodLabel(a.period)} box (${a.box}) will be charged on ${dateLabel(a.chargeDate)}.`,
      heading: "Your next charge",
      paragraphs: [`On ${dateLabel(a.chargeDate)} we'll charge ${formatCents(a.amountCents)} for your ${periodLabel(a.period)} box: ${a.box}.`, ...lastDays],
      receipt: [{ label: `${a.box} (${periodLabel(a.period)})`, amount: formatCents(a.amountCents) }],
      actions: [...(skip ? [{ label: "Skip a month", href: a.dialogs.skip }] : []), ...(change ? [{ label: "Change your box", href: a.dialogs.change }] : [])],
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
  ...pauseLetters,
  ...cancelLetters,
  ...ownerLetters,
};
