import { startTransition, Suspense, useState } from "react";
import { Badge, Box, Button, Checkbox, Field, HStack, Input, SimpleGrid, Stack, Table, Text, useClipboard } from "@chakra-ui/react";
import { graphql, useMutation, usePaginationFragment } from "react-relay";
import { ROLE_LABELS } from "../../features/admin/businesses/roles.ts";
import { ADMIN_PAGE_SIZE, LoadMore } from "../../features/admin/LoadMore.tsx";
import { resultError } from "../../features/admin/mutationResult.ts";
import { useDebouncedValue } from "../../lib/useDebouncedValue.ts";
import { useRouteQuery } from "../../lib/routeQuery.ts";
import { AdminPage, EmptyLine, Panel } from "../../ui/admin/AdminPage.tsx";
import { LoadingState } from "../../ui/StatusStates.tsx";
import type { UsersRouteQuery } from "./__generated__/UsersRouteQuery.graphql.ts";
import type { UsersRouteFragment_query$key } from "./__generated__/UsersRouteFragment_query.graphql.ts";
import type { UsersRoutePaginationQuery } from "./__generated__/UsersRoutePaginationQuery.graphql.ts";
import type { UsersRouteCreateMutation } from "./__generated__/UsersRouteCreateMutation.graphql.ts";
import { SubmitRow } from "../../ui/admin/SubmitRow.tsx";
import { TableHead } from "../../ui/admin/TableHead.tsx";

/** /admin/users (admins): the user list and create form. */
export default function UsersRoute() {
  const [fetchKey, setFetchKey] = useState(0);
  const [search, setSearch] = useState("");
  const term = useDebouncedValue(search.trim());
  return (
    <AdminPage title="Users" description="Accounts of members, business staff and administrators.">
      <CreateUserForm onCreated={() => startTransition(() => setFetchKey((n) => n + 1))} />
      <Panel title="All users">
        <Input mb="4" placeholder="Search by username" aria-label="Search users" value={search} onChange={(e) => setSearch(e.target.value)} />
        <Suspense fallback={<LoadingState label="Loading users…" />}>
          <UserTable search={term} fetchKey={fetchKey} />
        </Suspense>
      </Panel>
    </AdminPage>
  );
}

function CreateUserForm({ onCreated }: { onCreated: () => void }) {
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [isAdmin, setIsAdmin] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [commit, busy] = useMutation<UsersRouteCreateMutation>(graphql`
    # Only the new username comes back (the status line): the table is fetched again, a new user's place in it being the server's order.
    mutation UsersRouteCreateMutation($input: CreateUserInput!) {
      createUser(input: $input) {
        __typename
        ... on CreateUserSuccess {
          data {
            username
          }
        }
        ... on Error {
          message
        }
      }
    }
  `);
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setStatus(null);
    if (!username.trim() || !password) return setError("Please provide username and password");
    setError(null);
    commit({
      variables: { input: { username: username.trim(), password, isAdmin } },
      onCompleted: ({ createUser }) => {
        const failure = resultError(createUser);
        if (failure) return setError(failure);
        setStatus(`Created ${username.trim()}`);
        setUsername("");
        setPassword("");
        setIsAdmin(false);
        onCreated();
      },
      onError: (e) => setError(e.message),
    });
  };
  return (
    <Panel title="Create user">
      <form onSubmit={submit} noValidate>
<Stack gap="4">
        <SimpleGrid columns={{ base: 1, md: 3 }} gap="4" alignItems="end">
          <Field.Root required>
            <Field.Label>Username</Field.Label>
            <Input value={username} onChange={(e) => setUsername(e.target.value)} autoComplete="off" />
          </Field.Root>
          <Field.Root required>
            <Field.Label>Password</Field.Label>
            <Input type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="new-password" />
          </Field.Root>
          <Checkbox.Root checked={isAdmin} onCheckedChange={(e) => setIsAdmin(!!e.checked)} pb="2">
            <Checkbox.HiddenInput />
            <Checkbox.Control />
            <Checkbox.Label>Administrator Access</Checkbox.Label>
          </Checkbox.Root>
        </SimpleGrid>
        <SubmitRow error={error} status={status} busy={busy} label="Create User" />
      </Stack>
      </form>
    </Panel>
  );
}

function UserTable({ search, fetchKey }: { search: string; fetchKey: number }) {
  const query = useRouteQuery<UsersRouteQuery>(
    graphql`
      query UsersRouteQuery($search: String) {
        ...UsersRouteFragment_query @arguments(search: $search)
      }
    `,
    { search: search || null },
    { fetchKey: fetchKey || undefined, fetchPolicy: "store-and-network" },
  );
  const { data, loadNext, hasNext, isLoadingNext } = usePaginationFragment<UsersRoutePaginationQuery, UsersRouteFragment_query$key>(
    graphql`
      fragment UsersRouteFragment_query on Query
      @refetchable(queryName: "UsersRoutePaginationQuery")
      @argumentDefinitions(count: { type: "Int", defaultValue: 50 }, cursor: { type: "String" }, search: { type: "String" }) {
        users(first: $count, after: $cursor, search: $search) @connection(key: "UsersRoute_users") {
          edges {
            node {
              id
              publicId
              username
              email
              isAdmin
              businessRoles {
                id
                role
                business {
                  name
                }
              }
            }
          }
        }
      }
    `,
    query,
  );
  const users = data.users.edges.map((e) => e.node);
  if (users.length === 0) return <EmptyLine>No users found</EmptyLine>;
  return (
    <Stack gap="3">
      {/* Phones: a card per user (the five columns would scroll sideways); wider screens: the table. */}
      <Stack hideFrom="md" gap="2">
        {users.map((u) => (
          <Box key={u.id} borderWidth="1px" rounded="lg" p="3" data-testid="user-card">
            <HStack justify="space-between" align="start" gap="2">
              <Stack gap="0.5" minW="0">
                <Text fontWeight="semibold">
                  {u.username} {u.isAdmin && <Badge colorPalette="purple">Administrator</Badge>}
                </Text>
                <Text fontSize="sm" color="fg.muted" truncate>
                  {u.email ?? "No email"}
                </Text>
              </Stack>
              <CopyIdButton publicId={u.publicId} username={u.username} />
            </HStack>
            {u.businessRoles.length > 0 && (
              <Box mt="2" fontSize="sm">
                <BusinessRoles roles={u.businessRoles} />
              </Box>
            )}
          </Box>
        ))}
      </Stack>
      <Table.ScrollArea hideBelow="md" tabIndex={0} role="region" aria-label="Users">
        <Table.Root size="sm">
          <TableHead columns={["Username", "Email", "Administrator", "Businesses", ""]} />
          <Table.Body>
            {users.map((u) => (
              <Table.Row key={u.id} data-testid="user-row">
                <Table.Cell fontWeight="medium">{u.username}</Table.Cell>
                <Table.Cell>{u.email ?? <Text as="span" color="fg.muted">—</Text>}</Table.Cell>
                <Table.Cell>{u.isAdmin ? <Badge colorPalette="purple">Yes</Badge> : "No"}</Table.Cell>
                <Table.Cell>
                  {u.businessRoles.length === 0 ? (
                    <Text as="span" color="fg.muted">
                      None
                    </Text>
                  ) : (
                    <BusinessRoles roles={u.businessRoles} />
                  )}
                </Table.Cell>
                <Table.Cell textAlign="end">
                  <CopyIdButton publicId={u.publicId} username={u.username} />
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
      <LoadMore shown={users.length} noun={["user", "users"]} hasNext={hasNext} isLoadingNext={isLoadingNext} onLoadMore={() => loadNext(ADMIN_PAGE_SIZE)} />
    </Stack>
  );
}

function BusinessRoles({ roles }: { roles: readonly { id: string; role: string; business: { name: string } }[] }) {
  return (
    <Stack as="ul" gap="1" listStyle="none">
      {roles.map((link) => (
        <li key={link.id}>
          {link.business.name}{" "}
          <Text as="span" color="fg.muted">
            · {ROLE_LABELS[link.role] ?? link.role}
          </Text>
        </li>
      ))}
    </Stack>
  );
}

/** The user's public id (what support and the REST API name a user by), copied rather than shown: a UUID per row is noise. */
function CopyIdButton({ publicId, username }: { publicId: string; username: string }) {
  const clipboard = useClipboard({ value: publicId, timeout: 2000 });
  return (
    <Button size="xs" variant="outline" minW="20" title={publicId} aria-label={`Copy id of ${username}`} onClick={() => clipboard.copy()}>
      {clipboard.copied ? "Copied" : "Copy id"}
    </Button>
  );
}
