import { useState } from "react";
import { Button, Field, Input, Stack, Text } from "@chakra-ui/react";
import { graphql, useMutation } from "react-relay";
import { useNavigate } from "react-router";
import { resultError } from "../../features/admin/mutationResult.ts";
import { clearStoredSession } from "../../features/admin/session.ts";
import { AdminPage, Panel } from "../../ui/admin/AdminPage.tsx";
import type { ChangePasswordRouteMutation } from "./__generated__/ChangePasswordRouteMutation.graphql.ts";

/** /admin/change-password: the server ends every session, so a success logs out. */
export default function ChangePasswordRoute() {
  const navigate = useNavigate();
  const [currentPassword, setCurrent] = useState("");
  const [newPassword, setNew] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [commit, busy] = useMutation<ChangePasswordRouteMutation>(graphql`
    # Nothing to show comes back: success clears the session and returns to login.
    mutation ChangePasswordRouteMutation($input: ChangePasswordInput!) {
      changePassword(input: $input) {
        __typename
        ... on Error {
          message
        }
      }
    }
  `);
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!currentPassword || !newPassword) return setError("Please fill in both fields");
    setError(null);
    commit({
      variables: { input: { currentPassword, newPassword } },
      onCompleted: ({ changePassword }) => {
        const failure = resultError(changePassword, "Failed to change password");
        if (failure) return setError(failure);
        clearStoredSession();
        void navigate("/membership");
      },
      onError: (e) => setError(e.message || "Failed to change password"),
    });
  };
  return (
    <AdminPage title="Change password">
      <Panel>
        <form onSubmit={submit} noValidate>
<Stack gap="4" maxW="md">
          <Field.Root>
            <Field.Label>Current password</Field.Label>
            <Input type="password" value={currentPassword} onChange={(e) => setCurrent(e.target.value)} autoComplete="current-password" />
          </Field.Root>
          <Field.Root>
            <Field.Label>New password</Field.Label>
            <Input type="password" value={newPassword} onChange={(e) => setNew(e.target.value)} autoComplete="new-password" />
          </Field.Root>
          {error && (
            <Text color="red.600" role="alert">
              {error}
            </Text>
          )}
          <Button type="submit" colorPalette="orange" alignSelf="flex-start" loading={busy}>
            Change password
          </Button>
          <Text fontSize="sm" color="fg.muted">
            You will be signed out everywhere and log in again with the new password.
          </Text>
        </Stack>
        </form>
      </Panel>
    </AdminPage>
  );
}
