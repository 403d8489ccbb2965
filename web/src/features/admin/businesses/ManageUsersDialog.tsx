import { startTransition, Suspense, useState } from "react";
import { Button, Dialog, HStack, Stack, Table, Text } from "@chakra-ui/react";
import { graphql, useLazyLoadQuery, useMutation } from "react-relay";
import { AdminDialog } from "../../../ui/admin/AdminDialog.tsx";
import { FormError } from "../../../ui/FormError.tsx";
import { EmptyLine } from "../../../ui/admin/AdminPage.tsx";
import { LoadingState } from "../../../ui/StatusStates.tsx";
import { resultError } from "../mutationResult.ts";
import { ATTACH_STATUS_MS } from "../timings.ts";
import { useFlash } from "../useFlash.ts";
import { RoleSelect } from "./CreateBusinessForm.tsx";
import { UserSearch, type FoundUser } from "./UserSearch.tsx";
import { ROLE_LABELS, type BusinessRole } from "./roles.ts";
import type { ManageUsersDialogQuery } from "./__generated__/ManageUsersDialogQuery.graphql.ts";
import type { ManageUsersDialogAttachMutation } from "./__generated__/ManageUsersDialogAttachMutation.graphql.ts";
import type { ManageUsersDialogDetachMutation } from "./__generated__/ManageUsersDialogDetachMutation.graphql.ts";
import { TableHead } from "../../../ui/admin/TableHead.tsx";

/** Manage Users of one business: attached users, search and attach (editor/viewer), remove. */
export function ManageUsersDialog({ business, onClose }: { business: { databaseId: number; name: string }; onClose: () => void }) {
  return (
    <AdminDialog onClose={onClose} size={{ base: "full", md: "lg" }}>
      <Dialog.Header>
        <Dialog.Title>Manage Users · {business.name}</Dialog.Title>
      </Dialog.Header>
      <Dialog.Body>
        <Suspense fallback={<LoadingState label="Loading users…" />}>
          <ManageUsers businessId={business.databaseId} />
        </Suspense>
      </Dialog.Body>
      <Dialog.Footer>
        <Button variant="outline" onClick={onClose}>
          Close
        </Button>
      </Dialog.Footer>
    </AdminDialog>
  );
}

function ManageUsers({ businessId }: { businessId: number }) {
  const [fetchKey, setFetchKey] = useState(0);
  const data = useLazyLoadQuery<ManageUsersDialogQuery>(
    graphql`
      query ManageUsersDialogQuery($id: Int!) {
        adminBusiness(id: $id) {
          id
          # Refreshed after each attach and remove: the businesses list shows the new count from the store.
          userCount
          users(first: 100) {
            edges {
              node {
                id
                role
                user {
                  id
                  username
                }
              }
            }
          }
        }
      }
    `,
    { id: businessId },
    { fetchKey, fetchPolicy: "network-only" },
  );
  const [picked, setPicked] = useState<FoundUser | null>(null);
  const [role, setRole] = useState<BusinessRole>("EDITOR");
  const [status, flashStatus] = useFlash<string>();
  const [error, setError] = useState<string | null>(null);
  // Attach and remove return nothing to show: the dialog's query is fetched again after either (the attached users
  // and the business's user count change together, and an attached BusinessUser names no business to update).
  const [attach, attaching] = useMutation<ManageUsersDialogAttachMutation>(graphql`
    mutation ManageUsersDialogAttachMutation($input: AttachBusinessUserInput!) {
      attachBusinessUser(input: $input) {
        __typename
        ... on Error {
          message
        }
      }
    }
  `);
  const [detach] = useMutation<ManageUsersDialogDetachMutation>(graphql`
    mutation ManageUsersDialogDetachMutation($input: DetachBusinessUserInput!) {
      detachBusinessUser(input: $input) {
        __typename
        ... on Error {
          message
        }
      }
    }
  `);
  const users = data.adminBusiness?.users?.edges.map((e) => e.node) ?? [];
  const userCount = data.adminBusiness?.userCount ?? users.length;

  const onAttach = () => {
    if (!picked) return;
    setError(null);
    attach({
      variables: { input: { businessId, userId: Number(picked.id), role } },
      onCompleted: ({ attachBusinessUser }) => {
        const failure = resultError(attachBusinessUser);
        if (failure) return setError(failure);
        setPicked(null);
        flashStatus("User attached", ATTACH_STATUS_MS);
        startTransition(() => setFetchKey((n) => n + 1));
      },
      onError: (e) => setError(e.message),
    });
  };
  const onRemove = (userId: string) => {
    setError(null);
    detach({
      variables: { input: { businessId, userId: Number(userId) } },
      onCompleted: ({ detachBusinessUser }) => {
        const failure = resultError(detachBusinessUser);
        if (failure) return setError(failure);
        flashStatus("User removed", ATTACH_STATUS_MS);
        startTransition(() => setFetchKey((n) => n + 1));
      },
      onError: (e) => setError(e.message),
    });
  };

  return (
    <Stack gap="5">
      {userCount === 0 ? (
        <EmptyLine>No users attached</EmptyLine>
      ) : (
        <Table.Root size="sm">
          <TableHead columns={["ID", "Username", "Role", ""]} />
          <Table.Body>
            {users.map((u) => (
              <Table.Row key={u.id}>
                <Table.Cell>{u.user.id}</Table.Cell>
                <Table.Cell>{u.user.username}</Table.Cell>
                <Table.Cell>{ROLE_LABELS[u.role]}</Table.Cell>
                <Table.Cell textAlign="end">
                  <Button size="xs" variant="outline" colorPalette="red" onClick={() => onRemove(u.user.id)}>
                    Remove
                  </Button>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
      <Stack gap="2">
        <Text fontWeight="medium">Attach a user</Text>
        <UserSearch businessId={businessId} selected={picked} onSelect={setPicked} exclude={users.map((u) => u.user.id)} />
        <HStack>
          <RoleSelect label="Role" value={role} roles={["EDITOR", "VIEWER"]} onChange={setRole} />
          <Button colorPalette="orange" disabled={!picked} loading={attaching} onClick={onAttach}>
            Attach
          </Button>
        </HStack>
      </Stack>
      <Text aria-live="polite" color="green.700" minH="6">
        {status}
      </Text>
      <FormError>{error}</FormError>
    </Stack>
  );
}
