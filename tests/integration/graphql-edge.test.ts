/**
 * Every refusal of a GraphQL document (a limit of graphql-armor, a validation rule, a syntax error)
 * answers HTTP 400 with one clear message and an `extensions.code`, for both response media types, and never
 * runs anything. Missing nodes answer null without an error, and no answer carries Prisma or file-system text.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const ACCEPTS = ["application/json", "application/graphql-response+json", "application/graphql-response+json, application/json"] as const;

/** Prisma, driver and file-system text that must never reach a client. */
const INTERNAL_TEXT = /prisma|P\d{4}\b|invocation|pglite|findUnique|\.ts:\d|\/work\/|node_modules|file:\/\//i;

async function post(app: TestApp, query: string, accept: string, variables: Record<string, unknown> = {}) {
  return app.app.inject({ method: "POST", url: "/graphql", headers: { "content-type": "application/json", accept }, payload: { query, variables } });
}

/** `{ __type { fields { type { ofType … } } } }` nested `levels` deep (valid at any depth). */
function deepQuery(levels: number): string {
  let inner = "name";
  for (let i = 0; i < levels - 4; i++) inner = `ofType { ${inner} }`;
  return `{ __type(name: "Query") { fields { type { ${inner} } } } }`;
}

const REFUSALS = [
  {
    name: "depth",
    query: deepQuery(13),
    message: "Query is too deep: 13 levels, at most 12 are allowed.",
    code: "QUERY_TOO_COMPLEX",
  },
  {
    name: "aliases",
    query: `{ __type(name: "Query") { ${Array.from({ length: 16 }, (_, i) => `a${i}: name`).join(" ")} } }`,
    message: "Query has too many aliases: 16, at most 15 are allowed.",
    code: "QUERY_TOO_COMPLEX",
  },
  {
    name: "directives",
    query: `{ ${Array.from({ length: 21 }, () => "... @include(if: true) { __typename }").join(" ")} }`,
    message: "Query has too many directives: 21, at most 20 are allowed.",
    code: "QUERY_TOO_COMPLEX",
  },
  {
    name: "tokens",
    query: `{ ${Array.from({ length: 4001 }, () => "__typename").join(" ")} }`,
    message: "Query is too long: at most 4000 tokens are allowed.",
    code: "QUERY_TOO_COMPLEX",
  },
  {
    name: "cost",
    query: `{ businesses(first: 2000) { edges { node { id slug name } } } }`,
    message: /^Query is too expensive: an estimated cost of \d+, at most 20000 is allowed\.$/,
    code: "QUERY_TOO_COMPLEX",
  },
  {
    name: "validation",
    query: `{ noSuchField }`,
    message: /^Cannot query field "noSuchField" on type "Query"\./,
    code: "GRAPHQL_VALIDATION_FAILED",
  },
  {
    name: "syntax",
    query: `{ businesses {`,
    message: /^Syntax Error: /,
    code: "GRAPHQL_PARSE_FAILED",
  },
] as const;

describe("refusals of a document", () => {
  for (const r of REFUSALS) {
    for (const accept of ACCEPTS) {
      it(`${r.name} limit: HTTP 400 with a clear message and ${r.code} (Accept: ${accept})`, async () => {
        const res = await post(t, r.query, accept);
        expect(res.statusCode).toBe(400);
        const body = res.json();
        expect(body).not.toHaveProperty("data");
        expect(body.errors).toHaveLength(1);
        if (typeof r.message === "string") expect(body.errors[0].message).toBe(r.message);
        else expect(body.errors[0].message).toMatch(r.message);
        if (r.code !== "GRAPHQL_PARSE_FAILED") expect(body.errors[0].message).not.toMatch(/^Syntax Error/);
        expect(body.errors[0].extensions?.code).toBe(r.code);
        if (r.code === "QUERY_TOO_COMPLEX") expect(body.errors[0].extensions.reason).toBe(`max_${r.name}`);
        // The HTTP status is the transport's business, not part of the error shown to clients.
        expect(body.errors[0].extensions).not.toHaveProperty("http");
        expect(res.headers["content-type"]).toContain(accept.split(",")[0]);
      });
    }
  }

  it("still answers a repeated refusal the same way (parse and validation caches)", async () => {
    for (const r of REFUSALS) {
      const first = await post(t, r.query, "application/json");
      const again = await post(t, r.query, "application/json");
      expect(again.statusCode, r.name).toBe(400);
      expect(again.json(), r.name).toEqual(first.json());
    }
  });

  it("refuses variables that do not fit their types with HTTP 400 and BAD_USER_INPUT", async () => {
    for (const accept of ACCEPTS) {
      const res = await post(t, `query($n: Int) { businesses(first: $n) { edges { cursor } } }`, accept, { n: "ten" });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/^Variable "\$n" got invalid value "ten"/), extensions: { code: "BAD_USER_INPUT" } })]);
    }
  });

  it("reports a limit once, beside other validation errors of the same document", async () => {
    const res = await post(t, deepQuery(13).replace("name } }", "name noSuchField } }"), "application/json");
    expect(res.statusCode).toBe(400);
    const codes = res.json().errors.map((e: { extensions: { code: string } }) => e.extensions.code).sort();
    expect(codes).toEqual(["GRAPHQL_VALIDATION_FAILED", "QUERY_TOO_COMPLEX"]);
  });

  it("does not price Relay's colocated fragments as extra levels of fields: a page the limit takes inline, it takes spread", async () => {
    // Estimated 5,888 inline and 16,259 spread through four fragments, where armor's default (each fragment
    // priced as one more level of fields) made the spread one 146,861 and refused it.
    const inline = `{ businesses(first: 300) { edges { node { id slug name } } } }`;
    const spread = `{ ...Q } fragment Q on Query { businesses(first: 300) { ...C } } fragment C on QueryBusinessesConnection { edges { node { ...N } } } fragment N on Business { id ...M } fragment M on Business { slug name }`;
    for (const query of [inline, spread]) {
      const res = await post(t, query, "application/json");
      expect(res.statusCode).toBe(200);
      expect(res.json().errors).toBeUndefined();
    }
  });

  it("counts depth in levels of fields, not of fragments: 12 levels spread through fragments pass, 13 do not", async () => {
    // The 12 levels of deepQuery(12), with a fragment spread at every level: armor's default counted each spread
    // as one more level (23 here) and refused it.
    const spreadQuery = (levels: number) => {
      const fragments: string[] = [];
      let inner = "name";
      for (let i = 0; i < levels - 4; i++) {
        fragments.push(`fragment F${i} on __Type { ${inner} }`);
        inner = `ofType { ...F${i} }`;
      }
      return `{ __type(name: "Query") { fields { type { ${inner} } } } } ${fragments.join(" ")}`;
    };
    const within = await post(t, spreadQuery(12), "application/json");
    expect(within.statusCode).toBe(200);
    expect(within.json().errors).toBeUndefined();
    const over = await post(t, spreadQuery(13), "application/json");
    expect(over.statusCode).toBe(400);
    expect(over.json().errors).toEqual([expect.objectContaining({ message: "Query is too deep: 13 levels, at most 12 are allowed." })]);
  });

  it("answers a document just within the limits", async () => {
    const res = await post(t, deepQuery(12), "application/json");
    expect(res.statusCode).toBe(200);
    expect(res.json().errors).toBeUndefined();
  });

  it("in production too, where the limits keep their message", async () => {
    const prod = await createTestApp({ config: { env: "production" } });
    try {
      for (const r of REFUSALS.filter((x) => x.name !== "depth")) {
        const res = await post(prod, r.query, "application/json");
        expect(res.statusCode, r.name).toBe(400);
        expect(res.json().errors[0].extensions?.code, r.name).toBe(r.code);
        expect(res.json().errors[0].message, r.name).not.toBe("Unexpected error.");
      }
    } finally {
      await prod.close();
    }
  });
});

describe("node(id:) of a missing row", () => {
  const gid = (type: string, id: number) => Buffer.from(`${type}:${id}`).toString("base64");

  for (const env of ["development", "production"] as const) {
    it(`is null without an error and without internal text (${env})`, async () => {
      const app = await createTestApp({ config: { env } });
      try {
        for (const type of ["Business", "Plan", "User", "Membership", "Order"]) {
          const res = await post(app, `query($id: ID!) { node(id: $id) { id } }`, "application/json", { id: gid(type, 987654) });
          expect(res.statusCode, type).toBe(200);
          expect(res.json(), type).toEqual({ data: { node: null } });
          const list = await post(app, `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, "application/json", { ids: [gid(type, 987654), "not-an-id"] });
          expect(list.json(), type).toEqual({ data: { nodes: [null, null] } });
        }
        const bad = await post(app, `query($id: ID!) { node(id: $id) { id } }`, "application/json", { id: gid("Business", 2 ** 40) });
        expect(bad.json()).toEqual({ data: { node: null } });
        expect(bad.body).not.toMatch(INTERNAL_TEXT);
      } finally {
        await app.close();
      }
    });
  }
});
