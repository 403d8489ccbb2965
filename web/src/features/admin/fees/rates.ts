import { formatCents } from "@shared/money.ts";

/**
 * Platform fees as people read and type them: a rate in basis points (the server's, 500 = 5 %) shown as a percent
 * with at most two decimals, and typed percents and dollars read back to whole basis points and cents. All on the
 * digits, never through a float: 2.9 × 100 is 289.99999999999997 as a double.
 */

/** The fees of one schedule, each a rate in basis points plus fixed cents (GraphQL FeeRates, FeeSchedule). */
export interface FeeRates {
  readonly platformBps: number;
  readonly platformCents: number;
  readonly processingBps: number;
  readonly processingCents: number;
}

/** 500 → "5", 290 → "2.9", 295 → "2.95", 5 → "0.05": the percent, without trailing zeros. */
export function bpsToPercent(bps: number): string {
  const abs = Math.abs(Math.trunc(bps));
  const fraction = String(abs % 100)
    .padStart(2, "0")
    .replace(/0+$/, "");
  return `${bps < 0 && abs !== 0 ? "-" : ""}${Math.floor(abs / 100)}${fraction ? `.${fraction}` : ""}`;
}

/** A fee as the pages write it: "5 %", "2.9 % + $0.30", "$0.30" (no rate), "0 %" (no fee). */
export function feeText(bps: number, cents: number): string {
  const parts: string[] = [];
  if (bps !== 0 || cents === 0) parts.push(`${bpsToPercent(bps)} %`);
  if (cents !== 0) parts.push(formatCents(cents));
  return parts.join(" + ");
}

/** "Platform fee 5 % · card processing 2.9 % + $0.30 per charge". */
export function feesSentence(rates: FeeRates): string {
  return `Platform fee ${feeText(rates.platformBps, rates.platformCents)} · card processing ${feeText(rates.processingBps, rates.processingCents)} per charge`;
}

/** A percent as typed: digits with at most two decimals, an optional "%" after ("2.9", "5 %", ".25"). */
const PERCENT = /^(\d*)(?:\.(\d{0,2}))?\s*%?$/;
/** Dollars as typed: an optional "$", digits with at most two decimals ("0.30", "$1", "$.3"). */
const DOLLARS = /^\$?\s*(\d*)(?:\.(\d{0,2}))?$/;

/** Whole units and a fraction of at most two digits → hundredths; null when there is no digit or it is too large. */
function hundredths(whole: string, fraction: string): number | null {
  if (whole === "" && fraction === "") return null;
  const value = Number(whole || "0") * 100 + Number(fraction.padEnd(2, "0"));
  return Number.isSafeInteger(value) ? value : null;
}

/** A typed percent → basis points ("2.9" → 290, "5 %" → 500); null for anything else (negative, 3 decimals, "1e2"). */
export function percentToBps(text: string): number | null {
  const m = PERCENT.exec(text.trim());
  return m ? hundredths(m[1], m[2] ?? "") : null;
}

/** Typed dollars → cents ("$0.30" → 30, "1" → 100); null for anything else (negative, fractions of a cent, "1,000"). */
export function dollarsToWholeCents(text: string): number | null {
  const m = DOLLARS.exec(text.trim());
  return m ? hundredths(m[1], m[2] ?? "") : null;
}
