import { describe, expect, it } from "vitest";
import { accountStatus, connectFromPeriod, routeFor, type RoutingFacts } from "../../api/payouts/routing.ts";

describe("accountStatus", () => {
  it("is Enabled only when the account takes charges and sends payouts", () => {
    expect(accountStatus({ detailsSubmitted: true, chargesEnabled: true, payoutsEnabled: true })).toBe("ENABLED");
    expect(accountStatus({ detailsSubmitted: true, chargesEnabled: true, payoutsEnabled: false })).toBe("RESTRICTED");
    expect(accountStatus({ detailsSubmitted: true, chargesEnabled: false, payoutsEnabled: false })).toBe("RESTRICTED");
    expect(accountStatus({ detailsSubmitted: false, chargesEnabled: false, payoutsEnabled: false })).toBe("ONBOARDING");
  });
});

describe("connectFromPeriod", () => {
  it("is the month of the first enable when nothing was charged in it yet, else the next (December rolls over)", () => {
    expect(connectFromPeriod("2026-03", false)).toBe("2026-03");
    expect(connectFromPeriod("2026-03", true)).toBe("2026-04");
    expect(connectFromPeriod("2026-12", true)).toBe("2027-01");
  });
});

describe("routeFor", () => {
  const enabled = { accountId: "acct_1", status: "ENABLED" as const };
  const restricted = { accountId: "acct_1", status: "RESTRICTED" as const };
  const facts = (o: Partial<RoutingFacts>): RoutingFacts => ({ collectsOnPlatform: false, connectFromPeriod: null, account: null, ...o });

  it("sends a connected month's charges to the business's enabled account", () => {
    expect(routeFor(facts({ connectFromPeriod: "2026-04", account: enabled }), "2026-04")).toEqual({ kind: "CONNECTED", destination: "acct_1" });
    expect(routeFor(facts({ connectFromPeriod: "2026-04", account: enabled, collectsOnPlatform: true }), "2026-05")).toEqual({ kind: "CONNECTED", destination: "acct_1" });
  });

  it("keeps a business that took members before payouts on the platform until its connected month", () => {
    expect(routeFor(facts({ collectsOnPlatform: true }), "2026-04")).toEqual({ kind: "PLATFORM" });
    expect(routeFor(facts({ collectsOnPlatform: true, connectFromPeriod: "2026-05", account: enabled }), "2026-04")).toEqual({ kind: "PLATFORM" });
  });

  it("takes nothing for a new business that has not connected, nor for a connected month at a restricted account", () => {
    expect(routeFor(facts({}), "2026-04")).toEqual({ kind: "NOT_READY" });
    expect(routeFor(facts({ account: { accountId: "acct_1", status: "ONBOARDING" } }), "2026-04")).toEqual({ kind: "NOT_READY" });
    expect(routeFor(facts({ connectFromPeriod: "2026-04", account: restricted, collectsOnPlatform: true }), "2026-04")).toEqual({ kind: "NOT_READY" });
    expect(routeFor(facts({ connectFromPeriod: "2026-04", account: restricted }), "2026-03")).toEqual({ kind: "NOT_READY" });
  });
});
