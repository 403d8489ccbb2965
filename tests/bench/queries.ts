/**
 * The operations measured by the benchmarks and counted by tests/integration/statement-counts.test.ts: the
 * GraphQL documents the web app really sends (read from Relay's generated artifacts, so they follow the
 * components' fragments) plus a paginated memberships query and the REST routes of the same screens.
 */
import fs from "node:fs";

const root = new URL("../../", import.meta.url);

/** The operation text of a Relay artifact (`params.text`). */
export function relayOperation(artifact: string): string {
  const source = fs.readFileSync(new URL(artifact, root), "utf8");
  const m = /"text": ("(?:[^"\\]|\\.)*")/.exec(source);
  if (!m) throw new Error(`No operation text in ${artifact}`);
  return JSON.parse(m[1]) as string;
}

/** Public business page: page, theme, plans with variations, add-ons, member count (BusinessRoute). */
export const businessPageQuery = () => relayOperation("web/src/routes/__generated__/BusinessRouteQuery.graphql.ts");
/** Member portal: memberships with next box, windows, pending change, order history, profile, card (MembershipRoute). */
export const portalViewerQuery = () => relayOperation("web/src/routes/__generated__/MembershipRouteQuery.graphql.ts");
/** Business dashboard: totals, monthly figures, recent memberships (BusinessDashboardRoute). */
export const dashboardQuery = () => relayOperation("web/src/routes/admin/__generated__/BusinessDashboardRouteQuery.graphql.ts");

/** The admin memberships table (the fields of MembershipsPanel), one page at a time. */
export const membershipsPageQuery = `query MembershipsPage($first: Int!, $after: String, $search: String, $status: MembershipStatusFilter, $businessId: Int) {
  memberships(first: $first, after: $after, search: $search, status: $status, businessId: $businessId) {
    edges {
      node {
        id
        databaseId
        providerSubscriptionId
        userPublicId
        username
        email
        status
        startedAt
        canceledAt
        planName
        business { slug name id }
      }
    }
    pageInfo { hasNextPage endCursor }
  }
}`;
