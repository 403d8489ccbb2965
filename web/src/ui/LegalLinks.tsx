import { Link, type LinkProps } from "@chakra-ui/react";
import { Link as RouterLink } from "react-router";

interface LegalLink {
  to: string;
  label: string;
}

/** The platform footer's links. */
export const SITE_LEGAL_LINKS: readonly LegalLink[] = [
  { to: "/contact", label: "Contact" },
  { to: "/privacy-policy", label: "Privacy Policy" },
  { to: "/terms-of-use", label: "Terms of Use" },
  { to: "/refund-policy", label: "Refund Policy" },
];

/** A business page footer's links (its own contact details stand beside them). */
export const BUSINESS_LEGAL_LINKS: readonly LegalLink[] = [
  { to: "/terms-of-use", label: "Terms of Use" },
  { to: "/privacy-policy", label: "Privacy Policy" },
  { to: "/refund-policy", label: "Refund Policy" },
];

/** The legal pages as in-app links, styled by the footer that shows them. */
export function LegalLinks({ links, ...linkProps }: { links: readonly LegalLink[] } & Omit<LinkProps, "asChild" | "children">) {
  return links.map((l) => (
    <Link key={l.to} asChild fontSize="sm" {...linkProps}>
      <RouterLink to={l.to}>{l.label}</RouterLink>
    </Link>
  ));
}
