import { describe, expect, it } from "vitest";
import { requirementLabel } from "./requirements.ts";

describe("requirementLabel", () => {
  it("names the provider's requirement codes in words", () => {
    expect(requirementLabel("external_account")).toBe("Bank account for payouts");
    expect(requirementLabel("tos_acceptance.date")).toBe("Acceptance of the provider's terms");
    expect(requirementLabel("individual.verification.document")).toBe("Individual verification document");
    expect(requirementLabel("")).toBe("");
  });
});
