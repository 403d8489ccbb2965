import { useCallback, useRef, useState } from "react";
import { Box, Button, Grid, HStack, Stack, Text } from "@chakra-ui/react";
import { clampDays, dayClampAlert } from "../dayClamp.ts";
import { RichTextFlushContext, useRichTextFlushRegistry } from "../richtext/flush.ts";
import { SAVED_FLAG_MS } from "../timings.ts";
import { useFlash } from "../useFlash.ts";
import { Panel } from "../../../ui/admin/AdminPage.tsx";
import type { PageDraft } from "./draft.ts";
import { PagePreview } from "./PagePreview.tsx";
import { storePreviewData } from "./previewData.ts";
import { BrandPanel, DescriptionPanel, GalleryPanel } from "./panels/BrandGalleryPanels.tsx";
import { AddonsPanel, ItemsPanel } from "./panels/CatalogPanels.tsx";
import { EmailPanel, FaqsPanel, FulfillmentPanel, SubscriptionPanel, TaxPanel } from "./panels/SettingsPanels.tsx";
import { saveIssues, type SaveIssue } from "./saveFailure.ts";
import { FooterSocialPanel, ThemePanel } from "./panels/ThemeSocialPanels.tsx";

/** What a save returns: the server refs of the plans and add-ons, in the order they were sent. */
export interface SavedRefs {
  itemRefs?: string[];
  addonRefs?: string[];
}

/**
 * The page editor of spec §2 for the home page and each business: every panel, a live preview, and the
 * sticky bar with Save Changes, Preview and the 'Saved' flag. Saves send the whole page.
 */
export function PageEditor({ initial, tenant, businessId, save }: { initial: PageDraft; tenant: string; /** Absent for the home page, which has no catalogue. */ businessId?: number; save: (draft: PageDraft) => Promise<SavedRefs> }) {
  const showCatalog = businessId !== undefined;
  const [draft, setDraft] = useState(initial);
  // The latest draft, also between renders: a save reads it right after the editors flush.
  const latest = useRef(initial);
  const { registry, flushAll } = useRichTextFlushRegistry();
  const [saving, setSaving] = useState(false);
  const [saved, flashSaved] = useFlash<boolean>();
  // The field issues of the last refused save, shown under their fields (the Email panel's) until the next save.
  const [issues, setIssues] = useState<readonly SaveIssue[]>([]);
  // Rich-text editors are uncontrolled; days clamped on save never touch them, so they keep their key.
  const editorKey = 0;
  const update = useCallback((change: (d: PageDraft) => PageDraft) => {
    latest.current = change(latest.current);
    setDraft(latest.current);
  }, []);

  /** Clamp the days (alerting what changed), then save the whole page; item and add-on dialogs use this too. */
  const persist = useCallback(
    async (next: PageDraft) => {
      const { days, messages } = clampDays(next);
      if (messages.length) window.alert(dayClampAlert(messages));
      const clamped: PageDraft = { ...next, ...days };
      latest.current = clamped;
      setDraft(clamped);
      setSaving(true);
      setIssues([]);
      try {
        const refs = await save(clamped);
        update((d) => ({
          ...d,
          items: refs.itemRefs ? d.items.map((item, i) => (refs.itemRefs![i] ? { ...item, ref: refs.itemRefs![i] } : item)) : d.items,
          addons: refs.addonRefs ? d.addons.map((addon, i) => (refs.addonRefs![i] ? { ...addon, ref: refs.addonRefs![i] } : addon)) : d.addons,
        }));
        flashSaved(true, SAVED_FLAG_MS);
      } catch (error) {
        // Spec §8: a page save failure is logged and rethrown (the item dialogs show it).
        console.error("Page save failed", error);
        setIssues(saveIssues(error));
        throw error;
      } finally {
        setSaving(false);
      }
    },
    [save, flashSaved, update],
  );

  const preview = async () => {
    await flushAll();
    try {
      storePreviewData(tenant, latest.current);
      window.open(`/admin/preview/${encodeURIComponent(tenant)}`, "_blank");
    } catch {
      window.alert("Failed to generate preview");
    }
  };

  return (
    <RichTextFlushContext.Provider value={registry}>
    <Box pb="24">
      <Grid templateColumns={{ base: "1fr", xl: "minmax(0, 1fr) 420px" }} gap="6" alignItems="start">
        <Stack gap="4" minW="0">
          <BrandPanel draft={draft} update={update} businessId={businessId} />
          <DescriptionPanel draft={draft} update={update} editorKey={editorKey} />
          <GalleryPanel draft={draft} update={update} businessId={businessId} />
          <ThemePanel draft={draft} update={update} />
          <FooterSocialPanel draft={draft} update={update} />
          {showCatalog && <ItemsPanel draft={draft} update={update} persist={persist} />}
          {showCatalog && <AddonsPanel draft={draft} update={update} persist={persist} />}
          <FulfillmentPanel draft={draft} update={update} />
          <TaxPanel draft={draft} update={update} />
          <SubscriptionPanel draft={draft} update={update} />
          {draft.mail && <EmailPanel mail={draft.mail} update={update} issues={issues} />}
          <FaqsPanel draft={draft} update={update} editorKey={editorKey} />
        </Stack>
        <Box position={{ xl: "sticky" }} top="4" minW="0">
          <Panel title="Live preview">
            <PagePreview draft={draft} compact />
          </Panel>
        </Box>
      </Grid>
      <HStack position="fixed" bottom="0" insetEnd="0" insetStart={{ base: "0", md: "60" }} zIndex="docked" bg="bg/95" backdropFilter="blur(6px)" borderTopWidth="1px" borderColor="orange.100" px={{ base: "4", md: "8" }} py="3" gap="3" justify="flex-end">
        <Text role="status" color="green.700" fontWeight="medium" me="auto">
          {saved ? "Saved" : ""}
        </Text>
        <Button variant="outline" onClick={preview}>
          Preview
        </Button>
        <Button colorPalette="orange" loading={saving} loadingText="Saving…" onClick={() => flushAll().then(() => persist(latest.current)).catch(() => {})}>
          Save Changes
        </Button>
      </HStack>
    </Box>
    </RichTextFlushContext.Provider>
  );
}
