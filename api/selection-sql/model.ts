/**
 * What the SQL loaders of ./index.ts know of the Prisma datamodel (getDatamodel, the one reading of it): each
 * model's table and fields, a field's column (snake case), how a column's value becomes the value Prisma
 * returns (the one decoding of enums, Json and DateTime), and the rule deciding whether a Prisma selection
 * (a Pothos `query`, `select` or `include`) asks for no more than a statement carries (`covers`), so that the
 * caller otherwise loads through Prisma with the same selection.
 */
import { getDatamodel } from "../generated/pothos-types.ts";
import { timestampOf } from "../db.ts";

const MODELS = getDatamodel().datamodel.models;
export type Model = keyof typeof MODELS & string;
export type Field = (typeof MODELS)[Model]["fields"][number];

/** A Prisma query as the loaders receive it: a selection, perhaps with other arguments. */
export type Query = { select?: Record<string, unknown> | null; include?: Record<string, unknown> | null; [arg: string]: unknown };

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
  Coupon: "coupons",
  CouponRedemption: "coupon_redemptions",
};

export function table(model: Model): string {
  const t = TABLES[model];
  if (!t) throw new Error(`selection-sql: no table for ${model}`);
  return t;
}

/** Columns are the fields' names in snake case (prisma/schema.prisma maps every one that way; tests/integration/memberships-list.test.ts checks it). */
export const column = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export function field(model: Model, name: string): Field | undefined {
  return MODELS[model].fields.find((f) => f.name === name);
}

const SCALARS = new Map<Model, Field[]>();
/** A model's scalar and enum fields, in the datamodel's order. */
export function scalarsOf(model: Model): Field[] {
  let scalars = SCALARS.get(model);
  if (!scalars) SCALARS.set(model, (scalars = MODELS[model].fields.filter((f) => f.kind === "scalar" || f.kind === "enum")));
  return scalars;
}

/** A timestamp as Prisma returns it: a Date (JSON gives `2026-01-02T03:04:05.678` for a timestamp without zone: UTC). */
export function toDate(v: unknown): unknown {
  if (typeof v !== "string") return v ?? null;
  return timestampOf(v);
}

/** How a statement's column reads a field as Prisma returns it; null when it cannot (lists, Decimal, Bytes…). */
export function columnReader(alias: string, f: Field): { sql: string; decode: (v: unknown) => unknown } | null {
  if (f.isList) return null;
  const col = `${alias}.${column(f.name)}`;
  if (f.kind === "enum") return { sql: `${col}::text`, decode: asIs };
  if (f.type === "DateTime") return { sql: col, decode: toDate };
  if (f.type === "Int" || f.type === "String" || f.type === "Boolean") return { sql: col, decode: asIs };
  // JSON as text, parsed here: the same value on every driver adapter.
  if (f.type === "Json") return { sql: `${col}::text`, decode: parseJson };
  return null;
}
const asIs = (v: unknown) => v ?? null;
const parseJson = (v: unknown) => (v == null ? null : JSON.parse(v as string));

/** The condition joining a relation's row (alias `child`) to its parent row (alias `parent`), on the foreign key. */
export function joinCondition(model: Model, name: string, parent: string, child: string): string {
  const f = field(model, name)!;
  if (f.relationFromFields?.length) return `${child}.id = ${parent}.${column(f.relationFromFields[0])}`;
  const back = MODELS[f.type].fields.find((g) => g.relationName === f.relationName && g.relationFromFields?.length);
  if (!back) throw new Error(`selection-sql: no foreign key for ${model}.${name}`);
  return `${child}.${column(back.relationFromFields![0])} = ${parent}.id`;
}

/** Rows of another model attached under a key of their own (not a Prisma relation), e.g. a change's plan. */
interface Extra {
  model: Model;
  list: boolean;
  /** SQL condition tying the extra rows (alias `child`) to the row (alias `parent`). */
  where: (parent: string, child: string) => string;
  orderBy?: (child: string) => string;
}

/** The relations one statement may load with a model's rows (nested), and rows attached under keys of their own. */
export interface Shape {
  relations?: Record<string, Shape>;
  extras?: Record<string, Extra>;
  /** SQL order of a list relation (default: id). */
  orderBy?: (alias: string) => string;
  /** A Prisma `orderBy` a query may give this relation: the one `orderBy` produces. */
  accepts?: unknown;
}

/**
 * True when `query` asks this model for scalars and for relations of `shape` only (no filters, pages, counts):
 * the statement answers it. False: load through Prisma with the same query.
 */
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
      if (!nested || !covers(f.type, sub, nested)) return false;
    }
  }
  return true;
}

/** A shape as one query asks for it: the scalars it selects (all of them without a `select`), its relations cut down likewise. */
export interface PrunedShape extends Shape {
  relations: Record<string, PrunedShape>;
  scalars: Field[];
}

/** `shape` cut down to the scalars and relations `query` asks for (call after `covers`), as Prisma answers it. */
export function pruned(model: Model, query: unknown, shape: Shape): PrunedShape {
  const all = scalarsOf(model);
  if (!query || typeof query !== "object") return { ...shape, relations: {}, scalars: all };
  const { select, include } = query as Query;
  const relations: Record<string, PrunedShape> = {};
  for (const m of [select, include]) {
    for (const [name, sub] of Object.entries(m ?? {})) {
      const f = field(model, name);
      if (sub && f?.kind === "object" && shape.relations?.[name]) relations[name] = pruned(f.type, sub, shape.relations[name]);
    }
  }
  return { ...shape, relations, scalars: select ? all.filter((f) => select[f.name]) : all };
}

/** True when `query` asks for a relation (a scalars-only query is one plain Prisma statement anyway). */
export function asksRelations(model: Model, query: unknown): boolean {
  if (!query || typeof query !== "object") return false;
  const { select, include } = query as Query;
  return [select, include].some((m) => m && Object.entries(m).some(([name, v]) => v && field(model, name)?.kind === "object"));
}
