import { describe, expect, it } from "vitest";
import { CARD_UPDATE_ERRORS, setupOutcome } from "./CardUpdateSection.tsx";

describe("setupOutcome (card update confirmation)", () => {
  it("succeeds only on a succeeded setup intent", () => {
    expect(setupOutcome({ status: "succeeded", lastError: null })).toEqual({ ok: true });
    expect(setupOutcome({ status: "processing", lastError: null })).toEqual({ ok: false, message: CARD_UPDATE_ERRORS.confirmation });
  });
  it("shows the provider's decline message, else 'Confirmation failed'", () => {
    expect(setupOutcome({ status: "requires_payment_method", lastError: { message: "Your card was declined." } })).toEqual({ ok: false, message: "Your card was declined." });
    expect(setupOutcome({ status: "requires_payment_method", lastError: { message: "" } })).toEqual({ ok: false, message: "Confirmation failed" });
  });
  it("keeps the spec §8 texts", () => {
    expect(Object.values(CARD_UPDATE_ERRORS)).toEqual(["Failed to start card update", "Validation error", "Confirmation failed", "Failed to update card"]);
  });
});
