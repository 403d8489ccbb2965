import { Box, Field, HStack, Input, SimpleGrid, Stack, Text } from "@chakra-ui/react";
import { Panel } from "../../../../ui/admin/AdminPage.tsx";
import type { PageDraft } from "../draft.ts";
import { TextField, type UpdateDraft } from "../fields.tsx";
import { themeContrastWarnings, type ContrastWarning } from "../themeContrast.ts";

function ContrastNote({ warnings, pair }: { warnings: ContrastWarning[]; pair: ContrastWarning["pair"] }) {
  const found = warnings.find((w) => w.pair === pair);
  if (!found) return null;
  return (
    <Text role="status" fontSize="sm" color="orange.900" bg="orange.50" borderWidth="1px" borderColor="orange.200" rounded="md" px="3" py="2" data-testid="contrast-warning">
      {found.message}
    </Text>
  );
}

type ThemeKey = keyof PageDraft["theme"];

function ColorField({ label, value, onChange }: { label: string; value: string; onChange: (value: string) => void }) {
  const hex = /^#[0-9a-f]{6}$/i.test(value) ? value : "#ffffff";
  return (
    <Field.Root>
      <Field.Label>{label}</Field.Label>
      <HStack gap="2" w="full">
        <Box as="label" flexShrink={0} boxSize="9" rounded="md" borderWidth="1px" overflow="hidden" cursor="pointer" bg={value || "transparent"}>
          <input type="color" value={hex} aria-label={`${label} picker`} onChange={(e) => onChange(e.target.value)} style={{ opacity: 0, width: "100%", height: "100%" }} />
        </Box>
        <Input value={value} placeholder="default" onChange={(e) => onChange(e.target.value)} />
      </HStack>
    </Field.Root>
  );
}

const THEME_FIELDS: [ThemeKey, string][] = [
  ["primary", "Primary"],
  ["selection", "Selection"],
  ["primaryText", "Primary text"],
  ["buttonBorder", "Button border"],
  ["pageBg", "Page background"],
];

const FOOTER_FIELDS: [ThemeKey, string][] = [
  ["footerButtonBg", "Footer button background"],
  ["footerButtonText", "Footer button text"],
  ["footerButtonBorder", "Footer button border"],
];

export function ThemePanel({ draft, update }: { draft: PageDraft; update: UpdateDraft }) {
  const set = (key: ThemeKey) => (value: string) => update((d) => ({ ...d, theme: { ...d.theme, [key]: value } }));
  return (
    <Panel title="Theme colours">
      <Stack gap="4">
        <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
          {THEME_FIELDS.map(([key, label]) => (
            <ColorField key={key} label={label} value={draft.theme[key]} onChange={set(key)} />
          ))}
        </SimpleGrid>
        <ContrastNote warnings={themeContrastWarnings(draft.theme)} pair="primary" />
      </Stack>
    </Panel>
  );
}

const SOCIAL: [keyof PageDraft["social"], string][] = [
  ["facebook", "Facebook"],
  ["instagram", "Instagram"],
  ["twitter", "Twitter"],
  ["youtube", "YouTube"],
  ["tiktok", "TikTok"],
];

export function FooterSocialPanel({ draft, update }: { draft: PageDraft; update: UpdateDraft }) {
  const setTheme = (key: ThemeKey) => (value: string) => update((d) => ({ ...d, theme: { ...d.theme, [key]: value } }));
  return (
    <Panel title="Footer & Social">
      <Stack gap="4">
        <SimpleGrid columns={{ base: 1, sm: 3 }} gap="4">
          {FOOTER_FIELDS.map(([key, label]) => (
            <ColorField key={key} label={label} value={draft.theme[key]} onChange={setTheme(key)} />
          ))}
        </SimpleGrid>
        <ContrastNote warnings={themeContrastWarnings(draft.theme)} pair="footerButton" />
        <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
          {SOCIAL.map(([key, label]) => (
            <TextField key={key} label={label} type="url" placeholder="https://" value={draft.social[key]} onChange={(value) => update((d) => ({ ...d, social: { ...d.social, [key]: value } }))} />
          ))}
        </SimpleGrid>
      </Stack>
    </Panel>
  );
}
