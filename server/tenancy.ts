/**
 * Tenant resolution (spec §1, §7): a business is served at {slug}.{PUBLIC_HOST}; requests may also name the
 * tenant in the X-Tenant header. What a slug is: api/shared/slug.ts.
 */
import { isValidSlug } from "../api/shared/slug.ts";

const stripPort = (host: string) => host.replace(/:\d+$/, "");

/** The tenant slug when `host` is a tenant subdomain of `publicHost` ("acme.example.com" → "acme"), else null. */
export function tenantFromHost(host: string | undefined, publicHost: string): string | null {
  if (!host) return null;
  const h = stripPort(host.toLowerCase());
  const main = stripPort(publicHost.toLowerCase());
  if (!h.endsWith(`.${main}`)) return null;
  const label = h.slice(0, -(main.length + 1));
  return label && !label.includes(".") && isValidSlug(label) && label !== "www" ? label : null;
}

/** The request's tenant: X-Tenant header wins, then the host's subdomain. */
export function requestTenant(headers: { host?: string; "x-tenant"?: string | string[] }, publicHost: string): string | null {
  const header = Array.isArray(headers["x-tenant"]) ? headers["x-tenant"][0] : headers["x-tenant"];
  const fromHeader = header?.trim().toLowerCase();
  if (fromHeader && isValidSlug(fromHeader)) return fromHeader;
  return tenantFromHost(headers.host, publicHost);
}
