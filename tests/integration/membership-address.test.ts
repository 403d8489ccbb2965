/**
 * A membership's delivery address, on the injectable clock. A business billing on the 3rd with a
 * cutoff on the 10th (the month's packing list freezes at the end of the 10th, New York) and box-ready on the 15th.
 * An address change before the freeze moves that month's box; after it the frozen list keeps the old address, the
 * month's differences say CHANGED and the next month is packed at the new one; a delivery area is chosen again with
 * the address; the Profile's "Also send my boxes here?" moves only the ticked memberships, REST's profile save none.
 * Runs on both databases.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { freeze } from "../../api/packing/snapshot.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories, type Factories } from "../support/factories.ts";

let t: TestApp;
let f: Factories;
let business: { id: number };
let plan: { id: number };
let member: { id: number };
let token: string;
let ownerToken: string;

const OLD = { fullName: "Rita Mover", phone: "555-0100", street: "1 Old Road", apt: "", city: "Hudson", state: "NY", zip: "12534", country: "US" };
const NEW = { fullName: "Rita Mover", phone: "555-0100", street: "22 New Street", apt: "Apt 3", city: "Kingston", state: "NY", zip: "12401", country: "US" };

const CHANGE = `mutation($input: ChangeMembershipAddressInput!) { changeMembershipAddress(input: $input) {
  __typename ... on ChangeMembershipAddressSuccess { data { appliesFrom membership { fulfillmentPoint deliveryAddress { street city zip } } } }
  ... on Error { message } ... on ValidationError { issues { path message } } ... on RuleViolationError { reason } } }`;
const BOXES = `query($month: String!) { business(slug: "farm") { fulfilment(month: $month) { state
  boxes(first: 50) { edges { node { membershipId address } } }
  differences { membershipId kind changes } } } }`;
const PROFILE = `mutation($input: UpdateProfileInput!) { updateProfile(input: $input) { __typename ... on Error { message } } }`;
const MOVABLE = `{ viewer { boxAddressMemberships { databaseId mode } } }`;

beforeAll(async () => {
  t = await createTestApp({ now: "2026-04-05T15:00:00Z" });
  f = factories(t);
  business = await f.business({
    slug: "farm",
    page: { billingDay: 3, cutoffDay: 10, boxReadyDay: 15, pickupEnabled: true, shippingEnabled: true, deliveryEnabled: true, pickupPoints: ["Barn"], deliveryAreas: ["Downtown", "Uptown"] },
  });
  plan = await f.plan(business, { name: "Veg Box", prices: { PICKUP: 2000, SHIPPING: 2600, DELIVERY: 2400 } });
  member = await f.user({ username: "rita", email: "rita@example.com" });
  token = await f.session(member, "farm");
  const owner = await f.user();
  await f.attach(business, owner, "OWNER");
  ownerToken = await f.session(owner);
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.prisma.packingSnapshot.deleteMany({});
  await t.db.prisma.subscription.deleteMany({ where: { userId: member.id } });
});

/** A paid-through-April membership of Rita's at OLD. */
async function membership(mode: "SHIPPING" | "DELIVERY" | "PICKUP", point = "") {
  const sub = await f.subscription({ user: member, business, plan, mode, planAmountCents: 2600, paidThroughPeriod: "2026-04" });
  await t.db.prisma.subscription.update({ where: { id: sub.id }, data: { address: OLD, fulfillmentPoint: point, billingDay: 3 } });
  return sub;
}

const boxesOf = async (month: string) => (await t.gqlOk(BOXES, { month }, { token: ownerToken })).business.fulfilment;
const gid = (type: string, id: number) => Buffer.from(`${type}:${id}`).toString("base64");
const streetOf = (cycle: { boxes: { edges: { node: { membershipId: string; address: { street: string } | null } }[] } }, id: number) =>
  cycle.boxes.edges.find((e) => e.node.membershipId === gid("Membership", id))?.node.address?.street;

describe("a membership's delivery address", () => {
  it("before the month's freeze: that month's box goes to the new address", async () => {
    t.clock.set("2026-04-05T15:00:00Z");
    const sub = await membership("SHIPPING");
    expect(streetOf(await boxesOf("2026-04"), sub.id)).toBe("1 Old Road");
    const r = await t.gqlOk(CHANGE, { input: { subscriptionId: String(sub.id), address: NEW } }, { token });
    expect(r.changeMembershipAddress.data).toEqual({
      appliesFrom: "2026-04",
      membership: { fulfillmentPoint: "", deliveryAddress: { street: "22 New Street", city: "Kingston", zip: "12401" } },
    });
    expect(streetOf(await boxesOf("2026-04"), sub.id)).toBe("22 New Street");
    const event = await t.db.prisma.event.findFirstOrThrow({ where: { type: "membership.address_changed.v1" }, orderBy: { sequence: "desc" } });
    // Payloads stay thin: the address is read from the membership.
    expect(event.payload).toEqual({ membershipId: sub.id, userId: member.id });
  });

  it("after the freeze: the frozen list keeps the old address, the month says CHANGED, the next month is packed at the new one; orders keep theirs", async () => {
    t.clock.set("2026-04-11T15:00:00Z");
    const sub = await membership("SHIPPING");
    const order = await f.order({ subscription: sub, period: "2026-04", totalCents: 2600 });
    await t.db.prisma.order.update({ where: { id: order.id }, data: { address: OLD } });
    await freeze({ db: t.db.prisma, clock: t.clock }, business.id, "2026-04", { trigger: "cutoff" });
    const r = await t.gqlOk(CHANGE, { input: { subscriptionId: String(sub.id), address: NEW } }, { token });
    expect(r.changeMembershipAddress.data.appliesFrom).toBe("2026-05");
    const april = await boxesOf("2026-04");
    expect(april.state).toBe("FROZEN");
    expect(streetOf(april, sub.id)).toBe("1 Old Road");
    const diff = april.differences.find((d: { membershipId: string }) => d.membershipId === gid("Membership", sub.id));
    expect(diff.kind).toBe("CHANGED");
    expect(diff.changes.join(" ")).toContain("22 New Street");
    expect(streetOf(await boxesOf("2026-05"), sub.id)).toBe("22 New Street");
    expect(((await t.db.prisma.order.findUniqueOrThrow({ where: { id: order.id } })).address as { street: string }).street).toBe("1 Old Road");
  });

  it("a skipped next month: the address applies from the first month with a box", async () => {
    t.clock.set("2026-04-11T15:00:00Z");
    const sub = await membership("SHIPPING");
    await t.db.prisma.skip.create({ data: { subscriptionId: sub.id, yearMonth: "2026-05" } });
    const r = await t.gqlOk(CHANGE, { input: { subscriptionId: String(sub.id), address: NEW } }, { token });
    expect(r.changeMembershipAddress.data.appliesFrom).toBe("2026-06");
  });

  it("delivery: the area is chosen again with the address, from the page's list", async () => {
    t.clock.set("2026-04-05T15:00:00Z");
    const sub = await membership("DELIVERY", "Downtown");
    // Kept when none is given and it is still offered.
    const kept = await t.gqlOk(CHANGE, { input: { subscriptionId: String(sub.id), address: NEW } }, { token });
    expect(kept.changeMembershipAddress.data.membership.fulfillmentPoint).toBe("Downtown");
    const moved = await t.gqlOk(CHANGE, { input: { subscriptionId: String(sub.id), address: { ...NEW, street: "9 Hill Rd" }, fulfillmentPoint: "Uptown" } }, { token });
    expect(moved.changeMembershipAddress.data.membership).toMatchObject({ fulfillmentPoint: "Uptown", deliveryAddress: { street: "9 Hill Rd" } });
    const refused = await t.gqlOk(CHANGE, { input: { subscriptionId: String(sub.id), address: NEW, fulfillmentPoint: "Mars" } }, { token });
    expect(refused.changeMembershipAddress).toMatchObject({ __typename: "ValidationError", message: "This delivery area is not offered. Please choose another." });
    const row = await t.db.prisma.subscription.findUniqueOrThrow({ where: { id: sub.id } });
    expect(row.fulfillmentPoint).toBe("Uptown");
    expect((row.address as { street: string }).street).toBe("9 Hill Rd");
  });

  it("refuses, changing nothing: a pickup membership, an address without street, city or zip, another member's membership", async () => {
    t.clock.set("2026-04-05T15:00:00Z");
    const pickup = await membership("PICKUP", "Barn");
    const p = await t.gqlOk(CHANGE, { input: { subscriptionId: String(pickup.id), address: NEW } }, { token });
    expect(p.changeMembershipAddress).toMatchObject({ __typename: "RuleViolationError", reason: "pickup_mode" });
    await t.db.prisma.subscription.delete({ where: { id: pickup.id } });

    const sub = await membership("SHIPPING");
    const blank = await t.gqlOk(CHANGE, { input: { subscriptionId: String(sub.id), address: { ...NEW, street: " ", zip: "" } } }, { token });
    expect(blank.changeMembershipAddress).toEqual({
      __typename: "ValidationError",
      message: "Please enter the street, city and zip code the box goes to.",
      issues: [{ path: "address.street", message: "Required" }, { path: "address.zip", message: "Required" }],
    });
    const other = await f.user();
    const theirs = await t.gqlOk(CHANGE, { input: { subscriptionId: String(sub.id), address: NEW } }, { token: await f.session(other, "farm") });
    expect(theirs.changeMembershipAddress.__typename).toBe("ForbiddenError");
    expect(((await t.db.prisma.subscription.findUniqueOrThrow({ where: { id: sub.id } })).address as { street: string }).street).toBe("1 Old Road");
    expect(await t.db.prisma.event.count({ where: { type: "membership.address_changed.v1", objectId: gid("Membership", sub.id) } })).toBe(0);
  });
});

describe("a Profile address change: Also send my boxes here?", () => {
  it("lists the shipping and delivery memberships and moves only the ticked ones", async () => {
    t.clock.set("2026-04-05T15:00:00Z");
    const shipped = await membership("SHIPPING");
    const other = await f.business({ slug: "bakery", page: { billingDay: 3, shippingEnabled: true } });
    const bread = await f.plan(other, { prices: { SHIPPING: 1500 } });
    const second = await f.subscription({ user: member, business: other, plan: bread, mode: "SHIPPING", paidThroughPeriod: "2026-04" });
    await t.db.prisma.subscription.update({ where: { id: second.id }, data: { address: OLD } });
    const movable = (await t.gqlOk(MOVABLE, {}, { token })).viewer.boxAddressMemberships;
    expect(movable.map((m: { databaseId: number }) => m.databaseId).sort()).toEqual([shipped.id, second.id].sort());

    const r = await t.gqlOk(PROFILE, { input: { address: NEW, moveMembershipIds: [String(shipped.id)] } }, { token });
    expect(r.updateProfile.__typename).toBe("UpdateProfileSuccess");
    const street = async (id: number) => ((await t.db.prisma.subscription.findUniqueOrThrow({ where: { id } })).address as { street: string }).street;
    expect(await street(shipped.id)).toBe("22 New Street");
    expect(await street(second.id)).toBe("1 Old Road");
    expect(((await t.db.prisma.user.findUniqueOrThrow({ where: { id: member.id } })).address as { street: string }).street).toBe("22 New Street");
  });

  it("a refused tick saves nothing, neither the profile nor a membership", async () => {
    t.clock.set("2026-04-05T15:00:00Z");
    await t.db.prisma.user.update({ where: { id: member.id }, data: { address: OLD } });
    const pickup = await membership("PICKUP", "Barn");
    const r = await t.gqlOk(PROFILE, { input: { address: NEW, moveMembershipIds: [String(pickup.id)] } }, { token });
    expect(r.updateProfile.__typename).toBe("RuleViolationError");
    expect(((await t.db.prisma.user.findUniqueOrThrow({ where: { id: member.id } })).address as { street: string }).street).toBe("1 Old Road");
  });

  it("REST's POST /api/my/profile saves the profile and moves no membership", async () => {
    t.clock.set("2026-04-05T15:00:00Z");
    const sub = await membership("SHIPPING");
    const res = await t.app.inject({
      method: "POST",
      url: "/api/my/profile",
      headers: { authorization: `Bearer ${token}`, "x-tenant": "farm", "content-type": "application/json" },
      payload: { profile: { address: { ...NEW, street: "7 Rest Way" } } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().address_json.street).toBe("7 Rest Way");
    expect(((await t.db.prisma.subscription.findUniqueOrThrow({ where: { id: sub.id } })).address as { street: string }).street).toBe("1 Old Road");
  });
});
