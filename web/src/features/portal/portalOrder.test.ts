import { describe, expect, it } from "vitest";
import { portalOrder } from "./portalOrder.ts";

const sub = (slug: string, name: string, status: string) => ({ status, business: { slug, name } });
const SUBS = [sub("rise", "Rise & Crumb", "CANCELED"), sub("ember", "Ember & Oak", "ACTIVE"), sub("green", "Green Acres", "PAST_DUE"), sub("alder", "Alder Farm", "ACTIVE")];
const slugs = (list: { business: { slug: string } }[]) => list.map((s) => s.business.slug);

describe("portalOrder (every business's membership in one portal)", () => {
  it("lists memberships with a box coming first, each group by business name", () => {
    expect(slugs(portalOrder(SUBS, null))).toEqual(["alder", "ember", "green", "rise"]);
  });
  it("puts the business of the URL first, whatever its status", () => {
    expect(slugs(portalOrder(SUBS, "rise"))).toEqual(["rise", "alder", "ember", "green"]);
    expect(slugs(portalOrder(SUBS, "green"))).toEqual(["green", "alder", "ember", "rise"]);
  });
  it("leaves its input alone", () => {
    const copy = [...SUBS];
    portalOrder(SUBS, "ember");
    expect(SUBS).toEqual(copy);
  });
});
