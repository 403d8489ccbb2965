/** The portal's JSON-rows loader moved to api/selection-sql; `covers` stays importable here for schema.ts. */
export { covers } from "../selection-sql/index.ts";
