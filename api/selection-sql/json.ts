/**
 * Rows with their relations in one statement, as JSON built by PostgreSQL (to_jsonb, jsonb_agg for lists):
 * for reads whose screen would otherwise cost one Prisma statement per relation level (Prisma's relation joins
 * are not enabled; see tests/bench/README.md). Each row comes back as Prisma returns it: every scalar of its
 * model (camelCase, DateTime as Date), and the relations and extras of the shape, cut to what the query asks.
 * Call only when `covers(model, query, shape)`; otherwise load through Prisma with the same query.
 */
import type { ServiceContext } from "../context.ts";
import { column, field, fromJson, joinCondition, MODELS, type Model, pruned, type Shape, table } from "./model.ts";

/** The jsonb of one row (alias) with its shape's relations and extras. */
function objectSql(model: Model, alias: string, shape: Shape, next: () => string): string {
  const parts: string[] = [];
  const sub = (childModel: Model, list: boolean, where: (c: string) => string, order: ((c: string) => string) | undefined, childShape: Shape) => {
    const c = next();
    const obj = objectSql(childModel, c, childShape, next);
    const from = `FROM ${table(childModel)} ${c} WHERE ${where(c)}`;
    if (!list) return `(SELECT ${obj} ${from} LIMIT 1)`;
    const by = order?.(c) ?? (field(childModel, "id") ? `${c}.id` : "1");
    return `(SELECT coalesce(jsonb_agg(${obj} ORDER BY ${by}), '[]'::jsonb) ${from})`;
  };
  for (const [name, childShape] of Object.entries(shape.relations ?? {})) {
    const f = field(model, name)!;
    parts.push(`'${name}', ${sub(f.type as Model, f.isList, (c) => joinCondition(model, name, alias, c), childShape.orderBy, childShape)}`);
  }
  for (const [key, extra] of Object.entries(shape.extras ?? {})) {
    parts.push(`'${key}', ${sub(extra.model, extra.list, (c) => extra.where(alias, c), extra.orderBy, {})}`);
  }
  return parts.length ? `(to_jsonb(${alias}) || jsonb_build_object(${parts.join(", ")}))` : `to_jsonb(${alias})`;
}

/** A row as Prisma gives it: every scalar under its field name, decoded; relations and extras likewise. */
export function decodeJsonRow(model: Model, json: Record<string, unknown>, shape: Shape): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const f of MODELS[model].fields) {
    if (f.kind !== "object") row[f.name] = fromJson(f, json[column(f.name)]);
  }
  const nested = (m: Model, v: unknown, s: Shape) =>
    Array.isArray(v) ? v.map((x) => decodeJsonRow(m, x as Record<string, unknown>, s)) : v ? decodeJsonRow(m, v as Record<string, unknown>, s) : null;
  for (const [name, s] of Object.entries(shape.relations ?? {})) row[name] = nested(field(model, name)!.type as Model, json[name], s);
  for (const [key, extra] of Object.entries(shape.extras ?? {})) row[key] = nested(extra.model, json[key], {});
  return row;
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

/** One statement: the rows of `model` matching `q`, each with the relations of `shape` that `query` asks for. */
export async function loadRows<T>(ctx: Pick<ServiceContext, "db">, model: Model, query: unknown, full: Shape, q: RowsQuery): Promise<T[]> {
  const shape = pruned(model, query, full);
  let n = 0;
  const next = () => `t${++n}`;
  const params = [...q.params];
  const page = [
    q.orderBy ? `ORDER BY ${q.orderBy}` : "",
    q.limit !== undefined ? `LIMIT $${params.push(q.limit)}::int` : "",
    q.offset ? `OFFSET $${params.push(q.offset)}::int` : "",
  ].join(" ");
  const sql = `SELECT ${objectSql(model, "t0", shape, next)} AS row FROM ${table(model)} t0 WHERE ${q.where} ${page}`;
  const rows = await ctx.db.$queryRawUnsafe<{ row: unknown }[]>(sql, ...params);
  return rows.map((r) => decodeJsonRow(model, (typeof r.row === "string" ? JSON.parse(r.row) : r.row) as Record<string, unknown>, shape) as T);
}
