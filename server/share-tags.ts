/**
 * Search and share tags of a business page: the `<head>` lines a crawler or a link preview reads from
 * the HTML of `/b/{slug}` and of a tenant's home page, before any script runs. Pure functions: the business is
 * read by server/web-app.ts through the domain services.
 */

/** Text or attribute value made inert in HTML (every context the tags use: element text and quoted attributes). */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The few entities an HTML title is likely to carry, read back as text. */
function decodeHtml(html: string): string {
  return html
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
    .replace(/&amp;/g, "&");
}

/** Search results show about 160 characters of a description: cut at a word edge, with an ellipsis. */
const DESCRIPTION_LENGTH = 160;

function shortDescription(text: string, max = DESCRIPTION_LENGTH): string {
  const plain = text.replace(/\s+/g, " ").trim();
  if (plain.length <= max) return plain;
  const cut = plain.slice(0, max - 1);
  const edge = cut.lastIndexOf(" ");
  return `${(edge > max / 2 ? cut.slice(0, edge) : cut).replace(/[\s,;:.–-]+$/, "")}…`;
}

export interface BusinessShare {
  name: string;
  /** Plain text (the page's rich text stripped); empty when the page has none. */
  description: string;
  url: string;
  /** Absolute image URL: the gallery's primary image, else the logo. */
  image: string | null;
}

/**
 * The app shell's head, split once: the template's own `<title>` and description are replaced per business,
 * everything else (charset, viewport, icon, the built scripts) is kept.
 */
export class ShellTemplate {
  readonly html: string;
  /** The site's name as text, from the template's title ("Harvest & Hearth Memberships"). */
  readonly siteName: string;
  /** The template's own description, used when a business page has none. */
  readonly defaultDescription: string;
  private readonly before: string;
  private readonly after: string;

  constructor(html: string) {
    this.html = html;
    const title = /<title>([\s\S]*?)<\/title>/i.exec(html);
    this.siteName = title ? decodeHtml(title[1].trim()) : "";
    const description = /<meta\s+name=["']description["']\s+content=["']([^"']*)["'][^>]*>\s*/i.exec(html);
    this.defaultDescription = description ? decodeHtml(description[1]) : "";
    const stripped = description ? html.replace(description[0], "") : html;
    const at = title ? stripped.indexOf(title[0]) : stripped.search(/<\/head>/i);
    const end = title ? at + title[0].length : at;
    this.before = at >= 0 ? stripped.slice(0, at) : stripped;
    this.after = at >= 0 ? stripped.slice(end) : "";
  }

  /** The head lines of a business page: title, description, canonical URL, Open Graph and Twitter card. */
  businessTags(b: BusinessShare): string {
    const title = this.siteName ? `${b.name} · ${this.siteName}` : b.name;
    const description = shortDescription(b.description) || this.defaultDescription;
    const meta = (attr: "name" | "property", key: string, value: string) => `<meta ${attr}="${key}" content="${escapeHtml(value)}" />`;
    return [
      `<title>${escapeHtml(title)}</title>`,
      meta("name", "description", description),
      `<link rel="canonical" href="${escapeHtml(b.url)}" />`,
      meta("property", "og:type", "website"),
      ...(this.siteName ? [meta("property", "og:site_name", this.siteName)] : []),
      meta("property", "og:title", b.name),
      meta("property", "og:description", description),
      meta("property", "og:url", b.url),
      ...(b.image ? [meta("property", "og:image", b.image)] : []),
      meta("name", "twitter:card", b.image ? "summary_large_image" : "summary"),
    ].join("\n    ");
  }

  /** The shell with these head lines in place of the template's title and description. */
  withHead(tags: string): string {
    return `${this.before}${tags}${this.after}`;
  }
}
