/**
 * Business slugs (spec §1, §5): the subdomain a business is served at, {slug}.{PUBLIC_HOST}. Lower-case letters,
 * digits and single dashes, no leading or trailing dash, at most 63 characters (one DNS label). Dependency-free:
 * the server validates with it and the web app (alias `@shared`) previews with it, so the preview is what the
 * server will store.
 */

/** The longest DNS label. */
export const SLUG_MAX_LENGTH = 63;

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Any text to slug form: accents dropped, runs of anything else one dash ("Café & Co!" → "cafe-co"). */
export function normalizeSlug(input: string): string {
  return input
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^-|-$/g, "");
}

export function isValidSlug(slug: string): boolean {
  return slug.length <= SLUG_MAX_LENGTH && SLUG.test(slug);
}

/** A new business's slug: the typed subdomain when there is one, else one derived from the name. */
export function slugFor(name: string, slug?: string | null): string {
  return normalizeSlug(slug?.trim() ? slug : name);
}
