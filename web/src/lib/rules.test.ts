import { describe, expect, it } from "vitest";
import { longDate, monthDayOrdinal, monthYear } from "./dates.ts";
import { isDarkBackground, footerButtonColors } from "./color.ts";
import { readSelection, saveSelection, SELECTION_TTL_MS, type MembershipSelection } from "./selection.ts";
import { STORAGE_KEYS, type KeyValueStore } from "./storage.ts";
import { tenantHost } from "./tenant.ts";
import { modeExtraCents, toggleAddon, defaultMode } from "../features/business-page/rules.ts";
import { payButtonLabel } from "../features/checkout/ReviewStep.tsx";
import { passwordFormError } from "../features/portal/ProfileTab.tsx";

function memoryStore(): KeyValueStore {
  const map = new Map<string, string>();
  return { getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v), removeItem: (k) => void map.delete(k) };
}

describe("dates", () => {
  // ordinal and monthName themselves are tested with api/shared/calendar.ts (tests/unit/calendar.test.ts).
  it("reads the calendar date as written, and shows what is not one as given", () => {
    expect(monthDayOrdinal("2026-04-01")).toBe("April 1st");
    expect(monthDayOrdinal("2026-03-22T00:00:00Z")).toBe("March 22nd");
    expect(longDate("2026-12-31T23:00:00-05:00")).toBe("December 31, 2026");
    expect(monthYear("2027-01")).toBe("January 2027");
    expect(monthDayOrdinal("2026-13-01")).toBe("2026-13-01");
    expect(monthYear("soon")).toBe("soon");
  });
  it("builds the pay button text from the quote", () => {
    expect(payButtonLabel(2536, "2026-04-01")).toBe("Pay $25.36 now and it renews at $25.36 every month on April 1st");
    // A coupon for every charge: the spec's text.
    expect(payButtonLabel(1600, "2026-04-01", { discountedRenewals: null, fullTotalCents: 2000 })).toBe("Pay $16.00 now and it renews at $16.00 every month on April 1st");
  });
  it("names the full price the renewals return to when a coupon ends", () => {
    expect(payButtonLabel(1600, "2026-04-01", { discountedRenewals: 0, fullTotalCents: 2000 })).toBe("Pay $16.00 now and it renews at $20.00 every month on April 1st");
    expect(payButtonLabel(1600, "2026-04-01", { discountedRenewals: 2, fullTotalCents: 2000 })).toBe(
      "Pay $16.00 now and it renews at $16.00 for 2 more months, then $20.00, every month on April 1st",
    );
    expect(payButtonLabel(1600, "2026-04-01", { discountedRenewals: 1, fullTotalCents: 2000 })).toBe(
      "Pay $16.00 now and it renews at $16.00 for 1 more month, then $20.00, every month on April 1st",
    );
  });
});

describe("dark background rule", () => {
  it("is dark below brightness 150", () => {
    expect(isDarkBackground("#000000")).toBe(true);
    expect(isDarkBackground("#1f2937")).toBe(true);
    expect(isDarkBackground("#ffffff")).toBe(false);
    expect(isDarkBackground("#f97316")).toBe(true); // brightness 144.5
    expect(isDarkBackground("#fde68a")).toBe(false);
    expect(isDarkBackground("transparent")).toBe(false);
    expect(isDarkBackground("#888")).toBe(true); // brightness 136
  });
  it("defaults footer buttons by background", () => {
    expect(footerButtonColors({ pageBg: "#000", footerButtonBg: "", footerButtonText: "", footerButtonBorder: "" }).bg).toBe("#ffffff");
    expect(footerButtonColors({ pageBg: "#fff", footerButtonBg: "", footerButtonText: "", footerButtonBorder: "" }).bg).toBe("#1f2937");
  });
});

describe("add-on limit and fulfillment", () => {
  it("replaces with limit 1, ignores extras above a greater limit, unlimited at 0", () => {
    expect(toggleAddon(["a"], "b", 1)).toEqual(["b"]);
    expect(toggleAddon(["a", "b"], "c", 2)).toEqual(["a", "b"]);
    expect(toggleAddon(["a", "b"], "c", 0)).toEqual(["a", "b", "c"]);
    expect(toggleAddon(["a", "b"], "a", 2)).toEqual(["b"]);
  });
  it("shows '(+$X)' only for a positive extra over pickup", () => {
    const v = [{ mode: "PICKUP", amountCents: 3000 }, { mode: "SHIPPING", amountCents: 3700 }, { mode: "DELIVERY", amountCents: 2900 }];
    expect(modeExtraCents(v, "shipping")).toBe(700);
    expect(modeExtraCents(v, "delivery")).toBe(-100);
    expect(modeExtraCents(v, "pickup")).toBeNull();
    expect(defaultMode({ pickup: false, shipping: true, delivery: true })).toBe("shipping");
  });
});

describe("selection storage", () => {
  it("stores under membership_selection with ts and expires old ones", () => {
    const store = memoryStore();
    saveSelection({ businessSlug: "acme" } as Omit<MembershipSelection, "ts">, 1000, store);
    expect(JSON.parse(store.getItem(STORAGE_KEYS.membershipSelection)!).ts).toBe(1000);
    expect(readSelection(2000, store)?.businessSlug).toBe("acme");
    expect(readSelection(1000 + SELECTION_TTL_MS + 1, store)).toBeNull();
    expect(store.getItem(STORAGE_KEYS.membershipSelection)).toBeNull();
  });
});

describe("tenant host and password rules", () => {
  it("detects {slug}.{host}", () => {
    expect(tenantHost("acme.localhost", "3000", undefined)).toEqual({ slug: "acme", mainHost: "localhost:3000" });
    expect(tenantHost("localhost", "3000", undefined)).toBeNull();
    expect(tenantHost("127.0.0.1", "3000", undefined)).toBeNull();
    expect(tenantHost("acme.example.com", "", "example.com")).toEqual({ slug: "acme", mainHost: "example.com" });
    expect(tenantHost("example.com", "", "example.com")).toBeNull();
  });
  it("checks the member password form (spec §5)", () => {
    expect(passwordFormError("", "a", "a")).toBe("Please fill all password fields");
    expect(passwordFormError("x", "a", "b")).toBe("New password and confirmation do not match");
    expect(passwordFormError("x", "a", "a")).toBeNull();
  });
});
