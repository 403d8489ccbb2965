import type { MembershipStatusFilter } from "./__generated__/MembershipsPanelPaginationQuery.graphql.ts";

/** The server's streamed CSV of the filtered memberships list (docs/admin.md, "Memberships CSV"). */
const EXPORT_PATH = "/api/admin/memberships.csv";

export type MembershipFilterVariables = { search: string | null; status: MembershipStatusFilter; businessId: number | null };

/**
 * The list's views of current members that the REST list's `status` does not name (it keeps the spec's statuses):
 * their download is the active memberships', whose paused_through and cancel_after columns mark them.
 */
export const exportsActive = (status: MembershipStatusFilter) => status === "PAUSED" || status === "ENDING";

/** The download's URL for the list's filters, in the REST list's query words (q, status, business). */
export function membershipsCsvUrl(filter: MembershipFilterVariables): string {
  const query = new URLSearchParams();
  if (filter.search) query.set("q", filter.search);
  if (exportsActive(filter.status)) query.set("status", "active");
  else if (filter.status !== "ANY") query.set("status", filter.status.toLowerCase());
  if (filter.businessId != null) query.set("business", String(filter.businessId));
  const text = query.toString();
  return text ? `${EXPORT_PATH}?${text}` : EXPORT_PATH;
}
