import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../support/app.ts";
import { card, type Farm, type RestClient, sandbox, startFarm } from "./helpers.ts";

let t: TestApp;
let s: Farm;
let call: RestClient;
beforeAll(async () => {
  ({ t, s, call } = await startFarm(async (s) => {
    await s.f.order({ subscription: { ...s.sub }, period: "2026-02", totalCents: 2900, refundedCents: 100 });
  }));
});
afterAll(() => t.close());

describe("member routes need a bearer and the right tenant", () => {
  it.each(["/api/my/businesses", "/api/my/orders", "/api/my/subscriptions", "/api/my/skips", "/api/my/memberships", "/api/my/profile/basic"])("GET %s: 401 without, 401 expired", async (url) => {
    expect((await call("GET", url)).status).toBe(401);
    const expired = await call("GET", url, { token: "mps_not-a-session" });
    expect(expired.status).toBe(401);
    expect(expired.body.reason).toBe("session_expired");
  });

  it("a session bound to farm is refused on bakery (403 tenant_mismatch)", async () => {
    const res = await call("GET", "/api/my/subscriptions", { token: s.memberToken, tenant: "bakery" });
    expect(res.status).toBe(403);
    expect(res.body.reason).toBe("tenant_mismatch");
    expect((await call("POST", `/api/my/subscriptions/${s.sub.id}/skip`, { token: s.memberToken, tenant: "bakery" })).status).toBe(403);
  });
});

describe("portal lists", () => {
  it("GET /api/my/businesses: {id, name, slug} of attached businesses", async () => {
    expect((await call("GET", "/api/my/businesses", { token: s.ownerToken })).body).toEqual([{ id: s.farm.id, name: "Farm", slug: "farm" }]);
    expect((await call("GET", "/api/my/businesses", { token: s.memberToken })).body).toEqual([]);
  });

  it("GET /api/my/orders: §3 order shape", async () => {
    const res = await call("GET", "/api/my/orders", { token: s.memberToken, tenant: "farm" });
    const o = res.body.orders[0];
    expect(o).toMatchObject({ business_slug: "farm", refund_meta: [{ amount: 100 }], account: { username: "mara" }, selection: { mode: "pickup", chosenItemName: "Plan" } });
  });

  it("GET /api/my/subscriptions: membership rows with next box, windows and selection", async () => {
    const res = await call("GET", "/api/my/subscriptions", { token: s.memberToken, tenant: "farm" });
    const sub = res.body.subscriptions[0];
    expect(sub).toMatchObject({ subscription_id: s.sub.id, status: "active", item_id: "item_veg", mode: "pickup", addons: [{ id: "addon_eggs", amount: 500 }], skip_window: { open: true } });
    expect(sub.next_box_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("GET /api/my/memberships: {items} of the owner's businesses; a member sees none", async () => {
    const res = await call("GET", "/api/my/memberships?status=active&q=mara", { token: s.ownerToken });
    expect(res.body.items[0]).toMatchObject({ username: "mara", business_slug: "farm", status: "active" });
    expect((await call("GET", "/api/my/memberships", { token: s.memberToken })).body).toEqual({ items: [] });
    expect((await call("GET", "/api/my/memberships?status=paused", { token: s.ownerToken })).status).toBe(400);
  });
});

describe("profile and password", () => {
  it("POST /api/my/profile then GET /api/my/profile/basic", async () => {
    const res = await call("POST", "/api/my/profile", {
      token: s.memberToken,
      tenant: "farm",
      payload: { profile: { email: "Mara@Example.com", name: "Mara", phone: "555", address: { fullName: "Mara M", street: "2 Lane", city: "Town" } } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: "mara@example.com", name: "Mara", phone: "555" });
    expect(res.body.address_json).toMatchObject({ fullName: "Mara M", street: "2 Lane", apt: "" });
    const basic = await call("GET", "/api/my/profile/basic", { token: s.memberToken, tenant: "farm" });
    expect(basic.body).toEqual({ ...res.body, username: "mara" });
  });

  it("POST /api/my/profile: invalid email 400, nothing changed", async () => {
    const res = await call("POST", "/api/my/profile", { token: s.memberToken, payload: { profile: { email: "not-an-email", name: "Changed" } } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Please enter a valid email address");
    expect((await t.db.prisma.user.findUniqueOrThrow({ where: { id: s.member.id } })).name).toBe("Mara");
  });

  it("POST /api/my/change-password: wrong current password 400; success ends the sessions", async () => {
    const u = await s.f.user({ username: "changer" });
    const { hashPassword } = await import("../../api/auth/passwords.ts");
    await t.db.prisma.user.update({ where: { id: u.id }, data: { passwordHash: await hashPassword("old-password") } });
    const token = await s.f.session(u);
    const wrong = await call("POST", "/api/my/change-password", { token, payload: { currentPassword: "nope-nope", newPassword: "new-password" } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe("Current password is incorrect");
    const ok = await call("POST", "/api/my/change-password", { token, payload: { currentPassword: "old-password", newPassword: "new-password" } });
    expect(ok.body).toEqual({ ok: true });
    expect((await call("GET", "/api/my/profile/basic", { token })).status).toBe(401);
  });
});

describe("card update", () => {
  it("start then finalize saves the card", async () => {
    const start = await call("POST", "/api/my/payments/update-card/start", { token: s.memberToken, tenant: "farm" });
    expect(start.status).toBe(200);
    await sandbox(t).confirmSetupIntent(start.body.client_secret, card());
    const fin = await call("POST", "/api/my/payments/update-card/finalize", { token: s.memberToken, tenant: "farm", payload: { setup_intent_id: start.body.setup_intent_id } });
    expect(fin.status).toBe(200);
    expect(fin.body).toMatchObject({ ok: true, card: { last4: "4242" } });
    expect((await call("POST", "/api/my/payments/update-card/finalize", { token: s.memberToken, payload: {} })).status).toBe(400);
    expect((await call("POST", "/api/my/payments/update-card/finalize", { token: s.memberToken, payload: { setup_intent_id: "seti_unknown" } })).status).toBe(404);
  });
});

describe("skip, config, change, restart", () => {
  it("POST /api/my/subscriptions/{id}/skip: resumeDate; again 409; bad id 400; another member's 403", async () => {
    const res = await call("POST", `/api/my/subscriptions/${s.sub.id}/skip`, { token: s.memberToken, tenant: "farm" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, skippedMonth: "2026-04" });
    expect((await call("POST", `/api/my/subscriptions/${s.sub.id}/skip`, { token: s.memberToken, tenant: "farm" })).status).toBe(409);
    expect((await call("POST", "/api/my/subscriptions/abc/skip", { token: s.memberToken })).status).toBe(400);
    expect((await call("POST", `/api/my/subscriptions/${s.sub.id}/skip`, { token: s.ownerToken })).status).toBe(403);
    const skips = await call("GET", "/api/my/skips", { token: s.memberToken, tenant: "farm" });
    expect(skips.body).toEqual({ items: [{ business_slug: "farm", year_month: res.body.skippedMonth }] });
  });

  it("skip outside the window: 422 with reason", async () => {
    t.clock.set("2026-03-20T15:00:00Z");
    try {
      const res = await call("POST", `/api/my/subscriptions/${s.sub.id}/skip`, { token: s.memberToken, tenant: "farm" });
      expect(res.status).toBe(422);
      expect(res.body.reason).toBe("outside_skip_window");
    } finally {
      t.clock.set("2026-03-05T15:00:00Z");
    }
  });

  it("GET /api/my/subscriptions/{id}/config: normalized and selection", async () => {
    const res = await call("GET", `/api/my/subscriptions/${s.sub.id}/config`, { token: s.memberToken, tenant: "farm" });
    expect(res.body.normalized).toEqual({
      baseId: "item_veg", basePrice: 2400, addons: [{ id: "addon_eggs", name: "Eggs", price: "$5.00", amount: 500, amountCents: 500 }], upgrades: [],
    });
    expect(res.body.selection).toMatchObject({ businessSlug: "farm", chosenItemId: "item_veg", chosenVariationId: "item_veg_pickup", chosenAddonIds: ["addon_eggs"] });
  });

  it("POST /api/my/subscriptions/{slug}/apply-change: schedules the change; unknown item 400 with nothing changed", async () => {
    const bad = await call("POST", "/api/my/subscriptions/farm/apply-change", { token: s.memberToken, tenant: "farm", payload: { selection: { chosenItemId: "item_none", mode: "pickup" } } });
    expect(bad.status).toBe(400);
    expect(await t.db.prisma.subscriptionChange.count()).toBe(0);
    const res = await call("POST", "/api/my/subscriptions/farm/apply-change", {
      token: s.memberToken,
      tenant: "farm",
      payload: { selection: { businessSlug: "farm", chosenItemId: "item_veg", chosenAddons: [], mode: "shipping", ts: 1 } },
    });
    expect(res.status).toBe(200);
    // April was skipped above: the change takes effect from May, the first month charged.
    expect(res.body).toEqual({ ok: true, effective_period: "2026-05" });
    expect(await t.db.prisma.subscriptionChange.findUniqueOrThrow({ where: { subscriptionId: s.sub.id } })).toMatchObject({ mode: "SHIPPING", addonIds: [] });
  });

  it("POST /api/my/subscriptions/{tenant}/change: message and charged_amount 0", async () => {
    const res = await call("POST", "/api/my/subscriptions/farm/change", {
      token: s.memberToken,
      tenant: "farm",
      payload: { new_selection: { chosenItemId: "item_veg", chosenAddonIds: ["addon_eggs"], mode: "shipping" }, amount: "34.00" },
    });
    expect(res.status).toBe(200);
    expect(res.body.charged_amount).toBe(0);
    expect((await call("POST", "/api/my/subscriptions/bakery/change", { token: s.memberToken, payload: { new_selection: { chosenItemId: "x", mode: "pickup" } } })).status).toBe(403);
  });

  it("POST /api/my/subscriptions/{id}/restart: a canceled membership restarts", async () => {
    const u = await s.f.user({ username: "returner" });
    const sub = await s.f.subscription({ user: u, business: s.farm, plan: s.plan, status: "CANCELED", canceledAt: "2026-02-20T00:00:00Z", paidThroughPeriod: "2026-03" });
    const token = await s.f.session(u, "farm");
    const res = await call("POST", `/api/my/subscriptions/${sub.id}/restart`, { token, tenant: "farm" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, outcome: "reactivated", client_secret: null, order_id: null });
    const again = await call("POST", `/api/my/subscriptions/${sub.id}/restart`, { token, tenant: "farm" });
    expect(again.status).toBe(409);
  });

  it("restart that needs the card answers a client_secret", async () => {
    const u = await s.f.user({ username: "lapsed", email: "lapsed@example.com" });
    const sub = await s.f.subscription({ user: u, business: s.farm, plan: s.plan, status: "CANCELED", canceledAt: "2026-01-20T00:00:00Z", paidThroughPeriod: "2026-01" });
    const token = await s.f.session(u, "farm");
    const res = await call("POST", `/api/my/subscriptions/${sub.id}/restart`, { token, tenant: "farm" });
    expect(res.status).toBe(200);
    expect(res.body.outcome).toBe("requires_action");
    expect(res.body.client_secret).toBeTypeOf("string");
  });
});
