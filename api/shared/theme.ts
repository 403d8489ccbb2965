/**
 * A business page's theme (spec §3, §9): its colour keys and the defaults a page saved without them shows. One
 * copy for the server (stored pages, the GraphQL PageTheme, the §3 page JSON) and the web app (alias `@shared`:
 * the page, the editor and its contrast warnings). Dependency-free.
 */

export const THEME_KEYS = [
  "primary",
  "selection",
  "primaryText",
  "buttonBorder",
  "pageBg",
  "footerButtonBg",
  "footerButtonText",
  "footerButtonBorder",
] as const;
export type ThemeKey = (typeof THEME_KEYS)[number];
export type Theme = Record<ThemeKey, string>;

/** Footer button colours default to empty: the client derives them from the page background (§9). */
export const DEFAULT_THEME: Theme = {
  primary: "#f97316",
  selection: "#2563eb",
  primaryText: "#ffffff",
  buttonBorder: "transparent",
  pageBg: "#ffffff",
  footerButtonBg: "",
  footerButtonText: "",
  footerButtonBorder: "",
};
