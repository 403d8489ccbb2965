import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("server", () => {
  it("answers liveness and readiness checks", async () => {
    const res = await t.app.inject({ method: "GET", url: "/healthz" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    const ready = await t.app.inject({ method: "GET", url: "/readyz" });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ ready: true });
  });

  it("lists businesses through GraphQL with member counts", async () => {
    await t.db.prisma.business.create({ data: { collectsOnPlatform: true, slug: "acme", name: "Acme Farm" } });
    const data = await t.gqlOk(`{ businesses(first: 10) { edges { node { id slug name memberCount } } } }`);
    expect(data.businesses.edges.map((e: any) => e.node.slug)).toEqual(["acme"]);
    expect(data.businesses.edges[0].node.memberCount).toBe(0);
  });

  it("answers unknown /api routes with JSON 404", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/nope" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: "Not found" });
  });
});
