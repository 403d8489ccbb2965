/**
 * Relay's `node(id:)` and `nodes(ids:)`, in place of the relay plugin's own (turned off in builder.ts): the
 * plugin loads each node with `findUniqueOrThrow` (a missing row is an error, one bad id fails the whole list)
 * and checks nothing before returning the row. Here each id is answered on its own: a malformed id, an id of a
 * type that is not a Node, a missing row and a row the caller may not read all answer `null`, without an error.
 *
 * Whether the caller may read a row is the type's own read rule: the `authScopes` each Node type declares
 * (the predicates of api/auth/read-rules.ts), which the scope-auth plugin also applies to every field of the
 * type wherever it is returned. A Node type without one fails the schema build (checkNodeReadRules).
 *
 * `nodes` takes at most MAX_NODE_IDS ids; more is refused with HTTP 400 before any id is decoded or loaded.
 */
import { brandWithType } from "@pothos/core";
import { queryFromInfo } from "@pothos/plugin-prisma";
import { decodeGlobalID } from "@pothos/plugin-relay";
import { ForbiddenError as ScopeAuthForbidden } from "@pothos/plugin-scope-auth";
import { GraphQLError, isInterfaceType, type GraphQLResolveInfo, type GraphQLSchema } from "graphql";
import type { ServiceContext } from "../context.ts";
import { builder } from "./builder.ts";

const MAX_NODE_IDS = 100;

type Row = { id: number } & Record<string, unknown>;
type Delegate = { findMany(args: object): Promise<Row[]> };

interface NodeReader {
  /** The Prisma model behind the type (`Subscription` for Membership). */
  model: string;
  /** The type's read rule: its type-level authScopes. */
  canRead(row: Row, ctx: ServiceContext): Promise<boolean>;
}

/** Largest value of the integer id columns (PostgreSQL `integer`). */
const MAX_ROW_ID = 2 ** 31 - 1;

/** `{ typename, id }` of a well-formed global id of a numeric row, or null. */
function parseGlobalId(raw: string): { typename: string; id: number } | null {
  let decoded: { typename: string; id: string };
  try {
    decoded = decodeGlobalID(raw);
  } catch {
    return null;
  }
  if (!/^[1-9]\d{0,9}$/.test(decoded.id)) return null;
  const id = Number(decoded.id);
  return id <= MAX_ROW_ID ? { typename: decoded.typename, id } : null;
}

/** A type's authScopes as a predicate: a boolean (or its promise), or a scope map run by scope-auth. */
function readRuleOf(name: string): NodeReader["canRead"] | null {
  const authScopes = builder.configStore.getTypeConfig(name, "Object").pothosOptions.authScopes as
    | ((row: Row, ctx: ServiceContext) => unknown)
    | Record<string, unknown>
    | undefined;
  if (!authScopes) return null;
  return async (row, ctx) => {
    const scopes = typeof authScopes === "function" ? await authScopes(row, ctx) : authScopes;
    if (typeof scopes === "boolean") return scopes;
    try {
      await builder.runAuthScopes(ctx, scopes as Parameters<typeof builder.runAuthScopes>[1]);
      return true;
    } catch (e) {
      if (e instanceof ScopeAuthForbidden) return false;
      throw e;
    }
  };
}

const readersBySchema = new WeakMap<GraphQLSchema, Map<string, NodeReader>>();

/**
 * The reader of every type implementing Node. Throws when one has no Prisma model or no read rule, so a new
 * Node type cannot ship readable by everyone by omission.
 */
export function checkNodeReadRules(schema: GraphQLSchema): Map<string, NodeReader> {
  let readers = readersBySchema.get(schema);
  if (readers) return readers;
  readers = new Map();
  const nodeInterface = schema.getType("Node");
  if (isInterfaceType(nodeInterface)) {
    for (const type of schema.getImplementations(nodeInterface).objects) {
      const model = builder.configStore.getTypeConfig(type.name, "Object").extensions?.pothosPrismaModel as string | undefined;
      const canRead = readRuleOf(type.name);
      if (!model) throw new Error(`Node type ${type.name} is not a Prisma node: node(id:) cannot load it.`);
      if (!canRead) throw new Error(`Node type ${type.name} has no read rule: declare its authScopes (api/auth/read-rules.ts).`);
      readers.set(type.name, { model, canRead });
    }
  }
  readersBySchema.set(schema, readers);
  return readers;
}

const delegateOf = (ctx: ServiceContext, model: string) =>
  (ctx.db as unknown as Record<string, Delegate>)[model[0].toLowerCase() + model.slice(1)];

/**
 * The rows of `ids` the caller may read, in order, null for every other entry. One statement per Node type
 * asked for, selecting what the query asks of that type (relations included), as the plugin's own loader does.
 */
async function readableNodes(ctx: ServiceContext, info: GraphQLResolveInfo, ids: readonly (string | number)[]): Promise<(Row | null)[]> {
  const readers = checkNodeReadRules(info.schema);
  const results: (Row | null)[] = ids.map(() => null);
  const wanted = new Map<string, Map<number, number[]>>(); // typename → row id → positions in `ids`
  ids.forEach((raw, index) => {
    const parsed = parseGlobalId(String(raw));
    if (!parsed || !readers.has(parsed.typename)) return;
    const byId = wanted.get(parsed.typename) ?? new Map<number, number[]>();
    wanted.set(parsed.typename, byId);
    byId.set(parsed.id, [...(byId.get(parsed.id) ?? []), index]);
  });
  await Promise.all(
    [...wanted].map(async ([typename, byId]) => {
      const reader = readers.get(typename)!;
      const query = await queryFromInfo({ context: ctx, info, typeName: typename, awaitSelections: true });
      const rows = await delegateOf(ctx, reader.model).findMany({ ...query, where: { id: { in: [...byId.keys()] } } });
      await Promise.all(
        rows.map(async (row) => {
          if (!(await reader.canRead(row, ctx))) return;
          // The Node interface resolves its type from this brand (as the relay plugin's loader brands).
          brandWithType(row, typename as unknown as Parameters<typeof brandWithType>[1]);
          for (const index of byId.get(row.id) ?? []) results[index] = row;
        }),
      );
    }),
  );
  return results;
}

/** HTTP 400 in the edge's input-refusal shape (code BAD_USER_INPUT, reason invalid_input, issues). */
function tooManyIds(count: number) {
  const message = `At most ${MAX_NODE_IDS} ids per request (this one has ${count.toLocaleString("en-US")})`;
  return new GraphQLError(message, {
    extensions: { http: { status: 400 }, code: "BAD_USER_INPUT", reason: "invalid_input", issues: [{ path: "nodes.ids", message }] },
  });
}

builder.queryFields((t) => ({
  node: t.field({
    type: builder.nodeInterfaceRef(),
    nullable: true,
    description: "The object with this global id, or null when there is none or the viewer may not read it.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, ctx, info) => (await readableNodes(ctx, info, [id]))[0],
  }),
  nodes: t.field({
    type: [builder.nodeInterfaceRef()],
    nullable: { list: false, items: true },
    description: `The objects with these global ids, in order: null for each one there is none of or the viewer may not read. At most ${MAX_NODE_IDS} ids.`,
    args: { ids: t.arg.idList({ required: true }) },
    resolve: (_root, { ids }, ctx, info) => {
      if (ids.length > MAX_NODE_IDS) throw tooManyIds(ids.length);
      return readableNodes(ctx, info, ids);
    },
  }),
}));
