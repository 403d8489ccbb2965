/**
 * The query artifacts of components several admin routes share (the sidebar's gate of Coupons, API Tokens and Payouts,
 * the business filter), as adminRoutes.tsx preloads them. Imported through this module: imported directly, the bundler
 * builds their module namespace with a runtime helper, and that helper's chunk then loads on every public page.
 */
export { default as businessNavGateQuery } from "../../features/admin/__generated__/BusinessNavGateQuery.graphql.ts";
export { default as businessFilterQuery } from "../../features/admin/__generated__/BusinessFilterQuery.graphql.ts";
