import { lexicographicSortSchema, printSchema } from "graphql";
import { builder } from "./builder.ts";
import "./errors.ts";
import { checkNodeReadRules } from "./node.ts";
// Each domain registers its types, queries and mutations on the shared builder.
import "../users/schema.ts";
import "../businesses/schema.ts";
import "../pages/schema.ts";
import "../catalog/schema.ts";
import "../subscriptions/schema.ts";
import "../subscriptions/portal-schema.ts";
import "../subscriptions/memberships-schema.ts";
import "../subscriptions/mutations-schema.ts";
import "../billing/schema.ts";
import "../coupons/schema.ts";
import "../metrics/schema.ts";
import "../jobs/schema.ts";
import "../mail/schema.ts";
import "../fulfilment/schema.ts";

export const schema = builder.toSchema({ sortSchema: false });
// Every Node type has a read rule for node(id:)/nodes(ids:), or the server does not start.
checkNodeReadRules(schema);
const sortedSchema = () => lexicographicSortSchema(schema);
/** The SDL committed as schema.graphql (relay-compiler reads it). */
export const printedSchema = () => printSchema(sortedSchema()) + "\n";
