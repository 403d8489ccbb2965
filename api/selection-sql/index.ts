/**
 * Prisma-shaped rows in one SQL statement, from the selection a caller is asked for (a Pothos `query`, `select`
 * or `include`): the one place that reads the Prisma datamodel for it, names columns and decodes their values.
 * Two forms: a flat statement with joined to-one relations (./joined.ts: the memberships list, the dashboard's
 * recent memberships) and rows with nested relations as JSON built by PostgreSQL (./json.ts: the member portal).
 * `covers` decides whether a selection asks for no more than the statement carries; when it does not, the
 * caller loads through Prisma with the same selection.
 */
export { asksRelations, column, covers,    type Query, type Shape } from "./model.ts";
export { compileJoined, type Joinable,  joinSql, readJoined } from "./joined.ts";
export { loadRows,  } from "./json.ts";
