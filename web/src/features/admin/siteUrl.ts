const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[?::1\]?)$/i;

/**
 * Spec §2 View Site: /b/{slug} on localhost or loopback hosts, otherwise the tenant subdomain of the main
 * host ({slug}.{host}).
 */
export function viewSiteUrl(slug: string, location: Pick<Location, "protocol" | "hostname" | "host">): string {
  if (LOOPBACK.test(location.hostname)) return `/b/${encodeURIComponent(slug)}`;
  return `${location.protocol}//${slug}.${location.host}/`;
}
