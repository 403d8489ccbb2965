import { describe, expect, it } from "vitest";
import { followName, withAddressName } from "./addressName.ts";

const ADDRESS = { fullName: "", phone: "", street: "1 Main St", apt: "", city: "Akron", state: "OH", zip: "44303", country: "US" };

describe("the Profile's name on the address", () => {
  it("starts as the member's name when it is empty, and keeps its own otherwise", () => {
    expect(withAddressName(ADDRESS, " Maya Patel ").fullName).toBe("Maya Patel");
    expect(withAddressName({ ...ADDRESS, fullName: "Raj Patel" }, "Maya Patel").fullName).toBe("Raj Patel");
  });

  it("follows 'Your name' while it is empty or the same name, not once the member wrote another", () => {
    expect(followName("", "", "M")).toBe("M");
    expect(followName("Maya", "Maya", "Maya P")).toBe("Maya P");
    expect(followName("Raj Patel", "Maya", "Maya P")).toBe("Raj Patel");
  });
});
