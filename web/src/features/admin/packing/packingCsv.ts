import { apiHeaders } from "../../../lib/tenant.ts";

export type PackingMode = "pickup" | "delivery" | "shipping";

/** The server's streamed packing list of a month (docs/fulfilment.md): one mode, or all three. */
export function packingCsvPath(businessId: number, month: string, mode: PackingMode | null): string {
  return `/api/admin/businesses/${businessId}/fulfilment/${month}/packing.csv${mode ? `?mode=${mode}` : ""}`;
}

/** Fetched with the bearer token (a plain link cannot send it), then saved as a blob by the caller. */
export async function fetchPackingCsv(businessId: number, month: string, mode: PackingMode | null): Promise<{ csv: Blob; filename: string }> {
  const path = packingCsvPath(businessId, month, mode);
  const response = await fetch(path, { credentials: "include", headers: apiHeaders({ requestPath: path.split("?")[0], pagePath: window.location.pathname }) });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: string } | null;
    throw new Error(body?.error || `HTTP ${response.status}`);
  }
  const filename = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? "packing.csv";
  return { csv: await response.blob(), filename };
}
