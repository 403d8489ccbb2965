import { apiHeaders } from "../../../lib/tenant.ts";
import type { MembershipStatusFilter } from "./__generated__/MembershipsPanelPaginationQuery.graphql.ts";

/** The server's streamed CSV of the filtered memberships list (docs/admin.md, "Memberships CSV"). */
const EXPORT_PATH = "/api/admin/memberships.csv";

export type MembershipFilterVariables = { search: string | null; status: MembershipStatusFilter; businessId: number | null };

/** The download's URL for the list's filters, in the REST list's query words (q, status, business). */
export function membershipsCsvUrl(filter: MembershipFilterVariables): string {
  const query = new URLSearchParams();
  if (filter.search) query.set("q", filter.search);
  if (filter.status !== "ANY") query.set("status", filter.status.toLowerCase());
  if (filter.businessId != null) query.set("business", String(filter.businessId));
  const text = query.toString();
  return text ? `${EXPORT_PATH}?${text}` : EXPORT_PATH;
}

/**
 * The whole filtered list as the server writes it (every row, not only those on screen), with the file name it
 * suggests. The route takes the bearer token, which a plain link cannot send: fetched, then saved as a blob.
 */
export async function fetchMembershipsCsv(filter: MembershipFilterVariables, fetcher: typeof fetch = fetch): Promise<{ csv: Blob; filename: string }> {
  const response = await fetcher(membershipsCsvUrl(filter), { credentials: "include", headers: apiHeaders({ requestPath: EXPORT_PATH, pagePath: window.location.pathname }) });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: string } | null;
    throw new Error(body?.error || `HTTP ${response.status}`);
  }
  const filename = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? "memberships.csv";
  return { csv: await response.blob(), filename };
}
