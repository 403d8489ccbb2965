/** Public addresses of a business and of its images, as mail, share tags and uploads write them. */

/** Spec §1: a business is served at {slug}.{host}, or at /b/{slug} on localhost, loopback and IP-address hosts. */
export function businessUrl(slug: string, publicScheme: string, publicHost: string): string {
  const hostname = publicHost.replace(/:\d+$/, "");
  const local = hostname === "localhost" || hostname.endsWith(".localhost") || /^[\d.]+$/.test(hostname) || hostname.startsWith("[");
  return local ? `${publicScheme}://${publicHost}/b/${encodeURIComponent(slug)}` : `${publicScheme}://${slug}.${publicHost}/`;
}

/** An image address as an absolute http(s) URL (uploads and demo images are paths on the main host), or null. */
export function absoluteUrl(src: string | null | undefined, origin: string): string | null {
  if (!src) return null;
  try {
    const url = new URL(src, `${origin}/`);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}
