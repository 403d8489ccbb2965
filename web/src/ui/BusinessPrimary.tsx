import type { ButtonProps } from "@chakra-ui/react";
import { createContext, useContext, type ReactNode } from "react";
import { primaryButtonColors } from "../lib/color.ts";

/** The theme colours of a business's call-to-action buttons (spec §3 page theme). */
export interface PrimaryTheme {
  primary: string;
  primaryText: string;
  buttonBorder: string;
}

const PrimaryThemeContext = createContext<PrimaryTheme | null>(null);

/**
 * One primary colour per surface. A business's surfaces (its page, its checkout, its membership's card in
 * the portal, and their dialogs, which React context reaches through portals) paint their primary buttons in the
 * business's theme, as the business page's Checkout button; elsewhere they keep the platform's orange.
 */
export function BusinessPrimary({ theme, children }: { theme: PrimaryTheme | null; children: ReactNode }) {
  return <PrimaryThemeContext.Provider value={theme}>{children}</PrimaryThemeContext.Provider>;
}

/**
 * A primary button's colours: the business's primary with black or white text where its own text colour would not
 * reach WCAG AA's 4.5:1 (lib/color.ts), darkened on hover; the platform's orange outside a business.
 */
export function primaryButtonProps(theme: PrimaryTheme | null): ButtonProps {
  if (!theme) return { colorPalette: "orange" };
  const { bg, color, borderColor } = primaryButtonColors(theme);
  const hover = { bg, filter: "brightness(0.92)" };
  return { bg, color, borderColor, _hover: hover, _expanded: hover };
}

/** The primary button's colours (primaryButtonProps) of the business whose surface this is, if any. */
export function usePrimaryButton(): ButtonProps {
  return primaryButtonProps(useContext(PrimaryThemeContext));
}
