import { describe, expect, it } from "vitest";
import { normaliseSlug, slugPreview } from "./slug.ts";

describe("normaliseSlug", () => {
  it("keeps lower-case letters, digits and single dashes", () => {
    expect(normaliseSlug("  Ember & Oak -- Coffee!! ")).toBe("ember-oak-coffee");
    expect(normaliseSlug("Café 42")).toBe("cafe-42");
    expect(normaliseSlug("---a---b---")).toBe("a-b");
    expect(normaliseSlug("!!!")).toBe("");
  });
  it("previews the typed subdomain, else the name", () => {
    expect(slugPreview("Sunny Farm", "")).toBe("sunny-farm");
    expect(slugPreview("Sunny Farm", "My_Sub")).toBe("my-sub");
  });
});
