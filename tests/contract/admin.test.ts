import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../support/app.ts";
import { type Farm, type RestClient, startFarm } from "./helpers.ts";

let t: TestApp;
let s: Farm;
let call: RestClient;
beforeAll(async () => {
  ({ t, s, call } = await startFarm(async (s) => {
    await s.f.order({ subscription: s.sub, period: "2026-03", totalCents: 2900 });
  }));
});
afterAll(() => t.close());

describe("admin header rules", () => {
  it("401 without a bearer; X-Tenant is ignored (an admin's tenant-less session works with any header)", async () => {
    expect((await call("GET", "/api/admin/metrics")).status).toBe(401);
    expect((await call("GET", "/api/admin/metrics", { token: s.adminToken, tenant: "bakery" })).status).toBe(200);
    // A member token bound to farm still is not an admin.
    expect((await call("GET", "/api/admin/metrics", { token: s.memberToken, tenant: "farm" })).status).toBe(403);
  });
});

describe("pages", () => {
  it("POST /api/admin/page: saves the home page with sanitised rich text; 403 for non-admins", async () => {
    const payload = { content: { brand: { name: "Home" }, description: '<p>Hi<script>alert(1)</script><a href="javascript:x">x</a></p>', faqs: [{ q: "Q", a: '<img src="x" onerror="y">A' }] } };
    expect((await call("POST", "/api/admin/page", { token: s.ownerToken, payload })).status).toBe(403);
    const res = await call("POST", "/api/admin/page", { token: s.adminToken, payload });
    expect(res.status).toBe(200);
    expect(res.body.content.brand.name).toBe("Home");
    expect(res.body.content.description).toBe("<p>Hi<a>x</a></p>");
    expect(res.body.content.faqs).toEqual([{ q: "Q", a: "A" }]);
    expect((await call("GET", "/api/page")).body.content.brand.name).toBe("Home");
  });

  it("GET /api/admin/businesses/{id}/page: every catalogue row for the editor (owner)", async () => {
    const res = await call("GET", `/api/admin/businesses/${s.farm.id}/page`, { token: s.ownerToken });
    expect(res.status).toBe(200);
    expect(res.body.content.itemsSnapshot.map((i: { id: string }) => i.id)).toEqual(["item_veg", "item_hidden"]);
    expect(res.body.content.itemIds).toEqual(["item_veg"]);
    expect((await call("GET", `/api/admin/businesses/${s.farm.id}/page`, { token: s.memberToken })).status).toBe(403);
    expect((await call("GET", "/api/admin/businesses/999999/page", { token: s.adminToken })).status).toBe(404);
  });

  it("POST /api/admin/businesses/{id}/page: page and catalogue in one save", async () => {
    const current = (await call("GET", `/api/admin/businesses/${s.farm.id}/page`, { token: s.ownerToken })).body.content;
    const content = {
      ...current,
      description: "<p>New</p><iframe src='x'></iframe>",
      tax: { enabled: true, rate: 7.5 },
      subscriptionCutoffDay: "",
      itemIds: ["item_veg", "item_new"],
      itemsSnapshot: [
        current.itemsSnapshot[0],
        { id: "item_new", name: "New Box", description: "", variations: [{ id: "item_new_delivery", name: "Delivery", ordinal: 2, amount: 3100, priceMoney: { amount: 3100 } }] },
      ],
      addonsSnapshot: [],
      addonIds: [],
    };
    const res = await call("POST", `/api/admin/businesses/${s.farm.id}/page`, { token: s.ownerToken, payload: { content } });
    expect(res.status).toBe(200);
    expect(res.body.content).toMatchObject({ description: "<p>New</p>", tax: { enabled: true, rate: 7.5 }, itemIds: ["item_veg", "item_new"], subscriptionCutoffDay: null });
    expect(res.body.content.itemsSnapshot[1].variations).toEqual([
      { id: "item_new_delivery", name: "Delivery", ordinal: 2, amount: 3100, currency: "USD", priceFormatted: "$31.00", priceMoney: { amount: 3100 } },
    ]);
    expect(await t.db.prisma.addon.count({ where: { businessId: s.farm.id, archivedAt: null } })).toBe(0);
  });

  it("POST /api/admin/businesses/{id}/page: pickupAddress and deliveryArea are the first pickup point and delivery area", async () => {
    await t.db.prisma.page.update({ where: { businessId: s.farm.id }, data: { pickupPoints: ["1 Barn Rd", "Market"], deliveryAreas: ["North", "South"] } });
    const current = (await call("GET", `/api/admin/businesses/${s.farm.id}/page`, { token: s.ownerToken })).body.content;
    expect(current.fulfillment).toMatchObject({ pickupAddress: "1 Barn Rd", deliveryArea: "North", pickupPoints: ["1 Barn Rd", "Market"], deliveryAreas: ["North", "South"] });

    // A §3 client edits the single value (sending back what it read, lists included): only the first entry changes.
    const { pickupPoints: _p, deliveryAreas: _d, ...legacy } = current.fulfillment;
    for (const fulfillment of [{ ...current.fulfillment, pickupAddress: "2 Barn Rd" }, { ...legacy, pickupAddress: "2 Barn Rd" }]) {
      const res = await call("POST", `/api/admin/businesses/${s.farm.id}/page`, { token: s.ownerToken, payload: { content: { ...current, fulfillment } } });
      expect(res.status).toBe(200);
      expect(res.body.content.fulfillment).toMatchObject({ pickupAddress: "2 Barn Rd", pickupPoints: ["2 Barn Rd", "Market"], deliveryAreas: ["North", "South"] });
    }
  });

  it("POST /api/admin/businesses/{id}/page: invalid content 400, nothing changed", async () => {
    const before = await t.db.prisma.page.findUniqueOrThrow({ where: { businessId: s.farm.id } });
    const res = await call("POST", `/api/admin/businesses/${s.farm.id}/page`, {
      token: s.ownerToken,
      payload: { content: { billingDay: 30, description: "<p>changed</p>", itemsSnapshot: [{ id: "item_x", name: "", variations: [] }] } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBeTypeOf("string");
    expect(res.body.issues.length).toBeGreaterThan(0);
    const after = await t.db.prisma.page.findUniqueOrThrow({ where: { businessId: s.farm.id } });
    expect(after.descriptionHtml).toBe(before.descriptionHtml);
  });

  it("GET/POST /api/admin/businesses/{id}/next-box: sanitised on save", async () => {
    const saved = await call("POST", `/api/admin/businesses/${s.farm.id}/next-box`, { token: s.ownerToken, payload: { content: '<p onclick="x">Kale</p><script>bad()</script>' } });
    expect(saved.body).toEqual({ content: "<p>Kale</p>" });
    expect((await call("GET", `/api/admin/businesses/${s.farm.id}/next-box`, { token: s.ownerToken })).body).toEqual({ content: "<p>Kale</p>" });
    expect((await call("POST", `/api/admin/businesses/${s.farm.id}/next-box`, { token: s.ownerToken, payload: {} })).status).toBe(400);
    expect((await call("POST", `/api/admin/businesses/${s.bakery.id}/next-box`, { token: s.ownerToken, payload: { content: "x" } })).status).toBe(403);
  });
});

describe("businesses and their users", () => {
  it("GET/POST/DELETE /api/admin/businesses", async () => {
    const list = await call("GET", "/api/admin/businesses", { token: s.adminToken });
    expect(list.body).toContainEqual({ id: s.farm.id, name: "Farm", slug: "farm", user_count: 1 });
    expect((await call("GET", "/api/admin/businesses", { token: s.ownerToken })).status).toBe(403);

    const created = await call("POST", "/api/admin/businesses", { token: s.adminToken, payload: { name: "Coffee Co", attachments: [{ user_id: s.owner.id, role: "owner" }] } });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ id: expect.any(Number), name: "Coffee Co", slug: "coffee-co" });
    const dup = await call("POST", "/api/admin/businesses", { token: s.adminToken, payload: { name: "Coffee Co" } });
    expect(dup.status).toBe(409);
    const before = await t.db.prisma.business.count();
    expect((await call("POST", "/api/admin/businesses", { token: s.adminToken, payload: { name: "" } })).status).toBe(400);
    expect(await t.db.prisma.business.count()).toBe(before);

    expect((await call("DELETE", `/api/admin/businesses/${created.body.id}`, { token: s.adminToken })).body).toEqual({ ok: true });
    expect((await call("DELETE", `/api/admin/businesses/${s.farm.id}`, { token: s.adminToken })).status).toBe(409);
  });

  it("business users: list, search, attach, detach", async () => {
    const u = await s.f.user({ username: "helper" });
    const search = await call("GET", `/api/admin/businesses/${s.farm.id}/user-search?q=help`, { token: s.ownerToken });
    expect(search.body).toEqual({ results: [{ id: u.id, username: "helper" }] });
    const attached = await call("POST", `/api/admin/businesses/${s.farm.id}/users`, { token: s.ownerToken, payload: { user_id: u.id, role: "editor" } });
    expect(attached.body).toEqual({ id: u.id, username: "helper", role: "editor" });
    const owner = await call("POST", `/api/admin/businesses/${s.farm.id}/users`, { token: s.ownerToken, payload: { user_id: u.id, role: "owner" } });
    expect(owner.status).toBe(403);
    const bad = await call("POST", `/api/admin/businesses/${s.farm.id}/users`, { token: s.ownerToken, payload: { user_id: u.id, role: "boss" } });
    expect(bad.status).toBe(400);
    const list = await call("GET", `/api/admin/businesses/${s.farm.id}/users`, { token: s.ownerToken });
    expect(list.body).toEqual([
      { id: s.owner.id, username: "olivia", role: "owner" },
      { id: u.id, username: "helper", role: "editor" },
    ]);
    expect((await call("DELETE", `/api/admin/businesses/${s.farm.id}/users/${u.id}`, { token: s.ownerToken })).body).toEqual({ ok: true });
    expect((await call("DELETE", `/api/admin/businesses/${s.farm.id}/users/${u.id}`, { token: s.ownerToken })).status).toBe(404);
    expect((await call("GET", `/api/admin/businesses/${s.farm.id}/users`, { token: s.memberToken })).status).toBe(403);
  });

  it("GET /api/admin/users/search: admins only", async () => {
    expect((await call("GET", "/api/admin/users/search?q=oli", { token: s.adminToken })).body).toEqual({ results: [{ id: s.owner.id, username: "olivia" }] });
    expect((await call("GET", "/api/admin/users/search?q=oli", { token: s.ownerToken })).status).toBe(403);
  });
});

describe("metrics and memberships", () => {
  it("GET /api/admin/metrics: §3 metrics", async () => {
    const res = await call("GET", "/api/admin/metrics", { token: s.adminToken });
    expect(res.body.totals).toEqual({ subscriptionsAll: 1, subscriptionsActive: 1, subscriptionsCanceled: 0, totalRevenue: 2900 });
    expect(res.body.averages).toEqual({ subscriptionPrice: 2900 });
    expect(res.body.breakdowns.subscriptionsByBusiness).toContainEqual({ business_slug: "farm", count: 1 });
    expect(res.body.recentSubscriptions[0]).toMatchObject({ business_slug: "farm", public_id: s.member.publicId, status: "active", user_id: s.member.id });
  });

  it("GET /api/admin/businesses/{id}/metrics: business dashboard; 403 outside it", async () => {
    const res = await call("GET", `/api/admin/businesses/${s.farm.id}/metrics`, { token: s.ownerToken });
    expect(res.body.business).toEqual({ id: s.farm.id, name: "Farm", slug: "farm" });
    expect((await call("GET", `/api/admin/businesses/${s.bakery.id}/metrics`, { token: s.ownerToken })).status).toBe(403);
  });

  it("GET /api/admin/businesses/{id}/memberships and /api/admin/memberships", async () => {
    const res = await call("GET", `/api/admin/businesses/${s.farm.id}/memberships?status=active`, { token: s.ownerToken });
    expect(res.body.business).toEqual({ id: s.farm.id, name: "Farm", slug: "farm" });
    expect(res.body.items).toMatchObject([{ subscription_id: s.sub.id, username: "mara", business_slug: "farm", status: "active", canceled_at: null }]);
    const all = await call("GET", "/api/admin/memberships?business=farm&q=mara&status=any", { token: s.adminToken });
    expect(all.body.items.map((i: { subscription_id: number }) => i.subscription_id)).toEqual([s.sub.id]);
    expect((await call("GET", `/api/admin/memberships?business=${s.bakery.id}`, { token: s.adminToken })).body).toEqual({ items: [] });
    expect((await call("GET", "/api/admin/memberships?status=bogus", { token: s.adminToken })).status).toBe(400);
  });

  it("GET /api/admin/memberships.csv: the list's filters as a CSV download", async () => {
    const res = await call("GET", "/api/admin/memberships.csv?business=farm&q=mara&status=any", { token: s.ownerToken });
    expect(res.status).toBe(200);
    expect(res.headers["content-disposition"]).toMatch(/^attachment; filename="memberships-farm-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = (res.body as string).trimEnd().split("\r\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(new RegExp(`^${s.sub.id},.*,mara,.*,farm,Farm,`));
    expect((await call("GET", "/api/admin/memberships.csv?status=bogus", { token: s.adminToken })).status).toBe(400);
    expect((await call("GET", "/api/admin/memberships.csv", { token: s.memberToken })).status).toBe(403);
  });

  it("GET /api/admin/businesses/{id}/fulfilment/{month}/packing.csv: the month's packing list as a CSV download", async () => {
    const res = await call("GET", `/api/admin/businesses/${s.farm.id}/fulfilment/2026-04/packing.csv?mode=pickup`, { token: s.ownerToken });
    expect(res.status).toBe(200);
    expect(res.headers["content-disposition"]).toBe('attachment; filename="packing-farm-2026-04-pickup.csv"');
    expect((res.body as string).split("\r\n")[0]).toMatch(/^mode,point_or_area,member,email,phone,plan,addons,/);
    expect((await call("GET", `/api/admin/businesses/${s.farm.id}/fulfilment/2026-04/packing.csv?mode=drone`, { token: s.ownerToken })).status).toBe(400);
    expect((await call("GET", `/api/admin/businesses/${s.farm.id}/fulfilment/2026-04/packing.csv`, { token: s.memberToken })).status).toBe(403);
  });

  it("GET /api/admin/businesses/{id}/statements/{month}.csv: a month's statement as a CSV download", async () => {
    const res = await call("GET", `/api/admin/businesses/${s.farm.id}/statements/2026-04.csv`, { token: s.ownerToken });
    expect(res.status).toBe(200);
    expect(res.headers["content-disposition"]).toBe('attachment; filename="statement-farm-2026-04.csv"');
    expect((res.body as string).split("\r\n")[0]).toBe("date,member,membership_id,period,kind,provider_id,gross,platform_fee,processing_fee,net");
    expect((await call("GET", `/api/admin/businesses/${s.farm.id}/statements/2026-13.csv`, { token: s.ownerToken })).status).toBe(400);
    expect((await call("GET", `/api/admin/businesses/${s.farm.id}/statements/2026-04.csv`, { token: s.memberToken })).status).toBe(403);
    expect((await call("GET", "/api/admin/businesses/999999/statements/2026-04.csv", { token: s.adminToken })).status).toBe(404);
  });

  it("GET /api/admin/fees/{month}.csv: the month's fees collected as a CSV download (admins)", async () => {
    const res = await call("GET", "/api/admin/fees/2026-04.csv", { token: s.adminToken });
    expect(res.status).toBe(200);
    expect(res.headers["content-disposition"]).toBe('attachment; filename="fees-collected-2026-04.csv"');
    const lines = (res.body as string).trim().split("\r\n");
    expect(lines[0]).toBe("business,slug,time_zone,charges,platform_fees,processing_fees,fees_refunded,provider_fees,net");
    expect(lines[lines.length - 1]).toMatch(/^Total,/);
    expect((await call("GET", "/api/admin/fees/2026-13.csv", { token: s.adminToken })).status).toBe(400);
    expect((await call("GET", "/api/admin/fees/2026-04.csv", { token: s.ownerToken })).status).toBe(403);
    expect((await call("GET", "/api/admin/fees/2026-04.csv")).status).toBe(401);
  });

  it("POST /api/admin/subscriptions/{subscriptionId}/cancel: mode now; again 409; member 403", async () => {
    const u = await s.f.user({ username: "leaver" });
    const sub = await s.f.subscription({ user: u, business: s.farm, plan: s.plan });
    expect((await call("POST", `/api/admin/subscriptions/${sub.id}/cancel`, { token: s.memberToken, payload: { mode: "now" } })).status).toBe(403);
    expect((await call("POST", `/api/admin/subscriptions/${sub.id}/cancel`, { token: s.ownerToken, payload: { mode: "later" } })).status).toBe(400);
    const res = await call("POST", `/api/admin/subscriptions/${sub.id}/cancel`, { token: s.ownerToken, payload: { mode: "now" } });
    expect(res.status).toBe(200);
    expect(res.body.subscription).toMatchObject({ subscription_id: sub.id, status: "canceled" });
    expect((await call("POST", `/api/admin/subscriptions/${sub.id}/cancel`, { token: s.ownerToken, payload: { mode: "now" } })).status).toBe(409);
    expect((await call("POST", "/api/admin/subscriptions/999999/cancel", { token: s.adminToken, payload: {} })).status).toBe(404);
  });
});

describe("users and coupons", () => {
  it("GET/POST /api/admin/users", async () => {
    const created = await call("POST", "/api/admin/users", { token: s.adminToken, payload: { username: "Staff1", password: "staff-password", is_admin: true } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ username: "staff1", is_admin: true });
    const missing = await call("POST", "/api/admin/users", { token: s.adminToken, payload: { username: "", password: "" } });
    expect(missing.status).toBe(400);
    expect((await call("POST", "/api/admin/users", { token: s.ownerToken, payload: { username: "sneaky", password: "sneaky-password" } })).status).toBe(403);
    const list = await call("GET", "/api/admin/users", { token: s.adminToken });
    expect(list.body.map((u: { username: string }) => u.username)).toContain("staff1");
  });

  it("coupons: create, list, toggle, delete", async () => {
    const created = await call("POST", "/api/admin/coupons", { token: s.adminToken, payload: { code: "save5", type: "fixed", value: 500, active: true } });
    expect(created.body).toEqual({ id: expect.any(Number), code: "SAVE5", type: "fixed", value: 500, active: true });
    const bad = await call("POST", "/api/admin/coupons", { token: s.adminToken, payload: { code: "PCT", type: "percent", value: 120 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("Invalid percent value (0-100)");
    expect(await t.db.prisma.coupon.count({ where: { code: "PCT" } })).toBe(0);
    expect((await call("POST", "/api/admin/coupons", { token: s.adminToken, payload: { code: "save5", type: "fixed", value: 1 } })).status).toBe(409);
    expect((await call("GET", "/api/admin/coupons", { token: s.adminToken })).body).toEqual([created.body]);
    expect((await call("GET", "/api/admin/coupons", { token: s.ownerToken })).status).toBe(403);
    expect((await call("POST", `/api/admin/coupons/${created.body.id}/toggle`, { token: s.adminToken })).body.active).toBe(false);
    expect((await call("DELETE", `/api/admin/coupons/${created.body.id}`, { token: s.adminToken })).body).toEqual({ ok: true });
    expect((await call("DELETE", `/api/admin/coupons/${created.body.id}`, { token: s.adminToken })).status).toBe(404);
  });
});
