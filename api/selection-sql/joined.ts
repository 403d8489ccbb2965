/**
 * A Prisma selection (`select` or `include`, as the Pothos connections pass it) as the columns of one flat
 * statement: the model's own columns and those of the to-one relations the caller may join, each under a key
 * of its own, read back into the rows Prisma would return. What the statement cannot carry (lists, a
 * relation's own relations, counts, unusual column types) is `rest`: the caller either loads it by the rows'
 * ids in one Prisma read (`readJoined`) or, when it must not cost a statement, reads the whole selection
 * through Prisma instead.
 */
import type { ServiceContext } from "../context.ts";
import { columnReader, field, joinCondition, type Model, type Query, scalarsOf, table } from "./model.ts";

/** To-one relations the statement may join: relation name → table alias. */
export type Joinable = Record<string, string>;

export interface Joined {
  /** The select list (`expr AS "key"`); the first is the row's id (`"_id"`). */
  columns: string[];
  /** The relations the selection reads, to join (keys of the Joinable). */
  joins: string[];
  /** The part of the selection left to Prisma (a `select`), or null. */
  rest: Record<string, unknown> | null;
  /** The statement's rows (without `rest`) in Prisma's shape. */
  read: (raw: Record<string, unknown>[]) => Record<string, unknown>[];
  /** How many fields the statement reads. */
  fields: number;
}

type Reader = { key: string; path: [string] | [string, string]; decode: (v: unknown) => unknown };

/** The scalars a selection asks of `model` (undefined or `true`: all of them), or null when it asks for more. */
function scalarsAsked(model: Model, value: unknown): ReturnType<typeof scalarsOf> | null {
  const scalars = scalarsOf(model);
  if (value === true || value == null) return scalars;
  if (typeof value !== "object") return null;
  const { select, include, ...other } = value as Query;
  if (Object.values(other).some((v) => v != null) || (select && include)) return null;
  const asked = select ?? include ?? {};
  if (Object.entries(asked).some(([k, v]) => v && !(select && scalars.some((f) => f.name === k)))) return null;
  return select ? scalars.filter((f) => select[f.name]) : scalars;
}

/** The statement (`model` as `alias`) for `selection`; relations outside `joinable` or asking for more go to `rest`. */
export function compileJoined(model: Model, alias: string, selection: Query, joinable: Joinable): Joined {
  const columns = [`${alias}.id AS "_id"`];
  const joins: string[] = [];
  const readers: Reader[] = [];
  const rest: Record<string, unknown> = {};
  const add = (reader: ReturnType<typeof columnReader>, path: Reader["path"]) => {
    if (!reader) return false;
    const key = `c${readers.length}`;
    columns.push(`${reader.sql} AS "${key}"`);
    readers.push({ key, path, decode: reader.decode });
    return true;
  };
  const scalars = scalarsOf(model);
  const select = selection.select;
  for (const f of select ? scalars.filter((f) => select[f.name]) : scalars) {
    if (!add(columnReader(alias, f), [f.name])) rest[f.name] = true;
  }
  for (const [name, value] of Object.entries(select ?? selection.include ?? {})) {
    if (!value || scalars.some((f) => f.name === name)) continue;
    const f = field(model, name);
    const asked = f && joinable[name] && !f.isList ? scalarsAsked(f.type, value) : null;
    const cols = asked?.map((g) => columnReader(joinable[name], g));
    if (!asked || !cols!.every(Boolean)) {
      rest[name] = value;
      continue;
    }
    joins.push(name);
    asked.forEach((g, i) => add(cols![i], [name, g.name]));
  }
  const read = (raw: Record<string, unknown>[]) =>
    raw.map((r) => {
      const row: Record<string, any> = {};
      for (const name of joins) row[name] = {};
      for (const { key, path, decode } of readers) {
        const value = decode(r[key]);
        if (path.length === 1) row[path[0]] = value;
        else (row[path[0]] ??= {})[path[1]] = value;
      }
      return row;
    });
  return { columns, joins, rest: Object.keys(rest).length > 0 ? rest : null, read, fields: readers.length };
}

/** The JOIN clauses (on `model` as `alias`) of these relations, in the Joinable's order. */
export function joinSql(model: Model, alias: string, joinable: Joinable, relations: Iterable<string>): string {
  const wanted = new Set(relations);
  return Object.entries(joinable)
    .filter(([name]) => wanted.has(name))
    .map(([name, child]) => `JOIN ${table(field(model, name)!.type)} ${child} ON ${joinCondition(model, name, alias, child)}`)
    .join(" ");
}

/** The statement's rows in Prisma's shape, with what it left to Prisma loaded by id (one more statement, only then). */
export async function readJoined(ctx: Pick<ServiceContext, "db">, model: Model, joined: Joined, raw: Record<string, unknown>[]): Promise<Record<string, unknown>[]> {
  const rows = joined.read(raw);
  if (joined.rest && rows.length > 0) {
    const ids = raw.map((r) => r._id as number);
    const delegate = (ctx.db as unknown as Record<string, { findMany(args: object): Promise<Record<string, unknown>[]> }>)[model[0].toLowerCase() + model.slice(1)];
    const more = await delegate.findMany({ where: { id: { in: ids } }, select: { ...joined.rest, id: true } });
    const byId = new Map(more.map((m) => [m.id, m]));
    rows.forEach((row, i) => {
      const { id: _, ...fields } = byId.get(ids[i]) ?? {};
      Object.assign(row, fields);
    });
  }
  return rows;
}
