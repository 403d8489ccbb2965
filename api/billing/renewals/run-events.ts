import diagnostics from "node:diagnostics_channel";
import type { RenewalReport } from "./types.ts";

/**
 * What one billing pass did, published on a diagnostics channel so the billing code needs no reference to a
 * metrics registry: each server instance's metrics (api/observability/metrics.ts) count the passes run on its own
 * database client; with no subscriber (`npm run billing:run`) publishing costs nothing.
 */
export const BILLING_RUN_CHANNEL = "membership:billing-run";

/** `renewals`: a pass of the billing clock (runRenewals); `retry`: past-due memberships retried after a new card. */
export type BillingRunKind = "renewals" | "retry";

export interface BillingRunEvent {
  /** The database client the pass ran on (a server instance counts only its own). */
  db: object;
  kind: BillingRunKind;
  seconds: number;
  /** The pass's report; absent when the pass threw. */
  report?: RenewalReport;
  error?: unknown;
}

const channel = diagnostics.channel(BILLING_RUN_CHANNEL);

/** Runs a billing pass and publishes what it did (its report, or that it threw), then returns or rethrows as it did. */
export async function observeBillingRun(db: object, kind: BillingRunKind, run: () => Promise<RenewalReport>): Promise<RenewalReport> {
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  try {
    const report = await run();
    if (channel.hasSubscribers) channel.publish({ db, kind, seconds: seconds(), report } satisfies BillingRunEvent);
    return report;
  } catch (error) {
    if (channel.hasSubscribers) channel.publish({ db, kind, seconds: seconds(), error } satisfies BillingRunEvent);
    throw error;
  }
}
