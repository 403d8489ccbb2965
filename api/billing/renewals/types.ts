import type { ServiceContext } from "../../context.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import { subscriptionForBilling } from "../service.ts";

/** The types the billing clock (clock.ts) and the batch it renews (batch.ts and its parts) share. */

export type BillingContext = Pick<ServiceContext, "db" | "clock" | "config" | "log">;

export type TaxSettings = { taxEnabled: boolean; taxRateBps: number } | null;

/** The memberships one pass renews for one billing period. */
export interface DueList {
  period: string;
  ids: number[];
  /** A new card was saved: retry past-due memberships now, whatever the retry schedule (and the skip) says. */
  retryNow: boolean;
  /** Tax settings per business, for scheduled changes priced during the run. */
  tax: Map<number, TaxSettings>;
}

export interface RenewalReport {
  /** Memberships that were due and looked at. */
  due: number;
  charged: number;
  /** Due, but their month is skipped. */
  skipped: number;
  /** Claimed by another run at the same time. */
  busy: number;
  /** Declined or needing the member (3-D Secure, no saved card): now past due. */
  failed: number;
  /** Canceled after the last allowed attempt. */
  canceled: number;
  /** Canceled instead of charged: the month is after the one a member's own cancel ends the membership with. */
  ended: number;
  /** Past due, next retry not yet scheduled. */
  waiting: number;
  /** Not attempted: the business's payout account cannot take charges for the period (restricted); charged once it can. */
  blocked: number;
  changesApplied: number;
  /** Not renewed because of an error (provider unreachable, database): left as they were, tried again next run. */
  errors: number;
}

/** A renewing membership as the batch reads it: what billing needs, and its scheduled change. */
export const renewalInclude = {
  ...subscriptionForBilling.include,
  pendingChange: true,
} satisfies Prisma.SubscriptionInclude;

export type RenewalSubscription = Prisma.SubscriptionGetPayload<{ include: typeof renewalInclude }>;

export interface Renewal {
  sub: RenewalSubscription;
  /** 1 for the period's first try, then one more per declined try. */
  attempt: number;
}
