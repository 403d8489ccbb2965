import { describe, expect, it } from "vitest";
import { sandboxSetupOutcome } from "./CardPaymentForm.tsx";

describe("sandboxSetupOutcome (a next-month sign-up's saved card)", () => {
  it("succeeds only when the sandbox saved the card", () => {
    expect(sandboxSetupOutcome({ status: "succeeded", lastError: null })).toEqual({ ok: true });
    expect(sandboxSetupOutcome({ status: "requires_payment_method", lastError: { message: "Your card was declined." } })).toEqual({ ok: false, message: "Your card was declined." });
    expect(sandboxSetupOutcome({ status: "requires_payment_method", lastError: null })).toEqual({ ok: false, message: "Your card was not saved" });
    expect(sandboxSetupOutcome({ status: "requires_payment_method", lastError: { message: "" } })).toEqual({ ok: false, message: "Your card was not saved" });
  });
});
