import { useCallback, useState } from "react";
import { graphql, useMutation } from "react-relay";
import { contentInput, pageDraftFrom, type PageDraft } from "../../features/admin/page-editor/draft.ts";
import { PageEditor, type SavedRefs } from "../../features/admin/page-editor/PageEditor.tsx";
import { saveFailure } from "../../features/admin/page-editor/saveFailure.ts";
import { readItem, STORAGE_KEYS } from "../../lib/storage.ts";
import { useRouteQuery } from "../../lib/routeQuery.ts";
import { AdminPage } from "../../ui/admin/AdminPage.tsx";
import type { HomePageEditorRouteQuery } from "./__generated__/HomePageEditorRouteQuery.graphql.ts";
import type { HomePageEditorRouteSaveMutation } from "./__generated__/HomePageEditorRouteSaveMutation.graphql.ts";

/** /admin/page (admins): the main home page content. The home page has no catalogue of its own. */
export default function HomePageEditorRoute() {
  const data = useRouteQuery<HomePageEditorRouteQuery>(
    graphql`
      query HomePageEditorRouteQuery {
        homePage {
          ...draft_page
        }
      }
    `,
    {},
    { fetchPolicy: "network-only" },
  );
  const [commit] = useMutation<HomePageEditorRouteSaveMutation>(graphql`
    # Nothing to show comes back: the editor keeps the saved draft, and the public home page loads its own query.
    mutation HomePageEditorRouteSaveMutation($input: SaveHomePageInput!) {
      saveHomePage(input: $input) {
        __typename
        ... on SaveHomePageSuccess {
          data {
            updatedAt
          }
        }
        ...saveFailure_error @alias(as: "refusal")
      }
    }
  `);
  const [initial] = useState(() => pageDraftFrom(data.homePage));
  const save = useCallback(
    (draft: PageDraft) =>
      new Promise<SavedRefs>((resolve, reject) =>
        commit({
          variables: { input: { content: contentInput(draft) } },
          onCompleted: ({ saveHomePage: result }) => (result.__typename === "SaveHomePageSuccess" ? resolve({}) : reject(saveFailure(result.refusal))),
          onError: reject,
        }),
      ),
    [commit],
  );
  // Spec §2: the preview tenant comes from storage, falling back to 'preview'.
  const tenant = readItem(STORAGE_KEYS.currentTenant) || "preview";
  return (
    <AdminPage title="Home Page" description="Content of the main home page.">
      <PageEditor initial={initial} tenant={tenant} save={save} />
    </AdminPage>
  );
}
