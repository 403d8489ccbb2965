/**
 * Colour contrast by WCAG 2.x (relative luminance, contrast ratio; success criterion 1.4.3): a business's theme
 * must never make text unreadable. The stored theme keeps the colours the owner chose (spec §3 defaults
 * included); where the web app paints text on a theme colour it asks readableText() which text colour to use.
 * Dependency-free: the web app imports it as "@shared/contrast.ts", the page editor warns with it.
 */

/** WCAG AA for normal-size text. */
export const MIN_TEXT_CONTRAST = 4.5;

export const BLACK = "#000000";
export const WHITE = "#ffffff";

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

/** Parses #rgb, #rrggbb or #rrggbbaa (the alpha is ignored); null for anything else (e.g. "transparent", ""). */
export function parseHexColor(color: string): Rgb | null {
  const hex = color.trim().replace(/^#/, "");
  if (!/^[0-9a-f]+$/i.test(hex)) return null;
  const full = hex.length === 3 ? hex.split("").map((c) => c + c).join("") : hex.length === 6 || hex.length === 8 ? hex.slice(0, 6) : null;
  if (!full) return null;
  return { r: parseInt(full.slice(0, 2), 16), g: parseInt(full.slice(2, 4), 16), b: parseInt(full.slice(4, 6), 16) };
}

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** WCAG relative luminance, 0 (black) to 1 (white); null when the colour cannot be parsed. */
export function relativeLuminance(color: string): number | null {
  const rgb = parseHexColor(color);
  return rgb ? 0.2126 * channel(rgb.r) + 0.7152 * channel(rgb.g) + 0.0722 * channel(rgb.b) : null;
}

/** The WCAG contrast ratio of two colours, 1 to 21; null when either cannot be parsed. */
export function contrastRatio(a: string, b: string): number | null {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  if (la === null || lb === null) return null;
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** True when text of colour `text` on `background` reaches 4.5:1 (unparseable colours are not judged: true). */
export function isReadable(text: string, background: string): boolean {
  const ratio = contrastRatio(text, background);
  return ratio === null || ratio >= MIN_TEXT_CONTRAST;
}

/**
 * The text colour to paint on `background`: the preferred (stored) colour when it reaches 4.5:1, otherwise black
 * or white, whichever contrasts more (one of them always reaches 4.5:1). A background that cannot be parsed
 * keeps the preferred colour; an unparseable preferred colour on a known background gets black or white.
 */
export function readableText(background: string, preferred: string): string {
  const bg = relativeLuminance(background);
  if (bg === null) return preferred;
  const ratio = contrastRatio(preferred, background);
  if (ratio !== null && ratio >= MIN_TEXT_CONTRAST) return preferred;
  // Contrast with black is (L + 0.05) / 0.05, with white 1.05 / (L + 0.05): black wins above L ≈ 0.179.
  return (bg + 0.05) / 0.05 >= 1.05 / (bg + 0.05) ? BLACK : WHITE;
}
