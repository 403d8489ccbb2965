/**
 * Hostile ids and cursors: an id outside 1..2^31−1 (every id column is a 32-bit integer),
 * a malformed or foreign global id, and a connection cursor that is not the connection's own answer a
 * validation error, never an internal one: a `ValidationError` in the result union of a mutation, a
 * BAD_USER_INPUT error for a connection argument, REST 400 `invalid_input`; no error-level log line.
 * Mutations taking an ID and connection fields are found by introspection, so a new one is covered too.
 */
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/app.ts";
import { factories } from "../support/factories.ts";

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");
const gid = (type: string, id: number | string) => b64(`${type}:${id}`);

/** Hostile ids: past the integer columns, 20 digits, zero, negative, not a number, another type's global id, a global id past the range. */
const hostileIds = (type: string): [string, string][] => [
  ["2^31", "2147483648"],
  ["20 digits", "12345678901234567890"],
  ["zero", "0"],
  ["negative", "-1"],
  ["letters", "abc"],
  ["other type", gid(type === "Coupon" ? "Business" : "Coupon", 1)],
  ["global id past the range", gid(type, "2147483648")],
  ["global id of 20 digits", gid(type, "12345678901234567890")],
  ["NUL", "1\u0000"],
];

/** Hostile cursors: forged Pothos prisma cursors, a NUL, nonsense, another connection's shape. */
const HOSTILE_CURSORS: [string, string][] = [
  ["GPC:S:abc", b64("GPC:S:abc")],
  ["GPC:N:99999999999999", b64("GPC:N:99999999999999")],
  ["GPC:N:2147483648", b64("GPC:N:2147483648")],
  ["GPC:N:0", b64("GPC:N:0")],
  ["GPC:N:1.5", b64("GPC:N:1.5")],
  ["GPC:J:{}", b64("GPC:J:{}")],
  ["GPC:T:[]", b64("GPC:T:[]")],
  ["GPC:S:NUL", b64("GPC:S:a\u0000b")],
  ["not base64", "%%%"],
  ["abc", "abc"],
  ["packing key with NUL", Buffer.from(`PackingBox:${JSON.stringify(["PICKUP", "1 Barn Rd", "a\u0000b", 1])}`).toString("base64url")],
  ["packing key past the range", Buffer.from(`PackingBox:${JSON.stringify(["PICKUP", "1 Barn Rd", "Mara", 2147483648])}`).toString("base64url")],
  ["packing key JSON {}", Buffer.from("PackingBox:{}").toString("base64url")],
  ["statement key past the range", Buffer.from(`StatementEntry:${JSON.stringify([1774990800000, 2147483648])}`).toString("base64url")],
  ["statement key of a fraction", Buffer.from(`StatementEntry:${JSON.stringify([1774990800000.5, 1])}`).toString("base64url")],
];

const lines: Record<string, any>[] = [];
const logger = pino(
  { level: "info" },
  new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split("\n")) if (line.trim()) lines.push(JSON.parse(line));
      done();
    },
  }),
);

let t: TestApp;
let adminToken: string;
let memberToken: string;
let subscriptionId: number;
let farmId: number;
let couponId: number;

beforeAll(async () => {
  t = await createTestApp({ logger });
  const f = factories(t);
  const farm = await f.business({ slug: "farm", name: "Farm", page: { pickupEnabled: true, pickupPoints: ["1 Barn Rd"] } });
  farmId = farm.id;
  const plan = await f.plan(farm, { prices: { PICKUP: 2400 } });
  couponId = (await f.coupon({ code: "WELCOME10" })).id;
  const admin = await f.user({ username: "root", isAdmin: true });
  const member = await f.user({ username: "mara", name: "Mara", email: "mara@example.com" });
  subscriptionId = (await f.subscription({ user: member, business: farm, plan, planAmountCents: 2400, email: "mara@example.com" })).id;
  adminToken = await f.session(admin);
  memberToken = await f.session(member, "farm");
});
afterAll(async () => {
  await t?.close();
});

beforeEach(() => {
  lines.length = 0;
});

const errorLines = () => lines.filter((l) => typeof l.level === "number" && l.level >= 50);

interface IntrospectedType {
  kind: string;
  name: string;
  ofType?: IntrospectedType | null;
}
interface IntrospectedField {
  name: string;
  args: { name: string; type: IntrospectedType; defaultValue: string | null }[];
  type: IntrospectedType;
}
interface FullType {
  kind: string;
  name: string;
  fields: IntrospectedField[] | null;
  inputFields: { name: string; type: IntrospectedType; defaultValue: string | null }[] | null;
  enumValues: { name: string }[] | null;
  possibleTypes: { name: string }[] | null;
}

const TYPE_REF = "kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } }";
let types: Map<string, FullType>;

async function schemaTypes(): Promise<Map<string, FullType>> {
  if (types) return types;
  const data = await t.gqlOk(
    `{ __schema { types { kind name possibleTypes { name } enumValues { name }
        fields { name type { ${TYPE_REF} } args { name defaultValue type { ${TYPE_REF} } } }
        inputFields { name defaultValue type { ${TYPE_REF} } } } } }`,
    {},
    { token: adminToken },
  );
  types = new Map((data.__schema.types as FullType[]).map((ty) => [ty.name, ty]));
  return types;
}

const named = (ty: IntrospectedType): IntrospectedType => (ty.ofType ? named(ty.ofType) : ty);
const required = (ty: IntrospectedType) => ty.kind === "NON_NULL";
const isList = (ty: IntrospectedType): boolean => ty.kind === "LIST" || (ty.kind === "NON_NULL" && !!ty.ofType && isList(ty.ofType));
const isId = (ty: IntrospectedType) => named(ty).name === "ID";

/** A harmless value of a required argument or input field (the one under test gets the hostile id). */
function filler(ty: IntrospectedType, depth = 0): unknown {
  const n = named(ty);
  const all = types.get(n.name)!;
  let v: unknown;
  if (n.kind === "ENUM") v = all.enumValues![0].name;
  else if (n.kind === "INPUT_OBJECT") v = depth > 3 ? {} : fillInput(n.name, depth + 1);
  else if (n.name === "Int") v = 1;
  else if (n.name === "Float") v = 1;
  else if (n.name === "Boolean") v = false;
  else if (n.name === "ID") v = String(subscriptionId);
  else if (n.name === "String") v = "2026-04";
  else v = {};
  return isList(ty) ? [v] : v;
}

function fillInput(name: string, depth: number): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const f of types.get(name)!.inputFields ?? []) if (required(f.type) && f.defaultValue === null) input[f.name] = filler(f.type, depth);
  return input;
}

/** Where ID values sit in a field's arguments: `[argument, input field | null]` (one input level). */
function idSlots(field: IntrospectedField): [string, string | null][] {
  const slots: [string, string | null][] = [];
  for (const a of field.args) {
    if (isId(a.type)) slots.push([a.name, null]);
    const n = named(a.type);
    if (n.kind === "INPUT_OBJECT") for (const f of types.get(n.name)!.inputFields ?? []) if (isId(f.type)) slots.push([a.name, f.name]);
  }
  return slots;
}

function selectionOf(ty: IntrospectedType): string {
  const n = types.get(named(ty).name)!;
  if (n.kind === "SCALAR" || n.kind === "ENUM") return "";
  if (n.kind === "UNION" && n.possibleTypes!.some((p) => p.name === "ValidationError")) {
    return "{ __typename ... on Error { code message } ... on ValidationError { issues { path message } } }";
  }
  return "{ __typename }";
}

/** The GraphQL type text of an introspected type reference. */
const typeText = (ty: IntrospectedType): string => (ty.kind === "NON_NULL" ? `${typeText(ty.ofType!)}!` : ty.kind === "LIST" ? `[${typeText(ty.ofType!)}]` : ty.name);

function assertNoCrash(res: { errors?: { message: string; extensions?: Record<string, unknown> }[] }, what: string) {
  for (const e of res.errors ?? []) {
    expect(e.extensions?.code, `${what}: ${JSON.stringify(e)}`).not.toBe("INTERNAL_SERVER_ERROR");
    expect(e.message, what).not.toBe("Unexpected error.");
  }
  expect(errorLines(), `${what}: error-level log`).toEqual([]);
}

// ── Mutations with ID arguments ──────────────────────────────────────────────────────────────────────

/** Mutations whose id must come back as a ValidationError naming it (the rest: any refusal but a crash). */
const NAMED = new Map<string, { token: () => string; slot: string }>([
  ["resendMailMessage", { token: () => adminToken, slot: "id" }],
  ["freezePackingSnapshot", { token: () => adminToken, slot: "businessId" }],
  ["changeQuote", { token: () => memberToken, slot: "input.subscriptionId" }],
  ["cancelSubscription", { token: () => memberToken, slot: "input.subscriptionId" }],
  ["restartSubscription", { token: () => memberToken, slot: "input.subscriptionId" }],
  ["skipMonth", { token: () => memberToken, slot: "input.subscriptionId" }],
  ["restartQuote", { token: () => memberToken, slot: "subscriptionId" }],
  ["changeMembershipAddress", { token: () => memberToken, slot: "input.subscriptionId" }],
]);

describe("GraphQL ids", () => {
  it("every root field taking an ID refuses hostile ids as a validation error", async () => {
    await schemaTypes();
    const seen = new Set<string>();
    let calls = 0;
    const roots = (["Query", "Mutation"] as const).flatMap((op) => types.get(op)!.fields!.filter((f) => f.name !== "node" && f.name !== "nodes").map((f) => [op, f] as const));
    for (const [op, field] of roots) {
      for (const [arg, inputField] of idSlots(field)) {
        const slot = inputField ? `${arg}.${inputField}` : arg;
        const spec = NAMED.get(field.name);
        if (spec?.slot === slot) seen.add(field.name);
        // A slot's own type (a coupon's business is a Business), so "other type" is never the one it takes.
        const slotType = (inputField ?? arg) === "businessId" ? "Business" : field.name.includes("oupon") ? "Coupon" : "Membership";
        for (const [label, hostile] of hostileIds(slotType)) {
          const vars: Record<string, unknown> = {};
          for (const a of field.args) if (required(a.type) && a.defaultValue === null) vars[a.name] = filler(a.type);
          const argType = field.args.find((a) => a.name === arg)!.type;
          if (inputField) {
            const input = { ...(vars[arg] as Record<string, unknown> | undefined), ...fillInput(typesOf(argType), 1) };
            const fieldType = types.get(typesOf(argType))!.inputFields!.find((f) => f.name === inputField)!.type;
            input[inputField] = isList(fieldType) ? [hostile] : hostile;
            vars[arg] = input;
          } else {
            vars[arg] = isList(argType) ? [hostile] : hostile;
          }
          const decls = field.args.filter((a) => a.name in vars).map((a) => `$${a.name}: ${typeText(a.type)}`);
          const query = `${op === "Query" ? "query" : "mutation"}${decls.length ? `(${decls.join(", ")})` : ""} { ${field.name}${decls.length ? `(${field.args.filter((a) => a.name in vars).map((a) => `${a.name}: $${a.name}`).join(", ")})` : ""} ${selectionOf(field.type)} }`;
          const what = `${field.name}(${slot}: ${label})`;
          const res = await t.gql(query, vars, { token: spec?.token() ?? adminToken, tenant: "farm" });
          calls++;
          assertNoCrash(res, what);
          const result = res.data?.[field.name] as { __typename?: string; issues?: { path: string }[] } | undefined;
          const refused = res.errors?.some((e) => e.extensions?.code === "BAD_USER_INPUT" || e.extensions?.code === "VALIDATION") ?? false;
          if (spec?.slot === slot) {
            // A control character is refused at the edge (hostile-input.test.ts) before the field runs.
            const edge = res.errors?.find((e) => e.extensions?.code === "BAD_USER_INPUT");
            const paths = edge ? (edge.extensions!.issues as { path: string }[]).map((i) => i.path) : (result?.issues ?? []).map((i) => i.path);
            if (!edge) expect(result?.__typename ?? res.errors, what).toBe("ValidationError");
            expect(paths.join(" "), what).toContain(slot.split(".").at(-1));
          } else {
            // Any refusal the field declares, never a success of a hostile id nor a crash.
            expect(refused || /Error$/.test(result?.__typename ?? "") || res.data === null || result === null, `${what}: ${JSON.stringify(res)}`).toBe(true);
          }
        }
      }
    }
    expect([...NAMED.keys()].filter((k) => !seen.has(k))).toEqual([]);
    expect(calls).toBeGreaterThan(50);
  });

  it("node(id:) answers null for hostile ids, without an error", async () => {
    for (const [label, hostile] of hostileIds("Membership").filter(([l]) => l !== "other type")) {
      const res = await t.gql("query($id: ID!) { node(id: $id) { __typename id } }", { id: hostile }, { token: adminToken });
      assertNoCrash(res, `node(${label})`);
      if (label === "NUL") {
        // Refused at the edge (hostile-input.test.ts).
        expect(res.errors?.[0]?.extensions?.code, label).toBe("BAD_USER_INPUT");
        continue;
      }
      expect(res.errors, label).toBeUndefined();
      expect(res.data.node, label).toBeNull();
    }
  });
});

function typesOf(ty: IntrospectedType): string {
  return named(ty).name;
}

// ── Connection cursors ───────────────────────────────────────────────────────────────────────────────

/** How a query reaches each type that has connection fields: `[open, close]` around the connection field. */
const REACH: Record<string, () => [string, string]> = {
  Query: () => ["", ""],
  Business: () => ['business(slug: "farm") {', "}"],
  FulfilmentCycle: () => ['business(slug: "farm") { fulfilment(month: "2026-04") {', "} }"],
  PayoutStatement: () => ['business(slug: "farm") { statement(month: "2026-04") {', "} }"],
  Membership: () => [`node(id: "${gid("Membership", subscriptionId)}") { ... on Membership {`, "} }"],
  Coupon: () => [`node(id: "${gid("Coupon", couponId)}") { ... on Coupon {`, "} }"],
  User: () => ["viewer {", "}"],
};

describe("GraphQL cursors", () => {
  it("every connection refuses forged cursors in after and before as BAD_USER_INPUT naming the argument", async () => {
    await schemaTypes();
    const connections: [string, IntrospectedField][] = [];
    for (const ty of types.values()) {
      if (ty.kind !== "OBJECT" || ty.name.startsWith("__")) continue;
      for (const f of ty.fields ?? []) if (named(f.type).name.endsWith("Connection") && f.args.some((a) => a.name === "after")) connections.push([ty.name, f]);
    }
    expect(connections.length).toBeGreaterThan(10);
    for (const [parent, field] of connections) {
      expect(REACH[parent], `no way to reach ${parent}.${field.name} in this test`).toBeDefined();
      const [open, close] = REACH[parent]();
      for (const arg of ["after", "before"]) {
        for (const [label, cursor] of HOSTILE_CURSORS) {
          const query = `query($c: String) { ${open} ${field.name}(${arg}: $c) { edges { cursor } } ${close} }`;
          const what = `${parent}.${field.name}(${arg}: ${label})`;
          const res = await t.gql(query, { c: cursor }, { token: adminToken, tenant: "farm" });
          assertNoCrash(res, what);
          expect(res.errors?.[0]?.extensions?.code, `${what}: ${JSON.stringify(res)}`).toBe("BAD_USER_INPUT");
          const issues = res.errors![0].extensions!.issues as { path: string }[];
          expect(issues[0].path, what).toMatch(new RegExp(`${field.name}\\.${arg}$`));
        }
      }
    }
  });

  it("a connection's own cursors still page", async () => {
    const first = await t.gqlOk("{ memberships(first: 1) { edges { cursor } pageInfo { endCursor } } }", {}, { token: adminToken });
    const cursor = first.memberships.pageInfo.endCursor as string;
    expect(cursor).toBeTruthy();
    const next = await t.gqlOk("query($c: String) { memberships(first: 1, after: $c) { edges { cursor } } }", { c: cursor }, { token: adminToken });
    expect(next.memberships.edges).toEqual([]);
    const boxes = await t.gqlOk('{ business(slug: "farm") { fulfilment(month: "2026-04") { boxes(first: 1) { pageInfo { endCursor } } } } }', {}, { token: adminToken });
    const boxCursor = boxes.business.fulfilment.boxes.pageInfo.endCursor as string | null;
    if (boxCursor) {
      await t.gqlOk('query($c: String) { business(slug: "farm") { fulfilment(month: "2026-04") { boxes(after: $c) { edges { cursor } } } } }', { c: boxCursor }, { token: adminToken });
    }
    expect(errorLines()).toEqual([]);
  });
});

// ── REST ids ─────────────────────────────────────────────────────────────────────────────────────────

describe("REST ids", () => {
  const ROUTES: { method: "GET" | "POST" | "PUT"; url: (id: string) => string; token: () => string; payload?: unknown }[] = [
    { method: "POST", url: (id) => `/api/my/subscriptions/${id}/skip`, token: () => memberToken },
    { method: "POST", url: (id) => `/api/my/subscriptions/${id}/restart`, token: () => memberToken, payload: {} },
    { method: "GET", url: (id) => `/api/my/subscriptions/${id}/config`, token: () => memberToken },
    { method: "POST", url: (id) => `/api/admin/subscriptions/${id}/cancel`, token: () => adminToken, payload: {} },
    { method: "GET", url: (id) => `/api/admin/businesses/${id}/page`, token: () => adminToken },
    { method: "POST", url: (id) => `/api/admin/coupons/${id}/toggle`, token: () => adminToken },
  ];

  it("routes with an :id answer 400 invalid_input for hostile ids", async () => {
    for (const r of ROUTES) {
      for (const [label, hostile] of [...hostileIds("Membership"), ["10 digits past the range", "9999999999"], ["leading zero", "01"]] as [string, string][]) {
        const headers: Record<string, string> = { authorization: `Bearer ${r.token()}`, "x-tenant": "farm" };
        if (r.payload !== undefined) headers["content-type"] = "application/json";
        const url = r.url(encodeURIComponent(hostile));
        const res = await t.app.inject({ method: r.method, url, headers, payload: r.payload === undefined ? undefined : JSON.stringify(r.payload) });
        const what = `${r.method} ${url} (${label}): ${res.body}`;
        expect(res.statusCode, what).toBe(400);
        expect(res.json().reason, what).toBe("invalid_input");
        expect(errorLines(), what).toEqual([]);
      }
    }
  });

  it("a valid id past nine digits but inside the range is not refused as malformed", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/admin/businesses/2147483647/page", headers: { authorization: `Bearer ${adminToken}` } });
    expect(res.statusCode, res.body).toBe(404);
    expect(farmId + couponId).toBeGreaterThan(0);
  });
});
