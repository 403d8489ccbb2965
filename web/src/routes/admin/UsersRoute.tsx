import { startTransition, Suspense, useState } from "react";
import { Badge, Checkbox, Field, Input, SimpleGrid, Stack, Table } from "@chakra-ui/react";
import { graphql, useMutation, usePaginationFragment } from "react-relay";
import { formatDate } from "../../features/admin/format.ts";
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
              databaseId
              publicId
              username
              isAdmin
              createdAt
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
      <Table.ScrollArea tabIndex={0} role="region" aria-label="Users">
        <Table.Root size="sm">
          <TableHead columns={["ID", "Username", "Public ID", "Admin", "Created"]} />
          <Table.Body>
            {users.map((u) => (
              <Table.Row key={u.id} data-testid="user-row">
                <Table.Cell>{u.databaseId}</Table.Cell>
                <Table.Cell fontWeight="medium">{u.username}</Table.Cell>
                <Table.Cell fontFamily="mono" fontSize="xs">
                  {u.publicId}
                </Table.Cell>
                <Table.Cell>{u.isAdmin ? <Badge colorPalette="purple">Admin</Badge> : "No"}</Table.Cell>
                <Table.Cell whiteSpace="nowrap">{formatDate(u.createdAt)}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
      <LoadMore shown={users.length} noun={["user", "users"]} hasNext={hasNext} isLoadingNext={isLoadingNext} onLoadMore={() => loadNext(ADMIN_PAGE_SIZE)} />
    </Stack>
  );
}
