/**
 * Spec §5 business create: lower-case letters, digits and single dashes, no leading or trailing dash. The
 * server derives the same from the name when the slug is left out.
 */
export function normaliseSlug(input: string): string {
  return input
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^-|-$/g, "");
}

/** What the create form previews: the typed subdomain, else one derived from the name. */
export function slugPreview(name: string, slug: string): string {
  return normaliseSlug(slug.trim() ? slug : name);
}
