import { describe, expect, it } from "vitest";
import { changeBoxPath, parsePortalLink, withoutPortalAction } from "./portalLinks.ts";

const parse = (query: string) => parsePortalLink(new URLSearchParams(query));

describe("parsePortalLink (the pre-charge notice's links)", () => {
  it("reads the skip and change links of the emails", () => {
    expect(parse("tab=subscriptions&membership=12&open=skip")).toEqual({ tab: "subscriptions", action: { membershipId: 12, open: "skip" } });
    expect(parse("?tab=subscriptions&membership=7&open=change")).toEqual({ tab: "subscriptions", action: { membershipId: 7, open: "change" } });
  });

  it("opens Subscriptions for an action, where the membership's card is, whatever the tab says", () => {
    expect(parse("membership=3&open=skip")).toEqual({ tab: "subscriptions", action: { membershipId: 3, open: "skip" } });
    expect(parse("tab=profile&membership=3&open=skip").tab).toBe("subscriptions");
    expect(parse("tab=profile&membership=x&open=skip").tab).toBe("profile");
  });

  it("keeps the tabs of the earlier links and orderId after checkout", () => {
    expect(parse("tab=next-box")).toEqual({ tab: "next-box", action: null });
    expect(parse("tab=orders").tab).toBe("orders");
    expect(parse("tab=profile").tab).toBe("profile");
    expect(parse("orderId=41&success=1")).toEqual({ tab: "subscriptions", action: null });
    expect(parse("")).toEqual({ tab: null, action: null });
  });

  it("ignores what it does not know, without failing", () => {
    expect(parse("tab=billing")).toEqual({ tab: null, action: null });
    expect(parse("membership=12&open=cancel")).toEqual({ tab: null, action: null });
    expect(parse("open=skip")).toEqual({ tab: null, action: null });
    for (const id of ["", "abc", "12abc", "1.5", "-3", "0", "1e3", "99999999999"]) {
      expect(parse(`tab=subscriptions&membership=${encodeURIComponent(id)}&open=skip`)).toEqual({ tab: "subscriptions", action: null });
    }
  });

  it("reads the query a login's redirect keeps (r=/membership?…)", () => {
    const r = new URLSearchParams(`r=${encodeURIComponent("/membership?tab=subscriptions&membership=5&open=skip")}`).get("r")!;
    expect(parse(r.slice(r.indexOf("?") + 1)).action).toEqual({ membershipId: 5, open: "skip" });
  });
});

describe("withoutPortalAction", () => {
  it("takes the one-time request away and keeps the rest", () => {
    expect(withoutPortalAction(new URLSearchParams("tab=subscriptions&membership=12&open=skip"))?.toString()).toBe("tab=subscriptions");
    expect(withoutPortalAction(new URLSearchParams("membership=12&x=1"))?.toString()).toBe("x=1");
  });

  it("is null when there is nothing to take away", () => {
    expect(withoutPortalAction(new URLSearchParams("tab=subscriptions"))).toBeNull();
  });
});

describe("changeBoxPath", () => {
  it("is the business page in change mode", () => {
    expect(changeBoxPath("green-acres-farm")).toBe("/b/green-acres-farm?change=true");
  });
});
