import { startTransition, Suspense, useState } from "react";
import { Box, Button, Code, Stack, Table, Text } from "@chakra-ui/react";
import { graphql, useLazyLoadQuery, useMutation } from "react-relay";
import { BusinessLinks } from "../../features/admin/businesses/BusinessActions.tsx";
import { CreateBusinessForm } from "../../features/admin/businesses/CreateBusinessForm.tsx";
import { ManageUsersDialog } from "../../features/admin/businesses/ManageUsersDialog.tsx";
import { resultError } from "../../features/admin/mutationResult.ts";
import { AdminPage, EmptyLine, Panel } from "../../ui/admin/AdminPage.tsx";
import { LoadingState } from "../../ui/StatusStates.tsx";
import type { AdminBusinessesRouteQuery, AdminBusinessesRouteQuery$data } from "./__generated__/AdminBusinessesRouteQuery.graphql.ts";
import type { AdminBusinessesRouteDeleteMutation } from "./__generated__/AdminBusinessesRouteDeleteMutation.graphql.ts";

type BusinessRow = AdminBusinessesRouteQuery$data["myBusinesses"]["edges"][number]["node"];

/** /admin/businesses (admins): create form and the list with row actions. */
export default function AdminBusinessesRoute() {
  const [fetchKey, setFetchKey] = useState(0);
  return (
    <AdminPage title="Businesses" description="Create partner businesses and manage who can edit them.">
      <CreateBusinessForm onCreated={() => startTransition(() => setFetchKey((n) => n + 1))} />
      <Suspense fallback={<LoadingState label="Loading businesses…" />}>
        <BusinessList fetchKey={fetchKey} onChanged={() => startTransition(() => setFetchKey((n) => n + 1))} />
      </Suspense>
    </AdminPage>
  );
}

function BusinessList({ fetchKey, onChanged }: { fetchKey: number; onChanged: () => void }) {
  const data = useLazyLoadQuery<AdminBusinessesRouteQuery>(
    graphql`
      query AdminBusinessesRouteQuery {
        myBusinesses(first: 500) {
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
    {},
    { fetchKey, fetchPolicy: "store-and-network" },
  );
  const [managing, setManaging] = useState<BusinessRow | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [commitDelete] = useMutation<AdminBusinessesRouteDeleteMutation>(graphql`
    mutation AdminBusinessesRouteDeleteMutation($input: DeleteBusinessInput!) {
      deleteBusiness(input: $input) {
        __typename
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
      variables: { input: { businessId: b.databaseId } },
      onCompleted: ({ deleteBusiness }) => {
        const failure = resultError(deleteBusiness);
        if (failure) return setError(failure);
        onChanged();
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
      <Button size="xs" variant="outline" colorPalette="red" onClick={() => remove(b)} aria-label={`Delete ${b.name}`}>
        Delete
      </Button>
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
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>ID</Table.ColumnHeader>
                <Table.ColumnHeader>Name</Table.ColumnHeader>
                <Table.ColumnHeader>Subdomain</Table.ColumnHeader>
                <Table.ColumnHeader>Users</Table.ColumnHeader>
                <Table.ColumnHeader>Actions</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {businesses.map((b) => (
                <Table.Row key={b.id}>
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
      {managing && (
        <ManageUsersDialog
          business={managing}
          onClose={() => {
            setManaging(null);
            onChanged();
          }}
        />
      )}
    </Panel>
  );
}
