import { Suspense, useCallback, useEffect, useRef, useState } from "react";
import { Box, Button, HStack, SimpleGrid, Stack, Text } from "@chakra-ui/react";
import { graphql, useMutation } from "react-relay";
import { useParams } from "react-router";
import { resultError } from "../../features/admin/mutationResult.ts";
import { RichTextEditor } from "../../features/admin/richtext/RichTextEditor.tsx";
import type { RichTextDoc, RichTextValue } from "../../features/admin/richtext/blocksHtml.ts";
import { RichTextFlushContext, useRichTextFlushRegistry } from "../../features/admin/richtext/flush.ts";
import { NEXT_BOX_LOAD_ERROR_MS, NEXT_BOX_RETRY_MS, SAVE_FAILURE_MS, SAVE_SUCCESS_MS } from "../../features/admin/timings.ts";
import { useFlash } from "../../features/admin/useFlash.ts";
import { useRouteQuery } from "../../lib/routeQuery.ts";
import { ErrorBoundary } from "../../ui/ErrorBoundary.tsx";
import { AdminPage, Panel } from "../../ui/admin/AdminPage.tsx";
import { RichHtml } from "../../ui/RichHtml.tsx";
import { EmptyMessage, LoadingState } from "../../ui/StatusStates.tsx";
import type { NextBoxEditorRouteQuery, NextBoxEditorRouteQuery$data } from "./__generated__/NextBoxEditorRouteQuery.graphql.ts";
import type { NextBoxEditorRouteSaveMutation } from "./__generated__/NextBoxEditorRouteSaveMutation.graphql.ts";

const query = graphql`
  query NextBoxEditorRouteQuery($id: Int!) {
    adminBusiness(id: $id) {
      name
      viewerCanEdit
      nextBox {
        contentHtml
        contentDoc
      }
    }
  }
`;

const EMPTY: RichTextValue = { doc: null, html: "" };
const valueOf = (box: { readonly contentHtml: string; readonly contentDoc?: unknown } | null | undefined): RichTextValue =>
  box ? { doc: (box.contentDoc as RichTextDoc | null | undefined) ?? null, html: box.contentHtml } : EMPTY;

type Loaded = NonNullable<NextBoxEditorRouteQuery$data["adminBusiness"]>;

/** /admin/business/:id/next-box: the Next Box note editor. */
export default function NextBoxEditorRoute() {
  const id = Number(useParams().id);
  // Spec §4: a failed load is retried once after 300 ms; the second failure says so.
  const [attempt, setAttempt] = useState(0);
  return (
    <ErrorBoundary key={attempt} fallback={(error) => <LoadFailed error={error} retry={attempt === 0 ? () => setAttempt(1) : null} />}>
      <Suspense fallback={<Loading />}>
        <NextBoxEditorLoader id={id} fetchKey={attempt || undefined} />
      </Suspense>
    </ErrorBoundary>
  );
}

function Loading() {
  return (
    <AdminPage title="Next Box" description="">
      <LoadingState label="Loading content…" />
    </AdminPage>
  );
}

function LoadFailed({ error, retry }: { error: Error; retry: (() => void) | null }) {
  const [loadError, flashLoadError] = useFlash<string>();
  useEffect(() => {
    if (retry) {
      const timer = setTimeout(retry, NEXT_BOX_RETRY_MS);
      return () => clearTimeout(timer);
    }
    flashLoadError(error.message ? `Failed to load content: ${error.message}` : "Failed to load content", NEXT_BOX_LOAD_ERROR_MS);
  }, [error, retry, flashLoadError]);
  if (retry) return <Loading />;
  return (
    <AdminPage title="Next Box" description="">
      {loadError && (
        <Text color="red.600" role="alert">
          {loadError}
        </Text>
      )}
      <NoBusiness />
    </AdminPage>
  );
}

function NoBusiness() {
  // Not attached to this business (or no such business): the server refuses it, so no editor either.
  return <EmptyMessage title="No businesses found" description="This business does not exist or you do not have access to it." />;
}

function NextBoxEditorLoader({ id, fetchKey }: { id: number; fetchKey: number | undefined }) {
  const data = useRouteQuery<NextBoxEditorRouteQuery>(query, { id }, { fetchKey, fetchPolicy: "network-only" });
  const business = data.adminBusiness;
  if (!business) {
    return (
      <AdminPage title="Next Box" description="">
        <NoBusiness />
      </AdminPage>
    );
  }
  return <NextBoxEditor id={id} business={business} />;
}

function NextBoxEditor({ id, business }: { id: number; business: Loaded }) {
  // The last saved content and the editor's: documents are what is saved, the HTML is for the sample preview.
  const [saved, setSaved] = useState<RichTextValue>(() => valueOf(business.nextBox));
  const [draft, setDraftState] = useState<RichTextValue>(saved);
  const latest = useRef<RichTextValue>(saved);
  const setDraft = useCallback((value: RichTextValue) => {
    latest.current = value;
    setDraftState(value);
  }, []);
  const { registry, flushAll } = useRichTextFlushRegistry();
  const [editorKey, setEditorKey] = useState(0);
  const [message, flashMessage] = useFlash<{ ok: boolean; text: string }>();
  const [commit, saving] = useMutation<NextBoxEditorRouteSaveMutation>(graphql`
    # The saved note in the query's shape: the editor's saved copy (what Cancel returns to) is set from it.
    mutation NextBoxEditorRouteSaveMutation($input: SaveNextBoxInput!) {
      saveNextBox(input: $input) {
        __typename
        ... on SaveNextBoxSuccess {
          data {
            contentHtml
            contentDoc
            updatedAt
          }
        }
        ... on Error {
          message
        }
      }
    }
  `);

  const save = async () => {
    await flushAll();
    commit({
      // The document (the server renders the HTML from it); HTML only while the editor has made none.
      variables: { input: latest.current.doc ? { businessId: id, contentDoc: latest.current.doc } : { businessId: id, contentHtml: latest.current.html } },
      onCompleted: ({ saveNextBox }) => {
        if (resultError(saveNextBox) || !saveNextBox.data) return flashMessage({ ok: false, text: "Failed to save changes" }, SAVE_FAILURE_MS);
        setSaved(valueOf(saveNextBox.data));
        flashMessage({ ok: true, text: "Changes saved successfully!" }, SAVE_SUCCESS_MS);
      },
      onError: () => flashMessage({ ok: false, text: "Failed to save changes" }, SAVE_FAILURE_MS),
    });
  };
  const reset = () => {
    setDraft(saved);
    setEditorKey((k) => k + 1);
  };

  return (
    <AdminPage title="Next Box" description={business.name}>
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4" alignItems="start">
        <Panel title="Content">
          <Stack gap="4">
            {!business.viewerCanEdit && <Text color="fg.muted">Read only: your role can view the Next Box note but not change it; saving will be refused.</Text>}
            <RichTextFlushContext.Provider value={registry}>
              <RichTextEditor key={editorKey} label="Next Box content" initial={draft} onChange={setDraft} preset="full" minHeight={200} />
            </RichTextFlushContext.Provider>
            <HStack gap="3" wrap="wrap">
              <Button colorPalette="orange" onClick={save} loading={saving}>
                Save Changes
              </Button>
              <Button variant="outline" onClick={reset} disabled={saving}>
                Reset to Last Saved
              </Button>
              {message && (
                <Text role="status" color={message.ok ? "green.700" : "red.600"}>
                  {message.text}
                </Text>
              )}
            </HStack>
          </Stack>
        </Panel>
        <Panel title="Sample preview">
          <Box borderWidth="1px" rounded="lg" p="4" bg="orange.50/40">
            <Text fontSize="sm" color="fg.muted" mb="2">
              What members see in their portal under Next Box
            </Text>
            {draft.html ? <RichHtml html={draft.html} data-testid="next-box-preview" /> : <Text color="fg.muted">Nothing yet</Text>}
          </Box>
        </Panel>
      </SimpleGrid>
    </AdminPage>
  );
}
