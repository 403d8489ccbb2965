import { describe, expect, it } from "vitest";
import { viewSiteUrl } from "./siteUrl.ts";

describe("viewSiteUrl", () => {
  it("uses /b/{slug} on localhost and loopback", () => {
    expect(viewSiteUrl("green", { protocol: "http:", hostname: "localhost", host: "localhost:3000" })).toBe("/b/green");
    expect(viewSiteUrl("green", { protocol: "http:", hostname: "127.0.0.1", host: "127.0.0.1:3000" })).toBe("/b/green");
    expect(viewSiteUrl("green", { protocol: "http:", hostname: "[::1]", host: "[::1]:3000" })).toBe("/b/green");
  });
  it("uses the tenant subdomain elsewhere", () => {
    expect(viewSiteUrl("green", { protocol: "https:", hostname: "boxes.example.com", host: "boxes.example.com" })).toBe("https://green.boxes.example.com/");
  });
});
