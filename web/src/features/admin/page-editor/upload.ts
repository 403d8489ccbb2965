import { apiHeaders } from "../../../lib/tenant.ts";

const UPLOAD_PATH = "/api/admin/upload";

/**
 * POST /api/admin/upload (multipart field `file`, bearer): the stored file's URL (spec §7). Naming the business
 * lets its editors upload (without it only administrators may).
 */
export async function uploadImage(file: File, businessId?: number): Promise<string> {
  const form = new FormData();
  form.append("file", file);
  const target = businessId ? `${UPLOAD_PATH}?business_id=${businessId}` : UPLOAD_PATH;
  const response = await fetch(target, {
    method: "POST",
    credentials: "include",
    headers: apiHeaders({ requestPath: UPLOAD_PATH, pagePath: window.location.pathname }),
    body: form,
  });
  const body = await response.json().catch(() => null);
  const url: unknown = body?.file?.url;
  if (!response.ok || typeof url !== "string") throw new Error(body?.error || body?.message || `Upload failed (HTTP ${response.status})`);
  // A relative URL is served by the API host, which is this origin.
  return new URL(url, window.location.origin).toString().replace(window.location.origin, "");
}
