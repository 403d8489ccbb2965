import { BLACK, contrastRatio, MIN_TEXT_CONTRAST, readableText } from "@shared/contrast.ts";
import { footerButtonColors, isDarkBackground } from "../../../lib/color.ts";
import type { PageDraft } from "./draft.ts";
import { DEFAULT_THEME } from "@shared/theme.ts";

export interface ContrastWarning {
  /** Which pair: the theme panel shows "primary", the footer panel "footerButton". */
  pair: "primary" | "footerButton";
  message: string;
}

function warning(pair: ContrastWarning["pair"], surface: string, text: string, bg: string, chosen: string): ContrastWarning | null {
  const ratio = contrastRatio(chosen, bg);
  if (ratio === null || ratio >= MIN_TEXT_CONTRAST) return null;
  const shown = readableText(bg, chosen) === BLACK ? "black" : "white";
  return {
    pair,
    message: `Low contrast: ${text} on ${surface} is ${ratio.toFixed(1)}:1 (4.5:1 is needed), so the page shows it in ${shown} to keep it readable.`,
  };
}

/**
 * The theme's text/background pairs that cannot reach WCAG's 4.5:1 as chosen: the page keeps the stored colours
 * but paints black or white text there (lib/color.ts), and the editor says so before the owner saves.
 */
export function themeContrastWarnings(theme: PageDraft["theme"]): ContrastWarning[] {
  const footerBg = footerButtonColors(theme).bg;
  const footerText = theme.footerButtonText || (isDarkBackground(theme.pageBg) ? "#111827" : "#ffffff");
  return [
    warning("primary", "the primary colour", "the primary text", theme.primary || DEFAULT_THEME.primary, theme.primaryText || DEFAULT_THEME.primaryText),
    warning("footerButton", "the footer button background", "the footer button text", footerBg, footerText),
  ].filter((w): w is ContrastWarning => w !== null);
}
