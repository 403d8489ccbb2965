import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { printedSchema } from "../../api/graphql/schema.ts";
import { createTestApp, type TestApp } from "../support/app.ts";

let t: TestApp;
let queries = 0;
beforeAll(async () => {
  t = await createTestApp({ logQueries: true });
  t.db.onStatement(() => queries++);
});
afterAll(() => t.close());

async function countStatements<T>(fn: () => Promise<T>): Promise<{ result: T; statements: number }> {
  queries = 0;
  const result = await fn();
  return { result, statements: queries };
}

describe("schema.graphql", () => {
  it("is the printed Pothos schema (regenerate with npm run schema:print)", () => {
    const committed = fs.readFileSync(new URL("../../schema.graphql", import.meta.url), "utf8");
    expect(committed).toBe(printedSchema());
  });
});

describe("Relay", () => {
  it("round-trips global ids through node and nodes", async () => {
    const b = await t.db.prisma.business.create({ data: { collectsOnPlatform: true, slug: "node-farm", name: "Node Farm" } });
    const list = await t.gqlOk(`{ business(slug: "node-farm") { id databaseId } }`);
    expect(list.business.databaseId).toBe(b.id);
    const id = list.business.id;
    expect(Buffer.from(id, "base64").toString()).toBe(`Business:${b.id}`);
    const node = await t.gqlOk(`query($id: ID!) { node(id: $id) { __typename id ... on Business { slug } } }`, { id });
    expect(node.node).toEqual({ __typename: "Business", id, slug: "node-farm" });
    const nodes = await t.gqlOk(`query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids: [id, id] });
    expect(nodes.nodes).toEqual([{ id }, { id }]);
  });

  it("does not reveal a user through node() to someone else: null, as for a missing id", async () => {
    const u = await t.db.prisma.user.create({ data: { username: "private-person", passwordHash: "x", email: "p@example.com" } });
    const id = Buffer.from(`User:${u.id}`).toString("base64");
    const res = await t.gql(`query($id: ID!) { node(id: $id) { ... on User { email } } }`, { id });
    expect(res).toEqual({ data: { node: null } });
  });
});

describe("cost limits", () => {
  it("refuses oversized documents", async () => {
    const fields = Array.from({ length: 5000 }, () => "__typename").join(" ");
    const res = await t.gql(`{ ${fields} }`);
    expect(res.errors?.map((e) => e.message).join(" ")).toMatch(/at most 4000 tokens/i);
  });

  it("refuses alias floods", async () => {
    const aliases = Array.from({ length: 30 }, (_, i) => `a${i}: businesses { edges { node { id } } }`).join(" ");
    const res = await t.gql(`{ ${aliases} }`);
    expect(res.errors?.[0]?.message).toMatch(/aliases/i);
  });
});

describe("lists without N+1", () => {
  it("loads the businesses list with member counts in a constant number of statements", async () => {
    for (let i = 0; i < 30; i++) await t.db.prisma.business.create({ data: { collectsOnPlatform: true, slug: `shop-${i}`, name: `Shop ${i}` } });
    const query = `query($n: Int!) { businesses(first: $n) { edges { node { id slug name memberCount } } } }`;
    const small = await countStatements(() => t.gqlOk(query, { n: 3 }));
    const large = await countStatements(() => t.gqlOk(query, { n: 30 }));
    expect(small.result.businesses.edges).toHaveLength(3);
    expect(large.result.businesses.edges).toHaveLength(30);
    expect(large.statements).toBe(small.statements);
  });
});
