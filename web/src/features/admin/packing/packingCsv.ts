export type PackingMode = "pickup" | "delivery" | "shipping";

/** The server's streamed packing list of a month (docs/fulfilment.md): one mode, or all three. */
export function packingCsvPath(businessId: number, month: string, mode: PackingMode | null): string {
  return `/api/admin/businesses/${businessId}/fulfilment/${month}/packing.csv${mode ? `?mode=${mode}` : ""}`;
}
