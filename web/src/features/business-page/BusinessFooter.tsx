import { Box, Container, Flex, HStack, Link, Stack, Text } from "@chakra-ui/react";
import { graphql, useFragment } from "react-relay";
import type { BusinessFooterFragment_page$key } from "./__generated__/BusinessFooterFragment_page.graphql.ts";
import { footerButtonColors, pageSurface } from "../../lib/color.ts";
import { readSocialLinks, type SocialLinks } from "./pageShapes.ts";
import { BUSINESS_LEGAL_LINKS, LegalLinks } from "../../ui/LegalLinks.tsx";

const BusinessFooterFragment = graphql`
  fragment BusinessFooterFragment_page on Page {
    brandName
    supportPhone
    social {
      ...pageShapes_social
    }
    theme {
      pageBg
      footerButtonBg
      footerButtonText
      footerButtonBorder
    }
  }
`;

const ICONS: Record<string, string> = {
  facebook: "M14 8h3V4h-3c-2.8 0-4 1.7-4 4.2V10H7v4h3v8h4v-8h3l1-4h-4V8.5c0-.4.2-.5.5-.5z",
  instagram: "M7 3h10a4 4 0 014 4v10a4 4 0 01-4 4H7a4 4 0 01-4-4V7a4 4 0 014-4zm5 5a4 4 0 100 8 4 4 0 000-8zm5.5-2a1 1 0 100 2 1 1 0 000-2z",
  twitter: "M4 4h4.5l4 5.6L17 4h3l-6.1 7.4L21 20h-4.5l-4.4-6.1L7 20H4l6.6-7.9z",
  youtube: "M21.6 7.2a2.5 2.5 0 00-1.8-1.8C18.2 5 12 5 12 5s-6.2 0-7.8.4A2.5 2.5 0 002.4 7.2 26 26 0 002 12a26 26 0 00.4 4.8 2.5 2.5 0 001.8 1.8C5.8 19 12 19 12 19s6.2 0 7.8-.4a2.5 2.5 0 001.8-1.8A26 26 0 0022 12a26 26 0 00-.4-4.8zM10 15V9l5.2 3z",
  tiktok: "M16 3c.3 2.3 1.7 3.8 4 4v3.2a7 7 0 01-4-1.3V15a6 6 0 11-6-6c.3 0 .7 0 1 .1v3.3a2.8 2.8 0 102 2.6V3z",
};
const LABELS: Record<string, string> = { facebook: "Facebook", instagram: "Instagram", twitter: "X (Twitter)", youtube: "YouTube", tiktok: "TikTok" };

/** A business page's footer: social icons, legal links as themed buttons and the owner's copyright line. */
export function BusinessFooter({ page }: { page: BusinessFooterFragment_page$key }) {
  const data = useFragment(BusinessFooterFragment, page);
  const surface = pageSurface(data.theme.pageBg);
  const dark = surface.light;
  const { pageBg, footerButtonBg, footerButtonText, footerButtonBorder } = data.theme;
  const button = footerButtonColors({ pageBg, footerButtonBg, footerButtonText, footerButtonBorder });
  const links = readSocialLinks(data.social);
  const socials = (Object.keys(ICONS) as (keyof SocialLinks)[]).filter((k) => links[k]);
  return (
    <Box as="section" aria-label={`${data.brandName} footer`} borderTopWidth="1px" borderColor={dark ? "whiteAlpha.300" : "blackAlpha.200"} mt="12">
      <Container maxW="6xl" py="8">
        <Flex direction={{ base: "column", md: "row" }} gap="6" justify="space-between" align={{ base: "flex-start", md: "center" }}>
          <Stack gap="3">
            {socials.length > 0 && (
              <HStack gap="3" aria-label="Social links" role="list">
                {socials.map((k) => (
                  <Link key={k} href={links[k]} target="_blank" rel="noopener noreferrer" aria-label={LABELS[k]} role="listitem" display="inline-flex" p="2" rounded="full" bg={dark ? "whiteAlpha.200" : "blackAlpha.100"} color="inherit" _hover={{ opacity: 0.8 }}>
                    <svg width="20" height="20" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
                      <path d={ICONS[k]} />
                    </svg>
                  </Link>
                ))}
              </HStack>
            )}
            {data.supportPhone && (
              <Text fontSize="sm" data-testid="footer-support-phone">
                Support:{" "}
                <Link href={`tel:${data.supportPhone.replace(/[^0-9+]/g, "")}`} color="inherit" textDecoration="underline">
                  {data.supportPhone}
                </Link>
              </Text>
            )}
            <Text fontSize="sm" color={surface.muted}>
              © {new Date().getFullYear()} {data.brandName}. All rights reserved.
            </Text>
          </Stack>
          <HStack gap="2" wrap="wrap">
            <LegalLinks links={BUSINESS_LEGAL_LINKS} px="3" py="1.5" rounded="md" bg={button.bg} color={button.text} borderWidth="1px" borderColor={button.border} _hover={{ opacity: 0.9, textDecoration: "none" }} />
          </HStack>
        </Flex>
      </Container>
    </Box>
  );
}
