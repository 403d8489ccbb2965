import { readItem, readJson, STORAGE_KEYS, type KeyValueStore } from "./storage.ts";

const BUSINESS_PATH = /^\/b\/([^/?#]+)/i;

/** The slug of a /b/{slug} path, lower-cased, or null. */
export function tenantFromPath(pathname: string): string | null {
  const match = BUSINESS_PATH.exec(pathname);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]).toLowerCase();
  } catch {
    return null;
  }
}

export interface RequestHeadersInput {
  /** Path of the API request (e.g. /graphql or /api/admin/page). */
  requestPath: string;
  /** Path of the page the user is on. */
  pagePath: string;
  store?: KeyValueStore | null;
}

/**
 * Spec §7 header rules. Tenant, in order: /b/{slug} of the request path, of the page path, the stored current
 * tenant, the stored selection's business slug. /api/admin calls carry no tenant. The bearer token goes only
 * when the session's tenant matches the request's tenant (or either is unknown).
 */
export function apiHeaders({ requestPath, pagePath, store }: RequestHeadersInput): Record<string, string> {
  const headers: Record<string, string> = {};
  const token = readItem(STORAGE_KEYS.authToken, store);
  if (requestPath.startsWith("/api/admin")) {
    if (token) headers.Authorization = `Bearer ${token}`;
    return headers;
  }
  const tenant =
    tenantFromPath(requestPath) ??
    tenantFromPath(pagePath) ??
    readItem(STORAGE_KEYS.currentTenant, store)?.toLowerCase() ??
    readJson<{ businessSlug?: string }>(STORAGE_KEYS.membershipSelection, store)?.businessSlug?.toLowerCase() ??
    null;
  if (tenant) headers["X-Tenant"] = tenant;
  const authTenant = readItem(STORAGE_KEYS.authTenant, store)?.toLowerCase() || null;
  if (token && (!tenant || !authTenant || tenant === authTenant)) headers.Authorization = `Bearer ${token}`;
  return headers;
}
