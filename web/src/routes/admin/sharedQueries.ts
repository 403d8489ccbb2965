/**
 * The query artifacts of components several admin routes share (the sidebar's API Tokens gate, the business
 * filter), as adminRoutes.tsx preloads them. Imported through this module: imported directly, the bundler
 * builds their module namespace with a runtime helper, and that helper's chunk then loads on every public page.
 */
export { default as apiTokensNavGateQuery } from "../../features/admin/api-tokens/__generated__/ApiTokensNavGateQuery.graphql.ts";
export { default as businessFilterQuery } from "../../features/admin/__generated__/BusinessFilterQuery.graphql.ts";
