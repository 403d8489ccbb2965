import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { checkAnswer, declaredRouteKeys } from "./declared.ts";
import { restClient } from "./helpers.ts";

/** Every call of spec §7, as the spec writes it, the memberships CSV, the packing lists' CSV, the monthly statement's CSV and the fees collected CSV (text/csv). */
const SPEC_ROUTES = `
GET /api/page
GET /api/admin/page
GET /api/square/plans
GET /api/square/items
GET /api/businesses
GET /api/businesses/{slug}/page
GET /api/businesses/{slug}/next-box
POST /api/auth/login
POST /api/auth/register
GET /api/auth/check-username/{username}
GET /api/my/businesses
GET /api/my/orders
GET /api/my/subscriptions
GET /api/my/skips
GET /api/my/memberships
GET /api/my/profile/basic
POST /api/my/profile
POST /api/my/change-password
POST /api/my/payments/update-card/start
POST /api/my/payments/update-card/finalize
POST /api/my/subscriptions/{id}/restart
POST /api/my/subscriptions/{id}/skip
GET /api/my/subscriptions/{id}/config
POST /api/my/subscriptions/{slug}/apply-change
POST /api/my/subscriptions/{tenant}/change
POST /api/create-payment-intent
POST /api/create-subscription
POST /api/checkout
POST /api/my/payments/promote
POST /api/admin/upload
POST /api/admin/page
GET /api/admin/businesses/{id}/page
POST /api/admin/businesses/{id}/page
GET /api/admin/businesses
POST /api/admin/businesses
DELETE /api/admin/businesses/{id}
GET /api/admin/businesses/{id}/users
POST /api/admin/businesses/{id}/users
DELETE /api/admin/businesses/{id}/users/{userId}
GET /api/admin/businesses/{id}/user-search
GET /api/admin/users/search
GET /api/admin/businesses/{id}/metrics
GET /api/admin/metrics
GET /api/admin/businesses/{id}/memberships
GET /api/admin/memberships
GET /api/admin/memberships.csv
GET /api/admin/businesses/{id}/fulfilment/{month}/packing.csv
GET /api/admin/businesses/{id}/statements/{month}.csv
GET /api/admin/fees/{month}.csv
GET /api/admin/businesses/{id}/next-box
POST /api/admin/businesses/{id}/next-box
POST /api/admin/subscriptions/{subscriptionId}/cancel
GET /api/admin/users
POST /api/admin/users
GET /api/admin/coupons
POST /api/admin/coupons
POST /api/admin/coupons/{id}/toggle
DELETE /api/admin/coupons/{id}
`
  .trim()
  .split("\n")
  .map((l) => {
    const [method, path] = l.split(" ");
    return { method: method as "GET" | "POST" | "DELETE", path };
  });

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("route table", () => {
  it.each(SPEC_ROUTES)("$method $path is mounted", async ({ method, path }) => {
    const url = path.replace(/\{\w+\}/g, (m) => (m === "{slug}" || m === "{tenant}" || m === "{username}" ? "somebody" : "1"));
    expect(t.app.hasRoute({ method, url: path.replace(/\{(\w+)\}/g, ":$1") }), `${method} ${path}`).toBe(true);
    const res = await restClient(t)(method, url, { payload: method === "GET" || method === "DELETE" ? undefined : {} });
    // Mounted routes answer with their own status (401, 400, 404 for an unknown id…), never the catch-all.
    if (res.status === 404) expect(res.body.error).not.toBe("Not found");
    expect(res.headers["content-type"]).toContain("application/json");
  });

  it("rest-compat declares exactly the spec's routes", () => {
    expect(declaredRouteKeys().sort()).toEqual(SPEC_ROUTES.map((r) => `${r.method} ${r.path}`).sort());
  });

  it("every contract test file calls through the checked client (its answers checked, its calls counted)", () => {
    const files = fs.readdirSync(import.meta.dirname).filter((f) => f.endsWith(".test.ts"));
    const unchecked = files.filter((f) => !/from "\.\/helpers\.ts"/.test(fs.readFileSync(`${import.meta.dirname}/${f}`, "utf8")));
    expect(unchecked).toEqual([]);
  });

  it("answers are checked against their route's declaration, objects closed", () => {
    const json = "application/json; charset=utf-8";
    const ok = { status: 200, contentType: json };
    expect(() => checkAnswer("GET", "/api/businesses/farm/next-box", { ...ok, body: { content: "", extra: 1 } })).toThrow(/GET \/api\/businesses\/\{slug\}\/next-box[\s\S]*extra/);
    expect(() => checkAnswer("GET", "/api/businesses/farm/next-box", { ...ok, body: {} })).toThrow(/content/);
    expect(() => checkAnswer("GET", "/api/admin/businesses/1/page", { ...ok, body: { content: { brand: { name: "x" } } } })).toThrow(/declared GET \/api\/admin\/businesses\/\{id\}\/page/);
    expect(() => checkAnswer("GET", "/api/businesses/farm/next-box", { ...ok, contentType: "text/html", body: "<p>" })).toThrow(/not JSON/);
    expect(() => checkAnswer("GET", "/api/nowhere", { ...ok, body: {} })).toThrow(/no route in rest-compat declares it/);
    expect(() => checkAnswer("GET", "/api/page", { status: 404, contentType: json, body: { error: "x", detail: "y" } })).toThrow(/detail/);
    expect(() => checkAnswer("GET", "/api/page", { status: 404, contentType: json, body: { error: "x", reason: "not_found" } })).not.toThrow();
  });

  it("unknown /api paths answer JSON 404", async () => {
    const res = await restClient(t)("GET", "/api/no/such/route");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "Not found" });
  });

  it("the OpenAPI 3.1 document lists every route with its schemas", async () => {
    const res = await restClient(t)("GET", "/api/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    for (const { method, path } of SPEC_ROUTES) {
      const op = res.body.paths[path]?.[method.toLowerCase()];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op.responses["200"].content[path.endsWith(".csv") ? "text/csv" : "application/json"].schema).toBeTypeOf("object");
    }
    const login = res.body.paths["/api/auth/login"].post;
    expect(Object.keys(login.requestBody.content["application/json"].schema.properties)).toEqual(["username", "password"]);
    expect(res.body.paths["/api/admin/upload"].post.requestBody.content["multipart/form-data"]).toBeDefined();
  });
});
