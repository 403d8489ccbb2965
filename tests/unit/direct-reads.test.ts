import { encodeGlobalID } from "@pothos/plugin-relay";
import { defaultFieldResolver, parse, type FieldNode, type GraphQLResolveInfo, type OperationDefinitionNode } from "graphql";
import { describe, expect, it, vi } from "vitest";
import { carries, DirectReadsPlugin, NODE_ID_EXTENSION, staticSelection } from "../../api/graphql/direct-reads.ts";
import { schema } from "../../api/graphql/schema.ts";

/**
 * Node ids and column fields read their row at once (api/graphql/direct-reads.ts). The answers must be
 * the ones the Relay and Prisma plugins give: a row that lacks a column still goes through the Prisma plugin
 * (which loads it), and a node id is the Relay plugin's encoding.
 */

describe("staticSelection", () => {
  it("takes columns and to-one relations' columns, the same way down", () => {
    expect(staticSelection({ planAmountCents: true }, "Subscription")).toEqual({ columns: ["planAmountCents"], relations: [] });
    expect(staticSelection({ email: true, user: { select: { email: true } } }, "Subscription")).toEqual({
      columns: ["email"],
      relations: [["user", { columns: ["email"], relations: [] }]],
    });
    expect(staticSelection({ business: { select: { timeZone: true, page: { select: { cutoffDay: true } } } } }, "Subscription")).toEqual({
      columns: [],
      relations: [["business", { columns: ["timeZone"], relations: [["page", { columns: ["cutoffDay"], relations: [] }]] }]],
    });
  });

  it("refuses what a row's own keys cannot vouch for: lists, counts, arguments, whole relations, unknown names", () => {
    expect(staticSelection({ skips: { select: { period: true } } }, "Subscription")).toBeNull(); // a list
    expect(staticSelection({ _count: { select: { users: true } } }, "Business")).toBeNull();
    expect(staticSelection({ user: { select: { email: true }, where: { id: 1 } } }, "Subscription")).toBeNull();
    expect(staticSelection({ user: true }, "Subscription")).toBeNull(); // every column of the relation
    expect(staticSelection({ notAColumn: true }, "Subscription")).toBeNull();
    expect(staticSelection({ planAmountCents: true }, "NoSuchModel")).toBeNull();
    expect(staticSelection(() => ({ planAmountCents: true }), "Subscription")).toBeNull();
    expect(staticSelection({}, "Subscription")).toBeNull();
  });
});

describe("carries", () => {
  const carried = staticSelection({ email: true, user: { select: { email: true } }, business: { select: { page: { select: { cutoffDay: true } } } } }, "Subscription")!;

  it("is true when every column and relation is the row's own property, null values included", () => {
    expect(carries({ email: null, user: { email: "a@b.c" }, business: { page: { cutoffDay: null } } }, carried)).toBe(true);
    // A loaded relation that is absent (null) carries nothing further.
    expect(carries({ email: "x", user: { email: "y" }, business: { page: null } }, carried)).toBe(true);
  });

  it("is false when a column or relation was not loaded", () => {
    expect(carries({ user: { email: "y" }, business: { page: null } }, carried)).toBe(false);
    expect(carries({ email: "x", user: {}, business: { page: null } }, carried)).toBe(false);
    expect(carries({ email: "x", user: { email: "y" }, business: {} }, carried)).toBe(false);
    expect(carries(Object.create({ email: "x", user: { email: "y" }, business: { page: null } }), carried)).toBe(false);
    expect(carries(null, carried)).toBe(false);
  });
});

/** The plugin over a stand-in build cache holding one parent type. */
function plugin(parent: { name: string; kind: string; extensions?: object; pothosOptions?: object }) {
  const buildCache = { builder: { options: { relay: {} } }, getTypeConfig: () => ({ extensions: {}, pothosOptions: {}, ...parent }) };
  return new DirectReadsPlugin(buildCache as never, "directReads");
}
const info = {} as GraphQLResolveInfo;

describe("DirectReadsPlugin", () => {
  it("answers a column field from a row that carries it, and hands any other row to the Prisma plugin's resolver", () => {
    const own = vi.fn((row: { totalCents: number }) => row.totalCents);
    const prisma = vi.fn(() => "loaded by the Prisma plugin");
    const field = { kind: "PrismaObject", parentType: "Membership", type: { kind: "Scalar" }, resolve: own, extensions: { pothosPrismaSelect: { totalCents: true } } };
    const resolve = plugin({ name: "Membership", kind: "Object", extensions: { pothosPrismaModel: "Subscription" } }).wrapResolve(prisma, field as never);

    expect(resolve({ totalCents: 1250 }, {}, {}, info)).toBe(1250);
    expect(prisma).not.toHaveBeenCalled();
    expect(resolve({ id: 1 }, {}, {}, info)).toBe("loaded by the Prisma plugin");
    expect(prisma).toHaveBeenCalledTimes(1);
  });

  it("leaves relation fields, computed selections and fields nothing wrapped as they are", () => {
    const p = plugin({ name: "Membership", kind: "Object", extensions: { pothosPrismaModel: "Subscription" } });
    const prisma = () => null;
    const own = () => null;
    const type = { kind: "Scalar", nullable: false };
    expect(p.wrapResolve(prisma, { kind: "PrismaObject", parentType: "Membership", type, resolve: own, extensions: { pothosPrismaSelect: () => ({}), pothosPrismaLoaded: () => true } } as never)).toBe(prisma);
    expect(p.wrapResolve(prisma, { kind: "PrismaObject", parentType: "Membership", type, resolve: own, extensions: { pothosPrismaSelect: { skips: { select: { period: true } } } } } as never)).toBe(prisma);
    expect(p.wrapResolve(own, { kind: "PrismaObject", parentType: "Membership", type, resolve: own, extensions: { pothosPrismaSelect: { totalCents: true } } } as never)).toBe(own);
    // A list relation keeps the Prisma plugin's wrapper whatever it selects.
    const list = { kind: "PrismaObject", parentType: "Membership", type: { kind: "List", type: { kind: "Object" } }, resolve: own, extensions: { pothosPrismaRelationField: { name: "skips", isList: true } } };
    expect(p.wrapResolve(prisma, list as never)).toBe(prisma);
  });

  it("encodes a node's id at once, as the Relay plugin does, and keeps the Relay plugin's field for an id that needs waiting for", async () => {
    const relay = vi.fn(async () => "relay's answer");
    const field = { kind: "Object", parentType: "Membership", type: { kind: "Scalar" }, extensions: { [NODE_ID_EXTENSION]: true } };
    const sync = plugin({ name: "Membership", kind: "Object", pothosOptions: { id: { resolve: (row: { id: number }) => row.id } } }).wrapResolve(relay, field as never);
    expect(sync({ id: 42 }, {}, {}, info)).toBe(encodeGlobalID("Membership", "42"));
    expect(relay).not.toHaveBeenCalled();

    const later = plugin({ name: "Membership", kind: "Object", pothosOptions: { id: { resolve: async (row: { id: number }) => row.id } } }).wrapResolve(relay, field as never);
    await expect(later({ id: 42 }, {}, {}, info)).resolves.toBe("relay's answer");
  });

  it("hands a to-one relation's loaded row straight down when its selection asks only for fields read from the row", () => {
    const business = { id: 3, slug: "farm", name: "Farm" };
    const prisma = vi.fn(() => "through the Prisma plugin's wrapper");
    const relation = (row: object, document: string) => {
      const p = plugin({ name: "Membership", kind: "Object", extensions: { pothosPrismaModel: "Subscription" } });
      // Two fields of Business the plugin has seen: slug and name, leaf fields nothing inside wraps.
      for (const name of ["slug", "name"]) p.wrapResolve(defaultFieldResolver, { kind: "Object", parentType: "Business", name, type: { kind: "Scalar" }, extensions: {} } as never);
      const own = (m: { business: unknown }) => m.business;
      const field = { kind: "PrismaObject", parentType: "Membership", name: "business", type: { kind: "Object" }, resolve: own, extensions: { pothosPrismaRelationField: { name: "business", isList: false } } };
      const wrapped = p.wrapResolve(prisma, field as never);
      const fieldNode = (parse(document).definitions[0] as OperationDefinitionNode).selectionSet.selections[0] as FieldNode;
      return wrapped(row, {}, {}, { ...info, fieldNodes: [fieldNode], returnType: schema.getType("Business") } as GraphQLResolveInfo);
    };
    expect(relation({ business }, "{ business { slug name __typename } }")).toBe(business);
    expect(relation({ business: null }, "{ business { slug } }")).toBeNull();
    expect(prisma).not.toHaveBeenCalled();
    // Not loaded on the row, or a field that needs the plan (unknown here), a fragment or a directive: the wrapper.
    expect(relation({ id: 1 }, "{ business { slug } }")).toBe("through the Prisma plugin's wrapper");
    expect(relation({ business }, "{ business { slug memberCount } }")).toBe("through the Prisma plugin's wrapper");
    expect(relation({ business }, "{ business { ... on Business { slug } } }")).toBe("through the Prisma plugin's wrapper");
    expect(relation({ business }, "{ business { slug @include(if: true) } }")).toBe("through the Prisma plugin's wrapper");
    expect(prisma).toHaveBeenCalledTimes(4);
  });

  it("is wired into the schema: the memberships page's Membership.business hands its loaded row down", () => {
    const business = { id: 3, slug: "farm", name: "Farm" };
    const fieldNode = (parse("{ business { slug name id } }").definitions[0] as OperationDefinitionNode).selectionSet.selections[0] as FieldNode;
    const field = (schema.getType("Membership") as { getFields(): Record<string, { resolve?: (...a: unknown[]) => unknown }> }).getFields().business;
    const admin = { actor: { kind: "user", user: { id: 1, isAdmin: true } }, roleCache: new Map() };
    const path = { key: "business", prev: undefined, typename: "Membership" };
    // Through the Prisma plugin's wrapper, a row no plan loaded would be loaded again (a promise, a database).
    expect(field.resolve!({ id: 7, userId: 1, businessId: 3, business }, {}, admin, { ...info, fieldNodes: [fieldNode], returnType: schema.getType("Business"), path, parentType: schema.getType("Membership") })).toBe(business);
  });

  it("is wired into the schema: every node type's id field reads directly", () => {
    for (const name of ["Membership", "Business", "Order", "User"]) {
      const id = (schema.getType(name) as { getFields(): Record<string, { resolve?: (...a: unknown[]) => unknown }> }).getFields().id;
      const admin = { actor: { kind: "user", user: { id: 1, isAdmin: true } }, roleCache: new Map() };
      const answer = id.resolve!({ id: 7, userId: 1, businessId: 1 }, {}, admin, { ...info, path: { key: "id", prev: undefined, typename: name } });
      expect(answer).toBe(encodeGlobalID(name, "7"));
    }
  });
});
