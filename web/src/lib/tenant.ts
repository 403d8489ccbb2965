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
 * tenant, the stored selection's business slug. /api/admin calls carry no tenant.
 *
 * The bearer token: GraphQL (the web app's API) always carries it, since one login manages every membership the
 * member holds at any business (the server accepts a member's session on every tenant there). The
 * other /api routes keep spec §7: the token goes only when the session's tenant matches the request's tenant (or
 * either is unknown), as the server still refuses it on another tenant there.
 */
export function apiHeaders({ requestPath, pagePath, store }: RequestHeadersInput): Record<string, string> {
  const headers: Record<string, string> = {};
  const token = readItem(STORAGE_KEYS.authToken, store);
  if (requestPath.startsWith("/api/admin")) {
    if (token) headers.Authorization = `Bearer ${token}`;
    return headers;
  }
  const oneLogin = requestPath === "/graphql" || requestPath.startsWith("/graphql?");
  const tenant =
    tenantFromPath(requestPath) ??
    tenantFromPath(pagePath) ??
    readItem(STORAGE_KEYS.currentTenant, store)?.toLowerCase() ??
    readJson<{ businessSlug?: string }>(STORAGE_KEYS.membershipSelection, store)?.businessSlug?.toLowerCase() ??
    null;
  if (tenant) headers["X-Tenant"] = tenant;
  const authTenant = readItem(STORAGE_KEYS.authTenant, store)?.toLowerCase() || null;
  if (token && (oneLogin || !tenant || !authTenant || tenant === authTenant)) headers.Authorization = `Bearer ${token}`;
  return headers;
}

/**
 * Spec §1/§2: a tenant subdomain is the main host with one more label in front ({slug}.{host}). The main host
 * comes from VITE_PUBLIC_HOST when the build sets it; otherwise `{slug}.localhost` and three-or-more-label
 * names (not IP addresses, not www) count as tenant hosts, the rest of the name being the main host.
 */
export function tenantHost(hostname: string, port = "", publicHost: string | undefined = import.meta.env?.VITE_PUBLIC_HOST): { slug: string; mainHost: string } | null {
  const host = hostname.toLowerCase();
  const withPort = (h: string) => (port ? `${h}:${port}` : h);
  const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
  if (publicHost) {
    const main = publicHost.toLowerCase().replace(/:\d+$/, "");
    if (!host.endsWith(`.${main}`)) return null;
    const label = host.slice(0, -(main.length + 1));
    return label && !label.includes(".") && SLUG.test(label) && label !== "www" ? { slug: label, mainHost: publicHost.toLowerCase().includes(":") ? publicHost.toLowerCase() : withPort(main) } : null;
  }
  if (/^[\d.]+$/.test(host) || host.includes(":")) return null;
  const labels = host.split(".");
  const isLocal = labels.length === 2 && labels[1] === "localhost";
  if (!isLocal && labels.length < 3) return null;
  const [label, ...rest] = labels;
  if (label === "www" || !SLUG.test(label)) return null;
  return { slug: label, mainHost: withPort(rest.join(".")) };
}

/** The tenant of the current browser host, or null on the main host. */
export function currentTenantHost(): { slug: string; mainHost: string } | null {
  if (typeof window === "undefined") return null;
  return tenantHost(window.location.hostname, window.location.port);
}
