import { useCallback, useEffect, useRef, useState } from "react";
import { Box, Button, HStack, SimpleGrid, Stack, Text } from "@chakra-ui/react";
import { fetchQuery, graphql, useMutation, useRelayEnvironment } from "react-relay";
import { useParams } from "react-router";
import { resultError } from "../../features/admin/mutationResult.ts";
import { RichTextEditor } from "../../features/admin/richtext/RichTextEditor.tsx";
import type { RichTextDoc, RichTextValue } from "../../features/admin/richtext/blocksHtml.ts";
import { RichTextFlushContext, useRichTextFlushRegistry } from "../../features/admin/richtext/flush.ts";
import { NEXT_BOX_LOAD_ERROR_MS, NEXT_BOX_RETRY_MS, SAVE_FAILURE_MS, SAVE_SUCCESS_MS } from "../../features/admin/timings.ts";
import { useFlash } from "../../features/admin/useFlash.ts";
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
        updatedAt
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
  const environment = useRelayEnvironment();
  const [business, setBusiness] = useState<Loaded | null>(null);
  const [loading, setLoading] = useState(true);
  // The last saved content and the editor's: documents are what is saved, the HTML is for the sample preview.
  const [saved, setSaved] = useState<RichTextValue>(EMPTY);
  const [draft, setDraftState] = useState<RichTextValue>(EMPTY);
  const latest = useRef<RichTextValue>(EMPTY);
  const setDraft = useCallback((value: RichTextValue) => {
    latest.current = value;
    setDraftState(value);
  }, []);
  const { registry, flushAll } = useRichTextFlushRegistry();
  const [editorKey, setEditorKey] = useState(0);
  const [loadError, flashLoadError] = useFlash<string>();
  const [message, flashMessage] = useFlash<{ ok: boolean; text: string }>();
  const [commit, saving] = useMutation<NextBoxEditorRouteSaveMutation>(graphql`
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

  const load = useCallback(
    (attempt: number) => {
      setLoading(true);
      fetchQuery<NextBoxEditorRouteQuery>(environment, query, { id }, { fetchPolicy: "network-only" })
        .toPromise()
        .then((data) => {
          const content = valueOf(data?.adminBusiness?.nextBox);
          setBusiness(data?.adminBusiness ?? null);
          setSaved(content);
          setDraft(content);
          setEditorKey((k) => k + 1);
          setLoading(false);
        })
        .catch((error: Error) => {
          // Spec §4: retried once after 300 ms.
          if (attempt === 0) return void setTimeout(() => load(1), NEXT_BOX_RETRY_MS);
          setLoading(false);
          flashLoadError(error.message ? `Failed to load content: ${error.message}` : "Failed to load content", NEXT_BOX_LOAD_ERROR_MS);
        });
    },
    [environment, id, flashLoadError, setDraft],
  );
  useEffect(() => load(0), [load]);

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
    <AdminPage title="Next Box" description={business?.name ?? ""}>
      {loadError && (
        <Text color="red.600" role="alert">
          {loadError}
        </Text>
      )}
      {loading ? (
        <LoadingState label="Loading content…" />
      ) : !business ? (
        // Not attached to this business (or no such business): the server refuses it, so no editor either.
        <EmptyMessage title="No businesses found" description="This business does not exist or you do not have access to it." />
      ) : (
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
      )}
    </AdminPage>
  );
}
