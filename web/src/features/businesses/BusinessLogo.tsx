import { Avatar } from "@chakra-ui/react";
import { initials } from "../../lib/initials.ts";
import { responsiveImage } from "./responsiveImage.ts";

/** Avatar 2xl, the largest size used, is 64 px: the browser picks the variant for that at its pixel ratio. */
const LOGO_SIZES = "64px";

/** A business's logo, or its initials when it has none (or the image fails to load). */
export function BusinessLogo({ name, logoUrl, size = "2xl" }: { name: string; logoUrl?: string | null; size?: "lg" | "xl" | "2xl" }) {
  return (
    <Avatar.Root size={size} colorPalette="orange" variant="subtle" shape="full" flexShrink={0}>
      {logoUrl && <Avatar.Image {...responsiveImage(logoUrl, LOGO_SIZES)} alt={`${name} logo`} />}
      <Avatar.Fallback fontFamily="heading" fontWeight="bold">
        {initials(name)}
      </Avatar.Fallback>
    </Avatar.Root>
  );
}
