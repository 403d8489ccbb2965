/**
 * Where a business's charges go, as rules over what is stored: the state of its connected account, the month its
 * charges start going there, and whether it took members before payouts existed. Pure: the callers read the rows.
 */
import { addMonths, parseYearMonth, yearMonthOf, type YearMonth } from "../shared/calendar.ts";

export type PayoutAccountStatus = "ONBOARDING" | "ENABLED" | "RESTRICTED";

/**
 * An account's status as the owners' Payouts page shows it: Enabled when it takes charges and sends payouts;
 * Restricted once onboarding was sent but the provider holds either back (requirements due, a review); else
 * still onboarding ("Finish setup").
 */
export function accountStatus(info: { detailsSubmitted: boolean; chargesEnabled: boolean; payoutsEnabled: boolean }): PayoutAccountStatus {
  if (info.chargesEnabled && info.payoutsEnabled) return "ENABLED";
  return info.detailsSubmitted ? "RESTRICTED" : "ONBOARDING";
}

/**
 * The first month routed to an account enabled for the first time in `period`: that month if the business has no
 * payment in it yet, else the next, so a month's charges and their retries all go one way.
 */
export function connectFromPeriod(period: YearMonth, hasPaymentInPeriod: boolean): YearMonth {
  return hasPaymentInPeriod ? yearMonthOf(addMonths(parseYearMonth(period), 1)) : period;
}

export interface RoutingFacts {
  /** Took members before payouts existed: its months before connecting stay on the platform's account. */
  collectsOnPlatform: boolean;
  connectFromPeriod: YearMonth | null;
  account: { accountId: string; status: PayoutAccountStatus } | null;
}

export type Route =
  /** A destination charge to the business's account. */
  | { kind: "CONNECTED"; destination: string }
  /** As before payouts: the platform's own account, no fee. */
  | { kind: "PLATFORM" }
  /** Not taking charges: never connected (a new business), or its account is restricted for a connected month. */
  | { kind: "NOT_READY" };

/** Where a charge for `period` goes. */
export function routeFor(facts: RoutingFacts, period: YearMonth): Route {
  const connected = facts.connectFromPeriod !== null && period >= facts.connectFromPeriod;
  if (connected) {
    return facts.account?.status === "ENABLED" ? { kind: "CONNECTED", destination: facts.account.accountId } : { kind: "NOT_READY" };
  }
  return facts.collectsOnPlatform ? { kind: "PLATFORM" } : { kind: "NOT_READY" };
}
