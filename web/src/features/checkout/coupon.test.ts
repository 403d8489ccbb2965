import { describe, expect, it } from "vitest";
import { couponAppliedText } from "./coupon.ts";

describe("the applied coupon's line", () => {
  it("names the code and the server's discount with a minus sign", () => {
    expect(couponAppliedText("WELCOME10", -415)).toBe("WELCOME10 applied · −$4.15");
    expect(couponAppliedText("BIG", -123456)).toBe("BIG applied · −$1,234.56");
  });

  it("leaves the amount out when the code takes nothing off", () => {
    expect(couponAppliedText("ZERO", 0)).toBe("ZERO applied");
  });
});
