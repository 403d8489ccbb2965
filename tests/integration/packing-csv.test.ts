import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pino from "pino";
import { freeze } from "../../api/packing/snapshot.ts";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories } from "../support/factories.ts";

/**
 * GET /api/admin/businesses/{id}/fulfilment/{month}/packing.csv streams the month's packing list: the
 * preview's boxes while open, the snapshot's once frozen (walked in keyset pages), in packing order (pickup by
 * point, shipping, delivery by area; then member name), a hold marked, every cell through the formula guard, for
 * the readers of Business.fulfilment only. The clock is 2026-04-05 (New York); April is billed on the 1st.
 */

let t: TestApp;
const tokens: Record<string, string> = {};
let farmId = 0;
let bakeryId = 0;
const APRIL = "2026-04";
const HEADER = "mode,point_or_area,member,email,phone,plan,addons,address_line1,address_line2,city,state,zip,country,instructions,gift_recipient,gift_message,hold,total";

async function download(url: string, token?: string) {
  const res = await t.app.inject({ method: "GET", url, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.statusCode, headers: res.headers, body: res.body, lines: res.body.split("\r\n").slice(0, -1) };
}
const csvUrl = (business: number, month = APRIL, mode?: string) => `/api/admin/businesses/${business}/fulfilment/${month}/packing.csv${mode ? `?mode=${mode}` : ""}`;

const address = (fullName: string, o: { street?: string; instructions?: string } = {}) => ({
  fullName,
  phone: "555-0100",
  street: o.street ?? "1 Main St",
  apt: "Apt 2",
  city: "Hudson",
  state: "NY",
  zip: "12534",
  country: "US",
  instructions: o.instructions ?? "",
});

beforeAll(async () => {
  t = await createTestApp({ now: "2026-04-05T15:00:00Z" });
  const f = factories(t);
  const farm = await f.business({
    slug: "farm",
    page: { billingDay: 1, cutoffDay: 10, pickupEnabled: true, shippingEnabled: true, deliveryEnabled: true, pickupPoints: ["Market", "Barn"], deliveryAreas: ["Downtown"] },
  });
  const bakery = await f.business({ slug: "bakery" });
  farmId = farm.id;
  bakeryId = bakery.id;
  const veg = await f.plan(farm, { name: "Veg Box", prices: { PICKUP: 2000, SHIPPING: 2600, DELIVERY: 2400 } });
  const bread = await f.plan(bakery, { name: "Bread" });
  const eggs = await f.addon(farm, { name: "Eggs", amountCents: 500 });
  const honey = await f.addon(farm, { name: "Honey", amountCents: 700 });

  const sub = async (name: string, o: { mode?: "PICKUP" | "SHIPPING" | "DELIVERY"; point?: string; addons?: { id: number; amountCents: number }[]; gift?: [string, string]; instructions?: string; pastDue?: boolean; business?: { id: number }; plan?: { id: number } }) => {
    const user = await f.user({ name, email: `${name.toLowerCase().replace(/\W/g, "")}@example.com` });
    const s = await f.subscription({ user, business: o.business ?? farm, plan: o.plan ?? veg, mode: o.mode ?? "PICKUP", planAmountCents: 2000, addons: o.addons, status: o.pastDue ? "PAST_DUE" : "ACTIVE", paidThroughPeriod: o.pastDue ? "2026-03" : APRIL });
    await t.db.prisma.subscription.update({
      where: { id: s.id },
      data: { fulfillmentPoint: o.point ?? "", address: address(o.gift ? o.gift[0] : name, { instructions: o.instructions }), isGift: !!o.gift, giftMessage: o.gift?.[1] ?? "" },
    });
    if (o.pastDue) {
      await t.db.prisma.payment.create({
        data: { userId: user.id, subscriptionId: s.id, provider: "sandbox", providerPaymentId: `pi_declined_${s.id}`, idempotencyKey: `renewal:${s.id}:${APRIL}:1`, amountCents: 2000, status: "FAILED", createdAt: new Date("2026-04-01T14:00:00Z") },
      });
    }
    return s;
  };
  await sub("Zed", { point: "Market" });
  await sub("Amy", { point: "Barn", addons: [{ id: eggs.id, amountCents: 500 }, { id: honey.id, amountCents: 700 }] });
  await sub("Dee", { point: "Barn", pastDue: true });
  await sub("Cy", { mode: "SHIPPING" });
  await sub("Bo", { mode: "DELIVERY", point: "Downtown", instructions: "Leave at the side door", gift: ["Grandma Rose", "=HYPERLINK(\"http://evil\",\"x\")"] });
  await sub("Bea", { business: bakery, plan: bread });

  const users = { admin: await f.user({ isAdmin: true }), owner: await f.user(), editor: await f.user(), viewer: await f.user(), bakerOwner: await f.user(), member: await f.user() };
  await f.attach(farm, users.owner, "OWNER");
  await f.attach(farm, users.editor, "EDITOR");
  await f.attach(farm, users.viewer, "VIEWER");
  await f.attach(bakery, users.bakerOwner, "OWNER");
  for (const [k, u] of Object.entries(users)) tokens[k] = await f.session(u);
});
afterAll(() => t?.close());

/** The rows of the open month and of its snapshot are the same list. */
const EXPECTED = [
  HEADER,
  "Pickup,Barn,Amy,amy@example.com,555-0100,Veg Box,Eggs; Honey,,,,,,,,,,,32.00",
  "Pickup,Barn,Dee,dee@example.com,555-0100,Veg Box,,,,,,,,,,,hold — payment failed,20.00",
  "Pickup,Market,Zed,zed@example.com,555-0100,Veg Box,,,,,,,,,,,,20.00",
  "Shipping,,Cy,cy@example.com,555-0100,Veg Box,,1 Main St,Apt 2,Hudson,NY,12534,US,,,,,20.00",
  `Delivery,Downtown,Bo,bo@example.com,555-0100,Veg Box,,1 Main St,Apt 2,Hudson,NY,12534,US,Leave at the side door,Grandma Rose,"'=HYPERLINK(""http://evil"",""x"")",,20.00`,
];

describe("GET /api/admin/businesses/{id}/fulfilment/{month}/packing.csv", () => {
  it("streams the open month's preview in packing order: points alphabetical, a hold marked, addresses for shipping and delivery, formulas guarded", async () => {
    const res = await download(csvUrl(farmId), tokens.owner);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toBe('attachment; filename="packing-farm-2026-04.csv"');
    expect(res.lines).toEqual(EXPECTED);
  });

  it("one list per mode", async () => {
    const pickup = await download(csvUrl(farmId, APRIL, "pickup"), tokens.viewer);
    expect(pickup.headers["content-disposition"]).toBe('attachment; filename="packing-farm-2026-04-pickup.csv"');
    expect(pickup.lines).toEqual(EXPECTED.slice(0, 4));
    expect((await download(csvUrl(farmId, APRIL, "delivery"), tokens.editor)).lines).toEqual([HEADER, EXPECTED[5]]);
    expect((await download(csvUrl(farmId, APRIL, "shipping"), tokens.admin)).lines).toEqual([HEADER, EXPECTED[4]]);
  });

  it("reads the frozen snapshot once frozen, not later changes", async () => {
    const result = await freeze({ db: t.db.prisma, clock: t.clock, log: pino({ level: "silent" }) } as never, farmId, APRIL, { trigger: "operator" });
    expect(result).toMatchObject({ created: true, boxes: 5 });
    // Changed after the freeze: the packing list stays the snapshot's (the change is a difference, docs/fulfilment.md).
    await t.db.prisma.subscription.updateMany({ where: { businessId: farmId, user: { name: "Zed" } }, data: { fulfillmentPoint: "Barn" } });
    const res = await download(csvUrl(farmId), tokens.owner);
    expect(res.status).toBe(200);
    expect(res.lines).toEqual(EXPECTED);
    expect((await download(csvUrl(farmId, APRIL, "pickup"), tokens.owner)).lines).toEqual(EXPECTED.slice(0, 4));
  });

  it("answers only the readers of the business's fulfilment: 401, 403, 404 and 400 as the memberships CSV", async () => {
    expect((await download(csvUrl(farmId))).status).toBe(401);
    expect((await download(csvUrl(farmId), tokens.member)).status).toBe(403);
    expect((await download(csvUrl(farmId), tokens.bakerOwner)).status).toBe(403);
    const bakery = await download(csvUrl(bakeryId), tokens.bakerOwner);
    expect(bakery.status).toBe(200);
    expect(bakery.lines).toHaveLength(2);
    expect(bakery.lines[1]).toMatch(/^Pickup,,Bea,bea@example.com,/);
    expect((await download(csvUrl(999999), tokens.admin)).status).toBe(404);
    expect((await download(csvUrl(farmId, "2026-4"), tokens.owner)).status).toBe(400);
    expect((await download(csvUrl(farmId, "2026-13"), tokens.owner)).status).toBe(400);
    expect((await download(csvUrl(farmId, APRIL, "drone"), tokens.owner)).status).toBe(400);
  });
});

describe("Business.fulfilment for the admin screen", () => {
  it("without a month reads the month whose box is next (box ready on the 1st: past April's, so May); totals by plan and mode", async () => {
    const res = await t.gql(`{ business(slug: "farm") { fulfilment { month totals { byPlanMode { plan mode count } } } } }`, {}, { token: tokens.owner });
    expect(res.errors).toBeUndefined();
    expect(res.data.business.fulfilment.month).toBe("2026-05");
    const april = await t.gql(`{ business(slug: "farm") { fulfilment(month: "2026-04") { totals { byPlanMode { plan mode count } } } } }`, {}, { token: tokens.owner });
    // Frozen April (above): four boxes packed, Dee's on hold is not counted.
    expect(april.data.business.fulfilment.totals.byPlanMode).toEqual([
      { plan: "Veg Box", mode: "DELIVERY", count: 1 },
      { plan: "Veg Box", mode: "PICKUP", count: 2 },
      { plan: "Veg Box", mode: "SHIPPING", count: 1 },
    ]);
  });
});
