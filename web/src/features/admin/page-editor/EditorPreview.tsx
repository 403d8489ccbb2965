import { Suspense, useEffect, useMemo, useState, type ReactNode } from "react";
import { createPortal } from "react-dom";
import { Box, EnvironmentProvider } from "@chakra-ui/react";
import { graphql, useLazyLoadQuery } from "react-relay";
import { ErrorBoundary } from "../../../ui/ErrorBoundary.tsx";
import { LoadingState } from "../../../ui/StatusStates.tsx";
import type { EditorPreviewQuery } from "./__generated__/EditorPreviewQuery.graphql.ts";
import type { PageDraft } from "./draft.ts";
import type { previewPage_business$key } from "./__generated__/previewPage_business.graphql.ts";
import { LivePagePreview } from "./LivePagePreview.tsx";
import { previewResponse } from "./previewPage.ts";

/** How long the draft rests before the in-editor preview renders the change. */
const PREVIEW_DEBOUNCE_MS = 250;

/** The draft once it has rested PREVIEW_DEBOUNCE_MS. */
function useRested<T>(value: T): T {
  const [rested, setRested] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setRested(value), PREVIEW_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [value]);
  return rested;
}

/**
 * The editor's live Preview (spec §2 page editor): the live business page's own components (LivePagePreview,
 * previewPage.ts: one layout) rendering the unsaved draft, following it as it changes. Lazily imported by
 * PageEditor, so the editor's own chunk stays small.
 */
export default function EditorPreview({ draft, tenant }: { draft: PageDraft; tenant: string }) {
  const rested = useRested(draft);
  return (
    <PreviewFrame title="Live preview of the unsaved page">
      <ErrorBoundary fallback={() => <DraftPage tenant={tenant} draft={rested} facts={null} />}>
        <Suspense fallback={<LoadingState label="Loading preview…" />}>
          <DraftPageWithFacts tenant={tenant} draft={rested} />
        </Suspense>
      </ErrorBoundary>
    </PreviewFrame>
  );
}

/** The draft with what only the server knows of the saved business (as the Preview tab reads it). */
function DraftPageWithFacts({ tenant, draft }: { tenant: string; draft: PageDraft }) {
  const { business } = useLazyLoadQuery<EditorPreviewQuery>(
    graphql`
      query EditorPreviewQuery($slug: String!) {
        business(slug: $slug) {
          ...previewPage_business
        }
      }
    `,
    { slug: tenant },
  );
  return <DraftPage tenant={tenant} draft={draft} facts={business ?? null} />;
}

function DraftPage({ tenant, draft, facts }: { tenant: string; draft: PageDraft; facts: previewPage_business$key | null }) {
  const response = useMemo(() => previewResponse(tenant, draft, facts), [tenant, draft, facts]);
  return <LivePagePreview response={response} />;
}

/** A mirrored stylesheet: the frame's copy of one of the editor's, and how many of its rules it holds. */
interface Mirror {
  copy: HTMLStyleElement | HTMLLinkElement;
  rules: number;
}

/**
 * Copies the editor's stylesheets into the frame: the linked ones once, and the rules emotion (Chakra) inserts
 * into its <style> elements as they come (emotion appends rules; it never rewrites them).
 */
function mirrorStyles(from: Document, to: Document, mirrors: Map<Element, Mirror>) {
  for (const node of from.head.querySelectorAll('link[rel="stylesheet"], style')) {
    let mirror = mirrors.get(node);
    if (!mirror) {
      const copy = node.tagName === "LINK" ? (to.importNode(node, true) as HTMLLinkElement) : to.createElement("style");
      to.head.append(copy);
      mirror = { copy, rules: 0 };
      mirrors.set(node, mirror);
    }
    const sheet = (node as HTMLStyleElement).sheet;
    const target = mirror.copy.sheet;
    if (node.tagName === "LINK" || !sheet || !target) continue;
    for (; mirror.rules < sheet.cssRules.length; mirror.rules++) {
      try {
        target.insertRule(sheet.cssRules[mirror.rules].cssText, target.cssRules.length);
      } catch {
        // A rule the frame's parser refuses (the editor's refused it too, or it is a statement it already has).
      }
    }
  }
}

/**
 * An iframe the preview renders into through a portal (same React tree, Relay and router): its own viewport, so
 * the live page lays out by the panel's width (a phone's breakpoints) rather than the editor window's. Links do
 * not navigate (the editor would lose the draft).
 */
function PreviewFrame({ title, children }: { title: string; children: ReactNode }) {
  const [frame, setFrame] = useState<HTMLIFrameElement | null>(null);
  const [doc, setDoc] = useState<Document | null>(null);
  useEffect(() => {
    if (!frame) return;
    const ready = () => {
      const inner = frame.contentDocument;
      if (inner?.body) setDoc(inner);
    };
    frame.addEventListener("load", ready);
    if (frame.contentDocument?.readyState === "complete" && frame.contentDocument.body?.dataset.preview) ready();
    return () => frame.removeEventListener("load", ready);
  }, [frame]);
  useEffect(() => {
    if (!doc) return;
    const mirrors = new Map<Element, Mirror>();
    const sync = () => mirrorStyles(document, doc, mirrors);
    sync();
    // New class names come with new elements or attributes in the frame; their rules are inserted before React
    // commits them (emotion's insertion effects).
    const observer = new MutationObserver(sync);
    observer.observe(doc.body, { childList: true, subtree: true, attributes: true, attributeFilter: ["class"] });
    const head = new MutationObserver(sync);
    head.observe(document.head, { childList: true });
    return () => {
      observer.disconnect();
      head.disconnect();
    };
  }, [doc]);
  return (
    <>
      <Box
        as="iframe"
        ref={setFrame}
        {...{ title, srcDoc: '<!doctype html><html lang="en"><head><meta charset="utf-8"></head><body data-preview="1"></body></html>' }}
        display="block"
        w="full"
        h={{ base: "70dvh", "2xl": "calc(100dvh - 11rem)" }}
        minH="24rem"
        bg="white"
        borderWidth="1px"
        rounded="md"
        data-testid="editor-preview"
      />
      {doc &&
        createPortal(
          <EnvironmentProvider value={() => doc}>
            <Box
              minH="100dvh"
              onClickCapture={(e) => {
                const target = e.target as Element;
                if (target.closest?.("a[href]")) e.preventDefault();
              }}
            >
              {children}
            </Box>
          </EnvironmentProvider>,
          doc.body,
        )}
    </>
  );
}
