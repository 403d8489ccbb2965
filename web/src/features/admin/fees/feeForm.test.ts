import { describe, expect, it } from "vitest";
import { fieldOfIssue, parseFeeForm, type FeeFormValues } from "./feeForm.ts";

const form = (o: Partial<FeeFormValues> = {}): FeeFormValues => ({ business: "", month: "2026-12", platformPercent: "5", platformFixed: "0", processingPercent: "2.9", processingFixed: "$0.30", ...o });

describe("parseFeeForm", () => {
  it("sends percents as basis points and dollars as cents; no business is the default", () => {
    expect(parseFeeForm(form())).toEqual({ ok: true, input: { businessId: null, effectivePeriod: "2026-12", platformBps: 500, platformCents: 0, processingBps: 290, processingCents: 30 } });
    expect(parseFeeForm(form({ business: "7", platformPercent: "4.35", platformFixed: "1.15" }))).toMatchObject({ ok: true, input: { businessId: "7", platformBps: 435, platformCents: 115 } });
  });

  it("names every field it cannot read", () => {
    expect(parseFeeForm(form({ month: "", platformPercent: "2.955", platformFixed: "-1", processingPercent: "abc", processingFixed: "0.305" }))).toEqual({
      ok: false,
      errors: {
        month: "Choose the first month these fees apply to",
        platformPercent: "Enter a percent with at most 2 decimals, e.g. 2.9",
        platformFixed: "Enter dollars and cents, e.g. 0.30",
        processingPercent: "Enter a percent with at most 2 decimals, e.g. 2.9",
        processingFixed: "Enter dollars and cents, e.g. 0.30",
      },
    });
    expect(parseFeeForm(form({ month: "2026-13" }))).toEqual({ ok: false, errors: { month: "Choose the first month these fees apply to" } });
  });
});

describe("fieldOfIssue", () => {
  it("maps the server's input paths to the form's fields", () => {
    expect(fieldOfIssue("platformBps")).toBe("platformPercent");
    expect(fieldOfIssue("input.processingCents")).toBe("processingFixed");
    expect(fieldOfIssue("effectivePeriod")).toBe("month");
    expect(fieldOfIssue("businessId")).toBe("business");
    expect(fieldOfIssue("other")).toBeNull();
  });
});
