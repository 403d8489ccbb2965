import { isReadable, parseHexColor, readableText, WHITE } from "@shared/contrast.ts";
import { DEFAULT_THEME } from "@shared/theme.ts";

/** Parses #rgb, #rrggbb or #rrggbbaa; null for anything else (e.g. "transparent"). */
function parseHex(color: string): { r: number; g: number; b: number } | null {
  const hex = color.trim().replace(/^#/, "");
  if (!/^[0-9a-f]+$/i.test(hex)) return null;
  const full = hex.length === 3 ? hex.split("").map((c) => c + c).join("") : hex.length === 6 || hex.length === 8 ? hex.slice(0, 6) : null;
  if (!full) return null;
  return { r: parseInt(full.slice(0, 2), 16), g: parseInt(full.slice(2, 4), 16), b: parseInt(full.slice(4, 6), 16) };
}

/** Perceived brightness 0–255 (ITU-R BT.601 weights). */
function brightness(color: string): number | null {
  const rgb = parseHex(color);
  return rgb ? (rgb.r * 299 + rgb.g * 587 + rgb.b * 114) / 1000 : null;
}

/** Spec §9: a background with brightness below 150 is dark. Unparseable colours count as light. */
export function isDarkBackground(color: string): boolean {
  const b = brightness(color);
  return b !== null && b < 150;
}

export interface FooterButtonColors {
  bg: string;
  text: string;
  border: string;
}

/**
 * Spec §9: footer button colours default to a dark or white variant by page background. The text is the stored
 * (or default) text colour when it reaches 4.5:1 on the button (WCAG AA), else black or white.
 */
export function footerButtonColors(theme: { pageBg: string; footerButtonBg: string; footerButtonText: string; footerButtonBorder: string }): FooterButtonColors {
  const dark = isDarkBackground(theme.pageBg);
  const bg = theme.footerButtonBg || (dark ? "#ffffff" : "#1f2937");
  return {
    bg,
    text: readableText(bg, theme.footerButtonText || (dark ? "#111827" : "#ffffff")),
    border: theme.footerButtonBorder || "transparent",
  };
}

/**
 * The business's primary (call-to-action) button: the theme's colour with its stored text colour, or black or
 * white where the stored one would not reach 4.5:1 (the spec's default white on #f97316 gives 2.8:1).
 */
export function primaryButtonColors(theme: { primary: string; primaryText: string; buttonBorder: string } | null | undefined) {
  const bg = theme?.primary || DEFAULT_THEME.primary;
  return { bg, color: readableText(bg, theme?.primaryText || DEFAULT_THEME.primaryText), borderColor: theme?.buttonBorder || DEFAULT_THEME.buttonBorder };
}

/** `a` mixed with `b` (weight of b 0–1), as hex: what a translucent white card over the page paints. */
function mix(a: string, b: string, weight: number): string {
  const x = parseHexColor(a);
  const y = parseHexColor(b);
  if (!x || !y) return a;
  const channel = (p: number, q: number) => Math.round(p * (1 - weight) + q * weight).toString(16).padStart(2, "0");
  return `#${channel(x.r, y.r)}${channel(x.g, y.g)}${channel(x.b, y.b)}`;
}

export interface PageSurface {
  /** Light text on the page (its cards are translucent white); else dark text on white cards. */
  light: boolean;
  /** Text on the page background. */
  text: string;
  /** Secondary text, on the page background and on its cards. */
  muted: string;
  /** The background of the page's cards (plans, add-ons, fulfillment, total). */
  card: string;
}

const DARK_TEXT = "#171717";
const DARK_MUTED = "#52525b";
const LIGHT_MUTED = "#e4e4e7";

/**
 * How a business page paints text on its background, readable on any of them (WCAG AA). Spec §9 makes a background
 * with brightness below 150 dark, so its text is white; where white would not reach 4.5:1 there (mid greys, pure
 * red…) the page switches to dark text on white cards instead. Muted text keeps its softer colour only where that
 * still reaches 4.5:1.
 */
export function pageSurface(pageBg: string): PageSurface {
  const bg = parseHexColor(pageBg) ? pageBg : "#ffffff";
  if (isDarkBackground(bg) && isReadable(WHITE, bg)) {
    // Cards are a 10 % white veil over the page, or none where that veil would take white text under 4.5:1.
    const veiled = mix(bg, WHITE, 0.1);
    const card = isReadable(WHITE, veiled) ? veiled : bg;
    return { light: true, text: WHITE, muted: isReadable(LIGHT_MUTED, card) ? LIGHT_MUTED : WHITE, card };
  }
  const text = readableText(bg, DARK_TEXT);
  return { light: false, text, muted: isReadable(DARK_MUTED, bg) ? DARK_MUTED : text, card: WHITE };
}
