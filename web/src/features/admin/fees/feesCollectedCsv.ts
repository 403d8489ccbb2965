import { apiHeaders } from "../../../lib/tenant.ts";

/** The server's fees collected of a month (docs/payments.md, "Fees collected"), fetched with the bearer token. */
export async function fetchFeesCollectedCsv(month: string): Promise<{ csv: Blob; filename: string }> {
  const path = `/api/admin/fees/${month}.csv`;
  const response = await fetch(path, { credentials: "include", headers: apiHeaders({ requestPath: path, pagePath: window.location.pathname }) });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: string } | null;
    throw new Error(body?.error || `HTTP ${response.status}`);
  }
  const filename = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? `fees-collected-${month}.csv`;
  return { csv: await response.blob(), filename };
}
