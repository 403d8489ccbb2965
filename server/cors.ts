import { isValidSlug } from "../api/shared/slug.ts";

/**
 * The one CORS policy of the server (`/graphql`, `/api` and every other route; graphql-yoga's own CORS is off).
 *
 * An origin is allowed when it is exactly the main host (`PUBLIC_HOST`, port included) or one of its tenant
 * subdomains `{slug}.{PUBLIC_HOST}` (one label, a valid slug, not `www`), with an allowed scheme:
 * - production: `https` only (the public site is served over TLS behind its proxy);
 * - development and test: `http` and `https` (local hosts such as `localhost:3000` run without TLS).
 * Anything else (`null`, look-alikes such as `evil-localhost:3000`, `localhost:3000.evil.com` or
 * `a.b.localhost:3000`, another port, another scheme, a path or user info in the header) is refused, and a
 * refused or absent Origin gets no `Access-Control-*` header at all: the browser then keeps the answer from
 * the other site's script. Same-origin pages need no CORS header, so refusing costs them nothing; the Vite dev
 * server proxies `/graphql` and `/api`, so its pages are same-origin too.
 */
export interface CorsPolicy {
  /** True when a browser page at `origin` may read our answers with its credentials. */
  allows(origin: string | undefined): boolean;
}

/** `scheme://host[:port]` exactly as browsers send it: no path, no user info, no trailing slash. */
const ORIGIN = /^(https?):\/\/([a-z0-9.-]+(?::\d{1,5})?)$/;

export function corsPolicy(opts: { publicHost: string; production: boolean }): CorsPolicy {
  const schemes = opts.production ? ["https"] : ["http", "https"];
  // The main host as each scheme's origin writes it (a default port such as :443 for https is left out).
  const mainHost = new Map<string, string>();
  for (const scheme of schemes) {
    try {
      mainHost.set(scheme, new URL(`${scheme}://${opts.publicHost.toLowerCase()}`).host);
    } catch {
      // A PUBLIC_HOST that is no host allows no origin.
    }
  }
  return {
    allows(origin) {
      if (!origin) return false;
      const m = ORIGIN.exec(origin.toLowerCase());
      if (!m) return false;
      const [, scheme, host] = m;
      const main = mainHost.get(scheme);
      if (!main) return false;
      if (host === main) return true;
      if (!host.endsWith(`.${main}`)) return false;
      const label = host.slice(0, -(main.length + 1));
      return !label.includes(".") && label !== "www" && isValidSlug(label);
    },
  };
}
