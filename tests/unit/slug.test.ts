import { describe, expect, it } from "vitest";
import { isValidSlug, normalizeSlug, SLUG_MAX_LENGTH, slugFor } from "../../api/shared/slug.ts";
import { requestTenant, tenantFromHost } from "../../server/tenancy.ts";

// api/shared/slug.ts is the one slug rule of the server and the web app (the create-business form previews with
// it, imported as @shared/slug.ts): its tests stand here, once.
describe("normalizeSlug", () => {
  it("keeps lower-case letters, digits and single dashes", () => {
    expect(normalizeSlug("  Ember & Oak -- Coffee!! ")).toBe("ember-oak-coffee");
    expect(normalizeSlug("Café 42")).toBe("cafe-42");
    expect(normalizeSlug("---a---b---")).toBe("a-b");
    expect(normalizeSlug("!!!")).toBe("");
  });

  it("does not cut a long name: validation refuses it instead", () => {
    const long = normalizeSlug("a".repeat(70));
    expect(long).toHaveLength(70);
    expect(isValidSlug(long)).toBe(false);
  });
});

describe("isValidSlug", () => {
  it("takes single-dash lower-case labels of at most 63 characters", () => {
    expect(SLUG_MAX_LENGTH).toBe(63);
    expect(isValidSlug("ember-oak-coffee")).toBe(true);
    expect(isValidSlug("a".repeat(63))).toBe(true);
    expect(isValidSlug("a".repeat(64))).toBe(false);
    for (const bad of ["", "-a", "a-", "a--b", "A", "a_b", "a.b"]) expect(isValidSlug(bad), bad).toBe(false);
  });
});

describe("slugFor", () => {
  it("takes the typed subdomain, else the name", () => {
    expect(slugFor("Sunny Farm", "")).toBe("sunny-farm");
    expect(slugFor("Sunny Farm", "   ")).toBe("sunny-farm");
    expect(slugFor("Sunny Farm", null)).toBe("sunny-farm");
    expect(slugFor("Sunny Farm", "My_Sub")).toBe("my-sub");
  });
});

describe("tenant resolution", () => {
  it("reads a valid slug from the subdomain or the X-Tenant header", () => {
    expect(tenantFromHost("acme.example.com:8080", "example.com")).toBe("acme");
    expect(tenantFromHost("www.example.com", "example.com")).toBeNull();
    expect(tenantFromHost(`${"a".repeat(64)}.example.com`, "example.com")).toBeNull();
    expect(requestTenant({ host: "acme.example.com", "x-tenant": " Other " }, "example.com")).toBe("other");
    expect(requestTenant({ host: "acme.example.com", "x-tenant": "not valid" }, "example.com")).toBe("acme");
  });
});
