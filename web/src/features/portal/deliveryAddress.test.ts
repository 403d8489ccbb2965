import { describe, expect, it } from "vitest";
import { addressChanged, addressSummary, appliesFromMessage, issuesByField, membershipLabel, profileSavedText, showsDeliveryAddress } from "./deliveryAddress.ts";

const MAYA = { fullName: "Maya Patel", phone: "330-555-0142", street: "215 Maple Ave", apt: "", city: "Akron", state: "OH", zip: "44303", country: "US" };

describe("showsDeliveryAddress (the card's Delivery address)", () => {
  it("is shown for current shipping and delivery memberships only", () => {
    expect(showsDeliveryAddress("ACTIVE", "SHIPPING")).toBe(true);
    expect(showsDeliveryAddress("PAST_DUE", "DELIVERY")).toBe(true);
    expect(showsDeliveryAddress("ACTIVE", "PICKUP")).toBe(false);
    expect(showsDeliveryAddress("CANCELED", "SHIPPING")).toBe(false);
    expect(showsDeliveryAddress("INCOMPLETE", "DELIVERY")).toBe(false);
  });
});

describe("appliesFromMessage", () => {
  it("names the server's first month at the new address", () => {
    expect(appliesFromMessage("2026-04")).toBe("Your boxes go to the new address from April 2026.");
    expect(appliesFromMessage("2027-01")).toBe("Your boxes go to the new address from January 2027.");
  });
});

describe("issuesByField", () => {
  it("marks the address parts and the area the server refused", () => {
    expect(
      issuesByField([
        { path: "address.street", message: "Required" },
        { path: "address.zip", message: "Required" },
        { path: "fulfillmentPoint", message: "Please choose a delivery area." },
      ]),
    ).toEqual({ fields: { street: "Required", zip: "Required" }, area: "Please choose a delivery area." });
  });

  it("ignores paths that name no field of the dialog", () => {
    expect(issuesByField([{ path: "subscriptionId", message: "Missing subscription id" }])).toEqual({ fields: {}, area: null });
  });
});

describe("addressChanged (Profile: whether to ask 'Also send my boxes here?')", () => {
  it("is false for the saved address, spaces aside, and for parts the Profile does not edit", () => {
    expect(addressChanged(MAYA, { ...MAYA })).toBe(false);
    expect(addressChanged(MAYA, { ...MAYA, street: " 215 Maple Ave " })).toBe(false);
    expect(addressChanged(MAYA, { ...MAYA, phone: "000", instructions: "Side gate" })).toBe(false);
  });

  it("is true when a part of the address changes, or one is typed where none was saved", () => {
    expect(addressChanged(MAYA, { ...MAYA, street: "9 Birch Rd" })).toBe(true);
    expect(addressChanged(MAYA, { ...MAYA, apt: "Apt 2" })).toBe(true);
    expect(addressChanged(null, { ...MAYA, fullName: "", street: "", apt: "", city: "", state: "", zip: "", country: "" })).toBe(false);
    expect(addressChanged(null, { ...MAYA })).toBe(true);
  });
});

describe("the prompt's and the status line's words", () => {
  it("names a membership by business, plan and mode, and its address by its first lines", () => {
    expect(membershipLabel("Ember & Oak Coffee", "Whole Bean Box", "shipping")).toBe("Ember & Oak Coffee · Whole Bean Box · Shipping");
    expect(addressSummary({ ...MAYA, apt: "Apt 2" })).toBe("Maya Patel, 215 Maple Ave, Apt 2, Akron, OH 44303");
    expect(addressSummary(null)).toBe("No address on file");
  });

  it("says which memberships now go to the new address", () => {
    expect(profileSavedText([])).toBe("Profile saved.");
    expect(profileSavedText(["Ember & Oak Coffee · Whole Bean Box · Shipping"])).toBe("Profile saved. Boxes now going to the new address: Ember & Oak Coffee · Whole Bean Box · Shipping.");
    expect(profileSavedText(["A · B · Shipping", "C · D · Delivery"])).toBe("Profile saved. Boxes now going to the new address: A · B · Shipping; C · D · Delivery.");
  });
});
