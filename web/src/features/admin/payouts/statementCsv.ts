import { apiHeaders } from "../../../lib/tenant.ts";

/** The server's streamed statement of a month (docs/payments.md, "Statements"). */
function statementCsvPath(businessId: number, month: string): string {
  return `/api/admin/businesses/${businessId}/statements/${month}.csv`;
}

/** Fetched with the bearer token (a plain link cannot send it), then saved as a blob by the caller. */
export async function fetchStatementCsv(businessId: number, month: string): Promise<{ csv: Blob; filename: string }> {
  const path = statementCsvPath(businessId, month);
  const response = await fetch(path, { credentials: "include", headers: apiHeaders({ requestPath: path, pagePath: window.location.pathname }) });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: string } | null;
    throw new Error(body?.error || `HTTP ${response.status}`);
  }
  const filename = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? `statement-${month}.csv`;
  return { csv: await response.blob(), filename };
}
