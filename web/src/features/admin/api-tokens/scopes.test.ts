import { describe, expect, it } from "vitest";
import { DEFAULT_SCOPES, SCOPE_OPTIONS, scopeLabels, scopeSentence, toggleScope } from "./scopes.ts";

describe("API token scopes", () => {
  it("ticks memberships and orders by default, never fulfilment", () => {
    expect(DEFAULT_SCOPES).toEqual(["memberships:read", "orders:read"]);
    expect(SCOPE_OPTIONS.map((o) => o.scope)).toEqual(["memberships:read", "orders:read", "fulfilment:read"]);
  });

  it("fulfilment's help names what it exposes", () => {
    const help = SCOPE_OPTIONS.find((o) => o.scope === "fulfilment:read")!.help;
    for (const word of ["addresses", "phone", "gift messages", "Packing lists", "CSV"]) expect(help).toContain(word);
  });

  it("toggles a scope, keeping the options' order", () => {
    expect(toggleScope(["orders:read"], "fulfilment:read", true)).toEqual(["orders:read", "fulfilment:read"]);
    expect(toggleScope(["fulfilment:read"], "memberships:read", true)).toEqual(["memberships:read", "fulfilment:read"]);
    expect(toggleScope(DEFAULT_SCOPES, "orders:read", false)).toEqual(["memberships:read"]);
    expect(toggleScope(["orders:read"], "orders:read", true)).toEqual(["orders:read"]);
  });

  it("labels a token's scopes for the list and the new-token notice", () => {
    expect(scopeLabels(["memberships:read", "orders:read"])).toBe("Memberships, Orders");
    expect(scopeLabels(["fulfilment:read", "reports:read"])).toBe("Fulfilment, reports:read");
    expect(scopeLabels([])).toBe("None");
    expect(scopeSentence(["memberships:read", "orders:read", "fulfilment:read"])).toBe("memberships, orders and fulfilment");
    expect(scopeSentence(["orders:read"])).toBe("orders");
  });
});
