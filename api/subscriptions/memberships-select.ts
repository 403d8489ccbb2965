/**
 * The fields a memberships list is asked for (a Prisma `select` or `include`, as the Pothos connections pass
 * it) as columns of the list's keyset statement: the membership's own columns and those of its member (u),
 * business (b) and plan (pl), joined. What the statement cannot carry (lists such as skips or add-ons, a
 * relation's own relations, unusual column types) loads in one Prisma read by the page's ids, merged into
 * the rows, so the rows have the shape Prisma would return for the same selection.
 */
import type { ServiceContext } from "../context.ts";
import { Prisma } from "../generated/prisma/client.ts";
import { getDatamodel } from "../generated/pothos-types.ts";

export type MembershipSelection = { select?: Prisma.SubscriptionSelect | null; include?: Prisma.SubscriptionInclude | null };

/** The to-one relations the statement can join, by relation name: model, table alias and join (on `subscriptions s`). */
const JOINABLE: Record<string, { model: string; alias: string; sql: string }> = {
  user: { model: "User", alias: "u", sql: "JOIN users u ON u.id = s.user_id" },
  business: { model: "Business", alias: "b", sql: "JOIN businesses b ON b.id = s.business_id" },
  plan: { model: "Plan", alias: "pl", sql: "JOIN plans pl ON pl.id = s.plan_id" },
};

/** The joins of these relations (the search's own, u and b, and the selection's). */
export function joinSql(relations: Set<string>): Prisma.Sql {
  return Prisma.raw(Object.entries(JOINABLE).flatMap(([relation, join]) => (relations.has(relation) ? [join.sql] : [])).join(" "));
}

interface Field {
  name: string;
  kind: string;
  type: string;
  isList: boolean;
}
const models = getDatamodel().datamodel.models as unknown as Record<string, { fields: Field[] }>;
const scalarsOf = (model: string) => models[model].fields.filter((f) => f.kind === "scalar" || f.kind === "enum");

/** Column names are the field names in snake case (the schema's @map convention; tests/integration/memberships-list.test.ts checks it). */
export const columnName = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

interface Column {
  sql: string;
  decode?: (v: unknown) => unknown;
}

/** How the statement reads a field as Prisma returns it; null when it cannot (left to Prisma). */
function columnOf(alias: string, f: Field): Column | null {
  if (f.isList) return null;
  const col = `${alias}.${columnName(f.name)}`;
  if (f.kind === "enum") return { sql: `${col}::text` };
  if (["Int", "String", "Boolean", "DateTime"].includes(f.type)) return { sql: col };
  // JSON as text, parsed here: the same value on every driver adapter.
  if (f.type === "Json") return { sql: `${col}::text`, decode: (v) => (v == null ? null : JSON.parse(v as string)) };
  return null;
}

export interface CompiledSelection {
  columns: Prisma.Sql[];
  /** Relations the statement must join (keys of JOINABLE). */
  joins: string[];
  readers: { key: string; path: [string] | [string, string]; decode?: Column["decode"] }[];
  /** The part of the selection left to Prisma (a `select`), or null. */
  rest: Record<string, unknown> | null;
}

/** The scalar fields of a joinable relation's selection (`true`, or a `select` of its scalars), or null when it asks for more. */
function joinedFields(model: string, alias: string, value: unknown): [Field, Column][] | null {
  const scalars = scalarsOf(model);
  let fields: Field[];
  if (value === true) fields = scalars;
  else if (value && typeof value === "object" && Object.keys(value).length === 1 && "select" in value && value.select) {
    const select = value.select as Record<string, unknown>;
    fields = scalars.filter((f) => select[f.name]);
    if (Object.entries(select).some(([k, v]) => v && !fields.some((f) => f.name === k))) return null;
  } else return null;
  const columns = fields.map((f) => [f, columnOf(alias, f)] as const);
  return columns.every(([, c]) => c) ? (columns as [Field, Column][]) : null;
}

export function compileSelection(page: MembershipSelection): CompiledSelection {
  const out: CompiledSelection = { columns: [Prisma.raw(`s.id AS "_id"`)], joins: [], readers: [], rest: null };
  const rest: Record<string, unknown> = {};
  const add = (column: Column, path: [string] | [string, string]) => {
    const key = `c${out.readers.length}`;
    out.columns.push(Prisma.raw(`${column.sql} AS "${key}"`));
    out.readers.push({ key, path, decode: column.decode });
  };
  const scalars = scalarsOf("Subscription");
  const select = page.select as Record<string, unknown> | null | undefined;
  const asked = select ? scalars.filter((f) => select[f.name]) : scalars;
  const relations = Object.entries((select ?? page.include ?? {}) as Record<string, unknown>).filter(([k, v]) => v && !scalars.some((f) => f.name === k));
  for (const f of asked) {
    const column = columnOf("s", f);
    if (column) add(column, [f.name]);
    else rest[f.name] = true;
  }
  for (const [relation, value] of relations) {
    const join = JOINABLE[relation];
    const fields = join ? joinedFields(join.model, join.alias, value) : null;
    if (!fields) {
      rest[relation] = value;
      continue;
    }
    out.joins.push(relation);
    for (const [f, column] of fields) add(column, [relation, f.name]);
  }
  out.rest = Object.keys(rest).length > 0 ? rest : null;
  return out;
}

/** The statement's rows in Prisma's shape, with what it left to Prisma loaded by id (one more statement, only then). */
export async function readRows(ctx: ServiceContext, selection: CompiledSelection, raw: Record<string, unknown>[]): Promise<Record<string, unknown>[]> {
  const rows = raw.map((r) => {
    const row: Record<string, any> = {};
    for (const { key, path, decode } of selection.readers) {
      const value = decode ? decode(r[key]) : r[key];
      if (path.length === 1) row[path[0]] = value;
      else (row[path[0]] ??= {})[path[1]] = value;
    }
    return row;
  });
  if (selection.rest && rows.length > 0) {
    const ids = raw.map((r) => r._id as number);
    const more = await ctx.db.subscription.findMany({ where: { id: { in: ids } }, select: { ...(selection.rest as Prisma.SubscriptionSelect), id: true } });
    const byId = new Map(more.map((m) => [m.id, m as Record<string, unknown>]));
    rows.forEach((row, i) => {
      const { id: _, ...fields } = byId.get(ids[i]) ?? {};
      Object.assign(row, fields);
    });
  }
  return rows;
}
