/**
 * Connection cursors are checked before anything runs: the `after` and `before` of every connection
 * field in the operation must decode to that connection's own cursor shape, or the request is refused with
 * one BAD_USER_INPUT error (HTTP 400, reason `invalid_input`, the issue's path naming the field's argument:
 * `mailMessages.after`, `business.memberships.before`), as the input limits refuse (input-limits.ts). Nothing
 * forged reaches Prisma or a service, also for a connection nested in a parent whose query selects it.
 *
 * The shapes: a Prisma connection (`t.prismaConnection`, `cursor: "id"`) writes base64("GPC:N:<row id>")
 * (@pothos/plugin-prisma's cursor encoding of an integer id), so only that, with a row id in 1..MAX_ROW_ID,
 * is one of its cursors. Any other connection names its decoder in its field's extensions (CURSOR_DECODER).
 */
import { getArgumentValues, getNamedType, isObjectType, Kind, TypeInfo, visit, visitWithTypeInfo, type DocumentNode, type FieldNode, type GraphQLField, type GraphQLNamedType, type GraphQLSchema, type ValueNode } from "graphql";
import { createGraphQLError, type Plugin } from "graphql-yoga";
import { ValidationError, type FieldIssue } from "../shared/errors.ts";
import { getDatamodel } from "../generated/pothos-types.ts";
import { rowIdOf } from "./ids.ts";

/**
 * Field extension: `(cursor, path, args) => void`, throwing a ValidationError when `cursor` is not one of the field's
 * (`args`: the field's arguments, for a list whose cursors depend on one, such as its order; {} if they do not coerce).
 */
export const CURSOR_DECODER = "cursorDecoder";

type CursorDecoder = (cursor: string, path: string, args: Record<string, unknown>) => unknown;

const CURSOR_ARGS = ["after", "before"] as const;

const notACursor = (path: string) => new ValidationError("Not a cursor of this list.", [{ path, message: "Not a cursor of this list." }]);

/** Base64 (or base64url) text decoded as UTF-8, or null when it is not canonical base64 of valid UTF-8. */
function decodeCursorText(cursor: string): string | null {
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(cursor)) return null;
  const bytes = Buffer.from(cursor, cursor.includes("-") || cursor.includes("_") ? "base64url" : "base64");
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** The row id of a Prisma connection cursor on an integer id (base64("GPC:N:<id>")), or a ValidationError at `path`. */
function rowIdOfCursor(cursor: string, path: string): number {
  const match = /^GPC:N:(\d+)$/.exec(decodeCursorText(cursor) ?? "");
  const id = match ? rowIdOf(match[1]) : null;
  if (id === null) throw notACursor(path);
  return id;
}

/** The Prisma model of a connection's nodes (a prismaObject or prismaNode type), or null. */
function prismaModelOfConnection(connection: GraphQLNamedType): string | null {
  if (!isObjectType(connection)) return null;
  const edge = connection.getFields().edges ? getNamedType(connection.getFields().edges.type) : null;
  const node = edge && isObjectType(edge) && edge.getFields().node ? getNamedType(edge.getFields().node.type) : null;
  const config = node?.extensions as { pothosConfig?: { extensions?: { pothosPrismaModel?: unknown } } } | undefined;
  const model = config?.pothosConfig?.extensions?.pothosPrismaModel;
  return typeof model === "string" ? model : null;
}

/** Prisma models whose `id` is an integer column: their connections' cursors (`cursor: "id"`) are row ids. */
const INT_ID_MODELS = new Set(
  Object.entries(getDatamodel().datamodel.models)
    .filter(([, m]) => m.fields.some((f) => f.name === "id" && f.type === "Int"))
    .map(([name]) => name),
);

const decoders = new WeakMap<GraphQLField<unknown, unknown>, CursorDecoder | null>();

/**
 * A connection field's cursor decoder: its CURSOR_DECODER extension, else the row-id cursor of a Prisma
 * connection over a model with an integer id (every prismaConnection here pages by `cursor: "id"`).
 */
function decoderOf(field: GraphQLField<unknown, unknown>): CursorDecoder | null {
  let decode = decoders.get(field);
  if (decode !== undefined) return decode;
  const own = (field.extensions as Record<string, unknown>)[CURSOR_DECODER];
  const model = prismaModelOfConnection(getNamedType(field.type));
  decode = typeof own === "function" ? (own as CursorDecoder) : model && INT_ID_MODELS.has(model) ? rowIdOfCursor : null;
  decoders.set(field, decode);
  return decode;
}

/** The string an argument holds (a literal, or a variable's value), else undefined (null, absent, not a string). */
function stringOf(value: ValueNode, variables: Record<string, unknown>): string | undefined {
  if (value.kind === Kind.STRING) return value.value;
  if (value.kind === Kind.VARIABLE) {
    const v = variables[value.name.value];
    return typeof v === "string" ? v : undefined;
  }
  return undefined;
}

/** A field's argument values (defaults included), or {} when they do not coerce (execution reports that). */
function argumentsOf(field: GraphQLField<unknown, unknown>, node: FieldNode, variables: Record<string, unknown>): Record<string, unknown> {
  try {
    return getArgumentValues(field, node, variables);
  } catch {
    return {};
  }
}

/** The first cursor argument of the document that is not its connection's, as an issue; null if all are. */
function cursorIssue(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown>): FieldIssue | null {
  const typeInfo = new TypeInfo(schema);
  const path: string[] = [];
  let issue: FieldIssue | null = null;
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field: {
        enter(node) {
          path.push(node.alias?.value ?? node.name.value);
          const field = typeInfo.getFieldDef();
          if (issue || !field || !node.arguments?.length || !getNamedType(field.type).name.endsWith("Connection")) return;
          const decode = decoderOf(field);
          if (!decode) return;
          for (const arg of node.arguments) {
            if (!(CURSOR_ARGS as readonly string[]).includes(arg.name.value)) continue;
            const cursor = stringOf(arg.value, variables);
            if (cursor === undefined) continue;
            const at = [...path, arg.name.value].join(".");
            try {
              decode(cursor, at, argumentsOf(field, node, variables));
            } catch (e) {
              issue = e instanceof ValidationError && e.issues[0] ? e.issues[0] : { path: at, message: "Not a cursor of this list." };
              return;
            }
          }
        },
        leave() {
          path.pop();
        },
      },
      FragmentDefinition: {
        enter() {
          path.length = 0;
        },
      },
      OperationDefinition: {
        enter() {
          path.length = 0;
        },
      },
    }),
  );
  return issue;
}

/** The yoga plugin: refuses an operation holding a forged cursor before it executes. */
export function cursorsPlugin(): Plugin {
  return {
    onExecute({ args }) {
      const issue = cursorIssue(args.schema, args.document, (args.variableValues ?? {}) as Record<string, unknown>);
      if (!issue) return;
      // The message as people read it; the argument's path is in extensions.issues (as every input refusal's).
      throw createGraphQLError(issue.message, {
        extensions: { http: { status: 400 }, code: "BAD_USER_INPUT", reason: "invalid_input", issues: [issue] },
      });
    },
  };
}

