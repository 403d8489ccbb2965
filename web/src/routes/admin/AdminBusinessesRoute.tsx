import { startTransition, Suspense, useState } from "react";
import { Box, Button, Code, Stack, Table, Text } from "@chakra-ui/react";
import { graphql, useMutation, usePaginationFragment } from "react-relay";
import { BusinessLinks, BusinessMoreMenu } from "../../features/admin/businesses/BusinessActions.tsx";
import { CreateBusinessForm } from "../../features/admin/businesses/CreateBusinessForm.tsx";
import { ManageUsersDialog } from "../../features/admin/businesses/ManageUsersDialog.tsx";
import { ADMIN_PAGE_SIZE, LoadMore } from "../../features/admin/LoadMore.tsx";
import { resultError } from "../../features/admin/mutationResult.ts";
import { useRouteQuery } from "../../lib/routeQuery.ts";
import { AdminPage, EmptyLine, Panel } from "../../ui/admin/AdminPage.tsx";
import { LoadingState } from "../../ui/StatusStates.tsx";
import type { AdminBusinessesRouteQuery } from "./__generated__/AdminBusinessesRouteQuery.graphql.ts";
import type { AdminBusinessesRouteFragment_query$data, AdminBusinessesRouteFragment_query$key } from "./__generated__/AdminBusinessesRouteFragment_query.graphql.ts";
import type { AdminBusinessesRoutePaginationQuery } from "./__generated__/AdminBusinessesRoutePaginationQuery.graphql.ts";
import type { AdminBusinessesRouteDeleteMutation } from "./__generated__/AdminBusinessesRouteDeleteMutation.graphql.ts";
import { TableHead } from "../../ui/admin/TableHead.tsx";

type BusinessRow = AdminBusinessesRouteFragment_query$data["myBusinesses"]["edges"][number]["node"];

/** /admin/businesses (admins): create form and the list with row actions. */
export default function AdminBusinessesRoute() {
  const [fetchKey, setFetchKey] = useState(0);
  return (
    <AdminPage title="Businesses" description="Create partner businesses and manage who can edit them.">
      <CreateBusinessForm onCreated={() => startTransition(() => setFetchKey((n) => n + 1))} />
      <Suspense fallback={<LoadingState label="Loading businesses…" />}>
        <BusinessList fetchKey={fetchKey} />
      </Suspense>
    </AdminPage>
  );
}

function BusinessList({ fetchKey }: { fetchKey: number }) {
  const query = useRouteQuery<AdminBusinessesRouteQuery>(
    graphql`
      query AdminBusinessesRouteQuery {
        ...AdminBusinessesRouteFragment_query
      }
    `,
    {},
    { fetchKey: fetchKey || undefined, fetchPolicy: "store-and-network" },
  );
  const { data, loadNext, hasNext, isLoadingNext } = usePaginationFragment<AdminBusinessesRoutePaginationQuery, AdminBusinessesRouteFragment_query$key>(
    graphql`
      fragment AdminBusinessesRouteFragment_query on Query
      @refetchable(queryName: "AdminBusinessesRoutePaginationQuery")
      @argumentDefinitions(count: { type: "Int", defaultValue: 50 }, cursor: { type: "String" }) {
        myBusinesses(first: $count, after: $cursor) @connection(key: "AdminBusinessesRoute_myBusinesses") {
          __id
          edges {
            node {
              id
              databaseId
              name
              slug
              userCount
            }
          }
        }
      }
    `,
    query,
  );
  const [managing, setManaging] = useState<BusinessRow | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [commitDelete] = useMutation<AdminBusinessesRouteDeleteMutation>(graphql`
    # Only the deleted id, which removes the business's row from the list (@deleteEdge); nothing else shows it.
    mutation AdminBusinessesRouteDeleteMutation($input: DeleteBusinessInput!, $connections: [ID!]!) {
      deleteBusiness(input: $input) {
        __typename
        ... on DeleteBusinessSuccess {
          data {
            deletedBusinessId @deleteEdge(connections: $connections)
          }
        }
        ... on Error {
          message
        }
      }
    }
  `);
  const remove = (b: BusinessRow) => {
    if (!window.confirm(`Delete business "${b.name}"? This will remove its page and attachments.`)) return;
    setError(null);
    commitDelete({
      // The row leaves the loaded pages in place (a refetch would fold them back to the first page).
      variables: { input: { businessId: b.databaseId }, connections: [data.myBusinesses.__id] },
      onCompleted: ({ deleteBusiness }) => {
        const failure = resultError(deleteBusiness);
        if (failure) return setError(failure);
      },
      onError: (e) => setError(e.message),
    });
  };
  const businesses = data.myBusinesses.edges.map((e) => e.node);
  const actions = (b: BusinessRow) => (
    <BusinessLinks business={b}>
      <Button size="xs" variant="outline" onClick={() => setManaging(b)} aria-label={`Manage Users of ${b.name}`}>
        Manage Users
      </Button>
      <BusinessMoreMenu business={b} onDelete={() => remove(b)} />
    </BusinessLinks>
  );
  return (
    <Panel title="All businesses">
      {error && (
        <Text color="red.600" role="alert" mb="3">
          {error}
        </Text>
      )}
      {businesses.length === 0 ? (
        <EmptyLine>No businesses found</EmptyLine>
      ) : (
        <>
          <Stack hideFrom="md" gap="3">
            {businesses.map((b) => (
              <Box key={b.id} borderWidth="1px" rounded="lg" p="3" data-testid="business-card">
                <Text fontWeight="semibold">{b.name}</Text>
                <Text fontSize="sm" color="fg.muted" mb="2">
                  #{b.databaseId} · <Code>{b.slug}</Code> · {b.userCount ?? 0} {b.userCount === 1 ? "user" : "users"}
                </Text>
                {actions(b)}
              </Box>
            ))}
          </Stack>
          <Table.Root hideBelow="md" size="sm">
            <TableHead columns={["ID", "Name", "Subdomain", "Users", "Actions"]} />
            <Table.Body>
              {businesses.map((b) => (
                <Table.Row key={b.id} data-testid="business-row">
                  <Table.Cell>{b.databaseId}</Table.Cell>
                  <Table.Cell fontWeight="medium">{b.name}</Table.Cell>
                  <Table.Cell>
                    <Code>{b.slug}</Code>
                  </Table.Cell>
                  <Table.Cell>{b.userCount ?? 0}</Table.Cell>
                  <Table.Cell>{actions(b)}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </>
      )}
      <LoadMore shown={businesses.length} noun={["business", "businesses"]} hasNext={hasNext} isLoadingNext={isLoadingNext} onLoadMore={() => loadNext(ADMIN_PAGE_SIZE)} />
      {managing && (
        <ManageUsersDialog
          business={managing}
          onClose={() => setManaging(null)}
        />
      )}
    </Panel>
  );
}
