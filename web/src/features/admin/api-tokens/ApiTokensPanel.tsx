import { useState } from "react";
import { Stack, Table, Text } from "@chakra-ui/react";
import { graphql, useMutation, usePaginationFragment } from "react-relay";
import { EmptyLine, Panel } from "../../../ui/admin/AdminPage.tsx";
import { ConfirmDialog } from "../../../ui/admin/ConfirmDialog.tsx";
import { LoadMore } from "../LoadMore.tsx";
import { resultError } from "../mutationResult.ts";
import { ApiTokenRow, type TokenToRevoke } from "./ApiTokenRow.tsx";
import { CreateApiTokenForm } from "./CreateApiTokenForm.tsx";
import type { ApiTokensPanelFragment_business$key } from "./__generated__/ApiTokensPanelFragment_business.graphql.ts";
import type { ApiTokensPanelRevokeMutation } from "./__generated__/ApiTokensPanelRevokeMutation.graphql.ts";
import { TableHead } from "../../../ui/admin/TableHead.tsx";

const API_TOKENS_PAGE_SIZE = 20;

/** A business's partner API tokens: create (secret shown once), list newest first with paging, revoke. */
export function ApiTokensPanel({ business: key }: { business: ApiTokensPanelFragment_business$key }) {
  const { data, loadNext, hasNext, isLoadingNext } = usePaginationFragment(
    graphql`
      fragment ApiTokensPanelFragment_business on Business
      @refetchable(queryName: "ApiTokensPanelPaginationQuery")
      @argumentDefinitions(count: { type: "Int", defaultValue: 20 }, cursor: { type: "String" }) {
        databaseId
        name
        apiTokens(first: $count, after: $cursor) @connection(key: "ApiTokensPanel_apiTokens") {
          __id
          edges {
            node {
              id
              ...ApiTokenRowFragment_token
            }
          }
        }
      }
    `,
    key,
  );
  const [revoking, setRevoking] = useState<TokenToRevoke | null>(null);
  const connection = data.apiTokens;
  if (!connection) return null;
  const edges = connection.edges;

  return (
    <Stack gap="6">
      <Panel title="Create a token">
        <CreateApiTokenForm businessId={data.databaseId} businessName={data.name} connectionId={connection.__id} />
      </Panel>
      <Panel title="Tokens">
        {edges.length === 0 ? (
          <EmptyLine>No API tokens yet</EmptyLine>
        ) : (
          <Stack gap="3">
            <Stack hideFrom="md" gap="2">
              {edges.map(({ node }) => (
                <ApiTokenRow key={node.id} token={node} layout="card" onRevoke={setRevoking} />
              ))}
            </Stack>
            <Table.ScrollArea borderWidth="1px" rounded="md" hideBelow="md" tabIndex={0} role="region" aria-label="API tokens">
              <Table.Root size="sm">
                <TableHead columns={["Name", "Token", "Scopes", "Created", "Last used", "Status", ""]} />
                <Table.Body>
                  {edges.map(({ node }) => (
                    <ApiTokenRow key={node.id} token={node} layout="table" onRevoke={setRevoking} />
                  ))}
                </Table.Body>
              </Table.Root>
            </Table.ScrollArea>
            <LoadMore shown={edges.length} noun={["token", "tokens"]} hasNext={hasNext} isLoadingNext={isLoadingNext} onLoadMore={() => loadNext(API_TOKENS_PAGE_SIZE)} />
          </Stack>
        )}
      </Panel>
      {revoking && <RevokeDialog token={revoking} onClose={() => setRevoking(null)} />}
    </Stack>
  );
}

function RevokeDialog({ token, onClose }: { token: TokenToRevoke; onClose: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const [commit, busy] = useMutation<ApiTokensPanelRevokeMutation>(graphql`
    mutation ApiTokensPanelRevokeMutation($input: RevokeApiTokenInput!) {
      revokeApiToken(input: $input) {
        __typename
        ... on RevokeApiTokenSuccess {
          data {
            ...ApiTokenRowFragment_token
          }
        }
        ... on Error {
          message
        }
      }
    }
  `);
  const revoke = () => {
    setError(null);
    commit({
      variables: { input: { id: token.id } },
      onCompleted: ({ revokeApiToken }) => {
        const failure = resultError(revokeApiToken, "Failed to revoke the token");
        if (failure) return setError(failure);
        onClose();
      },
      onError: (e) => setError(e.message || "Failed to revoke the token"),
    });
  };
  return (
    <ConfirmDialog title={<>Revoke “{token.name}”?</>} cancelLabel="Keep token" confirmLabel="Revoke token" busy={busy} error={error} onConfirm={revoke} onClose={onClose}>
      <Text>Partners using this token lose access at their next request. This cannot be undone: to restore access, create a new token and send it to them.</Text>
    </ConfirmDialog>
  );
}
