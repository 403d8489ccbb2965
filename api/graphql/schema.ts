import { lexicographicSortSchema, printSchema } from "graphql";
import { builder } from "./builder.ts";
import "./errors.ts";
import { checkNodeReadRules } from "./node.ts";
// Each domain registers its types, queries and mutations on the shared builder.
import "./types/users.ts";
import "./types/businesses.ts";
import "./types/pages.ts";
import "./types/catalog.ts";
import "./types/memberships/membership.ts";
import "./types/memberships/portal.ts";
import "./types/memberships/list.ts";
import "./types/memberships/mutations.ts";
import "./types/memberships/skips.ts";
import "./types/memberships/cancellation.ts";
import "./types/memberships/member-page.ts";
import "./types/billing.ts";
import "./types/coupons.ts";
import "./types/metrics.ts";
import "./types/jobs.ts";
import "./types/mail.ts";
import "./types/packing.ts";
import "./types/payouts.ts";
import "./types/statements.ts";
import "./types/fees-collected.ts";
import "./types/payout-balance.ts";

export const schema = builder.toSchema({ sortSchema: false });
// Every Node type has a read rule for node(id:)/nodes(ids:), or the server does not start.
checkNodeReadRules(schema);
const sortedSchema = () => lexicographicSortSchema(schema);
/** The SDL committed as schema.graphql (relay-compiler reads it). */
export const printedSchema = () => printSchema(sortedSchema()) + "\n";
