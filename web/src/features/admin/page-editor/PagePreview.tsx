import { useState } from "react";
import { Accordion, Box, Button, Flex, Heading, HStack, Image, Link, SimpleGrid, Stack, Tabs, Text } from "@chakra-ui/react";
import { MODE_LABELS, MODE_ORDER, type FulfillmentModeName } from "@shared/fulfillment.ts";
import { readableText } from "@shared/contrast.ts";
import { formatCents, formatSurcharge } from "@shared/money.ts";
import { primaryButtonColors } from "../../../lib/color.ts";
import { RichHtml } from "../../../ui/RichHtml.tsx";
import { initialPreviewMode, type ItemDraft, type PageDraft } from "./draft.ts";

const SOCIAL_LABELS = { facebook: "Facebook", instagram: "Instagram", twitter: "Twitter", youtube: "YouTube", tiktok: "TikTok" } as const;

function priceFor(item: ItemDraft, mode: FulfillmentModeName): number | null {
  return mode === "pickup" ? item.pickupCents : mode === "shipping" ? item.shippingCents : item.deliveryCents;
}

/** The business page as the draft would render it: gallery, brand row, items, add-ons, fulfillment, FAQs, footer. */
export function PagePreview({ draft, compact = false }: { draft: PageDraft; compact?: boolean }) {
  const modes = MODE_ORDER.filter((m) => draft.fulfillment[m]);
  const [mode, setMode] = useState<FulfillmentModeName>(initialPreviewMode(draft.fulfillment));
  const activeMode = modes.includes(mode) ? mode : (modes[0] ?? "pickup");
  const [imageIndex, setImageIndex] = useState(0);
  const image = draft.gallery.length ? draft.gallery[Math.min(imageIndex, draft.gallery.length - 1)] : null;
  const items = draft.items.filter((i) => i.listed);
  const addons = draft.addons.filter((a) => a.listed);
  const social = (Object.keys(SOCIAL_LABELS) as (keyof typeof SOCIAL_LABELS)[]).filter((k) => draft.social[k]);
  const { theme } = draft;
  // The preview's footer is dark: an unset footer button shows a light grey one on it.
  const footerButtonBg = theme.footerButtonBg || "#3f3f46";
  const step = (delta: number) => setImageIndex((i) => (i + delta + draft.gallery.length) % draft.gallery.length);
  return (
    <Box bg={theme.pageBg || "white"} rounded="lg" overflow="hidden" borderWidth="1px" data-testid="page-preview">
      {image && (
        <Box position="relative">
          <Image src={image} alt="Gallery image" w="full" h={compact ? "40" : "64"} objectFit="cover" />
          {draft.gallery.length > 1 && (
            <HStack position="absolute" insetX="2" top="50%" justify="space-between" transform="translateY(-50%)">
              <Button size="xs" onClick={() => step(-1)} aria-label="Previous image">
                ‹
              </Button>
              <Button size="xs" onClick={() => step(1)} aria-label="Next image">
                ›
              </Button>
            </HStack>
          )}
        </Box>
      )}
      <Stack p={compact ? "4" : "6"} gap="5">
        <HStack gap="3">
          {draft.brand.logoUrl && <Image src={draft.brand.logoUrl} alt={`${draft.brand.name} logo`} boxSize="12" rounded="full" objectFit="cover" />}
          <Heading as="h2" size={compact ? "lg" : "2xl"} data-testid="preview-brand">
            {draft.brand.name || "Your business"}
          </Heading>
        </HStack>
        {draft.descriptionHtml && <RichHtml html={draft.descriptionHtml} />}
        {modes.length === 0 ? (
          <Text color="red.600">Select at least one</Text>
        ) : (
          // Each tab controls a panel with its mode's detail (a tab without its panel is an invalid aria-controls).
          <Tabs.Root value={activeMode} onValueChange={(e) => setMode(e.value as FulfillmentModeName)} variant="enclosed" size="sm">
            <Tabs.List>
              {modes.map((m) => (
                <Tabs.Trigger key={m} value={m}>
                  {MODE_LABELS[m]}
                </Tabs.Trigger>
              ))}
            </Tabs.List>
            {modes.map((m) => (
              <Tabs.Content key={m} value={m} pt="2" pb="0">
                <Text fontSize="sm" color="fg.muted">
                  {m === "pickup" && (draft.fulfillment.pickupPoints.length ? `Pickup at ${draft.fulfillment.pickupPoints.join(" · ")}` : "Pickup address not set")}
                  {m === "shipping" && draft.fulfillment.shippingText}
                  {m === "delivery" && (draft.fulfillment.deliveryAreas.length ? `Delivery to ${draft.fulfillment.deliveryAreas.join(" · ")}` : "Local delivery")}
                </Text>
              </Tabs.Content>
            ))}
          </Tabs.Root>
        )}
        {items.length === 0 ? (
          <Text color="fg.muted">No items yet...</Text>
        ) : (
          <SimpleGrid columns={{ base: 1, sm: compact ? 1 : 2 }} gap="3">
            {items.map((item, i) => {
              const price = priceFor(item, activeMode);
              const extra = activeMode !== "pickup" && item.pickupCents !== null && price !== null ? formatSurcharge(price - item.pickupCents) : "";
              return (
                <Box key={item.key} borderWidth="2px" borderColor={i === 0 ? theme.selection : "border"} rounded="lg" p="4" data-testid="preview-item">
                  <Text fontWeight="semibold">{item.name}</Text>
                  <Text fontSize="lg" fontWeight="bold">
                    {price === null ? "Not offered" : `${formatCents(price)}/month`} {extra && <Text as="span" fontSize="sm" color="fg.muted">{extra}</Text>}
                  </Text>
                  {item.description && (
                    <Text fontSize="sm" color="fg.muted">
                      {item.description}
                    </Text>
                  )}
                </Box>
              );
            })}
          </SimpleGrid>
        )}
        {addons.length > 0 && (
          <Stack gap="2">
            <Heading as="h3" size="md">
              {draft.addonSectionTitle}
            </Heading>
            {addons.map((addon) => (
              <Flex key={addon.key} justify="space-between" borderWidth="1px" rounded="md" p="3" data-testid="preview-addon">
                <Text>{addon.name}</Text>
                <Text fontWeight="semibold">+{formatCents(addon.amountCents)}</Text>
              </Flex>
            ))}
          </Stack>
        )}
        <Button {...primaryButtonColors(theme)} borderWidth="1px" onClick={() => window.alert("Checkout is disabled in preview mode.")}>
          Checkout
        </Button>
        {draft.faqs.length > 0 && (
          <Stack gap="2">
            <Heading as="h3" size="md">
              Frequently asked questions
            </Heading>
            <Accordion.Root collapsible defaultValue={[draft.faqs[0].key]}>
              {draft.faqs.map((faq) => (
                <Accordion.Item key={faq.key} value={faq.key}>
                  <Accordion.ItemTrigger>
                    <Text flex="1" fontWeight="medium">
                      {faq.q}
                    </Text>
                    <Accordion.ItemIndicator />
                  </Accordion.ItemTrigger>
                  <Accordion.ItemContent>
                    <Accordion.ItemBody>
                      <RichHtml html={faq.a} />
                    </Accordion.ItemBody>
                  </Accordion.ItemContent>
                </Accordion.Item>
              ))}
            </Accordion.Root>
          </Stack>
        )}
      </Stack>
      <Stack as="footer" bg="gray.900" color="gray.100" p="4" gap="2" fontSize="sm">
        {social.length > 0 && (
          <HStack gap="3" wrap="wrap">
            {social.map((k) => (
              <Button key={k} asChild size="xs" bg={footerButtonBg} color={readableText(footerButtonBg, theme.footerButtonText || "#ffffff")} borderWidth="1px" borderColor={theme.footerButtonBorder || "transparent"}>
                <Link href={draft.social[k]} target="_blank" rel="noopener">
                  {SOCIAL_LABELS[k]}
                </Link>
              </Button>
            ))}
          </HStack>
        )}
        <HStack gap="3" wrap="wrap">
          <Text>Terms of Use</Text>
          <Text>Privacy Policy</Text>
          <Text>Refund Policy</Text>
        </HStack>
        {draft.supportPhone.trim() && <Text>Support: {draft.supportPhone.trim()}</Text>}
        <Text color="gray.400">© {new Date().getFullYear()} {draft.brand.name || "Your business"}</Text>
      </Stack>
    </Box>
  );
}
