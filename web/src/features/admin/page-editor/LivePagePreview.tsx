import { useEffect, useState } from "react";
import { MODE_ORDER } from "@shared/fulfillment.ts";
import { RelayEnvironmentProvider, useLazyLoadQuery } from "react-relay";
import { createOperationDescriptor, Environment, getRequest, Network, RecordSource, Store } from "relay-runtime";
import BusinessRouteQueryNode, { type BusinessRouteQuery, type BusinessRouteQuery$rawResponse } from "../../../routes/__generated__/BusinessRouteQuery.graphql.ts";
import { BusinessPageBody } from "../../../routes/BusinessRoute.tsx";

/** A store of the preview's own holding the draft as the live page's query response; it never asks the server. */
function previewStore(response: BusinessRouteQuery$rawResponse) {
  const environment = new Environment({
    network: Network.create(() => Promise.reject(new Error("The page preview reads only its draft."))),
    store: new Store(new RecordSource()),
  });
  const variables = { slug: response.business?.slug ?? "" };
  const operation = createOperationDescriptor(getRequest(BusinessRouteQueryNode), variables);
  environment.commitPayload(operation, response);
  return { environment, operation, variables };
}

/**
 * The live business page (BusinessRoute's components, one layout) rendered from a draft's response
 * (previewPage.ts). A later response (the editor handing over a change) updates the same store, so what the
 * visitor picked (a plan, add-ons) stays picked.
 */
export function LivePagePreview({ response }: { response: BusinessRouteQuery$rawResponse }) {
  const [store] = useState(() => previewStore(response));
  useEffect(() => store.environment.commitPayload(store.operation, response), [store, response]);
  // Spec §2's fulfillment tabs are the live MembershipBuilder's Fulfillment choice: one option per enabled mode,
  // first selected by its defaultMode (rules.ts: pickup if enabled, else shipping, else delivery). The builder
  // reads that once, so a change of the enabled modes renders the page afresh: the selection follows the rule
  // again and never rests on a mode the draft turned off.
  const fulfillment = response.business?.page?.fulfillment;
  const modes = fulfillment ? MODE_ORDER.filter((m) => fulfillment[m]).join(" ") : "";
  return (
    <RelayEnvironmentProvider environment={store.environment}>
      <PreviewPage key={modes} variables={store.variables} />
    </RelayEnvironmentProvider>
  );
}

function PreviewPage({ variables }: { variables: BusinessRouteQuery["variables"] }) {
  const { business } = useLazyLoadQuery<BusinessRouteQuery>(BusinessRouteQueryNode, variables, { fetchPolicy: "store-only" });
  if (!business) return null;
  return <BusinessPageBody business={business} membership={null} base={`/b/${business.slug}`} loggedIn={false} preview />;
}
