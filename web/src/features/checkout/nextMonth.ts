import { formatCents } from "@shared/money.ts";
import { monthDay, periodMonthName } from "../business-page/nextMonth.ts";

/**
 * Checkout's words for a next-month sign-up (the quote's startsNextMonth): nothing is charged today, the
 * card is saved, and the quoted total is charged on the first month's billing day. Amounts and dates are the
 * server's (the quote, then the completion).
 */
interface NextMonthTerms {
  /** The quote's total: what the first charge will be. */
  totalCents: number;
  /** The first month with a box (YYYY-MM). */
  period: string;
  /** ISO date of the first charge. */
  firstChargeDate: string;
}

/** "Your first box will be April's. Nothing is charged today; $21.00 will be charged on April 6." */
export function nextMonthNotice({ totalCents, period, firstChargeDate }: NextMonthTerms): string {
  return `Your first box will be ${periodMonthName(period)}'s. Nothing is charged today; ${formatCents(totalCents)} will be charged on ${monthDay(firstChargeDate)}.`;
}

/** The card form's button in place of §2's pay button: "Save card · first charge $21.00 on April 6". */
export function saveCardButtonLabel(totalCents: number, firstChargeDate: string): string {
  return `Save card · first charge ${formatCents(totalCents)} on ${monthDay(firstChargeDate)}`;
}

/** The success panel once the card is saved: "Your first box will be April's. $21.00 will be charged on April 6." */
export function signedUpNotice({ totalCents, period, firstChargeDate }: NextMonthTerms): string {
  return `Your first box will be ${periodMonthName(period)}'s. ${formatCents(totalCents)} will be charged on ${monthDay(firstChargeDate)}.`;
}
