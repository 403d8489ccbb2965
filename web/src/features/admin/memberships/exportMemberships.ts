import { getRequest, type Environment, type GraphQLTaggedNode } from "relay-runtime";
import { graphql } from "react-relay";
import { toCsv } from "@shared/csv.ts";
import type { exportMembershipsQuery, exportMembershipsQuery$data, MembershipStatusFilter } from "./__generated__/exportMembershipsQuery.graphql.ts";

/** The largest page the memberships connection serves (its maxSize). */
export const EXPORT_PAGE_SIZE = 200;

export const MEMBERSHIP_CSV_HEADER = ["subscription_id", "provider_subscription_id", "public_id", "username", "email", "business_slug", "business_name", "plan", "status", "started_at", "canceled_at"];

const ExportQuery: GraphQLTaggedNode = graphql`
  query exportMembershipsQuery($first: Int!, $after: String, $search: String, $status: MembershipStatusFilter, $businessId: Int) {
    memberships(first: $first, after: $after, search: $search, status: $status, businessId: $businessId) {
      edges {
        node {
          databaseId
          providerSubscriptionId
          userPublicId
          username
          email
          status
          startedAt
          canceledAt
          planName
          business {
            slug
            name
          }
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

type ExportPage = exportMembershipsQuery$data["memberships"];
export type MembershipFilterVariables = { search: string | null; status: MembershipStatusFilter; businessId: number | null };
/** One page of the filtered list, straight from the network (an export does not belong in the Relay store). */
export type FetchExportPage = (variables: exportMembershipsQuery["variables"]) => Promise<ExportPage>;

export function networkPageFetcher(environment: Environment): FetchExportPage {
  const params = getRequest(ExportQuery).params;
  return async (variables) => {
    const response = (await environment.getNetwork().execute(params, variables, { force: true }).toPromise());
    const body = response as { data?: exportMembershipsQuery$data; errors?: { message: string }[] } | undefined;
    if (!body?.data) throw new Error(body?.errors?.map((e) => e.message).join("; ") || "Export failed");
    return body.data.memberships;
  };
}

/**
 * Every membership of the filter as CSV, paging through the connection (the list on screen may hold only its
 * first pages). `onProgress` gets the rows fetched so far.
 */
export async function exportMembershipsCsv(fetchPage: FetchExportPage, filter: MembershipFilterVariables, onProgress?: (rows: number) => void): Promise<{ csv: string; rows: number }> {
  const rows: (string | number | null)[][] = [];
  let after: string | null = null;
  for (;;) {
    const page: ExportPage = await fetchPage({ ...filter, first: EXPORT_PAGE_SIZE, after });
    for (const { node: m } of page.edges) {
      rows.push([m.databaseId, m.providerSubscriptionId, m.userPublicId, m.username, m.email, m.business.slug, m.business.name, m.planName, m.status.toLowerCase(), m.startedAt, m.canceledAt]);
    }
    onProgress?.(rows.length);
    if (!page.pageInfo.hasNextPage || !page.pageInfo.endCursor || page.edges.length === 0) break;
    after = page.pageInfo.endCursor;
  }
  return { csv: toCsv(MEMBERSHIP_CSV_HEADER, rows), rows: rows.length };
}
