import { Box } from "@chakra-ui/react";

/** Decorative hero drawing: an open membership box with produce, a coffee bag and a loaf. */
export function HeroIllustration() {
  return (
    <Box aria-hidden="true" maxW={{ base: "sm", md: "md" }} mx="auto" w="full">
      <svg viewBox="0 0 400 320" width="100%" role="presentation">
        <circle cx="200" cy="160" r="150" fill="#fed7aa" opacity="0.55" />
        <circle cx="320" cy="70" r="34" fill="#fbbf24" opacity="0.8" />
        {/* coffee bag */}
        <path d="M96 70 h70 l8 140 h-86 z" fill="#7b341e" />
        <rect x="106" y="110" width="58" height="38" rx="6" fill="#fdf5ea" />
        <ellipse cx="135" cy="129" rx="9" ry="13" fill="#7b341e" transform="rotate(20 135 129)" />
        {/* loaf */}
        <path d="M196 130 c0 -50 110 -50 110 0 v28 h-110 z" fill="#dd8a3e" />
        <path d="M222 110 l10 18 M250 102 l0 22 M278 110 l-10 18" stroke="#9c4221" strokeWidth="6" strokeLinecap="round" />
        {/* greens */}
        <path d="M170 150 c-30 -40 -10 -90 20 -100 c10 40 0 80 -20 100 z" fill="#38a169" />
        <path d="M180 152 c10 -50 50 -70 80 -60 c-20 30 -50 55 -80 60 z" fill="#68d391" />
        {/* box */}
        <path d="M60 160 h280 l-22 130 h-236 z" fill="#c2410c" />
        <path d="M60 160 h280 l-12 22 h-256 z" fill="#9a3412" />
        <rect x="150" y="214" width="100" height="40" rx="8" fill="#fff7ed" />
        <path d="M172 234 h56" stroke="#c2410c" strokeWidth="6" strokeLinecap="round" />
      </svg>
    </Box>
  );
}
