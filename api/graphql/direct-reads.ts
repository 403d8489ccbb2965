import SchemaBuilder, { BasePlugin, isThenable, type PothosOutputFieldConfig, type PothosOutputFieldType, type SchemaTypes } from "@pothos/core";
import { encodeGlobalID } from "@pothos/plugin-relay";
import { defaultFieldResolver, getNamedType, Kind, type FieldNode, type GraphQLFieldResolver, type GraphQLResolveInfo } from "graphql";
import { getDatamodel } from "../generated/pothos-types.ts";

/**
 * Fields that read their row directly: the kinds of field every row of a list has, made as cheap as the answer
 * they give. Nothing else changes: the scope-auth and errors wrappers still run around them.
 *
 * **Node ids.** The Relay plugin's `id` field is an async function, so every node of a list completed through
 * a promise of its own (and graphql-js then assembles the row through `promiseForObject`). The node's own id
 * resolver (the type's `id` option: a column read for every Prisma node here) is synchronous, so its global id
 * is encoded at once, the same string the Relay plugin would have made (`encodeGlobalID(type, String(id))`). A
 * node whose id resolver returns a promise keeps the Relay plugin's field. The id fields are marked by the
 * builder's `relay.idFieldOptions` (api/graphql/builder.ts).
 *
 * **Column fields.**
 * On a type in the Prisma plugin's select mode, every field that selects columns (`t.exposeString("name")`,
 * `t.string({ select: { a: true }, resolve })`) is wrapped by the plugin: before it runs, the wrapper looks up
 * which plan loaded the parent row (a map keyed by the field's response path, rebuilt as strings for every row)
 * and, when none did, loads the columns afresh. For a row that already carries the columns, the answer is the
 * same either way, and the lookup is most of the field's cost: on a 50-row page of 12 column fields, 600 lookups
 * a request.
 *
 * So a field whose selection is static (columns of its model, and to-one relations' columns the same way down)
 * reads the row directly when the row has every one of them as an own property (Prisma and api/selection-sql leave
 * unselected columns and relations off the row, so a present key was loaded, null included). Any other row, and
 * every list or computed selection, goes through the Prisma plugin's wrapper as before.
 *
 * **To-one relations.** The wrapper of `t.relation("business")` looks up the parent's plan the same way, to hand
 * the plan's mapping down to the related row's fields. When the row carries the relation and the field's selection
 * asks only for fields that need no mapping (the two kinds above, leaf fields nothing wraps, `__typename`), the
 * related row goes down as it is (`loadedRelation`).
 *
 * The plugin sits directly outside the Prisma plugin (api/graphql/builder.ts), so the resolver a column field calls
 * is the one the Prisma plugin would have called: the field's own (the Relay plugin, inside Prisma, wraps no
 * resolver). tests/unit/direct-reads.test.ts checks both paths of each kind and the wiring into the schema; the
 * answers of the memberships page and the portal were compared byte for byte with and without the plugin.
 */

const pluginName = "directReads";
/** The extension `relay.idFieldOptions` puts on every node's id field. */
export const NODE_ID_EXTENSION = "directReadsNodeId";

declare global {
  // A Pothos plugin names itself in Pothos's global namespace (the builder's `plugins` list is typed from it).
  // eslint-disable-next-line @typescript-eslint/no-namespace
  export namespace PothosSchemaTypes {
    interface Plugins<Types extends SchemaTypes> {
      directReads: DirectReadsPlugin<Types>;
    }
  }
}

const models = getDatamodel().datamodel.models;
/** Per model: its scalar and enum columns, and its to-one relations with the model each names. */
const shapes = new Map(
  Object.entries(models).map(([model, { fields }]) => [
    model,
    {
      columns: new Set(fields.filter((f) => f.kind === "scalar" || f.kind === "enum").map((f) => f.name)),
      toOne: new Map(fields.filter((f) => f.kind === "object" && !f.isList).map((f) => [f.name, f.type])),
    },
  ]),
);

/** What a row must carry: columns of its own, and to-one relations (null, or a row carrying their own part). */
export interface Carried {
  columns: string[];
  relations: [string, Carried][];
}

/**
 * The columns a field's static selection names on `model`: every entry `column: true` for a scalar column, or
 * `relation: { select: … }` for a to-one relation, the same way down. Anything else (a computed selection, a
 * list, arguments, a whole relation) gives null.
 */
export function staticSelection(select: unknown, model: string | undefined): Carried | null {
  const shape = model ? shapes.get(model) : undefined;
  if (!shape || !select || typeof select !== "object") return null;
  const carried: Carried = { columns: [], relations: [] };
  for (const [key, value] of Object.entries(select)) {
    if (value === true && shape.columns.has(key)) {
      carried.columns.push(key);
      continue;
    }
    const related = shape.toOne.get(key);
    const keys = value && typeof value === "object" ? Object.keys(value) : [];
    if (!related || keys.length !== 1 || keys[0] !== "select") return null;
    const nested = staticSelection((value as { select: unknown }).select, related);
    if (!nested) return null;
    carried.relations.push([key, nested]);
  }
  return carried.columns.length + carried.relations.length > 0 ? carried : null;
}

/** Whether `row` has every column and relation `carried` names as its own property (a relation: null, or carrying its part). */
export function carries(row: unknown, carried: Carried): boolean {
  if (typeof row !== "object" || row === null) return false;
  for (const column of carried.columns) if (!Object.hasOwn(row, column)) return false;
  for (const [relation, nested] of carried.relations) {
    if (!Object.hasOwn(row, relation)) return false;
    const value = (row as Record<string, unknown>)[relation];
    if (value !== null && !carries(value, nested)) return false;
  }
  return true;
}

/** A scalar or enum field, or a list of them: nothing below it resolves. */
function isLeaf<Types extends SchemaTypes>(type: PothosOutputFieldType<Types>): boolean {
  return type.kind === "List" ? isLeaf(type.type) : type.kind === "Scalar" || type.kind === "Enum";
}

type Resolver<Types extends SchemaTypes> = GraphQLFieldResolver<unknown, Types["Context"], object>;

export class DirectReadsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  /** Per type: the fields this plugin answers from the row (node ids, column fields). */
  private readonly direct = new Map<string, Set<string>>();
  /** Per field node of a parsed document: whether its selection asks only for such fields. */
  private readonly directSelections = new WeakMap<FieldNode, boolean>();

  override wrapResolve(resolver: Resolver<Types>, fieldConfig: PothosOutputFieldConfig<Types>): Resolver<Types> {
    const wrapped = this.wrap(resolver, fieldConfig);
    // Fields that need no plan's mapping: the ones answered from the row here, and leaf fields nothing inside wraps.
    const unwrappedLeaf = resolver === (fieldConfig.resolve ?? defaultFieldResolver) && isLeaf(fieldConfig.type);
    if ((wrapped !== resolver && !fieldConfig.extensions?.pothosPrismaRelationField) || unwrappedLeaf) {
      const fields = this.direct.get(fieldConfig.parentType) ?? new Set<string>();
      this.direct.set(fieldConfig.parentType, fields.add(fieldConfig.name));
    }
    return wrapped;
  }

  private wrap(resolver: Resolver<Types>, fieldConfig: PothosOutputFieldConfig<Types>): Resolver<Types> {
    if (fieldConfig.extensions?.[NODE_ID_EXTENSION]) return this.nodeId(resolver, fieldConfig);
    if (fieldConfig.kind !== "PrismaObject") return resolver;
    const relation = fieldConfig.extensions?.pothosPrismaRelationField as { name: string; isList: boolean } | undefined;
    return relation ? this.loadedRelation(resolver, fieldConfig, relation) : this.loadedColumns(resolver, fieldConfig);
  }

  private nodeId(resolver: Resolver<Types>, fieldConfig: PothosOutputFieldConfig<Types>): Resolver<Types> {
    const parent = this.buildCache.getTypeConfig(fieldConfig.parentType);
    const id = (parent.pothosOptions as { id?: { resolve?: Resolver<Types> } }).id?.resolve;
    if (parent.kind !== "Object" || !id || this.builder.options.relay?.encodeGlobalID) return resolver;
    const typename = parent.name;
    return (row, args, context, info) => {
      const raw = id(row, args, context, info);
      if (isThenable(raw)) return resolver(row, args, context, info);
      return encodeGlobalID(typename, String(raw));
    };
  }

  private loadedColumns(resolver: Resolver<Types>, fieldConfig: PothosOutputFieldConfig<Types>): Resolver<Types> {
    const extensions = fieldConfig.extensions ?? {};
    if (extensions.pothosPrismaLoaded || extensions.pothosPrismaFallback) return resolver;
    const parent = this.buildCache.getTypeConfig(fieldConfig.parentType);
    const carried = staticSelection(extensions.pothosPrismaSelect, parent.extensions?.pothosPrismaModel as string | undefined);
    const own = (fieldConfig.resolve ?? defaultFieldResolver) as Resolver<Types>;
    // Nothing inside wrapped it: not a field the Prisma plugin guards.
    if (!carried || resolver === own) return resolver;
    return (row, args, context, info) => (carries(row, carried) ? own(row, args, context, info) : resolver(row, args, context, info));
  }

  /**
   * A to-one relation (`t.relation("business")`) of a row that carries it, selected for fields this plugin answers
   * from the row: the related row as it is. The Prisma plugin's wrapper would look up the plan that loaded the
   * parent (the response path rebuilt as a string, for every row of a list) to hand the plan's mapping down to
   * the related row's fields; fields answered from the row need none. A selection with any other field (a list,
   * a computed field, a fragment, a directive) keeps the wrapper, so that field finds its mapping.
   */
  private loadedRelation(resolver: Resolver<Types>, fieldConfig: PothosOutputFieldConfig<Types>, relation: { name: string; isList: boolean }): Resolver<Types> {
    const own = fieldConfig.resolve as Resolver<Types> | undefined;
    if (relation.isList || fieldConfig.extensions?.pothosPrismaFallback || !own || resolver === own) return resolver;
    const { name } = relation;
    return (row, args, context, info) =>
      Object.hasOwn(row as object, name) && (row as Record<string, unknown>)[name] !== undefined && this.selectsDirect(info)
        ? own(row, args, context, info)
        : resolver(row, args, context, info);
  }

  /** Whether the field `info` resolves selects only fields answered from the row (and `__typename`), once per document. */
  private selectsDirect(info: GraphQLResolveInfo): boolean {
    if (info.fieldNodes.length !== 1) return false;
    const node = info.fieldNodes[0];
    let answer = this.directSelections.get(node);
    if (answer === undefined) {
      const fields = this.direct.get(getNamedType(info.returnType).name);
      answer = (node.selectionSet?.selections ?? []).every(
        (s) => s.kind === Kind.FIELD && !s.directives?.length && (s.name.value === "__typename" || !!fields?.has(s.name.value)),
      );
      this.directSelections.set(node, answer);
    }
    return answer;
  }
}

SchemaBuilder.registerPlugin(pluginName, DirectReadsPlugin);

export default pluginName;
