import { Box, Button, Field, Heading, Input, Stack, Text } from "@chakra-ui/react";
import { useState } from "react";
import { fetchQuery, graphql, useRelayEnvironment } from "react-relay";
import type { LoginFormMutation } from "./__generated__/LoginFormMutation.graphql.ts";
import type { LoginFormBusinessesQuery } from "./__generated__/LoginFormBusinessesQuery.graphql.ts";
import { commitAsync } from "../../lib/mutations.ts";
import { saveSessionFrom } from "../../lib/sessionPayload.ts";
import { FormError } from "../../ui/FormError.tsx";

// The new session (token, tenant, user) goes to storage, not to a screen: the pages load their data once signed in.
const LoginMutation = graphql`
  mutation LoginFormMutation($input: LoginInput!) {
    login(input: $input) {
      __typename
      ... on LoginSuccess {
        data {
          ...sessionPayload_auth
        }
      }
      ... on Error {
        message
        reason
      }
    }
  }
`;

// Where an owner lands after signing in: asked once in the submit handler, with the new session's token, to pick
// the destination (no screen renders it, so it is not kept).
const MyBusinessesQuery = graphql`
  query LoginFormBusinessesQuery {
    myBusinesses(first: 1) {
      edges {
        node {
          databaseId
        }
      }
    }
  }
`;

/** Spec §2 member login: the button stays disabled until both fields are filled. */
export function LoginForm({ onLoggedIn, businessName }: { onLoggedIn: (dest: { admin: boolean; ownerHome: string | null }) => void; businessName?: string | null }) {
  const environment = useRelayEnvironment();
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (!username || !password) return;
    setBusy(true);
    setError(null);
    try {
      const res = await commitAsync<LoginFormMutation>(environment, LoginMutation, { input: { username: username.trim(), password } });
      const r = res.login;
      if (!r.data) {
        setError(("message" in r && (r.message || r.reason)) || "Login failed");
        return;
      }
      const { isAdmin } = saveSessionFrom(r.data);
      let ownerHome: string | null = null;
      if (!isAdmin) {
        const mine = await fetchQuery<LoginFormBusinessesQuery>(environment, MyBusinessesQuery, {}, { fetchPolicy: "network-only" }).toPromise().catch(() => null);
        const first = mine?.myBusinesses.edges[0]?.node;
        if (first) ownerHome = `/admin/business/${first.databaseId}`;
      }
      onLoggedIn({ admin: isAdmin, ownerHome });
    } catch (err) {
      setError((err as Error).message || "Login failed");
    } finally {
      setBusy(false);
    }
  }

  return (
    <Box maxW="md" mx="auto" p={{ base: "6", md: "8" }} rounded="2xl" bg="bg" borderWidth="1px" shadow="sm">
      <Heading as="h1" size="2xl" mb="1">
        Member login
      </Heading>
      <Text color="fg.muted" mb="6">
        {businessName ? `Sign in to manage your ${businessName} membership.` : "Sign in to manage your memberships."}
      </Text>
      <form onSubmit={submit} noValidate>
        <Stack gap="4">
          <Field.Root required>
            <Field.Label>Username</Field.Label>
            <Input autoComplete="username" value={username} onChange={(e) => setUsername(e.target.value)} />
          </Field.Root>
          <Field.Root required>
            <Field.Label>Password</Field.Label>
            <Input type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
          </Field.Root>
          <FormError>{error}</FormError>
          <Button type="submit" colorPalette="orange" size="lg" disabled={!username || !password} loading={busy}>
            Log In
          </Button>
        </Stack>
      </form>
    </Box>
  );
}
