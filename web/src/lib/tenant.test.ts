import { describe, expect, it } from "vitest";
import { STORAGE_KEYS, type KeyValueStore } from "./storage.ts";
import { apiHeaders, tenantFromPath } from "./tenant.ts";

function memoryStore(entries: Record<string, string> = {}): KeyValueStore {
  const map = new Map(Object.entries(entries));
  return {
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  };
}

describe("tenantFromPath", () => {
  it("reads the slug of /b/{slug} paths", () => {
    expect(tenantFromPath("/b/Green-Acres")).toBe("green-acres");
    expect(tenantFromPath("/b/acme/membership/checkout")).toBe("acme");
    expect(tenantFromPath("/businesses")).toBeNull();
    expect(tenantFromPath("/")).toBeNull();
  });
});

describe("apiHeaders", () => {
  it("takes the tenant from the page path before storage", () => {
    const store = memoryStore({ [STORAGE_KEYS.currentTenant]: "other" });
    expect(apiHeaders({ requestPath: "/graphql", pagePath: "/b/acme", store })).toEqual({ "X-Tenant": "acme" });
  });
  it("falls back to the stored current tenant, then the selection's business", () => {
    expect(apiHeaders({ requestPath: "/graphql", pagePath: "/membership", store: memoryStore({ [STORAGE_KEYS.currentTenant]: "Acme" }) })).toEqual({ "X-Tenant": "acme" });
    const selection = JSON.stringify({ businessSlug: "bakery" });
    expect(apiHeaders({ requestPath: "/graphql", pagePath: "/", store: memoryStore({ [STORAGE_KEYS.membershipSelection]: selection }) })).toEqual({ "X-Tenant": "bakery" });
    expect(apiHeaders({ requestPath: "/graphql", pagePath: "/", store: memoryStore() })).toEqual({});
  });
  it("always attaches the token to GraphQL: one login for every membership", () => {
    const token = { [STORAGE_KEYS.authToken]: "t0k" };
    expect(apiHeaders({ requestPath: "/graphql", pagePath: "/b/acme", store: memoryStore({ ...token, [STORAGE_KEYS.authTenant]: "acme" }) })).toEqual({ "X-Tenant": "acme", Authorization: "Bearer t0k" });
    expect(apiHeaders({ requestPath: "/graphql", pagePath: "/b/acme", store: memoryStore({ ...token, [STORAGE_KEYS.authTenant]: "bakery" }) })).toEqual({ "X-Tenant": "acme", Authorization: "Bearer t0k" });
    expect(apiHeaders({ requestPath: "/graphql", pagePath: "/b/acme", store: memoryStore(token) })).toEqual({ "X-Tenant": "acme", Authorization: "Bearer t0k" });
    expect(apiHeaders({ requestPath: "/graphql", pagePath: "/", store: memoryStore({ ...token, [STORAGE_KEYS.authTenant]: "acme" }) })).toEqual({ Authorization: "Bearer t0k" });
  });
  it("keeps spec §7 for the other /api routes: the token only when the session's tenant matches or either is unknown", () => {
    const token = { [STORAGE_KEYS.authToken]: "t0k" };
    expect(apiHeaders({ requestPath: "/api/my/subscriptions", pagePath: "/b/acme", store: memoryStore({ ...token, [STORAGE_KEYS.authTenant]: "acme" }) })).toEqual({ "X-Tenant": "acme", Authorization: "Bearer t0k" });
    expect(apiHeaders({ requestPath: "/api/my/subscriptions", pagePath: "/b/acme", store: memoryStore({ ...token, [STORAGE_KEYS.authTenant]: "bakery" }) })).toEqual({ "X-Tenant": "acme" });
    expect(apiHeaders({ requestPath: "/api/my/subscriptions", pagePath: "/b/acme", store: memoryStore(token) })).toEqual({ "X-Tenant": "acme", Authorization: "Bearer t0k" });
  });
  it("sends no tenant to /api/admin, always the token", () => {
    const store = memoryStore({ [STORAGE_KEYS.authToken]: "t0k", [STORAGE_KEYS.authTenant]: "bakery" });
    expect(apiHeaders({ requestPath: "/api/admin/page", pagePath: "/b/acme", store })).toEqual({ Authorization: "Bearer t0k" });
  });
});
