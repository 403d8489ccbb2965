/**
 * Rows with their relations in one statement (JSON built by PostgreSQL), for the portal reads whose screen
 * would otherwise cost one Prisma statement per relation level (Prisma's relation joins are not enabled; see
 * tests/bench/README.md). A `Shape` names the relations one statement may load; `covers` tells whether a
 * Prisma query (a Pothos `query` selection, or a service's own select) asks for nothing else, so callers load
 * through Prisma, with the same query, whenever it does not. Each row comes back as Prisma returns it: every
 * scalar of its model (camelCase, DateTime as Date), and the relations the shape names.
 */
import type { ServiceContext } from "../context.ts";
import { getDatamodel } from "../generated/pothos-types.ts";

const MODELS = getDatamodel().datamodel.models;
export type Model = keyof typeof MODELS & string;

const TABLES: Partial<Record<Model, string>> = {
  User: "users",
  Business: "businesses",
  Page: "pages",
  NextBox: "next_boxes",
  Plan: "plans",
  Addon: "addons",
  Subscription: "subscriptions",
  SubscriptionAddon: "subscription_addons",
  SubscriptionChange: "subscription_changes",
  Skip: "skips",
  Order: "orders",
};

/** Columns are the fields' names in snake case (prisma/schema.prisma maps every one that way). */
const column = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Rows of another model attached under a key of their own (not a Prisma relation), e.g. a change's plan. */
export interface Extra {
  model: Model;
  list: boolean;
  /** SQL condition tying the extra rows (alias `child`) to the row (alias `parent`). */
  where: (parent: string, child: string) => string;
  orderBy?: (child: string) => string;
}

export interface Shape {
  relations?: Record<string, Shape>;
  extras?: Record<string, Extra>;
  /** SQL order of a list relation (default: id). */
  orderBy?: (alias: string) => string;
  /** A Prisma `orderBy` a query may give this relation: the one `orderBy` produces. */
  accepts?: unknown;
}

type Query = { select?: Record<string, unknown> | null; include?: Record<string, unknown> | null; [arg: string]: unknown };

function field(model: Model, name: string) {
  return MODELS[model].fields.find((f) => f.name === name);
}

/** True when `query` asks this model for scalars and for relations of `shape` only (no filters, pages, counts). */
export function covers(model: Model, query: unknown, shape: Shape, allowed: string[] = ["select", "include"]): boolean {
  if (query === true || query == null) return true;
  if (typeof query !== "object") return false;
  for (const [arg, value] of Object.entries(query as Query)) {
    if (value == null) continue;
    if (arg === "orderBy" && shape.accepts !== undefined && JSON.stringify(value) === JSON.stringify(shape.accepts)) continue;
    if (!allowed.includes(arg)) return false;
    if (arg !== "select" && arg !== "include") continue;
    for (const [name, sub] of Object.entries(value as Record<string, unknown>)) {
      if (sub === false || sub == null) continue;
      const f = field(model, name);
      if (!f) return false; // _count and the like
      if (f.kind !== "object") continue;
      const nested = shape.relations?.[name];
      if (!nested || !covers(f.type as Model, sub, nested)) return false;
    }
  }
  return true;
}

/** `shape` cut down to the relations `query` asks for (call after `covers`). */
export function pruned(model: Model, query: unknown, shape: Shape): Shape {
  if (!query || typeof query !== "object") return { ...shape, relations: {} };
  const { select, include } = query as Query;
  const relations: Record<string, Shape> = {};
  for (const m of [select, include]) {
    for (const [name, sub] of Object.entries(m ?? {})) {
      const f = field(model, name);
      if (sub && f?.kind === "object" && shape.relations?.[name]) relations[name] = pruned(f.type as Model, sub, shape.relations[name]);
    }
  }
  return { ...shape, relations };
}

/** True when `query` asks for a relation (a scalars-only query is one plain Prisma statement anyway). */
export function asksRelations(model: Model, query: unknown): boolean {
  if (!query || typeof query !== "object") return false;
  const { select, include } = query as Query;
  return [select, include].some((m) => m && Object.entries(m).some(([name, v]) => v && field(model, name)?.kind === "object"));
}

/** The condition joining a relation's rows (alias `child`) to its parent row (alias `parent`). */
function joinCondition(model: Model, name: string, parent: string, child: string): string {
  const f = field(model, name)!;
  if (f.relationFromFields?.length) return `${child}.id = ${parent}.${column(f.relationFromFields[0])}`;
  const back = MODELS[f.type as Model].fields.find((g) => g.relationName === f.relationName && g.relationFromFields?.length);
  if (!back) throw new Error(`json-rows: no foreign key for ${model}.${name}`);
  return `${child}.${column(back.relationFromFields![0])} = ${parent}.id`;
}

function table(model: Model): string {
  const t = TABLES[model];
  if (!t) throw new Error(`json-rows: no table for ${model}`);
  return t;
}

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

/** A row as Prisma gives it: every scalar under its field name, DateTime as Date; relations and extras decoded. */
function decode(model: Model, json: Record<string, unknown>, shape: Shape): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const f of MODELS[model].fields) {
    if (f.kind === "object") continue;
    const v = json[column(f.name)];
    row[f.name] = f.type === "DateTime" && typeof v === "string" ? new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(v) ? v : `${v}Z`) : (v ?? null);
  }
  const nested = (m: Model, v: unknown, s: Shape) =>
    Array.isArray(v) ? v.map((x) => decode(m, x as Record<string, unknown>, s)) : v ? decode(m, v as Record<string, unknown>, s) : null;
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

/** One statement: the rows of `model` matching `q`, each with the relations of `shape`. */
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
  return rows.map((r) => decode(model, (typeof r.row === "string" ? JSON.parse(r.row) : r.row) as Record<string, unknown>, shape) as T);
}
