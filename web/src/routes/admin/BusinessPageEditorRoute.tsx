import { useCallback, useState } from "react";
import { graphql, useMutation } from "react-relay";
import { useParams } from "react-router";
import { addonInputs, contentInput, pageDraftFrom, planInputs, type PageDraft } from "../../features/admin/page-editor/draft.ts";
import { PageEditor, type SavedRefs } from "../../features/admin/page-editor/PageEditor.tsx";
import { saveFailure } from "../../features/admin/page-editor/saveFailure.ts";
import { useRouteQuery } from "../../lib/routeQuery.ts";
import { AdminPage } from "../../ui/admin/AdminPage.tsx";
import { EmptyMessage } from "../../ui/StatusStates.tsx";
import type { BusinessPageEditorRouteQuery } from "./__generated__/BusinessPageEditorRouteQuery.graphql.ts";
import type { BusinessPageEditorRouteSaveMutation } from "./__generated__/BusinessPageEditorRouteSaveMutation.graphql.ts";

/** /admin/business/:id/page: the business page editor (page content with its plans and add-ons). */
export default function BusinessPageEditorRoute() {
  const id = Number(useParams().id);
  const data = useRouteQuery<BusinessPageEditorRouteQuery>(
    graphql`
      query BusinessPageEditorRouteQuery($id: Int!) {
        adminBusiness(id: $id) {
          name
          slug
          viewerCanEdit
          page {
            ...draft_page
          }
          plans(first: 50, includeUnlisted: true) {
            edges {
              node {
                ...draft_plan
              }
            }
          }
          addons(first: 50, includeUnlisted: true) {
            edges {
              node {
                ...draft_addon
              }
            }
          }
        }
      }
    `,
    { id },
    { fetchPolicy: "network-only" },
  );
  const [commit] = useMutation<BusinessPageEditorRouteSaveMutation>(graphql`
    mutation BusinessPageEditorRouteSaveMutation($input: SaveBusinessPageInput!) {
      saveBusinessPage(input: $input) {
        __typename
        ... on SaveBusinessPageSuccess {
          # The saved page in the editor's shape; the plans' and add-ons' refs the editor keys new rows by (with their
          # full fragments, 50 of each a level deeper than the route's query, the save was refused by the API's limits).
          data {
            page {
              ...draft_page
            }
            plans(first: 50, includeUnlisted: true) {
              edges {
                node {
                  ref
                }
              }
            }
            addons(first: 50, includeUnlisted: true) {
              edges {
                node {
                  ref
                }
              }
            }
          }
        }
        ...saveFailure_error @alias(as: "refusal")
      }
    }
  `);
  const business = data.adminBusiness;
  // Read once: the editor owns the draft from here on, and saves update the store under it.
  const [initial] = useState(() => (business ? pageDraftFrom(business.page ?? null, business.plans.edges.map((e) => e.node), business.addons.edges.map((e) => e.node)) : null));
  const save = useCallback(
    (draft: PageDraft) =>
      new Promise<SavedRefs>((resolve, reject) =>
        commit({
          variables: { input: { businessId: id, content: contentInput(draft), plans: planInputs(draft), addons: addonInputs(draft) } },
          onCompleted: ({ saveBusinessPage: result }) => {
            if (result.__typename !== "SaveBusinessPageSuccess" || !result.data) return reject(saveFailure(result.refusal));
            resolve({ itemRefs: result.data.plans.edges.map((e) => e.node.ref), addonRefs: result.data.addons.edges.map((e) => e.node.ref) });
          },
          onError: reject,
        }),
      ),
    [commit, id],
  );
  if (!business || !initial) return <EmptyMessage title="No businesses found" description="This business does not exist or you do not have access to it." />;
  return (
    <AdminPage title="Edit Page" description={`${business.name} · ${business.slug}`}>
      {!business.viewerCanEdit && (
        <EmptyMessage title="Read only" description="Your role can view this page but not change it; saving will be refused." />
      )}
      <PageEditor initial={initial} tenant={business.slug} businessId={id} save={save} />
    </AdminPage>
  );
}
