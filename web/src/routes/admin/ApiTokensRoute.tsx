import { Code, Text } from "@chakra-ui/react";
import { graphql } from "react-relay";
import { useParams } from "react-router";
import { ApiTokensPanel } from "../../features/admin/api-tokens/ApiTokensPanel.tsx";
import { useRouteQuery } from "../../lib/routeQuery.ts";
import { AdminPage } from "../../ui/admin/AdminPage.tsx";
import { EmptyMessage } from "../../ui/StatusStates.tsx";
import type { ApiTokensRouteQuery } from "./__generated__/ApiTokensRouteQuery.graphql.ts";

/** /admin/business/:id/api-tokens: the business's partner API tokens (owners and administrators). */
export default function ApiTokensRoute() {
  const id = Number(useParams().id);
  const data = useRouteQuery<ApiTokensRouteQuery>(
    graphql`
      query ApiTokensRouteQuery($id: Int!) {
        adminBusiness(id: $id) {
          name
          viewerCanManageApiTokens
          ...ApiTokensPanelFragment_business
        }
      }
    `,
    { id },
    { fetchPolicy: "store-and-network" },
  );
  const business = data.adminBusiness;
  if (!business) return <EmptyMessage title="No businesses found" description="This business does not exist or you do not have access to it." />;
  if (!business.viewerCanManageApiTokens) {
    return <EmptyMessage title="Owners only" description="Only the business's owner and administrators can manage its API tokens." />;
  }
  return (
    <AdminPage
      title="API Tokens"
      description={
        <Text as="span">
          {business.name} · read-only access for partners to this business&apos;s memberships, orders or fulfilment (the scopes chosen per token), sent as <Code>Authorization: Bearer mpt_…</Code> to <Code>/graphql</Code>.
        </Text>
      }
    >
      <ApiTokensPanel business={business} />
    </AdminPage>
  );
}
