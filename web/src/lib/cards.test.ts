import { describe, expect, it } from "vitest";
import { cardBrandName, savedCardLabel } from "./cards.ts";

describe("savedCardLabel", () => {
  it("names the brand, masks all but the last four digits and pads the month", () => {
    expect(savedCardLabel({ brand: "visa", last4: "4242", expMonth: 12, expYear: 2031 })).toBe("Visa •••• 4242, expires 12/2031");
    expect(savedCardLabel({ brand: "mastercard", last4: "4444", expMonth: 3, expYear: 2030 })).toBe("Mastercard •••• 4444, expires 03/2030");
  });
  it("capitalises a brand it does not know", () => {
    expect(cardBrandName("amex")).toBe("American Express");
    expect(cardBrandName("cartes_bancaires")).toBe("Cartes_bancaires");
  });
});
