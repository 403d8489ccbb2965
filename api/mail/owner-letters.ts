/**
 * The owners' messages from the platform (api/mail/planner.ts ownerMessages): a payout account that needs them, new
 * platform fees, and payouts that reached the bank or failed. Part of `letters` (./templates.ts, which lists them in TEMPLATES); written here, beside the
 * words they need: the provider's requirement codes in plain words, fee rates as people read them.
 */
import type { EventPayloads } from "../events/vocabulary.ts";
import { monthName, parseYearMonth } from "../shared/calendar.ts";
import { formatCents } from "../shared/money.ts";
import { payoutFailureReason } from "../shared/payout-failures.ts";
import type { Letter } from "./layout.ts";

/** "2026-12" → "December 2026". */
function periodLabel(period: string): string {
  const { year, month } = parseYearMonth(period);
  return `${monthName(month)} ${year}`;
}

/** "2026-03-11" → "March 11, 2026". */
function dayLabel(iso: string): string {
  const [year, month, day] = iso.split("-").map(Number);
  return `${monthName(month)} ${day}, ${year}`;
}

/** The layout ends it with the platform's name. */
const ownerFooter = (business: string) => `You get this message as an owner of ${business} on`;

/**
 * What a payment provider's requirement code asks for, in plain words ("external_account" → "a bank account");
 * person codes are read by their last part ("individual.dob.day", "representative.dob.year" → "a date of birth");
 * a code not known here is shown as it is.
 */
function requirementLabel(code: string): string {
  const exact: Record<string, string> = {
    external_account: "a bank account",
    business_type: "the type of business",
    "business_profile.url": "a business website",
    "business_profile.mcc": "a business category",
    "business_profile.product_description": "a description of what the business sells",
    "business_profile.support_phone": "a support phone number",
    "company.tax_id": "the business's tax ID",
    "company.name": "the business's legal name",
    "company.phone": "the business's phone number",
  };
  if (exact[code]) return exact[code];
  const parts = code.split(".");
  if (parts[0] === "tos_acceptance") return "acceptance of the terms of service";
  if (parts.includes("dob")) return "a date of birth";
  if (parts.includes("address")) return parts[0] === "company" ? "the business's address" : "a home address";
  if (parts.includes("verification")) return "an identity document";
  const last = parts[parts.length - 1];
  const person: Record<string, string> = {
    first_name: "a legal name",
    last_name: "a legal name",
    email: "an email address",
    phone: "a phone number",
    id_number: "an ID number",
    ssn_last_4: "the last 4 digits of a Social Security number",
    title: "a job title",
  };
  return parts.length > 1 && person[last] ? person[last] : code;
}

/** "a, b, and c" (each once, in the order first asked). */
const listOf = (items: string[]) => new Intl.ListFormat("en", { style: "long", type: "conjunction" }).format([...new Set(items)]);

/** Basis points as a percent with up to two decimals, in integers (290 → "2.9 %", 500 → "5 %", 5 → "0.05 %"). */
function percentOfBps(bps: number): string {
  const rest = bps % 100;
  const fraction = rest === 0 ? "" : `.${String(rest).padStart(2, "0").replace(/0$/, "")}`;
  return `${Math.trunc(bps / 100)}${fraction} %`;
}

/** A fee as a rate and a fixed part ("2.9 % + $0.30", "5 %", "$0.30"). */
function feeLabel(bps: number, cents: number): string {
  if (cents > 0 && bps > 0) return `${percentOfBps(bps)} + ${formatCents(cents)}`;
  return cents > 0 ? formatCents(cents) : percentOfBps(bps);
}

export const ownerLetters = {
  /**
   * To each owner when the business's payout account needs them (api/billing/connect.ts): what is paused (or that
   * setup isn't finished), what the provider needs in plain words, and a button to the business's Payouts page.
   */
  payout_account_attention(a: {
    business: string;
    status: string;
    chargesEnabled: boolean;
    payoutsEnabled: boolean;
    requirementsDue: string[];
    payoutsUrl: string;
  }): Letter {
    const paused = !a.chargesEnabled || !a.payoutsEnabled;
    const state =
      a.status === "ONBOARDING"
        ? `Payouts for ${a.business} aren't set up yet: members can't be charged until setup is finished.`
        : !a.chargesEnabled && !a.payoutsEnabled
          ? `Charges and payouts are paused for ${a.business}: members can't be charged and nothing is paid out to your bank account.`
          : !a.chargesEnabled
            ? `Charges are paused for ${a.business}: members can't be charged.`
            : !a.payoutsEnabled
              ? `Payouts are paused for ${a.business}: members' payments stay in your balance and nothing is paid out to your bank account.`
              : `Charges and payouts are running for ${a.business}, but the payment provider needs more information to keep them going.`;
    const needs = a.requirementsDue.length ? `The payment provider needs ${listOf(a.requirementsDue.map(requirementLabel))}.` : null;
    return {
      subject: `Payouts at ${a.business}: action needed`,
      preview: needs ?? state,
      heading: "Your payouts need attention",
      paragraphs: [
        state,
        needs ?? "The payment provider is reviewing the account. Open Payouts to see where it stands.",
        ...(needs ? [paused ? "Open Payouts to give it what it needs; charges and payouts resume once it has everything." : "Open Payouts to give it what it needs before it pauses charges or payouts."] : []),
      ],
      actions: [{ label: "Open Payouts", href: a.payoutsUrl }],
      footer: ownerFooter(a.business),
    };
  },
  /** To each owner of a business whose platform fees change (api/payouts/schedules.ts): the new rates and the month. */
  platform_fee_changed(a: { business: string; effectivePeriod: string; rates: EventPayloads["platform_fee.scheduled.v1"]["rates"]; payoutsUrl: string }): Letter {
    const from = periodLabel(a.effectivePeriod);
    const rates = `Platform fee ${feeLabel(a.rates.platformBps, a.rates.platformCents)} and card processing ${feeLabel(a.rates.processingBps, a.rates.processingCents)} per charge, from ${from}.`;
    return {
      subject: `Platform fees from ${from}`,
      preview: rates,
      heading: "Your platform fees are changing",
      paragraphs: [
        `The fees taken from the charges of ${a.business} change from ${from}:`,
        rates,
        "Charges of earlier months, and their retries, keep the fees they were first made with.",
      ],
      actions: [{ label: "Open Payouts", href: a.payoutsUrl }],
      footer: ownerFooter(a.business),
    };
  },
  /**
   * To each owner when a payout reached the business's bank account (`payout.paid.v1`): the amount, the day, and a
   * link to the statement of that month on the Payouts page.
   */
  payout_sent(a: { business: string; amountCents: number; arrivalDate: string; statementUrl: string }): Letter {
    const amount = formatCents(a.amountCents);
    const arrived = `A payout of ${amount} from ${a.business} was paid to your bank account on ${dayLabel(a.arrivalDate)}.`;
    return {
      subject: `${amount} paid out to your bank account`,
      preview: arrived,
      heading: "Your payout has been paid",
      paragraphs: [arrived, "It can take a business day or two to show on your bank statement. The statement lists the charges and refunds behind it, with the fees taken."],
      actions: [{ label: "View statement", href: a.statementUrl }],
      footer: ownerFooter(a.business),
    };
  },
  /**
   * To each owner when a payout failed (`payout.failed.v1`): the amount, why in words, that the money is back in the
   * balance, and a button to the Payouts page where the bank details are changed.
   */
  payout_failed(a: { business: string; amountCents: number; failureCode: string | null; failureMessage: string | null; payoutsUrl: string }): Letter {
    const amount = formatCents(a.amountCents);
    const reason = payoutFailureReason(a.failureCode, a.failureMessage);
    return {
      subject: `A payout of ${amount} from ${a.business} failed`,
      preview: reason,
      heading: "Your payout didn't reach your bank",
      paragraphs: [
        `A payout of ${amount} from ${a.business} to your bank account failed. ${reason}`,
        "The money is back in your balance. Check your bank details on the Payouts page: it is paid out with the next payout once they are right.",
      ],
      actions: [{ label: "Bank details", href: a.payoutsUrl }],
      footer: ownerFooter(a.business),
    };
  },
};
