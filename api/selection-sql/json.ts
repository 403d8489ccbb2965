/**
 * Rows with their relations in one statement, as JSON built by PostgreSQL (jsonb_build_object, jsonb_agg for lists):
 * for reads whose screen would otherwise cost one Prisma statement per relation level (Prisma's relation joins
 * are not enabled; see tests/bench/README.md). Each row comes back as Prisma returns it: the scalars the query
 * selects (every scalar without a `select`; DateTime as Date), and the relations and extras of the shape, cut to
 * what the query asks.
 * Call only when `covers(model, query, shape)`; otherwise load through Prisma with the same query.
 */
import type { ServiceContext } from "../context.ts";
import { readRows } from "../db.ts";
import { column, type Field, field, joinCondition, type Model, pruned, type PrunedShape, type Shape, table, toDate } from "./model.ts";

/** PostgreSQL functions take at most 100 arguments: jsonb_build_object at most 50 pairs. */
const PAIRS_PER_CALL = 50;

/** The jsonb of one row (alias): the scalars asked for under their field names, then its shape's relations and extras. */
function objectSql(model: Model, alias: string, shape: PrunedShape, next: () => string): string {
  const pairs = shape.scalars.map((f) => `'${f.name}', ${alias}.${column(f.name)}`);
  const sub = (childModel: Model, list: boolean, where: (c: string) => string, order: ((c: string) => string) | undefined, childShape: PrunedShape) => {
    const c = next();
    const obj = objectSql(childModel, c, childShape, next);
    const from = `FROM ${table(childModel)} ${c} WHERE ${where(c)}`;
    if (!list) return `(SELECT ${obj} ${from} LIMIT 1)`;
    const by = order?.(c) ?? (field(childModel, "id") ? `${c}.id` : "1");
    return `(SELECT coalesce(jsonb_agg(${obj} ORDER BY ${by}), '[]'::jsonb) ${from})`;
  };
  for (const [name, childShape] of Object.entries(shape.relations)) {
    const f = field(model, name)!;
    pairs.push(`'${name}', ${sub(f.type, f.isList, (c) => joinCondition(model, name, alias, c), childShape.orderBy, childShape)}`);
  }
  for (const [key, extra] of Object.entries(shape.extras ?? {})) {
    pairs.push(`'${key}', ${sub(extra.model, extra.list, (c) => extra.where(alias, c), extra.orderBy, pruned(extra.model, null, {}))}`);
  }
  const calls: string[] = [];
  for (let i = 0; i < pairs.length; i += PAIRS_PER_CALL) calls.push(`jsonb_build_object(${pairs.slice(i, i + PAIRS_PER_CALL).join(", ")})`);
  return calls.length ? calls.join(" || ") : "'{}'::jsonb";
}

/**
 * How the rows of a shape are read back: each scalar as Prisma returns it (JSON has a timestamp as text, an
 * enum as its name, Json as its value), relations and extras likewise. Built once per statement.
 */
function decoder(model: Model, shape: PrunedShape): (json: Record<string, unknown>) => Record<string, unknown> {
  const dates = shape.scalars.filter((f: Field) => f.type === "DateTime").map((f) => f.name);
  const plain = shape.scalars.filter((f: Field) => f.type !== "DateTime").map((f) => f.name);
  const nested: [string, (v: unknown) => unknown][] = [];
  const many = (decode: (json: Record<string, unknown>) => Record<string, unknown>) => (v: unknown) =>
    Array.isArray(v) ? v.map((x) => decode(x)) : v ? decode(v as Record<string, unknown>) : null;
  for (const [name, s] of Object.entries(shape.relations)) nested.push([name, many(decoder(field(model, name)!.type, s))]);
  for (const [key, extra] of Object.entries(shape.extras ?? {})) nested.push([key, many(decoder(extra.model, pruned(extra.model, null, {})))]);
  return (json) => {
    const row: Record<string, unknown> = {};
    for (const name of plain) row[name] = json[name] ?? null;
    for (const name of dates) row[name] = toDate(json[name]);
    for (const [name, decode] of nested) row[name] = decode(json[name]);
    return row;
  };
}

export interface RowsQuery {
  /** SQL condition on the rows (alias t0), with $1… placeholders for `params`. */
  where: string;
  params: unknown[];
  /** SQL order (alias t0). */
  orderBy?: string;
  limit?: number;
  offset?: number;
}

/** A selection's statement head (SELECT … FROM table t0) and the reader of its rows. */
interface Compiled {
  head: string;
  decode: (json: Record<string, unknown>) => Record<string, unknown>;
}

/**
 * Compiled selections by shape, then by model and query: a screen asks the same selection on every request, so
 * its SQL and decoder are built once per process. Bounded: a shape's entries are dropped when it reaches the cap.
 */
const compiledByShape = new WeakMap<Shape, Map<string, Compiled>>();
const COMPILED_PER_SHAPE = 100;

function compiled(model: Model, query: unknown, full: Shape): Compiled {
  let byQuery = compiledByShape.get(full);
  if (!byQuery) compiledByShape.set(full, (byQuery = new Map()));
  const key = `${model} ${JSON.stringify(query ?? null)}`;
  let c = byQuery.get(key);
  if (!c) {
    const shape = pruned(model, query, full);
    let n = 0;
    c = { head: `SELECT ${objectSql(model, "t0", shape, () => `t${++n}`)} AS row FROM ${table(model)} t0`, decode: decoder(model, shape) };
    if (byQuery.size >= COMPILED_PER_SHAPE) byQuery.clear();
    byQuery.set(key, c);
  }
  return c;
}

/** `q`'s condition, order and page (alias t0) with their parameters: what follows a statement's FROM. */
export function rowsClause(q: RowsQuery): { sql: string; params: unknown[] } {
  const params = [...q.params];
  const page = [
    q.orderBy ? `ORDER BY ${q.orderBy}` : "",
    q.limit !== undefined ? `LIMIT $${params.push(q.limit)}::int` : "",
    q.offset ? `OFFSET $${params.push(q.offset)}::int` : "",
  ].join(" ");
  return { sql: `WHERE ${q.where} ${page}`, params };
}

/** One statement: the rows of `model` matching `q`, each with the relations of `shape` that `query` asks for. */
export async function loadRows<T>(ctx: Pick<ServiceContext, "db">, model: Model, query: unknown, full: Shape, q: RowsQuery): Promise<T[]> {
  const { head, decode } = compiled(model, query, full);
  const clause = rowsClause(q);
  const rows = await readRows<{ row: unknown }>(ctx.db, `${head} ${clause.sql}`, clause.params);
  return rows.map((r) => decode((typeof r.row === "string" ? JSON.parse(r.row) : r.row) as Record<string, unknown>) as T);
}
