import { dollarsToWholeCents, percentToBps } from "./rates.ts";

/** The fields of the Schedule fees form, as typed. */
export interface FeeFormValues {
  /** A business's databaseId, or "" for the platform's default. */
  business: string;
  /** YYYY-MM (an `<input type="month">`'s value). */
  month: string;
  platformPercent: string;
  platformFixed: string;
  processingPercent: string;
  processingFixed: string;
}

export type FeeField = keyof FeeFormValues;
export type FeeFieldErrors = Partial<Record<FeeField, string>>;

/** ScheduleFeeInput as the mutation sends it. */
export interface ScheduleFeeVariables {
  businessId: string | null;
  effectivePeriod: string;
  platformBps: number;
  platformCents: number;
  processingBps: number;
  processingCents: number;
}

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const PERCENT_HINT = "Enter a percent with at most 2 decimals, e.g. 2.9";
const DOLLARS_HINT = "Enter dollars and cents, e.g. 0.30";

/**
 * The form as the server's input: percents as basis points and dollars as cents, read on the digits ("2.9" → 290,
 * "$0.30" → 30); every field that cannot be read named with what to type. Ranges are the server's to check (its
 * ValidationError names the field, `fieldOfIssue`).
 */
export function parseFeeForm(values: FeeFormValues): { ok: true; input: ScheduleFeeVariables } | { ok: false; errors: FeeFieldErrors } {
  const errors: FeeFieldErrors = {};
  const month = values.month.trim();
  if (!MONTH.test(month)) errors.month = "Choose the first month these fees apply to";
  const platformBps = percentToBps(values.platformPercent);
  if (platformBps === null) errors.platformPercent = PERCENT_HINT;
  const platformCents = dollarsToWholeCents(values.platformFixed);
  if (platformCents === null) errors.platformFixed = DOLLARS_HINT;
  const processingBps = percentToBps(values.processingPercent);
  if (processingBps === null) errors.processingPercent = PERCENT_HINT;
  const processingCents = dollarsToWholeCents(values.processingFixed);
  if (processingCents === null) errors.processingFixed = DOLLARS_HINT;
  if (platformBps === null || platformCents === null || processingBps === null || processingCents === null || errors.month) return { ok: false, errors };
  return { ok: true, input: { businessId: values.business || null, effectivePeriod: month, platformBps, platformCents, processingBps, processingCents } };
}

const FIELD_OF_INPUT: Record<string, FeeField> = {
  businessId: "business",
  effectivePeriod: "month",
  platformBps: "platformPercent",
  platformCents: "platformFixed",
  processingBps: "processingPercent",
  processingCents: "processingFixed",
};

/** The form field a ValidationError issue is about ("platformBps" or "input.platformBps" → platformPercent), if any. */
export function fieldOfIssue(path: string): FeeField | null {
  return FIELD_OF_INPUT[path.split(".").pop() ?? ""] ?? null;
}
