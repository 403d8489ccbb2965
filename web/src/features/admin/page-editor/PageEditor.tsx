import { lazy, Suspense, useCallback, useEffect, useRef, useState } from "react";
import { Box, Button, Grid, HStack, Text } from "@chakra-ui/react";
import { clampDays, dayClampAlert } from "../dayClamp.ts";
import { RichTextFlushContext, useRichTextFlushRegistry } from "../richtext/flush.ts";
import { SAVED_FLAG_MS } from "../timings.ts";
import { useFlash } from "../useFlash.ts";
import { Panel } from "../../../ui/admin/AdminPage.tsx";
import { ErrorBoundary } from "../../../ui/ErrorBoundary.tsx";
import { ErrorState, LoadingState } from "../../../ui/StatusStates.tsx";
import type { PageDraft } from "./draft.ts";
import { IndexedSection, PanelIndexLayout, type IndexedPanel } from "./PanelIndex.tsx";
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

/** The in-editor live Preview: the live page's components in a frame, loaded after the editor's own chunk. */
const EditorPreview = lazy(() => import("./EditorPreview.tsx"));

/** How long the draft rests before an open preview is handed the change. */
const PREVIEW_HANDOVER_MS = 300;

/**
 * The page editor of spec §2 for the home page and each business: every panel beside a sticky index of them, a
 * live Preview of the unsaved draft (beside the panels from 2xl, 1536 px, below them before: at 1280 px the index
 * and a 380 px column left the panels 330 px wide), and the sticky bar with Save Changes, Preview and the 'Saved'
 * flag. Preview opens the page as the live page's own components render the draft, and follows later changes.
 * Saves send the whole page.
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

  // Once a preview is open, each change of the draft is handed over too (the preview tab follows it).
  const previewOpen = useRef(false);
  useEffect(() => {
    if (!previewOpen.current) return;
    const timer = window.setTimeout(() => {
      try {
        storePreviewData(tenant, draft);
      } catch {
        // Storage full or off: the open preview keeps the draft it was last handed.
      }
    }, PREVIEW_HANDOVER_MS);
    return () => window.clearTimeout(timer);
  }, [draft, tenant]);

  const preview = async () => {
    await flushAll();
    try {
      storePreviewData(tenant, latest.current);
      previewOpen.current = true;
      window.open(`/admin/preview/${encodeURIComponent(tenant)}`, "_blank");
    } catch {
      window.alert("Failed to generate preview");
    }
  };

  const panels: IndexedPanel[] = [
    { id: "panel-brand", title: "Brand" },
    { id: "panel-description", title: "Description" },
    { id: "panel-gallery", title: "Gallery" },
    { id: "panel-theme", title: "Theme colours" },
    { id: "panel-footer", title: "Footer & Social" },
    ...(showCatalog ? [{ id: "panel-items", title: "Items" }, { id: "panel-addons", title: "Add-ons" }] : []),
    { id: "panel-fulfillment", title: "Fulfillment" },
    { id: "panel-tax", title: "Tax Settings" },
    { id: "panel-subscription", title: "Subscription Settings" },
    ...(draft.mail ? [{ id: "panel-email", title: "Email" }] : []),
    { id: "panel-faqs", title: "FAQs" },
  ];

  return (
    <RichTextFlushContext.Provider value={registry}>
    <Box pb="24">
      <Grid templateColumns={{ base: "minmax(0, 1fr)", "2xl": "minmax(0, 1fr) 380px" }} gap="6" alignItems="start">
        <PanelIndexLayout panels={panels}>
          <IndexedSection id="panel-brand">
            <BrandPanel draft={draft} update={update} businessId={businessId} />
          </IndexedSection>
          <IndexedSection id="panel-description">
            <DescriptionPanel draft={draft} update={update} editorKey={editorKey} />
          </IndexedSection>
          <IndexedSection id="panel-gallery">
            <GalleryPanel draft={draft} update={update} businessId={businessId} />
          </IndexedSection>
          <IndexedSection id="panel-theme">
            <ThemePanel draft={draft} update={update} />
          </IndexedSection>
          <IndexedSection id="panel-footer">
            <FooterSocialPanel draft={draft} update={update} />
          </IndexedSection>
          {showCatalog && (
            <IndexedSection id="panel-items">
              <ItemsPanel draft={draft} update={update} persist={persist} />
            </IndexedSection>
          )}
          {showCatalog && (
            <IndexedSection id="panel-addons">
              <AddonsPanel draft={draft} update={update} persist={persist} />
            </IndexedSection>
          )}
          <IndexedSection id="panel-fulfillment">
            <FulfillmentPanel draft={draft} update={update} />
          </IndexedSection>
          <IndexedSection id="panel-tax">
            <TaxPanel draft={draft} update={update} />
          </IndexedSection>
          <IndexedSection id="panel-subscription">
            <SubscriptionPanel draft={draft} update={update} issues={issues} />
          </IndexedSection>
          {draft.mail && (
            <IndexedSection id="panel-email">
              <EmailPanel mail={draft.mail} update={update} issues={issues} />
            </IndexedSection>
          )}
          <IndexedSection id="panel-faqs">
            <FaqsPanel draft={draft} update={update} editorKey={editorKey} />
          </IndexedSection>
        </PanelIndexLayout>
        <Box position={{ "2xl": "sticky" }} top="4" minW="0" data-testid="editor-preview-panel">
          <Panel title="Live preview">
            <ErrorBoundary fallback={() => <ErrorState message="Failed to load preview." />}>
              <Suspense fallback={<LoadingState label="Loading preview…" />}>
                <EditorPreview draft={draft} tenant={tenant} />
              </Suspense>
            </ErrorBoundary>
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
